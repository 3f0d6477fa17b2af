#include "tools/tune_command.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "jit/isa/error.hpp"
#include "runtime/tune/evaluation.hpp"
#include "tools/tune_families/registry.hpp"
#include "runtime/tune/build_id.hpp"
#include "runtime/tune/tuner.hpp"
#include "runtime/model/product_file.hpp"
#include "tools/cli/files.hpp"
#include "tools/cli/values.hpp"

namespace cdnajit {

using namespace tune;

std::string default_perf_db_path() {
  if (const char* e = std::getenv("CDNAJIT_PERFDB"); e && *e) return e;
  std::filesystem::path base;
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) base = x;
  else if (const char* h = std::getenv("HOME"); h && *h) base = std::filesystem::path(h) / ".cache";
  else base = std::filesystem::temp_directory_path();
  return (base / "cdnajit" / "perf.db").string();
}

// The largest export --import reads (bytes); a record is a few hundred bytes.
constexpr uint64_t kMaxImportBytes = 256ull << 20;

std::string tune_model_name(const std::string& model, Arch arch) {
  if (!model.empty()) return model;
  return model::default_product(arch).name;
}

namespace {

// The database path a command uses ("" with --no-db), and whether it is the default one (whose
// directory is created when a tune or an import writes to it; a path the user gave must be in
// an existing directory).
std::string db_path_of(const TuneCommand& c) { return c.no_db ? "" : c.db.empty() ? default_perf_db_path() : c.db; }

// --problem, else the family's own default (the registry's, not one for every family).
std::string problem_of(const TuneCommand& c, const Family& f) { return c.problem.empty() ? f.default_problem() : c.problem; }

}  // namespace

void check_tune_command(const TuneCommand& c) {
  if (c.list) return;
  if (!c.replay.empty()) {
    scenario(c.replay);  // throws listing the scenarios
    return;
  }
  if (!c.family.empty()) {
    const Family& f = find_family(c.family);  // throws listing the families
    f.canonical_problem(problem_of(c, f));   // throws naming the field or the accepted format
  } else if (c.export_path.empty() && c.import_path.empty()) {
    throw Error(fmt::format("tune needs --family NAME (valid: {})", fmt::join(family_names(), ", ")));
  }
  // A regular file of bounded size: a FIFO or a device would block or never end.
  if (!c.import_path.empty()) cli::read_regular_file(c.import_path, "--import", kMaxImportBytes, true);
  auto spec = parse_device_spec(c.device);
  if (spec && spec->simulator) {
    const model::Hardware& hw = model::resolve_product(tune_model_name(c.model, spec->arch));  // throws listing the products
    if (hw.arch != spec->arch)
      throw Error(fmt::format("--model {} is a {} product, but --device {} runs {} (give a {} product or another device)",
                              hw.name, arch_name(hw.arch), c.device, arch_name(spec->arch), arch_name(spec->arch)));
  }
  const std::string db = db_path_of(c);
  if (!db.empty()) {
    std::filesystem::path parent = std::filesystem::path(db).parent_path();
    std::error_code ec;
    if (std::filesystem::is_directory(db, ec))
      throw Error(fmt::format("--db: '{}' is a directory (expected a database file)", db));
    // The default path's directory is made when a tune or an import writes; nothing else creates directories.
    if (!c.db.empty() && !parent.empty() && !std::filesystem::is_directory(parent, ec))
      throw Error(fmt::format("--db: '{}' is in a directory that does not exist ('{}')", db, parent.string()));
  }
  std::vector<cli::NamedFile> outputs, inputs;
  if (!c.export_path.empty() && c.export_path != "-") {
    cli::check_writable(c.export_path, "--export");
    outputs.push_back({"--export", c.export_path});
  }
  if (!c.import_path.empty()) inputs.push_back({"--import file", c.import_path});
  if (!db.empty()) inputs.push_back({"database (--db)", db});
  cli::check_distinct_files(outputs, inputs);
}

