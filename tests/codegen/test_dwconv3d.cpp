// Generated depthwise conv3d kernels on the simulator (gfx942 and gfx950):
//  - every variant with fmac arithmetic bit-for-bit equal to the HIP V97 reference;
//  - every variant with dot2 arithmetic bit-for-bit equal to the CPU dot2 model;
//  - every kernel within tolerance of fp64 (calc_diff < 1e-5);
//  - the builder errors for impossible requests.
#include <catch2/catch.hpp>

#include <fmt/format.h>

#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <map>

#include "codegen/dwconv3d.hpp"
#include "tools/jobs/dwconv3d_models.hpp"
#include "codegen/hip_sources.hpp"
#include "tools/jobs/seed_job.hpp"
#include "jit/isa/error.hpp"
#include "runtime/device.hpp"
#include "runtime/hip_source.hpp"
#include "jit/codeobject/code_object.hpp"
#include "runtime/sim/simulator.hpp"

using namespace cdnajit;
using namespace cdnajit::codegen;

namespace {

DwConvShape shape(int N, int C, int D, int H, int W, int KD, int KH, int KW, int pd, int ph, int pw) {
  DwConvShape s;
  s.N = N; s.C = C; s.D = D; s.H = H; s.W = W; s.KD = KD; s.KH = KH; s.KW = KW;
  s.padD = pd; s.padH = ph; s.padW = pw;
  return s;
}

// Every registered VALU variant (codegen::dw_variants()); the MFMA variant has its own shape
// rules and same-order reference and is tested in test_dwconv_mfma.cpp.
std::vector<DwVariant> all_variants() {
  std::vector<DwVariant> v;
  for (const DwVariantInfo& i : dw_variants())
    if (i.arithmetic != DwArithmetic::mfma) v.push_back(i.id);
  return v;
}

struct Case {
  DwConvShape s;
  const char* what;
};

// Small shapes (the simulator is a CPU) covering the edges the generator handles.
const std::vector<Case>& cases() {
  static const std::vector<Case> c = {
      {shape(1, 1, 3, 9, 80, 3, 5, 5, 0, 2, 2), "seed-like row, DMA, 2 steps with a partial one"},
      {shape(1, 2, 3, 5, 16, 3, 3, 3, 1, 1, 1), "odd padW: element copies instead of DMA"},
      {shape(2, 2, 4, 4, 10, 3, 3, 3, 1, 1, 1), "N = 2"},
      {shape(1, 3, 2, 1, 37, 1, 1, 7, 0, 0, 3), "H = 1, KD = 1, KW = 7, odd W"},
      {shape(1, 1, 5, 3, 150, 3, 3, 5, 1, 1, 2), "W = 150 (> 128, not a multiple), 3 DMA chunks"},
      {shape(1, 2, 3, 6, 12, 3, 3, 3, 0, 0, 0), "zero padding"},
      {shape(1, 4, 3, 3, 9, 3, 3, 3, 1, 1, 1), "odd W_out: half-pair stores"},
      {shape(1, 1, 3, 9, 20, 3, 7, 7, 1, 3, 3), "KH = KW = 7"},
      {shape(2, 1, 1, 2, 6, 1, 1, 1, 0, 0, 0), "1x1x1 kernel"},
      {shape(1, 2, 4, 5, 30, 5, 3, 3, 2, 1, 1), "KD = 5 with depth padding 2"},
      {shape(1, 1, 2, 7, 129, 1, 3, 3, 0, 1, 1), "W = 129"},
      {shape(1, 1, 3, 4, 64, 3, 5, 5, 1, 2, 2), "C = 1, W_out = 64"},
      {shape(1, 1, 3, 8, 128, 3, 3, 3, 1, 1, 2), "padW = 2 with KW = 3: W_out = 130"},
      {shape(1, 2, 3, 3, 23, 3, 3, 5, 1, 1, 2), "W_out = 23 (3 mod 4): KW_PACK = 4's last item has 3 outputs"},
  };
  return c;
}

struct Data {
  std::vector<uint16_t> x, w;
  std::vector<double> ref64;
};

std::vector<uint16_t> run(Device& dev, std::span<const uint8_t> co, const std::string& kernel, uint32_t grid,
                          const DwConvShape& s, const Data& d, sim::Stats* stats = nullptr) {
  Buffer in = dev.upload(std::span<const uint16_t>(d.x), "input");
  Buffer wt = dev.upload(std::span<const uint16_t>(d.w), "weight");
  Buffer out = dev.alloc(size_t(s.output_elems()) * 2, "output");
  std::vector<uint16_t> poison(size_t(s.output_elems()), 0x7fbf);  // NaN: unwritten outputs show up
  dev.copy_to_device(out, poison.data(), poison.size() * 2);
  Module m = dev.load(co);
  LaunchResult r = dev.launch(m.kernel(kernel), {grid}, {256}, 0, KernelArgs().ptr(in).ptr(wt).ptr(out));
  if (stats && r.sim_stats) *stats = *r.sim_stats;
  auto got = dev.download<uint16_t>(out);
  dev.free(in);
  dev.free(wt);
  dev.free(out);
  return got;
}

Device& sim_device(Arch a, sim::Options::Dot2 mode = sim::Options::Dot2::FusedSingleRounding) {
  static std::map<std::pair<Arch, int>, std::unique_ptr<Device>> devs;
  auto& d = devs[{a, int(mode)}];
  if (!d) {
    sim::Options o;
    o.dot2 = mode;
    d = open_sim_device(a, o);
  }
  return *d;
}

void check_case(Arch arch, const Case& c, uint64_t seed) {
    const DwConvShape& s = c.s;
    INFO(fmt::format("{} on {}: {}", s.str(), arch_name(arch), c.what));
    Data d{random_bf16(size_t(s.input_elems()), seed), random_bf16(size_t(s.weight_elems()), seed + 1000), {}};
    d.ref64 = dwconv3d_reference_fp64(s, d.x, d.w);
    Device& dev = sim_device(arch);

    auto v97_co = compile_hip(dwconv3d_hip_source(HipReference::v97), arch, dwconv3d_hip_flags(s, HipReference::v97));
    auto v97 = run(dev, v97_co, dwconv3d_hip_kernel_name(HipReference::v97),
                   dwconv3d_hip_grid(s, HipReference::v97), s, d);
    auto fmac_model = dwconv3d_model_fmac(s, d.x, d.w);
    // The HIP reference itself does the fmac arithmetic.
    BitCompare ref_vs_model = compare_bits(v97, fmac_model);
    INFO("HIP V97 vs fmac model: " << describe_mismatch(ref_vs_model, s));
    REQUIRE(ref_vs_model.equal());

    // Every variant in the dense mapping, and the seed JIT variants also in the
    // wave_rows mapping (the same arithmetic per output, so the same bits).
    std::vector<std::pair<DwVariant, DwMapping>> builds;
    for (DwVariant v : all_variants()) {
      builds.push_back({v, DwMapping::dense});
      if (variant_info(v).seed_mapping != DwMapping::dense) builds.push_back({v, variant_info(v).seed_mapping});
    }
    for (auto [v, mapping] : builds) {
      if (!variant_available(v, arch)) continue;
      INFO("variant " << variant_name(v) << ", mapping " << mapping_name(mapping));
      BuildResult b = build_dwconv3d(s, v, arch, mapping);
      auto got = run(dev, b.code_object, b.name, uint32_t(dwconv_geometry(s, arch, v, mapping).grid_x), s, d);
      if (!uses_dot2(v, arch)) {
        BitCompare cmp = compare_bits(got, v97);
        INFO(variant_name(v) << " vs HIP V97: " << describe_mismatch(cmp, s));
        CHECK(cmp.equal());
      } else {
        BitCompare cmp = compare_bits(got, dwconv3d_model(s, v, arch, d.x, d.w));
        INFO(variant_name(v) << " vs CPU model: " << describe_mismatch(cmp, s));
        CHECK(cmp.equal());
      }
      double cd = calc_diff(got, d.ref64), mae = max_abs_error(got, d.ref64);
      std::cout << fmt::format("  {:<7} {:<16} {:<9} {:<44} max_abs_err {:.3e} calc_diff {:.3e}\n", arch_name(arch),
                               variant_name(v), mapping_name(mapping), s.str(), mae, cd);
      CHECK(cd < 1e-5);
    }
}

// Every shape is tried even when one fails (an exception fails only its shape).
void check_arch(Arch arch) {
  uint64_t seed = 10;
  for (const Case& c : cases()) {
    try {
      check_case(arch, c, seed++);
    } catch (const std::exception& e) {
      FAIL_CHECK(fmt::format("{} on {} ({}): {}", c.s.str(), arch_name(arch), c.what, e.what()));
    }
  }
}

}  // namespace

