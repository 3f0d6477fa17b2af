#include "jit/isa/suggest.hpp"

#include <algorithm>
#include <cctype>

#include "jit/isa/isa.hpp"

namespace cdnajit::isa {
namespace {

std::string lower(std::string_view s) {
  std::string r(s);
  for (char& c : r) c = char(std::tolower(static_cast<unsigned char>(c)));
  return r;
}

bool strip_suffix(std::string& s, std::string_view suffix) {
  if (s.size() <= suffix.size() || s.compare(s.size() - suffix.size(), suffix.size(), suffix) != 0) return false;
  s.resize(s.size() - suffix.size());
  return true;
}

// The name with encoding suffixes and the gfx908 `_1k` suffix removed, and every
// underscore dropped: two spellings of one instruction compare equal.
std::string squashed(std::string_view name) {
  std::string s = lower(name);
  for (bool again = true; again;) {
    again = false;
    for (std::string_view suf : {"_e32", "_e64", "_vop3", "_sdwa", "_dpp", "_1k"}) again |= strip_suffix(s, suf);
  }
  s.erase(std::remove(s.begin(), s.end(), '_'), s.end());
  return s;
}

size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diag = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diag = up;
    }
  }
  return row[b.size()];
}

}  // namespace

std::vector<std::string_view> near_misses(std::string_view name, size_t max) {
  std::vector<std::string_view> out;
  const std::string want = squashed(name);
  for (const InstrInfo& i : table())
    if (squashed(i.mnemonic) == want && out.size() < max) out.push_back(i.mnemonic);
  if (!out.empty()) return out;
  // Nearest by edit distance; "near" = at most a quarter of the name (and at least 2) edits.
  const std::string n = lower(name);
  const size_t limit = std::max<size_t>(2, n.size() / 4);
  std::vector<std::pair<size_t, std::string_view>> scored;
  for (const InstrInfo& i : table()) {
    size_t len_gap = i.mnemonic.size() > n.size() ? i.mnemonic.size() - n.size() : n.size() - i.mnemonic.size();
    if (len_gap > limit) continue;
    size_t d = edit_distance(n, i.mnemonic);
    if (d <= limit) scored.emplace_back(d, i.mnemonic);
  }
  std::stable_sort(scored.begin(), scored.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  for (size_t i = 0; i < scored.size() && i < max; ++i) out.push_back(scored[i].second);
  return out;
}

std::string did_you_mean(std::string_view name) {
  std::vector<std::string_view> near = near_misses(name);
  if (near.empty()) return "";
  std::string s = "; did you mean ";
  for (size_t i = 0; i < near.size(); ++i) s += (i ? i + 1 == near.size() ? " or '" : ", '" : "'") + std::string(near[i]) + "'";
  return s + "?";
}

}  // namespace cdnajit::isa
