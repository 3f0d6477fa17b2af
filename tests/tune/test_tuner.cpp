// Families and the tuner end to end on the simulator: configurations are
// generated from a declared space with validity rules, built in parallel,
// checked against the reference, timed (through a stand-in timing model: the
// simulator's real one is exercised first), stored, reused and re-tuned.
#include <catch2/catch.hpp>
#include <sqlite3.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "codegen/dwconv3d_shape.hpp"
#include "jit/isa/error.hpp"
#include "tools/tune_families/registry.hpp"
#include "runtime/model/hardware.hpp"
#include "runtime/tune/build_id.hpp"
#include "runtime/tune/tuner.hpp"

using namespace cdnajit;
using namespace cdnajit::tune;
namespace fs = std::filesystem;

namespace {

// A family with three parameters and a rule, to test generation only.
struct GridFamily final : Family {
  std::string name() const override { return "grid"; }
  std::string description() const override { return "test"; }
  std::vector<Param> space() const override {
    return {{"tile", {"64", "128", "256"}, ""}, {"stages", {"1", "2"}, ""}, {"splitk", {"1", "4"}, ""}};
  }
  std::string canonical_problem(std::string_view t) const override { return std::string(t); }
  std::string problem_format() const override { return "any text"; }
  std::string example_problem() const override { return "p"; }
  std::string invalid_reason(const Config& c, const std::string&, Arch a) const override {
    if (config_value(c, "tile") == "256" && config_value(c, "stages") == "2") return "LDS over the limit";
    if (a == Arch::gfx942 && config_value(c, "splitk") == "4") return "split-K 4 needs gfx950";
    return "";
  }
  std::unique_ptr<Candidate> build(const Config&, const std::string&, Arch, const BuildOptions&) const override { return nullptr; }
};

// A stand-in timing model for the test: it runs the launch on the simulator
// and turns the dynamic wave-instruction count into a number. It exists to
// drive the tuner's modelled path; its numbers are not kernel times.
struct InstructionCountModel final : TimingModel {
  std::string name() const override { return "test-instruction-count"; }
  double modelled_ms(const LaunchSpec& l) override {
    LaunchResult r = l.run();
    REQUIRE(r.sim_stats);
    return 1e-6 * double(r.sim_stats->wave_instructions);
  }
};

// A family that fails in every way a candidate can, to test that the tuner records each
// failure with its reason and goes on. Each case's "kernel" is a stand-in: its launch carries
// the time the stand-in model below returns (grid.x microseconds); nothing runs on the device.
struct FaultyFamily final : Family {
  std::string name() const override { return "faulty"; }
  std::string description() const override { return "test: candidates that throw"; }
  std::vector<Param> space() const override {
    return {{"case",
             {"slow", "build_throws", "build_throws_other", "check_wrong", "check_throws", "bind_throws",
              "time_throws", "fast"},
             ""}};
  }
  std::string canonical_problem(std::string_view t) const override { return std::string(t); }
  std::string problem_format() const override { return "any text"; }
  std::string example_problem() const override { return "p"; }
  std::string invalid_reason(const Config&, const std::string&, Arch) const override { return ""; }
  struct Cand final : Candidate {
    std::string which;
    explicit Cand(std::string w) : which(std::move(w)) {}
    std::string check(Device&) override {
      if (which == "check_throws") throw Error("reference ran out of memory");
      return which == "check_wrong" ? "output 3 is 7, reference 5" : "";
    }
    LaunchSpec bind(Device& dev) override {
      if (which == "bind_throws") throw Error("upload failed");
      LaunchSpec l;
      l.device = &dev;
      l.grid = {which == "slow" ? 20u : which == "fast" ? 10u : 0u};  // 0: the model throws
      return l;
    }
    std::string summary() const override { return which; }
    std::string verify(Device& dev) override { return check(dev); }
    const BuildResult& kernel() const override { throw Error("a stand-in candidate has no kernel"); }
  };
  std::unique_ptr<Candidate> build(const Config& c, const std::string&, Arch, const BuildOptions&) const override {
    const std::string& w = config_value(c, "case");
    if (w == "build_throws") throw Error("register allocation failed");
    if (w == "build_throws_other") throw 42;  // not a std::exception
    return std::make_unique<Cand>(w);
  }
};

// Stand-in model for FaultyFamily: grid.x microseconds, or an Error for 0.
struct GridTimeModel final : TimingModel {
  std::string name() const override { return "test-grid-time"; }
  double modelled_ms(const LaunchSpec& l) override {
    if (l.grid.x == 0) throw Error("model: the recording has no workgroups");
    return 1e-3 * l.grid.x;
  }
};

std::string temp_path(const std::string& name) {
  fs::path dir = fs::temp_directory_path() / ("cdnajit-tuner-test-" + std::to_string(getpid()));
  fs::create_directories(dir);
  fs::path p = dir / name;
  for (const char* suffix : {"", "-wal", "-shm", ".pending.json"}) fs::remove(p.string() + suffix);
  return p.string();
}

const char* kSmall = "N1 C4 D5 H8 W16 k3x5x5 pad0,2,2";

// Variants of codegen's one list the arch has.
size_t available(Arch a) {
  size_t n = 0;
  for (const codegen::DwVariantInfo& v : codegen::dw_variants()) n += codegen::variant_available(v.id, a);
  return n;
}

}  // namespace