namespace {

// A one-line progress bar on stderr when it is a terminal.
std::function<void(size_t, size_t)> progress_bar() {
  if (!isatty(STDERR_FILENO)) return {};
  return [](size_t done, size_t total) {
    const int width = 30;
    int filled = total ? int(width * done / total) : width;
    std::fprintf(stderr, "\r[%s%s] %zu/%zu%s", std::string(size_t(filled), '#').c_str(),
                 std::string(size_t(width - filled), '-').c_str(), done, total, done == total ? "\n" : "");
    std::fflush(stderr);
  };
}

// `default_budget_s` applies when --budget was not given.
SearchOptions search_options(const TuneCommand& c, double default_budget_s) {
  SearchOptions o;
  if (!c.strategy.empty()) o.strategy = parse_strategy(c.strategy);
  o.full_samples = c.samples;
  o.patience = c.patience;
  o.time_budget_s = c.budget_s.value_or(default_budget_s);
  if (!c.quiet) o.log = [](const std::string& l) { fmt::print("{}\n", l); };
  o.progress = progress_bar();
  return o;
}

std::string read_text(const std::string& path) {
  std::vector<uint8_t> b = cli::read_regular_file(path, "--import", kMaxImportBytes, true);
  return std::string(b.begin(), b.end());
}

int list_families() {
  for (const Family* f : all_families()) fmt::print("{}", describe_family(*f));
  fmt::print("strategies: ");
  for (Strategy s : all_strategies())
    fmt::print("{}{} ", strategy_name(s), s == default_strategy() ? " (default)" : "");
  fmt::print("\nreplay scenarios: ");
  for (const Scenario& s : scenarios()) fmt::print("{} ", s.name);
  fmt::print("\n");
  return 0;
}

int replay(const TuneCommand& c) {
  const Scenario& sc = scenario(c.replay);
  ReplayCase rc = sc.draw(c.seed);
  auto src = replay_source(rc.true_ms, rc.noise, c.seed + 1);
  std::vector<std::string> labels;
  for (size_t i = 0; i < rc.true_ms.size(); ++i) labels.push_back(fmt::format("#{} (true {:.4f} ms)", i, rc.true_ms[i]));
  fmt::print("replay {} (seed {}): {}\ntimes are drawn from a noise model, not measured; nothing is stored\n", sc.name,
             c.seed, sc.description);
  // Replayed times cost no wall clock: no default budget here.
  SearchResult r = search(*src, rc.order, search_options(c, 0), labels);
  size_t truth = size_t(std::min_element(rc.true_ms.begin(), rc.true_ms.end()) - rc.true_ms.begin());
  fmt::print("picked {} ({:.4f} ms replayed); true best {}: {}; {} runs, {} samples, {} survivors; ended: {}\n",
             labels[*r.best], r.best_ms, labels[truth], *r.best == truth ? "right" : "WRONG", r.runs, r.samples,
             r.survivors, r.ended);
  return 0;
}

}  // namespace