TEST_CASE("dwconv3d kernels on the gfx942 simulator", "[codegen][sim][gfx942]") { check_arch(Arch::gfx942); }
TEST_CASE("dwconv3d kernels on the gfx950 simulator", "[codegen][sim][gfx950]") { check_arch(Arch::gfx950); }

TEST_CASE("plain HIP kernel equals the fmac model", "[codegen][sim]") {
  DwConvShape s = shape(1, 2, 3, 4, 11, 3, 3, 5, 1, 1, 2);
  Data d{random_bf16(size_t(s.input_elems()), 3), random_bf16(size_t(s.weight_elems()), 4), {}};
  for (Arch a : {Arch::gfx942, Arch::gfx950}) {
    auto co = compile_hip(dwconv3d_hip_source(HipReference::naive), a, dwconv3d_hip_flags(s, HipReference::naive));
    auto got = run(sim_device(a), co, dwconv3d_hip_kernel_name(HipReference::naive),
                   dwconv3d_hip_grid(s, HipReference::naive), s, d);
    BitCompare cmp = compare_bits(got, dwconv3d_model_fmac(s, d.x, d.w));
    INFO(describe_mismatch(cmp, s));
    CHECK(cmp.equal());
  }
}

// DS read instructions a kernel issues before its first multiply-add (the
// only DS reads are the compute loop's): all of an item's reads for V97's
// batched schedule, one filter row's for a row-interleaved one.
int ds_reads_before_first_fma(const std::vector<uint8_t>& code, HipReference r) {
  CodeObject co = read_code_object(code);
  sim::Simulator simulator(co.arch);
  std::istringstream lines(simulator.disassemble(co, dwconv3d_hip_kernel_name(r)));
  int reads = 0;
  for (std::string line; std::getline(lines, line);) {
    std::string text = line.substr(line.find(": ") + 2);
    if (text.rfind("ds_read", 0) == 0) ++reads;
    else if (text.rfind("v_fma", 0) == 0 && reads > 0) return reads;
  }
  return reads;
}

