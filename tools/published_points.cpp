#include "tools/published_points.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "jit/isa/error.hpp"
#include "tools/rank_stats.hpp"

namespace cdnajit::report {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

std::string text_field(const json& j, const char* name, const std::string& where) {
  if (!j.contains(name) || !j[name].is_string() || j[name].get<std::string>().empty())
    throw Error(where + ": field \"" + name + "\" is missing or not a non-empty string");
  return j[name].get<std::string>();
}

// Optional "kind" says which of the per-kind targets a point belongs to; TFLOP/s without
// one is a GEMM or MFMA throughput point, reported as "gemm".
std::string kind_of(const json& p, const std::string& metric) {
  if (p.contains("kind") && p["kind"].is_string()) return p["kind"].get<std::string>();
  return metric == "TFLOP/s" ? "gemm" : "other";
}

std::map<std::string, double> read_modelled(const fs::path& tsv) {
  std::map<std::string, double> out;
  std::ifstream f(tsv);
  if (!f) return out;  // never run: every point shows "not run"
  std::string line;
  for (int n = 1; std::getline(f, line); ++n) {
    if (line.empty()) continue;
    const size_t tab = line.find('\t');
    const std::string where = tsv.string() + ":" + std::to_string(n);
    if (tab == std::string::npos) throw Error(where + ": expected 'id<TAB>modelled value', got '" + line + "'");
    const std::string id = line.substr(0, tab), value = line.substr(tab + 1);
    size_t used = 0;
    double v = 0;
    try {
      v = std::stod(value, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used == 0 || used != value.size() || !std::isfinite(v) || v <= 0)
      throw Error(where + ": modelled value '" + value + "' of '" + id + "' is not a positive number");
    if (!out.emplace(id, v).second) throw Error(where + ": id '" + id + "' appears twice");
  }
  return out;
}

}  // namespace

std::vector<PublishedPoint> load_published_points(const fs::path& dir) {
  if (!fs::is_directory(dir)) throw Error("published measurements: '" + dir.string() + "' is not a directory (expected tools/validation)");
  std::vector<fs::path> folders;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.is_directory() && fs::exists(e.path() / "points.json")) folders.push_back(e.path());
  std::sort(folders.begin(), folders.end());
  std::vector<PublishedPoint> out;
  for (const fs::path& folder : folders) {
    const fs::path file = folder / "points.json";
    json j;
    try {
      std::ifstream f(file);
      j = json::parse(f);
    } catch (const json::exception& e) {
      throw Error(file.string() + ": not valid JSON: " + e.what());
    }
    if (!j.contains("source") || !j["source"].is_object() || !j.contains("points") || !j["points"].is_array())
      throw Error(file.string() + ": expected an object with \"source\" (object) and \"points\" (array)");
    const json& s = j["source"];
    PublishedPoint base;
    base.folder = folder.filename().string();
    base.source = text_field(s, "name", file.string() + " source");
    base.url = text_field(s, "url", file.string() + " source");
    base.commit = text_field(s, "commit", file.string() + " source");
    base.published_in = text_field(s, "published_in", file.string() + " source");
    if (s.contains("rules_chosen_against")) base.rules_chosen = text_field(s, "rules_chosen_against", file.string() + " source");
    if (s.contains("files") && s["files"].is_array())
      for (const json& f : s["files"]) base.files += (base.files.empty() ? "" : ", ") + f.get<std::string>();
    const std::map<std::string, double> modelled = read_modelled(folder / "modelled.tsv");
    std::set<std::string> ids;
    for (size_t i = 0; i < j["points"].size(); ++i) {
      const json& p = j["points"][i];
      const std::string where = file.string() + " points[" + std::to_string(i) + "]";
      PublishedPoint q = base;
      q.id = text_field(p, "id", where);
      q.arch = text_field(p, "arch", where);
      q.product = text_field(p, "product", where);
      q.metric = text_field(p, "metric", where);
      q.published_where = text_field(p, "published_where", where);
      q.kind = kind_of(p, q.metric);
      if (q.arch != "gfx942" && q.arch != "gfx950") throw Error(where + ": arch '" + q.arch + "' is not gfx942 or gfx950");
      if (!p.contains("published") || !p["published"].is_number() || p["published"].get<double>() <= 0)
        throw Error(where + ": \"published\" must be a positive number");
      q.published = p["published"].get<double>();
      if (p.contains("fitted") && p["fitted"].is_string()) q.fitted = p["fitted"].get<std::string>();
      else if (p.contains("fitted") && !(p["fitted"].is_boolean() && !p["fitted"].get<bool>()))
        throw Error(where + ": \"fitted\" must be false or the name of the fitted parameter");
      if (!ids.insert(q.id).second) throw Error(where + ": id '" + q.id + "' appears twice");
      if (auto m = modelled.find(q.id); m != modelled.end()) q.modelled = m->second;
      out.push_back(std::move(q));
    }
    for (const auto& [id, v] : modelled)
      if (!ids.count(id)) throw Error((folder / "modelled.tsv").string() + ": id '" + id + "' is not a point of points.json");
  }
  return out;
}