int run_tune_command(const TuneCommand& c) {
  if (c.list) return list_families();
  if (!c.replay.empty()) return replay(c);
  std::string db_path = db_path_of(c);
  // Only a write (a tune, an import) creates the default database's directory; a lookup or an
  // export of a database that does not exist creates nothing.
  const bool writes = !c.lookup && (c.export_path.empty() || !c.import_path.empty()) && !c.check_only;
  if (!db_path.empty() && writes && c.db.empty())
    std::filesystem::create_directories(std::filesystem::path(db_path).parent_path());
  if (!c.export_path.empty() || !c.import_path.empty()) {
    if (db_path.empty()) throw Error("--export/--import need a database (drop --no-db)");
    if (c.import_path.empty() && !std::filesystem::exists(db_path))
      throw Error(fmt::format("--export: there is no database at '{}' (nothing was tuned or imported into it)", db_path));
    PerfDb db(db_path);
    if (!c.import_path.empty()) {
      ImportReport r = db.import_json(read_text(c.import_path), c.overwrite, check_record);
      fmt::print("imported {} into {}: {} added, {} replaced, {} kept (existing; --overwrite replaces)\n",
                 c.import_path, db_path, r.added, r.replaced, r.kept_existing);
    }
    if (!c.export_path.empty()) {
      std::string text = db.export_json();
      if (c.export_path == "-") std::cout << text;
      else {
        std::ofstream f(c.export_path);
        f << text;
        if (!f) throw Error("cannot write " + c.export_path);
        fmt::print("exported {} records from {} to {}\n", db.size(), db_path, c.export_path);
      }
    }
    return 0;
  }
  const Family& fam = find_family(c.family);
  if (c.lookup) {
    if (db_path.empty()) throw Error("--lookup needs a database (drop --no-db)");
    auto dev = open_device(c.device);
    Arch arch = dev->arch();
    // The product the key is stored under (tuner.cpp): the timing model on a simulator, else the device.
    PerfKey key{.arch = std::string(arch_name(arch)),
                .cus = c.cus > 0 ? c.cus : default_cus(arch),
                .product = dev->is_simulator() ? tune_model_name(c.model, arch) : dev->name(),
                .family = fam.name(),
                .problem = fam.canonical_problem(problem_of(c, fam)),
                .toolchain = toolchain_version(),
                .project_version = project_version(),
                .build_id = build_id()};
    if (!std::filesystem::exists(db_path)) {
      fmt::print("no stored configuration for {}: there is no database at '{}'\n", key.str(), db_path);
      return 3;
    }
    PerfDb db(db_path);
    auto r = db.best_for_build(key);
    if (!r) {
      fmt::print("no stored configuration for {}\n", key.str());
      return 3;
    }
    if (std::string why = unusable_config_reason(fam, r->config, key.problem, arch); !why.empty()) {
      fmt::print("no usable configuration for {}: the stored '{}' cannot be used ({})\n", key.str(), r->config, why);
      return 3;
    }
    fmt::print("{} = {:.4f} ms, {} (strategy {}, {} candidates, {})\n", r->config, r->time_ms, r->source_label,
               r->strategy, r->candidates, r->created_utc);
    return 0;
  }
  TuneRequest req;
  req.problem = problem_of(c, fam);
  req.device = c.device;
  auto spec = parse_device_spec(c.device);
  req.model = tune_model_name(c.model, spec && spec->simulator ? spec->arch : Arch::gfx950);
  req.cus = c.cus;
  req.db_path = db_path;
  req.force = c.force;
  req.check_only = c.check_only;
  req.jobs = c.jobs;
  req.shuffle_seed = c.shuffle_seed;
  req.search = search_options(c, kDefaultTuneBudgetS);
  req.log = [](const std::string& l) { fmt::print("{}\n", l); };
  if (!c.budget_s && !c.check_only)
    fmt::print("time budget: {:g} s by default (--budget SECONDS changes it, --budget 0 searches every configuration)\n",
               kDefaultTuneBudgetS);
  TuneOutcome o = run_tune(fam, req);
  if (c.check_only) {
    fmt::print("check-only: {} passed, {} failed, {} invalid\n", o.passed.size(), o.failed.size(), o.invalid.size());
    return o.failed.empty() ? 0 : 1;
  }
  const PerfRecord& w = *o.winner;
  fmt::print("best: {} = {:.4f} ms, {}{}\n", w.config, w.time_ms, w.source_label, o.reused ? " (from the database)" : "");
  if (!o.reused)
    fmt::print("search: {} runs, {} samples, {} survivors, {} failed, {} not reached, ended: {}{}\n", o.search.runs,
               o.search.samples, o.search.survivors, o.failed.size(), o.not_searched, o.search.ended,
               !c.budget_s && o.search.ended.rfind("time budget", 0) == 0
                   ? " (the default budget; --budget 0 searches every configuration)"
                   : "");
  return 0;
}

}  // namespace cdnajit
