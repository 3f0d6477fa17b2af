// The instruction table against LLVM 22 as the oracle: every mnemonic LLVM's
// disassembler produces from the encoding space of gfx942 / gfx950 and its
// assembler accepts again must be a table row on that arch, unless it is on
// the documented unsupported list (llvm_coverage_unsupported.txt) or on the
// "not yet" list (llvm_coverage_not_yet.txt), which may only shrink: an entry
// that is now covered fails the test until it is deleted. Likewise every LLVM mnemonic
// must have simulator semantics unless it is on the unsupported list or on
// llvm_coverage_sim_not_yet.txt (which may only shrink too). Every table row must
// be among LLVM's mnemonics for each arch it claims. Prints coverage numbers
// (table vs LLVM, simulator vs LLVM). Set CDNAJIT_COVERAGE_DUMP=dir to write the
// lists (LLVM, missing, simulator-missing) per arch into dir.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "jit/isa/isa.hpp"
#include "runtime/sim/coverage.hpp"
#include "tests/isa/llvm_sweep.hpp"

using namespace cdnajit;
using namespace cdnajit::isa;

namespace {

// One list entry: an exact mnemonic, or a prefix when it ends in '*'; an
// optional arch restriction "@gfx950"; '#' starts a comment.
struct Pattern {
  std::string text;
  bool prefix = false;
  int arch_only = -1;  // -1: both
  int line = 0;
  std::string reason;  // the '#' comment lines right above the entry (or above its group of entries)
  bool matches(const std::string& m, Arch a) const {
    if (arch_only >= 0 && arch_only != int(a)) return false;
    return prefix ? m.compare(0, text.size(), text) == 0 : m == text;
  }
};

std::vector<Pattern> read_patterns(const std::string& file) {
  std::ifstream in(std::string(CDNAJIT_ISA_TEST_DIR) + "/" + file);
  REQUIRE(in.good());
  std::vector<Pattern> out;
  std::string line, comment;
  int n = 0;
  while (std::getline(in, line)) {
    ++n;
    const size_t hash = line.find('#');
    const bool entry = line.find_first_not_of(" \t") < hash;
    if (!entry && hash != std::string::npos) {
      comment += line.substr(hash + 1);  // a comment line: the reason of the entries below it
      continue;
    }
    if (!entry) {
      comment.clear();  // a blank line ends a group
      continue;
    }
    line = line.substr(0, hash);
    line.erase(std::remove_if(line.begin(), line.end(), [](char c) { return c == ' ' || c == '\t'; }), line.end());
    Pattern p;
    p.line = n;
    p.reason = comment;
    if (auto at = line.find('@'); at != std::string::npos) {
      auto arch = parse_arch(line.substr(at + 1));
      REQUIRE(arch.has_value());
      p.arch_only = int(*arch);
      line.resize(at);
    }
    if (!line.empty() && line.back() == '*') {
      p.prefix = true;
      line.pop_back();
    }
    p.text = line;
    out.push_back(p);
  }
  return out;
}

const Pattern* match(const std::vector<Pattern>& ps, const std::string& m, Arch a) {
  for (const auto& p : ps)
    if (p.matches(m, a)) return &p;
  return nullptr;
}

void dump(const std::string& name, const std::vector<std::string>& items) {
  const char* dir = std::getenv("CDNAJIT_COVERAGE_DUMP");
  if (!dir || !*dir) return;
  std::ofstream out(std::string(dir) + "/" + name);
  for (const auto& s : items) out << s << "\n";
}

double pct(size_t a, size_t b) { return b ? 100.0 * double(a) / double(b) : 0.0; }

}  // namespace