TEST_CASE("HIP V97-sgb is bitwise V97 with a row-interleaved schedule", "[codegen][sim][sgb]") {
  // A subset of the shapes (each needs two clang compiles per arch).
  const std::vector<Case> subset = {cases()[0], cases()[1], cases()[3], cases()[6], cases()[7]};
  for (Arch a : {Arch::gfx942, Arch::gfx950}) {
    uint64_t seed = 40;
    for (const Case& c : subset) {
      const DwConvShape& s = c.s;
      INFO(fmt::format("{} on {}: {}", s.str(), arch_name(a), c.what));
      Data d{random_bf16(size_t(s.input_elems()), seed), random_bf16(size_t(s.weight_elems()), seed + 1000), {}};
      ++seed;
      std::map<HipReference, sim::Stats> stats;  // (run() wants one)
      std::map<HipReference, std::vector<uint16_t>> out;
      std::map<HipReference, std::vector<uint8_t>> codes;
      for (HipReference r : {HipReference::v97, HipReference::v97_sgb}) {
        codes[r] = compile_hip(dwconv3d_hip_source(r), a, dwconv3d_hip_flags(s, r));
        out[r] = run(sim_device(a), codes[r], dwconv3d_hip_kernel_name(r), dwconv3d_hip_grid(s, r), s, d, &stats[r]);
      }
      BitCompare cmp = compare_bits(out[HipReference::v97_sgb], out[HipReference::v97]);
      INFO("V97-sgb vs V97: " << describe_mismatch(cmp, s));
      CHECK(cmp.equal());
      CHECK(compare_bits(out[HipReference::v97_sgb], dwconv3d_model_fmac(s, d.x, d.w)).equal());
      // Same arithmetic, different order: clang's V97 issues every read of an
      // item before its first multiply-add; V97-sgb only the first row's
      // (clang may merge two dword reads into one ds_read2_b32).
      const int R = (s.KW + 1) / 2;
      int v97 = ds_reads_before_first_fma(codes[HipReference::v97], HipReference::v97);
      int sgb = ds_reads_before_first_fma(codes[HipReference::v97_sgb], HipReference::v97_sgb);
      std::cout << fmt::format("  {:<7} {:<40} DS reads before the first FMA: V97 {}, V97-sgb {} (dwords per row {})\n",
                               arch_name(a), s.str(), v97, sgb, R);
      // Asserted on the seed's row shape (3x5x5 filter, W = 80), where clang's
      // V97 batches all 15 rows' reads; on other shapes clang's own choices vary.
      if (&c == &subset[0]) {
        CHECK(v97 >= 15);
        CHECK(sgb <= R);
      }
    }
  }
}