TEST_CASE("families: configurations from a declared space and validity rules", "[tune][family]") {
  GridFamily g;
  Enumeration e = enumerate(g, "p", Arch::gfx950);
  CHECK(e.valid.size() == 10);  // 12 minus (256, 2, *)
  CHECK(e.invalid.size() == 2);
  CHECK(e.invalid[0] == "tile=256,stages=2,splitk=1: LDS over the limit");
  CHECK(enumerate(g, "p", Arch::gfx942).valid.size() == 5);
  CHECK(config_str(e.valid[0]) == "tile=64,stages=1,splitk=1");
  CHECK(config_str(parse_config(g.space(), "splitk=4,tile=128,stages=2")) == "tile=128,stages=2,splitk=4");
  CHECK_THROWS_WITH(parse_config(g.space(), "tile=96,stages=1,splitk=1"), Catch::Contains("tile = '96' (valid: 64, 128, 256)"));
  CHECK_THROWS_WITH(parse_config(g.space(), "tile=64"), Catch::Contains("parameter 'stages' is missing"));
  CHECK_THROWS_WITH(parse_config(g.space(), "warp=2"), Catch::Contains("unknown parameter 'warp' (valid: tile, stages, splitk)"));

  const Family& dw = find_family("dwconv3d");
  CHECK(dw.canonical_problem("seed") == "N1 C512 D61 H45 W80 k3x5x5 pad0,2,2");
  CHECK_THROWS_WITH(dw.canonical_problem("big"), Catch::Contains("expected 'seed' or"));
  CHECK_THROWS_WITH(find_family("frob"), Catch::Contains("valid: dwconv3d"));
  Enumeration d = enumerate(dw, dw.canonical_problem(kSmall), Arch::gfx942);
  CHECK(d.valid.size() == available(Arch::gfx942));
  CHECK(d.valid.size() + d.invalid.size() == codegen::dw_variants().size());
  REQUIRE(!d.invalid.empty());
  CHECK(d.invalid[0].find("variant=lds_dot2: lds_dot2 is not available on gfx942") == 0);
}