TEST_CASE("the table covers every instruction LLVM 22 accepts, except the documented lists", "[isa][llvm][coverage]") {
  const auto unsupported = read_patterns("llvm_coverage_unsupported.txt");
  const auto not_yet = read_patterns("llvm_coverage_not_yet.txt");
  const auto sim_not_yet = read_patterns("llvm_coverage_sim_not_yet.txt");
  std::map<int, int> sim_not_yet_used;  // line -> mnemonics without semantics it excuses
  std::vector<std::string> sim_list = sim::executable_mnemonics();
  std::set<std::string> sim_ops(sim_list.begin(), sim_list.end());
  std::map<int, int> not_yet_used;  // line -> matches on some arch

  for (Arch arch : {Arch::gfx942, Arch::gfx950}) {
    std::string an(arch_name(arch));
    test::SweepResult sw = test::sweep_llvm_mnemonics(arch);
    INFO(an);
    // The sweep must see the families everything else rests on; a broken sweep
    // (e.g. a different disassembler build) must not pass as "nothing missing".
    REQUIRE(sw.accepted.size() > 1000);
    for (const char* m : {"s_mov_b32", "v_add_f32", "v_fma_f32", "ds_read_b32", "global_load_dword",
                          "buffer_load_dword", "s_load_dword", "v_pk_fma_f32", "v_cmp_eq_f32", "s_waitcnt"})
      REQUIRE(sw.accepted.count(m));

    std::vector<std::string> llvm, missing, missing_sim, not_in_llvm;
    size_t in_table = 0, in_sim = 0, excused = 0, pending = 0;
    for (const auto& [m, sample] : sw.accepted) {
      llvm.push_back(m + "\t" + sample);
      const InstrInfo* e = find(m);
      bool row = e && e->on(arch);
      in_table += row;
      if (sim_ops.count(m)) {
        ++in_sim;
        if (const Pattern* p = match(sim_not_yet, m, arch); p && !p->prefix)
          FAIL_CHECK(m << " has simulator semantics now: delete it from llvm_coverage_sim_not_yet.txt (line " << p->line << ")");
      } else if (!match(unsupported, m, arch)) {
        missing_sim.push_back(m + "\t" + sample);
        if (const Pattern* p = match(sim_not_yet, m, arch)) sim_not_yet_used[p->line]++;
        else
          FAIL_CHECK("LLVM accepts '" << sample << "' on " << an << " but the simulator has no semantics for " << m
                                      << " (add them, or list it in llvm_coverage_sim_not_yet.txt / llvm_coverage_unsupported.txt)");
      }
      if (row) {
        if (const Pattern* p = match(not_yet, m, arch); p && !p->prefix)
          FAIL_CHECK(m << " is a table row now: delete it from llvm_coverage_not_yet.txt (line " << p->line << ")");
        continue;
      }
      if (match(unsupported, m, arch)) { ++excused; continue; }
      if (const Pattern* p = match(not_yet, m, arch)) { ++pending; not_yet_used[p->line]++; continue; }
      missing.push_back(m + "\t" + sample);
      FAIL_CHECK("LLVM accepts '" << sample << "' on " << an
                                  << " but the table has no row for " << m
                                  << " (add the row, or list it in llvm_coverage_unsupported.txt with the reason)");
    }
    for (const InstrInfo& e : table()) {
      if (!e.on(arch) || sw.accepted.count(std::string(e.mnemonic))) continue;
      not_in_llvm.push_back(std::string(e.mnemonic));
      FAIL_CHECK("table row " << e.mnemonic << " claims " << an << " but LLVM's sweep of " << an << " never produces it");
    }
    size_t n = sw.accepted.size();
    std::printf(
        "%s: LLVM 22 accepts %zu mnemonics (%zu words tried, %zu decoded, %zu decoder crashes skipped, %zu disassembled "
        "but not re-assembled)\n"
        "%s: table rows on this arch %zu of %zu (%.1f%%); documented unsupported %zu; not yet %zu; missing %zu\n"
        "%s: simulator executes %zu of %zu (%.1f%%)\n",
        an.c_str(), n, sw.candidates, sw.decoded, sw.crashed, sw.disassembler_only.size(), an.c_str(), in_table, n,
        pct(in_table, n), excused, pending, missing.size(), an.c_str(), in_sim, n, pct(in_sim, n));
    dump(an + "_llvm.txt", llvm);
    dump(an + "_missing.txt", missing);
    dump(an + "_sim_missing.txt", missing_sim);
    dump(an + "_rows_not_in_llvm.txt", not_in_llvm);
    std::vector<std::string> dis_only;
    for (const auto& [m, sample] : sw.disassembler_only) dis_only.push_back(m + "\t" + sample);
    dump(an + "_disassembler_only.txt", dis_only);
  }
  size_t sim_outside_table = 0;
  for (const std::string& m : sim_list) sim_outside_table += find(m) == nullptr;
  std::printf("simulator semantics keyed by a name the table lacks: %zu of %zu\n", sim_outside_table, sim_list.size());
  for (const auto& p : sim_not_yet)
    if (!sim_not_yet_used.count(p.line))
      FAIL_CHECK("llvm_coverage_sim_not_yet.txt line " << p.line << " (" << p.text << ") excuses nothing: delete it");
  for (const auto& p : not_yet)
    if (!p.prefix && !not_yet_used.count(p.line))
      FAIL_CHECK("llvm_coverage_not_yet.txt line " << p.line << " (" << p.text << ") matches nothing LLVM lacks in the table: delete it");
}