TEST_CASE("dot2 kernels follow the simulator's dot2 rounding mode", "[codegen][sim][gfx950]") {
  // The crafted row of test_models.cpp ("a crafted row tells the three arithmetics
  // apart"): its outputs depend on how v_dot2_f32_bf16 rounds. Under each
  // documented simulator mode the kernels match the model of that mode.
  DwConvShape s = shape(1, 2, 1, 1, 6, 1, 1, 5, 0, 0, 0);
  const uint16_t one = 0x3f80, m_one = 0xbf80, e24 = 0x3380, e30 = 0x3080;
  Data d{{one, 0, e24, e30, m_one, 0, 0, one, 0, e24, e30, m_one}, std::vector<uint16_t>(10, one), {}};
  auto model_seq = dwconv3d_model_dot2(s, d.x, d.w, Dot2Rounding::products_then_sum);
  auto model_fused = dwconv3d_model_dot2(s, d.x, d.w, Dot2Rounding::fused_single_rounding);
  REQUIRE_FALSE(compare_bits(model_seq, model_fused).equal());
  uint32_t grid = uint32_t(dwconv_geometry(s, Arch::gfx950).grid_x);
  for (DwVariant v : all_variants()) {
    if (!uses_dot2(v, Arch::gfx950)) continue;
    INFO(variant_name(v));
    BuildResult b = build_dwconv3d(s, v, Arch::gfx950);
    auto seq = run(sim_device(Arch::gfx950, sim::Options::Dot2::ProductsThenSum), b.code_object, b.name, grid, s, d);
    auto fused = run(sim_device(Arch::gfx950), b.code_object, b.name, grid, s, d);
    CHECK(compare_bits(seq, model_seq).describe() == compare_bits(model_seq, model_seq).describe());
    CHECK(compare_bits(fused, model_fused).describe() == compare_bits(model_fused, model_fused).describe());
  }
}

TEST_CASE("generated code uses the instructions of its design", "[codegen][asm]") {
  DwConvShape s = shape(1, 1, 3, 9, 80, 3, 5, 5, 0, 2, 2);
  BuildOptions no_link;
  no_link.link = false;
  std::string fmac = build_dwconv3d(s, DwVariant::lds_fmac, Arch::gfx942, no_link).assembly;
  CHECK(fmac.find("global_load_lds_dword") != std::string::npos);
  CHECK(fmac.find("v_fmac_f32") != std::string::npos);
  CHECK(fmac.find("v_dot2") == std::string::npos);
  std::string dot2 = build_dwconv3d(s, DwVariant::lds_dot2, Arch::gfx950, no_link).assembly;
  CHECK(dot2.find("v_dot2_f32_bf16") != std::string::npos);
  CHECK(dot2.find("v_alignbit_b32") != std::string::npos);
  CHECK(dot2.find("v_cvt_pk_bf16_f32") != std::string::npos);
  DwConvShape odd = s;
  odd.padW = 1;
  odd.KW = 3;
  std::string copy = build_dwconv3d(odd, DwVariant::lds_fmac, Arch::gfx950, no_link).assembly;
  CHECK(copy.find("global_load_lds_dword") == std::string::npos);
  CHECK(copy.find("ds_write_b16") != std::string::npos);
}