namespace {

double ratio(const PublishedPoint& p) { return *p.modelled / p.published; }
double off_by(const PublishedPoint& p) { return std::max(ratio(p), 1 / ratio(p)); }
std::string num(double v) { return v >= 1000 ? fmt::format("{:.0f}", v) : fmt::format("{:.4g}", v); }
std::string pct(double x) { return fmt::format("{:.1f}%", 100 * x); }

struct SetStats {
  size_t points = 0, run = 0;
  double median = std::nan(""), worst = std::nan("");
  std::string worst_id;
};
SetStats stats(const std::vector<const PublishedPoint*>& set) {
  SetStats s;
  std::vector<double> meas, mod;
  s.points = set.size();
  for (const PublishedPoint* p : set) {
    if (!p->modelled) continue;
    ++s.run;
    meas.push_back(p->published);
    mod.push_back(*p->modelled);
    if (!(off_by(*p) <= s.worst)) s.worst = off_by(*p), s.worst_id = p->folder + "/" + p->id;
  }
  s.median = median_abs_error(meas, mod);
  return s;
}

// A per-point bound over the validation points of one kind: met when every such point is run and
// within it; "no points" when the set holds none of that kind.
std::string per_point_target(const std::vector<const PublishedPoint*>& validation, const std::string& kind, double bound,
                             const std::string& arch_note) {
  size_t n = 0, within = 0, not_run = 0;
  double worst = 0;
  std::string worst_id;
  for (const PublishedPoint* p : validation) {
    if (p->kind != kind) continue;
    ++n;
    if (!p->modelled) {
      ++not_run;
      continue;
    }
    const double e = std::fabs(ratio(*p) - 1);
    if (e <= bound) ++within;
    if (e > worst) worst = e, worst_id = p->folder + "/" + p->id;
  }
  if (n == 0) return "no validation points of this kind: **not met** (nothing to check)";
  std::string r = fmt::format("{} of {} points within {:.0f}%", within, n, 100 * bound);
  if (not_run) r += fmt::format(" ({} not run)", not_run);
  r += fmt::format("; worst {} off by {}", worst_id, pct(worst));
  r += arch_note;
  return r + (within == n ? ": **met**" : ": **not met**");
}

}  // namespace