TEST_CASE("tuner: dwconv3d on the simulator, stored, reused, re-tuned", "[tune][tuner]") {
  std::string db = temp_path("tuner.db");
  std::vector<std::string> lines, search_lines;
  TuneRequest req;
  req.problem = kSmall;
  req.device = "sim:gfx950";
  req.db_path = db;
  req.jobs = 2;
  req.log = [&](const std::string& l) { lines.push_back(l); };
  req.search.log = [&](const std::string& l) { search_lines.push_back(l); };

  // The simulator's own timing model (runtime/model, mi350x for gfx950): every variant that
  // passes its check is timed, the pick is labelled modelled. Its own database file, so the
  // stand-in model's runs below start from an empty one.
  {
    TuneRequest real = req;
    real.model = "mi350x";
    real.db_path = temp_path("tuner_real_model.db");
    std::vector<std::string> real_lines;  // kept apart from the stand-in runs' logs checked below
    real.log = [&](const std::string& l) { real_lines.push_back(l); };
    real.search.log = [&](const std::string& l) { real_lines.push_back(l); };
    TuneOutcome m = run_tune(dwconv3d_family(), real);
    CHECK(m.kind == TimeKind::modelled);
    CHECK(m.failed.empty());
    CHECK(m.passed.size() == available(Arch::gfx950));
    REQUIRE(m.search.best);
    CHECK(m.search.best_ms > 0);
    CHECK(PerfDb(real.db_path).size() == 1);
    for (auto& l : real_lines) std::printf("%s\n", l.c_str());
  }
  CHECK(PerfDb(db).size() == 0);

  req.open_model = [](const std::string&) { return std::make_unique<InstructionCountModel>(); };
  TuneOutcome a = run_tune(dwconv3d_family(), req);
  for (auto& l : lines) std::printf("%s\n", l.c_str());
  for (auto& l : search_lines) std::printf("%s\n", l.c_str());
  CHECK_FALSE(a.reused);
  CHECK(a.passed.size() == available(Arch::gfx950));  // every variant builds and matches its CPU model bit for bit
  CHECK(a.failed.empty());
  REQUIRE(a.winner);
  CHECK(a.winner->source == TimeKind::modelled);
  CHECK(a.winner->source_label == "model test-instruction-count (modelled)");
  CHECK(a.key.cus == 256);
  CHECK(search_lines.size() == available(Arch::gfx950));
  {
    PerfDb d(db);
    auto stored = d.best_for_build(a.key);
    REQUIRE(stored);
    CHECK(stored->config == a.winner->config);
  }
  // Again: answered from the database without building.
  lines.clear();
  search_lines.clear();
  TuneOutcome b = run_tune(dwconv3d_family(), req);
  CHECK(b.reused);
  CHECK(b.winner->config == a.winner->config);
  CHECK(search_lines.empty());
  // At build time the family finds the stored winner, labelled as modelled.
  BuildChoice choice = best_config(dwconv3d_family(), kSmall, Arch::gfx950, 0, req.model, db);
  CHECK(config_str(choice.config) == a.winner->config);
  CHECK(choice.source.rfind("modelled: " + a.winner->config, 0) == 0);
  CHECK(choice.source.find("(model test-instruction-count (modelled))") != std::string::npos);
  BuildChoice untuned = best_config(dwconv3d_family(), kSmall, Arch::gfx942, 0, "mi300x", db);
  CHECK(config_str(untuned.config) == "variant=lds_fmac");
  CHECK(untuned.source == "untuned (no database record)");
  // --force searches again.
  req.force = true;
  TuneOutcome c = run_tune(dwconv3d_family(), req);
  CHECK_FALSE(c.reused);
  CHECK(c.winner->config == a.winner->config);  // deterministic model, same pick
  CHECK(search_lines.size() == available(Arch::gfx950));
}

TEST_CASE("tuner: a candidate whose build, check, bind or timing fails is recorded and the search goes on",
          "[tune][tuner]") {
  std::vector<std::string> lines, search_lines;
  TuneRequest req;
  req.problem = "p";
  req.jobs = 2;
  req.log = [&](const std::string& l) { lines.push_back(l); };
  req.search.log = [&](const std::string& l) { search_lines.push_back(l); };
  req.open_model = [](const std::string&) { return std::make_unique<GridTimeModel>(); };
  FaultyFamily f;
  TuneOutcome o = run_tune(f, req);
  for (auto& l : lines) std::printf("%s\n", l.c_str());
  for (auto& l : search_lines) std::printf("%s\n", l.c_str());
  REQUIRE(o.winner);
  CHECK(o.winner->config == "case=fast");
  CHECK(o.winner->time_ms == Approx(0.010));
  CHECK(o.passed == std::vector<std::string>{"case=slow", "case=bind_throws", "case=time_throws", "case=fast"});
  CHECK(o.failed == std::vector<std::string>{
                        "case=build_throws: build failed: register allocation failed",
                        "case=build_throws_other: build failed: an exception that is not a std::exception",
                        "case=check_wrong: failed: wrong result output 3 is 7, reference 5",
                        "case=check_throws: failed: check failed to run: reference ran out of memory",
                        "case=bind_throws: failed: binding the full problem failed: upload failed",
                        "case=time_throws: failed: model: the recording has no workgroups",
                    });
  CHECK(o.search.failed == 4);
  CHECK(o.not_searched == 0);
  REQUIRE(search_lines.size() == 6);  // slow, 4 failures, fast
  CHECK(search_lines[1] == "[2/6] case=check_wrong: failed: wrong result output 3 is 7, reference 5");
  CHECK(search_lines[5].find("new best (0.0100 ms < 0.0200 ms)") != std::string::npos);
  // Check-only: the same failures, found without timing.
  req.check_only = true;
  TuneOutcome c = run_tune(f, req);
  CHECK(c.failed.size() == 4);  // two builds, two checks; bind and timing are not reached
  CHECK(c.passed.size() == 4);
  // Nothing passes: a clear error, not an abort.
  struct AllWrong final : Family {
    std::string name() const override { return "all-wrong"; }
    std::string description() const override { return "test"; }
    std::vector<Param> space() const override { return {{"case", {"check_wrong", "time_throws"}, ""}}; }
    std::string canonical_problem(std::string_view t) const override { return std::string(t); }
    std::string problem_format() const override { return "any text"; }
    std::string example_problem() const override { return "p"; }
    std::string invalid_reason(const Config&, const std::string&, Arch) const override { return ""; }
    std::unique_ptr<Candidate> build(const Config& c, const std::string&, Arch, const BuildOptions&) const override {
      return std::make_unique<FaultyFamily::Cand>(config_value(c, "case"));
    }
  } wrong;
  req.check_only = false;
  CHECK_THROWS_WITH(run_tune(wrong, req),
                    Catch::Contains("tune all-wrong [p]: no configuration passed its check and was timed (2 failed"));
}