namespace {
size_t count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}
}  // namespace

TEST_CASE("each seed variant emits its design's reads and waits", "[codegen][asm]") {
  // Seed-like slice: KD*KH = 15 filter rows, 3 dword reads per row (KW = 5, KW_PACK = 2).
  DwConvShape s = shape(1, 1, 3, 9, 80, 3, 5, 5, 0, 2, 2);
  BuildOptions no_link;
  no_link.link = false;
  auto assembly = [&](DwVariant v) { return build_dwconv3d(s, v, Arch::gfx950, no_link).assembly; };
  std::string b64 = assembly(DwVariant::lds_dot2_b64);
  CHECK(count(b64, "ds_read_b64") == 15);  // pairs (0,1) of each row
  CHECK(count(b64, "ds_read_b32") == 15);  // pair 2 of each row
  CHECK(count(assembly(DwVariant::lds_dot2), "ds_read_b32") == 45);
  // The compute part's waits (the tile phase has its own lgkmcnt(0)).
  std::string ilv = assembly(DwVariant::row_interleaved);
  CHECK(count(ilv, "lgkmcnt(0)") >= 15);
  CHECK(count(ilv, "lgkmcnt(3)") == 0);
  std::string ilv2 = assembly(DwVariant::row_interleaved2);
  CHECK(count(ilv2, "lgkmcnt(3)") == 14);  // rows 0..13 wait with the next row's 3 reads in flight
  std::string pipe = assembly(DwVariant::lds_dot2_pipe);
  CHECK(count(pipe, "lgkmcnt(14)") == 2);  // slices 0 and 1 computed with 15 reads in flight (clamped to 14)
  std::string kwp4 = assembly(DwVariant::lds_dot2_kwp4);
  CHECK(count(kwp4, "ds_read_b32") == 60);  // (KW + 3) / 2 = 4 reads per row
  CHECK(count(kwp4, "v_cvt_pk_bf16_f32") == 2);
  DwConvGeometry g4 = dwconv_geometry(s, Arch::gfx950, DwVariant::lds_dot2_kwp4);
  CHECK(g4.kw_pack == 4);
  CHECK(g4.pairs_per_row == 20);
  CHECK(g4.reads_per_row == 4);
  CHECK(g4.tile_w == 84);  // the last item (p = 19) reads columns 76..83 = W + 2*padW
  DwConvShape s78 = shape(1, 1, 3, 9, 78, 3, 5, 5, 0, 2, 2);  // W_out = 78: the last item reads 76..83
  CHECK(dwconv_geometry(s78, Arch::gfx950, DwVariant::lds_dot2).tile_w == 82);
  CHECK(dwconv_geometry(s78, Arch::gfx950, DwVariant::lds_dot2_kwp4).tile_w == 84);
}

// The compute region of a dwconv .s (from the first ds_read to the first
// bf16 pack) as letters: R = DS read, V = VALU, w = s_waitcnt.
std::string compute_shape(const std::string& assembly) {
  std::istringstream in(assembly);
  std::string out;
  bool on = false;
  for (std::string line; std::getline(in, line);) {
    size_t b = line.find_first_not_of(" \t");
    if (b == std::string::npos) continue;
    std::string word = line.substr(b, line.find_first_of(" \t", b) - b);
    if (word.rfind("ds_read", 0) == 0) on = true;
    if (!on) continue;
    if (word == "v_cvt_pk_bf16_f32" || word == "v_bfe_u32") break;
    if (word.rfind("ds_read", 0) == 0) out += 'R';
    else if (word.rfind("v_", 0) == 0) out += 'V';
    else if (word == "s_waitcnt") out += 'w';
  }
  return out;
}