void write_published_section(std::ostream& md, const std::vector<PublishedPoint>& points, const std::string& regenerate) {
  md << "## Published measurements\n\n"
     << "Published GPU measurements whose kernel source is public, run here unmodified (compiled by clang-22 through "
        "`cdnajit-hipcc`, executed by the simulator through the drop-in HIP runtime, timed by the model of the named "
        "product) and compared on the program's own printed metric. The public checkouts stay outside this repository; "
        "each source folder under `tools/validation/` holds the published figures with their place of publication "
        "(`points.json`), the command that builds and runs the checkout (`run.sh EXT_DIR BUILD_DIR`) and its last "
        "output (`modelled.tsv`). Regenerate the modelled values with `"
     << regenerate << "`, then this report.\n\n"
     << "A point is **fitted** when a hardware-table parameter was chosen from it (named in the table and in "
        "runtime/model/hardware.cpp); every other point is **validation**: nothing was fitted to it. Ratio = modelled / "
        "published (for a bandwidth above 1 means the model is too fast, for a latency in cycles above 1 means it is too "
        "slow); the error is |ratio - 1|.\n\n";
  if (points.empty()) {
    md << "No source folder with a points.json was found.\n\n";
    return;
  }
  std::map<std::string, const PublishedPoint*> first_of_source;
  for (const PublishedPoint& p : points) first_of_source.emplace(p.folder, &p);
  md << "### Sources\n\n| folder | code run (repository @ commit: files) | figures published in |\n|---|---|---|\n";
  for (const auto& [folder, p] : first_of_source)
    md << "| `" << folder << "` | " << p->url << " @ `" << p->commit.substr(0, 12) << "`: " << p->files << " | "
       << p->published_in << " |\n";
  bool any_rules = false;
  for (const auto& [folder, p] : first_of_source) any_rules |= !p->rules_chosen.empty();
  if (any_rules) {
    md << "\nRules chosen against a source's points: switches of the hardware table (no value fitted) picked among "
          "candidate rules after comparing each with all of the source's points. Those points stay validation points, "
          "but they are no independent test of these choices:\n\n";
    for (const auto& [folder, p] : first_of_source)
      if (!p->rules_chosen.empty()) md << "- `" << folder << "`: " << p->rules_chosen << "\n";
  }
  md << "\n### Points\n\n| source | point | product | metric | published | where | modelled | ratio | set |\n"
        "|---|---|---|---|---|---|---|---|---|\n";
  for (const PublishedPoint& p : points) {
    md << "| `" << p.folder << "` | " << p.id << " | " << p.product << " (" << p.arch << ") | " << p.metric << " | "
       << num(p.published) << " | " << p.published_where << " | " << (p.modelled ? num(*p.modelled) : "not run") << " | "
       << (p.modelled ? fmt::format("{:.3f}", ratio(p)) : "-") << " | "
       << (p.fitted.empty() ? "validation" : "fitted: " + p.fitted) << " |\n";
  }
  std::vector<const PublishedPoint*> validation, fitted;
  for (const PublishedPoint& p : points) (p.fitted.empty() ? validation : fitted).push_back(&p);
  md << "\n### Per set\n\n| set | points | run | median absolute error | worst ratio (off by) |\n|---|---|---|---|---|\n";
  for (const auto& [name, set] : {std::pair{"validation", &validation}, std::pair{"fitted", &fitted}}) {
    const SetStats s = stats(*set);
    md << "| " << name << " | " << s.points << " | " << s.run << " | " << (s.run ? pct(s.median) : "-") << " | "
       << (s.run ? fmt::format("{:.2f}x ({})", s.worst, s.worst_id) : "-") << " |\n";
  }
  std::map<std::string, std::vector<const PublishedPoint*>> by_kind;
  for (const PublishedPoint* p : validation) by_kind[p->kind].push_back(p);
  md << "\n| validation points by kind | points | median absolute error | worst ratio (off by) |\n|---|---|---|---|\n";
  for (const auto& [kind, set] : by_kind) {
    const SetStats s = stats(set);
    md << "| " << kind << " | " << s.points << " | " << (s.run ? pct(s.median) : "-") << " | "
       << (s.run ? fmt::format("{:.2f}x ({})", s.worst, s.worst_id) : "-") << " |\n";
  }

  const SetStats v = stats(validation);
  std::set<std::string> lds_archs;
  for (const PublishedPoint* p : validation)
    if (p->kind == "lds") lds_archs.insert(p->arch);
  const std::string lds_note = lds_archs.size() == 2 ? "; both architectures"
                               : lds_archs.empty() ? ""
                                                   : "; only " + *lds_archs.begin() + " has LDS points (the target asks for both)";
  const bool lds_both = lds_archs.size() == 2;
  std::string lds = per_point_target(validation, "lds", 0.20, lds_note);
  if (!lds_both && lds.ends_with(": **met**")) lds = lds.substr(0, lds.size() - 9) + ": **not met**";
  md << "\n### Against the issue's targets (validation points only)\n\n"
     << "- Median absolute error <= 15%: " << (v.run ? pct(v.median) : "-") << " over " << v.run << " of " << v.points
     << " points" << (v.run == v.points && v.median <= 0.15 ? ": **met**" : ": **not met**") << "\n"
     << "- None off by more than 2x: worst " << (v.run ? fmt::format("{:.2f}x ({})", v.worst, v.worst_id) : "-")
     << (v.run == v.points && v.worst <= 2 ? ": **met**" : ": **not met**") << "\n"
     << "- Streaming kernels within 10% of their published bandwidth: " << per_point_target(validation, "streaming", 0.10, "")
     << "\n"
     << "- LDS conflict sweeps within 20% per point on both architectures: " << lds << "\n"
     << "- Each GEMM size within 20%: " << per_point_target(validation, "gemm", 0.20, "") << "\n\n";
}

}  // namespace cdnajit::report