TEST_CASE("every table row has simulator semantics, a refusal reason, or a listed reason", "[isa][coverage][sim-rows]") {
  // A static check over the table (no LLVM sweep): a row without semantics is either refused by the
  // registry with what is undocumented, or on llvm_coverage_sim_not_yet.txt / llvm_coverage_unsupported.txt
  // under a comment that says why.
  const auto unsupported = read_patterns("llvm_coverage_unsupported.txt");
  const auto not_yet = read_patterns("llvm_coverage_sim_not_yet.txt");
  const std::vector<sim::UnboundRow> unbound = sim::rows_without_semantics();
  REQUIRE(unbound.size() < table().size() / 10);  // a broken registry must not pass as "all listed"
  for (const sim::UnboundRow& u : unbound) {
    INFO(u.mnemonic);
    const InstrInfo* row = find(u.mnemonic);
    REQUIRE(row != nullptr);
    const Arch arch = row->on(Arch::gfx942) ? Arch::gfx942 : Arch::gfx950;
    const Pattern* p = match(not_yet, u.mnemonic, arch);
    if (!p) p = match(unsupported, u.mnemonic, arch);
    std::printf("row without semantics: %s (%s)\n", u.mnemonic.c_str(),
                !u.refused_because.empty() ? "refused by the simulator" : p ? (p == match(not_yet, u.mnemonic, arch) ? "not yet" : "unsupported") : "UNLISTED");
    if (!u.refused_because.empty()) continue;
    if (!p) {
      FAIL_CHECK("table row " << u.mnemonic << " has no simulator semantics and no reason: add them, refuse it in the registry "
                              "with what is undocumented, or list it with a reason in llvm_coverage_sim_not_yet.txt");
      continue;
    }
    CHECK_FALSE(p->reason.empty());
  }
}

TEST_CASE("every float instruction honours a non-default MODE or is on the documented MODE list", "[isa][coverage][mode]") {
  // The registry is the truth of what runs; the list says why each remaining one fails under a
  // non-default MODE (still to do, or cannot be known without hardware). Arch suffixes do not apply:
  // MODE handlers are bound by table row on both targets.
  const auto listed = read_patterns("llvm_coverage_sim_mode_not_yet.txt");
  const std::vector<std::string> unmodelled = sim::mode_unmodelled_mnemonics();
  // A broken registry must not pass as "nothing left": these have no MODE handler by design.
  for (const char* m : {"v_rcp_f32", "v_sqrt_f64", "v_mfma_f32_16x16x16_f16"})
    REQUIRE(std::count(unmodelled.begin(), unmodelled.end(), std::string(m)) == 1);
  std::map<int, int> used;
  for (const std::string& m : unmodelled) {
    const Pattern* p = match(listed, m, Arch::gfx942);
    if (!p) p = match(listed, m, Arch::gfx950);
    if (p) used[p->line]++;
    else
      FAIL_CHECK(m << " is a float instruction without a MODE handler: give it one (runtime/sim/ops_rounding.cpp), "
                      "mark it MODE-independent, or list it with its reason in llvm_coverage_sim_mode_not_yet.txt");
  }
  for (const auto& p : listed)
    if (!used.count(p.line))
      FAIL_CHECK("llvm_coverage_sim_mode_not_yet.txt line " << p.line << " (" << p.text
                                                            << ") is not a float instruction lacking MODE handling any more: delete it");
  std::printf("float instructions without MODE handling: %zu\n", unmodelled.size());
}