TEST_CASE("sgb variants are placed in (row reads, row VALU) groups by jit::Interleave", "[codegen][asm]") {
  DwConvShape s = shape(1, 1, 3, 9, 80, 3, 5, 5, 0, 2, 2);
  BuildOptions no_link;
  no_link.link = false;
  for (Arch a : {Arch::gfx942, Arch::gfx950}) {
    for (DwVariant v : {DwVariant::lds_dot2_sgb, DwVariant::lds_fmac_sgb}) {
      if (!variant_available(v, a)) continue;
      INFO(arch_name(a) << " " << variant_name(v));
      std::string shape_text = compute_shape(build_dwconv3d(s, v, a, no_link).assembly);
      std::string no_waits;
      for (char ch : shape_text)
        if (ch != 'w') no_waits += ch;
      // 15 rows of 3 reads then the row's VALU: 10 for dot2 (2 x (alignbit + 2 dot2) + 2 extractions
      // + 2 fmac), 16 for fmac (6 extractions + 10 fmac).
      std::string row = "RRR" + std::string(uses_dot2(v, a) ? 10 : 16, 'V'), want;
      for (int r = 0; r < 15; ++r) want += row;
      INFO(shape_text);
      CHECK(no_waits == want);
      // The reads of a row are waited for inside the row (the pass's waits), never all at once.
      CHECK(shape_text.find("RRRw") != std::string::npos);
      CHECK(shape_text.find("RRRRRR") == std::string::npos);
    }
  }
  // The batched V97 order for contrast: all 45 reads first.
  CHECK(compute_shape(build_dwconv3d(s, DwVariant::lds_dot2, Arch::gfx950, no_link).assembly).rfind(
            std::string(45, 'R'), 0) == 0);
}

TEST_CASE("impossible builds are errors naming the limit", "[codegen][errors]") {
  DwConvShape s = shape(1, 1, 3, 9, 80, 3, 5, 5, 0, 2, 2);
  CHECK_THROWS_WITH(build_dwconv3d(s, DwVariant::lds_dot2, Arch::gfx942), Catch::Contains("gfx950"));
  DwConvShape even = s;
  even.KW = 4;
  CHECK_THROWS_WITH(build_dwconv3d(even, DwVariant::lds_fmac, Arch::gfx950), Catch::Contains("even"));
  DwConvShape big = shape(1, 1, 3, 198, 58, 3, 3, 3, 1, 1, 1);  // 72000-byte tile
  CHECK_THROWS_WITH(build_dwconv3d(big, DwVariant::lds_fmac, Arch::gfx942), Catch::Contains("64 KiB"));
  BuildOptions no_link;
  no_link.link = false;
  CHECK_NOTHROW(build_dwconv3d(big, DwVariant::lds_fmac, Arch::gfx950, no_link));
  DwConvShape huge = shape(1, 1, 7, 400, 40, 7, 3, 3, 3, 1, 1);
  CHECK_THROWS_WITH(build_dwconv3d(huge, DwVariant::lds_dot2, Arch::gfx950), Catch::Contains("160 KiB"));
  for (const DwVariantInfo& v : dw_variants())
    if (v.arithmetic == DwArithmetic::dot2)
      CHECK_THROWS_WITH(build_dwconv3d(s, v.id, Arch::gfx942), Catch::Contains("only on gfx950"));
  CHECK_THROWS_WITH(parse_variant("lds_dot2_b128"), Catch::Contains("lds_dot2_b64"));
  // KW_PACK = 4 widens the tile: a tile that just fits for KW_PACK = 2 can exceed the limit.
  DwConvShape edge = shape(1, 1, 1, 395, 78, 1, 1, 5, 0, 0, 2);  // 395 x 82 x 2 = 64780 bytes; KW_PACK = 4: 395 x 84 x 2
  CHECK_NOTHROW(dwconv_geometry(edge, Arch::gfx942, DwVariant::lds_fmac));
  CHECK_THROWS_WITH(dwconv_geometry(edge, Arch::gfx942, DwVariant::lds_dot2_kwp4), Catch::Contains("64 KiB"));
}