TEST_CASE("tuner: the time budget covers building, checking and timing", "[tune][tuner]") {
  TuneRequest req;
  req.problem = "p";
  req.open_model = [](const std::string&) { return std::make_unique<GridTimeModel>(); };
  // A fake clock that advances 1 s per reading: the tuner's start, then one reading per
  // candidate before it is searched.
  double t = 0;
  req.search.now_s = [&] { return t++; };
  req.search.time_budget_s = 2;
  TuneOutcome o = run_tune(FaultyFamily{}, req);
  REQUIRE(o.winner);
  CHECK(o.winner->config == "case=slow");
  CHECK(o.search.ended == "time budget 2 s");
  CHECK(o.search.records.size() == 1);
  CHECK(o.not_searched == 5);
  // A shuffled order: the same candidates, the same pick, another order (seeded, reproducible).
  std::vector<std::string> lines;
  TuneRequest shuffled;
  shuffled.problem = "p";
  shuffled.shuffle_seed = 7;
  shuffled.open_model = req.open_model;
  shuffled.search.log = [&](const std::string& l) { lines.push_back(l); };
  TuneOutcome s = run_tune(FaultyFamily{}, shuffled);
  REQUIRE(s.winner);
  CHECK(s.winner->config == "case=fast");
  CHECK(s.failed.size() == 6);
  REQUIRE(lines.size() == 6);
  std::vector<std::string> order;
  for (const std::string& l : lines) order.push_back(l.substr(0, l.find(':')));
  CHECK(order != std::vector<std::string>{"[1/6] case=slow", "[2/6] case=check_wrong", "[3/6] case=check_throws",
                                          "[4/6] case=bind_throws", "[5/6] case=time_throws", "[6/6] case=fast"});
  std::vector<std::string> again;
  shuffled.search.log = [&](const std::string& l) { again.push_back(l.substr(0, l.find(':'))); };
  run_tune(FaultyFamily{}, shuffled);
  CHECK(again == order);
}

TEST_CASE("tuner: check-only builds and checks every configuration", "[tune][tuner]") {
  TuneRequest req;
  req.problem = kSmall;
  req.device = "sim:gfx942";
  req.check_only = true;
  TuneOutcome o = run_tune(dwconv3d_family(), req);
  CHECK(o.passed.size() == available(Arch::gfx942));
  CHECK(o.invalid.size() == codegen::dw_variants().size() - available(Arch::gfx942));
  CHECK_FALSE(o.winner);
}

TEST_CASE("tuner: a locked database loses nothing (the winner goes to a side file)", "[tune][tuner][db]") {
  std::string db = temp_path("locked-tuner.db");
  { PerfDb init(db); }
  std::string pending = db + ".pending.json";
  TuneRequest req;
  req.problem = kSmall;
  req.db_path = db;
  req.db_busy_timeout_ms = 100;
  req.open_model = [](const std::string&) { return std::make_unique<InstructionCountModel>(); };
  // Another tuner holds the write lock for the whole run.
  sqlite3* other = nullptr;
  REQUIRE(sqlite3_open(db.c_str(), &other) == SQLITE_OK);
  REQUIRE(sqlite3_exec(other, "BEGIN EXCLUSIVE", nullptr, nullptr, nullptr) == SQLITE_OK);
  std::vector<std::string> lines;
  req.log = [&](const std::string& l) { lines.push_back(l); };
  TuneOutcome o = run_tune(dwconv3d_family(), req);
  REQUIRE(o.winner);
  CHECK(o.pending_file == pending);
  CHECK(lines.back().find("locked by another process") != std::string::npos);
  REQUIRE(sqlite3_exec(other, "COMMIT", nullptr, nullptr, nullptr) == SQLITE_OK);
  sqlite3_close(other);
  // The side file imports into the database.
  std::ifstream f(pending);
  std::string text((std::istreambuf_iterator<char>(f)), {});
  PerfDb d(db);
  CHECK(d.import_json(text).added == 1);
  CHECK(d.find(o.key, TimeKind::modelled)->config == o.winner->config);
}

