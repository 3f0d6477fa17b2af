// Product descriptions as JSON files (runtime/model/product_file): every field of Hardware
// round-trips, a kernel modelled with a built-in and with its exported file gives the same report,
// and malformed files give errors naming the file, the key and what is valid.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <utility>

#include "jit/isa/error.hpp"
#include "runtime/model/product_file.hpp"
#include "tests/cli_run.hpp"
#include "tools/model_micro_kernels.hpp"

using namespace cdnajit;
using Catch::Contains;

namespace {

// The number of fields of an aggregate: the most initialisers `T{...}` accepts. Counting the
// struct itself (not the file's table) makes a field added to Hardware without a key in
// product_file.cpp fail this test instead of silently not round-tripping.
struct AnyField {
  template <class T>
  operator T() const;
};
template <size_t>
using Any = AnyField;
template <class T, size_t... I>
constexpr bool brace_constructible(std::index_sequence<I...>) {
  return requires { T{Any<I>{}...}; };
}
template <class T, size_t N = 0>
constexpr size_t aggregate_fields() {
  if constexpr (brace_constructible<T>(std::make_index_sequence<N + 1>{}))
    return aggregate_fields<T, N + 1>();
  else
    return N;
}

struct TempDir {
  std::filesystem::path path =
      std::filesystem::temp_directory_path() / ("cdnajit_product_file_" + std::to_string(getpid()));
  TempDir() { std::filesystem::create_directories(path); }
  ~TempDir() { std::filesystem::remove_all(path); }
  std::string write(const std::string& name, const std::string& text) const {
    const std::string p = (path / name).string();
    std::ofstream(p) << text;
    return p;
  }
};

// mi300x's exported text with one key's line replaced (or removed when `line` is empty).
std::string edited(const std::string& key, const std::string& line) {
  std::istringstream in(model::product_to_json(model::product("mi300x")));
  std::string out, l;
  while (std::getline(in, l)) {
    if (l.find("\"" + key + "\":") != std::string::npos) {
      if (line.empty()) continue;
      l = "  " + line + (l.back() == ',' ? "," : "");
    }
    out += l + "\n";
  }
  return out;
}

std::string load_error(const TempDir& d, const std::string& text) {
  const std::string p = d.write("bad.json", text);
  try {
    model::load_product_file(p);
  } catch (const Error& e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace

TEST_CASE("a product file has one key per field of Hardware", "[model][product_file]") {
  constexpr size_t n = aggregate_fields<model::Hardware>();
  static_assert(n > 40, "the aggregate count must see Hardware's fields");
  CHECK(model::product_field_keys().size() == n);
}

TEST_CASE("every built-in product round-trips through its JSON text", "[model][product_file]") {
  for (const model::Hardware& hw : model::products()) {
    INFO(hw.name);
    const std::string text = model::product_to_json(hw);
    const model::ProductDescription back = model::product_from_json(text, hw.name + ".json");
    CHECK(model::product_to_json(back.hw) == text);
    CHECK(!back.calibrated);
    // Spot checks that the values, not only the text, come back (doubles bit for bit).
    CHECK(back.hw.clock_ghz == hw.clock_ghz);
    CHECK(back.hw.hbm_achievable_share == hw.hbm_achievable_share);
    CHECK(back.hw.mall_bytes == hw.mall_bytes);
    CHECK(back.hw.arch == hw.arch);
    CHECK(back.hw.rotate_first_simd_per_workgroup == hw.rotate_first_simd_per_workgroup);
    CHECK(back.hw.first_simd_by_cu == hw.first_simd_by_cu);
  }
  // A switch turned off comes back off (the built-in products have it on).
  model::Hardware off = model::product("mi300x");
  REQUIRE(off.first_simd_by_cu);
  off.first_simd_by_cu = false;
  off.name = "mi300x-simd0";
  const model::ProductDescription back = model::product_from_json(model::product_to_json(off), "mi300x-simd0.json");
  CHECK_FALSE(back.hw.first_simd_by_cu);
  CHECK(back.hw.first_simd_of_cu(5) == 0);
  CHECK(model::product("mi300x").first_simd_of_cu(5) == 1);
  // A calibration note survives the round trip.
  model::CalibrationNote note{"hip:0 (test)", "2026-01-01T00:00:00Z", "measured (hipEvent)", "mi300x", {"a", "b"}};
  model::Hardware h = model::product("mi300x");
  h.name = "mi300x-cal";
  h.hbm_achievable_share = 0.7;
  const model::ProductDescription d = model::product_from_json(model::product_to_json(h, note), "cal.json");
  REQUIRE(d.calibrated);
  CHECK(d.calibrated->kernels == note.kernels);
  CHECK(d.calibrated->device == note.device);
  CHECK(d.hw.hbm_achievable_share == 0.7);
}

TEST_CASE("a kernel modelled with a built-in and with its exported file gives the same report", "[model][product_file]") {
  TempDir dir;
  for (const model::Hardware& hw : model::products()) {
    INFO(hw.name);
    const std::string path = dir.write(hw.name + ".json", model::product_to_json(hw));
    const model::Hardware& loaded = model::resolve_product(path);
    CHECK(&loaded != &hw);
    CHECK(&model::resolve_product(path) == &loaded);  // loaded once per path
    auto a = model_micro::stream_copy(hw.arch, hw, 64, 1);
    auto b = model_micro::stream_copy(loaded.arch, loaded, 64, 1);
    CHECK(model::format_report(a.report) == model::format_report(b.report));
    CHECK(a.report.ms == b.report.ms);
  }
}

TEST_CASE("a malformed product file is an error naming the file, the key and what is valid", "[model][product_file]") {
  TempDir dir;
  const std::string file = (dir.path / "bad.json").string();
  CHECK_THAT(load_error(dir, edited("cus", "\"cu\": 304")),
             Contains(file) && Contains("unknown key 'cu'") && Contains("valid keys:") && Contains("cus_per_xcd"));
  CHECK_THAT(load_error(dir, edited("hbm_latency", "")),
             Contains(file) && Contains("missing key 'hbm_latency'") && Contains("an integer from 0"));
  CHECK_THAT(load_error(dir, edited("cus", "\"cus\": \"304\"")),
             Contains(file) && Contains("key 'cus'") && Contains("is string") && Contains("an integer from 1 to 4096"));
  CHECK_THAT(load_error(dir, edited("cus", "\"cus\": 304.5")), Contains("key 'cus'") && Contains("304.5"));
  CHECK_THAT(load_error(dir, edited("hbm_achievable_share", "\"hbm_achievable_share\": 1.5")),
             Contains("key 'hbm_achievable_share'") && Contains("1.5 is out of range") && Contains("above 0 to 1"));
  CHECK_THAT(load_error(dir, edited("clock_ghz", "\"clock_ghz\": 0")), Contains("key 'clock_ghz'") && Contains("out of range"));
  CHECK_THAT(load_error(dir, edited("lds_bytes", "\"lds_bytes\": -65536")), Contains("key 'lds_bytes'") && Contains("out of range"));
  CHECK_THAT(load_error(dir, edited("l2_bytes", "\"l2_bytes\": 18446744073709551615")), Contains("key 'l2_bytes'") && Contains("out of range"));
  CHECK_THAT(load_error(dir, edited("arch", "\"arch\": \"gfx90a\"")), Contains("key 'arch'") && Contains("gfx942 or gfx950"));
  CHECK_THAT(load_error(dir, edited("free_wave_slots_at_wave_end", "\"free_wave_slots_at_wave_end\": 1")),
             Contains("key 'free_wave_slots_at_wave_end'") && Contains("true or false"));
  CHECK_THAT(load_error(dir, edited("cache_line", "\"cache_line\": 96")), Contains("key 'cache_line'") && Contains("power of two"));
  CHECK_THAT(load_error(dir, edited("lds_halves", "\"lds_halves\": 8")), Contains("key 'lds_halves'") && Contains("simds"));
  CHECK_THAT(load_error(dir, edited("format", "\"format\": \"cdnajit-product 2\"")), Contains("key 'format'") && Contains("cdnajit-product 1"));
  CHECK_THAT(load_error(dir, edited("name", "\"name\": \"MI300X!\"")), Contains("key 'name'") && Contains("not a valid name"));
  // A built-in name with changed figures would label its times as the built-in's.
  CHECK_THAT(load_error(dir, edited("hbm_tbps", "\"hbm_tbps\": 6.0")),
             Contains("key 'name'") && Contains("'mi300x' is a built-in product") && Contains("a name of its own"));
  CHECK_THAT(load_error(dir, edited("cus", "\"cus\": 304, \"cus\": 300")), Contains("key 'cus' given twice"));
  CHECK_THAT(load_error(dir, "{\"format\": "), Contains(file) && Contains("not a JSON product description"));
  CHECK_THAT(load_error(dir, "[1, 2]"), Contains("a JSON object, not array"));
  CHECK_THAT(load_error(dir, edited("format", "\"format\": \"cdnajit-product 1\", \"calibrated\": {\"device\": 3}")),
             Contains("key 'calibrated.device'") && Contains("a string"));
  CHECK_THROWS_WITH(model::load_product_file((dir.path / "absent.json").string()), Contains("absent.json: cannot read"));
  // The resolver: a name that is not built in says both forms.
  CHECK_THROWS_WITH(model::resolve_product("mi250"),
                    Contains("unknown product 'mi250'") && Contains("mi300x, mi325x, mi350x, mi355x") && Contains("FILE.json"));
  CHECK(&model::resolve_product_or_default("", Arch::gfx942) == &model::default_product(Arch::gfx942));
  CHECK(model::product_name_problem("mi300x-lab").empty());
  CHECK_THAT(model::product_name_problem("mi355x"), Contains("built-in"));
  CHECK_THAT(model::product_name_problem("My GPU"), Contains("lower-case"));
}

TEST_CASE("cdnajit model export, and --model FILE.json wherever --model NAME is accepted", "[model][product_file][cli]") {
  using cdnajit_test::cli;
  TempDir dir;
  const std::string json = (dir.path / "mi300x.json").string(), co = (dir.path / "va.co").string();
  REQUIRE(cli("model export mi300x -o " + json).status == 0);
  CHECK(cli("model export mi300x").out == model::product_to_json(model::product("mi300x")));
  CHECK_THAT(cli("model check " + json).out, Contains("product mi300x") && Contains("valid"));
  CHECK_THAT(cli("model list").out, Contains("mi350x") && Contains("(default for gfx950)"));
  cdnajit_test::Run bad = cli("model export mi250");
  CHECK(bad.status == 2);
  CHECK_THAT(bad.out, Contains("unknown product 'mi250'"));

  REQUIRE(cli("build --kernel vector_add --arch gfx942 -o " + co).status == 0);
  const std::string run = "run " + co + " --kernel vector_add --grid 64 --block 256 --arg buf:a:65536:iota "
                          "--arg buf:b:65536:iota --arg buf:out:65536 --arg u32:16384 --model ";
  // The modelled report (not the simulator's host times) is the same for the name and its file.
  auto modelled = [](const std::string& out) {
    std::string m;
    std::istringstream in(out);
    for (std::string l; std::getline(in, l);)
      if (l.rfind("modelled (model", 0) == 0) m += l + "\n";
    return m;
  };
  cdnajit_test::Run by_name = cli(run + "mi300x"), by_file = cli(run + json);
  REQUIRE(by_name.status == 0);
  REQUIRE(by_file.status == 0);
  CHECK_THAT(by_file.out, Contains("modelled (model mi300x): vector_add"));
  CHECK(modelled(by_name.out) == modelled(by_file.out));
  // gemm and gemm-mx model on the arch's default product when given none (they named mi355x
  // themselves before), and take a product file.
  const std::string dflt = "modelled (model " + model::default_product(Arch::gfx950).name + ")";
  const std::string gemm = "gemm --m 256 --n 256 --k 256 --arch gfx950 --model-only";
  CHECK_THAT(cli(gemm).out, Contains(dflt));
  CHECK_THAT(cli("gemm-mx --m 256 --n 256 --k 256 --model-only").out, Contains(dflt));
  const std::string mi355x = dir.write("mi355x.json", model::product_to_json(model::product("mi355x")));
  CHECK_THAT(cli(gemm + " --model " + mi355x).out, Contains("modelled (model mi355x)"));
  const std::string broken = dir.write("broken.json", edited("hbm_latency", ""));
  cdnajit_test::Run r = cli(run + broken);
  CHECK(r.status == 2);  // a usage error, before the kernel runs
  CHECK_THAT(r.out, Contains("broken.json: missing key 'hbm_latency'"));
}