TEST_CASE("seed shape register targets on gfx950", "[codegen][targets]") {
  DwConvShape s = seed_shape();
  for (DwVariant v : all_variants()) {
    for (Arch a : {Arch::gfx942, Arch::gfx950}) {
      if (!variant_available(v, a)) continue;
      BuildResult b = build_dwconv3d(s, v, a);
      std::cout << "  " << format_build_stats(b) << "\n";
      CHECK(b.stats.lds_bytes == dwconv_geometry(s, a, v).tile_bytes);
      CHECK(b.stats.occupancy.waves_per_simd >= 1);
      if (a == Arch::gfx950 && v == DwVariant::lds_dot2) CHECK(b.stats.vgprs <= 98);
      // The seed's row-interleaved JIT kernels used 57 (ilv) and 60 (ilv2) VGPRs.
      if (a == Arch::gfx950 && (v == DwVariant::row_interleaved || v == DwVariant::row_interleaved2))
        CHECK(b.stats.vgprs <= 64);
    }
  }
}

TEST_CASE("dot2 variants execute fewer VALU instructions per output than clang's V97", "[codegen][sim][gfx950]") {
  // One seed channel slice: the seed's H, W and kernel, one depth output.
  DwConvShape s = shape(1, 1, 3, 45, 80, 3, 5, 5, 0, 2, 2);
  Data d{random_bf16(size_t(s.input_elems()), 21), random_bf16(size_t(s.weight_elems()), 22), {}};
  Device& dev = sim_device(Arch::gfx950);
  auto co = compile_hip(dwconv3d_hip_source(HipReference::v97), Arch::gfx950, dwconv3d_hip_flags(s, HipReference::v97));
  sim::Stats ref_stats;
  auto ref = run(dev, co, dwconv3d_hip_kernel_name(HipReference::v97), 1, s, d, &ref_stats);
  double outputs = double(s.output_elems());
  double ref_valu = double(ref_stats.by_unit[int(isa::Unit::VALU)]) * 64 / outputs;
  for (DwVariant v : all_variants()) {
    BuildResult b = build_dwconv3d(s, v, Arch::gfx950);
    sim::Stats st;
    auto got = run(dev, b.code_object, b.name, 1, s, d, &st);
    double valu = double(st.by_unit[int(isa::Unit::VALU)]) * 64 / outputs;
    std::cout << fmt::format("  gfx950 {:<16} VALU/output {:.1f} (HIP V97 {:.1f}), all/output {:.1f} (HIP V97 {:.1f})\n",
                             variant_name(v), valu, ref_valu, double(st.wave_instructions) * 64 / outputs,
                             double(ref_stats.wave_instructions) * 64 / outputs);
    if (!uses_dot2(v, Arch::gfx950)) CHECK(compare_bits(got, ref).equal());
    else CHECK(valu < ref_valu);
  }
}

TEST_CASE("seed job on one channel", "[codegen][sim][seed]") {
  std::ostringstream log;
  SeedJobOptions o;
  o.channels = 1;
  o.device = "sim:gfx950";
  std::string path = "dwconv3d_seed_test.s";
  int rc = run_seed_job(log, Arch::gfx950, DwVariant::lds_dot2, path, o);
  INFO(log.str());
  CHECK(rc == 0);
  CHECK(log.str().find("PASS") != std::string::npos);
  // The log names the reference the bits were compared with and says it is independent.
  CHECK(log.str().find("JIT vs CPU dot2 model (v_dot2_f32_bf16 = exact a.lo*b.lo + a.hi*b.hi + c rounded once") !=
        std::string::npos);
  CHECK(log.str().find("MPFR reference in codegen/reference, independent of the simulator's dot2 code): bit-exact") !=
        std::string::npos);
  std::ifstream f(path);
  std::string first;
  std::getline(f, first);
  CHECK(!first.empty());
  std::remove(path.c_str());
}