TEST_CASE("build-time lookup ignores a stored configuration that is no longer valid", "[tune][tuner]") {
  std::string db = temp_path("stale.db");
  PerfRecord r;
  r.key = PerfKey{.arch = "gfx942",
                  .cus = 304,
                  .product = "hip:0",
                  .family = "dwconv3d",
                  .problem = dwconv3d_family().canonical_problem(kSmall),
                  .toolchain = toolchain_version(),
                  .project_version = project_version(),
                  .build_id = build_id()};
  r.source = TimeKind::gpu_measured;
  r.source_label = "hip:0 hipEvents (gpu-measured)";
  r.config = "variant=lds_dot2";  // not available on gfx942
  r.time_ms = 1.0;
  r.samples = {1.0};
  r.strategy = "two-level";
  PerfDb(db).store(r);
  BuildChoice c = best_config(dwconv3d_family(), kSmall, Arch::gfx942, 304, "hip:0", db);
  CHECK(config_str(c.config) == "variant=lds_fmac");
  CHECK(c.source.find("is no longer valid: lds_dot2 is not available on gfx942") != std::string::npos);
  CHECK_FALSE(c.record);
}

TEST_CASE("tuner: a stored winner outside the family's space is never the answer; the search runs again",
          "[tune][tuner][db]") {
  // "best: variant=nonexistent (from the database)" was answered for an imported record.
  std::string db = temp_path("foreign.db");
  TuneRequest req;
  req.problem = "p";
  req.jobs = 1;
  req.db_path = db;
  std::vector<std::string> lines;
  req.log = [&](const std::string& l) { lines.push_back(l); };
  req.open_model = [](const std::string&) { return std::make_unique<GridTimeModel>(); };
  FaultyFamily f;
  PerfRecord r;
  r.key = PerfKey{.arch = "gfx950",
                  .cus = default_cus(Arch::gfx950),
                  .product = model::default_product(Arch::gfx950).name,  // run_tune's key without a model
                  .family = f.name(),
                  .problem = "p",
                  .toolchain = toolchain_version(),
                  .project_version = project_version(),
                  .build_id = build_id()};
  r.source = TimeKind::modelled;
  r.source_label = "model x (modelled)";
  r.config = "case=nonexistent";
  r.time_ms = 0.001;
  r.samples = {0.001};
  r.strategy = "two-level";
  r.candidates = 1;
  PerfDb(db).store(r);
  TuneOutcome o = run_tune(f, req);
  REQUIRE(o.winner);
  CHECK_FALSE(o.reused);
  CHECK(o.winner->config == "case=fast");
  bool said = false;
  for (const std::string& l : lines)
    said = said || (l.find("the stored 'case=nonexistent' cannot be used") != std::string::npos &&
                    l.find("searching again") != std::string::npos);
  CHECK(said);
  CHECK(PerfDb(db).find(o.key, TimeKind::modelled)->config == "case=fast");  // the new winner replaced it
}

// A winner is a statement about one product's timing of the kernels one build generates. Before the
// key held the product and the build id, MI325X reused MI300X's winner (same gfx942, 304 CUs) and
// every later build reused the winners of older ones.
TEST_CASE("build-time lookup: a winner of another product or another build is not reused", "[tune][tuner][db]") {
  std::string db = temp_path("product_build.db");
  PerfRecord r;
  r.key = PerfKey{.arch = "gfx942",
                  .cus = 304,
                  .product = "mi300x",
                  .family = "dwconv3d",
                  .problem = dwconv3d_family().canonical_problem(kSmall),
                  .toolchain = toolchain_version(),
                  .project_version = project_version(),
                  .build_id = build_id()};
  r.source = TimeKind::modelled;
  r.source_label = "model mi300x (modelled)";
  r.config = "variant=lds_fmac";
  r.time_ms = 1.0;
  r.samples = {1.0};
  r.strategy = "two-level";
  r.candidates = 1;
  PerfRecord old_build = r;
  old_build.key.product = "mi325x";
  old_build.key.build_id = "build-id:0123456789abcdef";
  PerfDb(db).store(r);
  PerfDb(db).store(old_build);
  CHECK(build_id().rfind("build-id:", 0) == 0);  // this project links with a GNU build-id note
  BuildChoice same = best_config(dwconv3d_family(), kSmall, Arch::gfx942, 304, "mi300x", db);
  REQUIRE(same.record);
  CHECK(same.record->key.product == "mi300x");
  // mi325x has only the other build's row: untuned, not mi300x's winner and not the stale one.
  BuildChoice other = best_config(dwconv3d_family(), kSmall, Arch::gfx942, 304, "mi325x", db);
  CHECK_FALSE(other.record);
  CHECK(other.source == "untuned (no database record)");
}
