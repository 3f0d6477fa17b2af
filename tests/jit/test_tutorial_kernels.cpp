// The README tutorial's LDS transpose and one-wave MFMA GEMM tile ("Writing a kernel": "An LDS
// transpose", "A one-wave MFMA tile"): the same DSL code as the README, built for gfx942 and gfx950,
// run on the simulator through model::model_launch (the one-call modelled time, printed with its
// "modelled (model <product>)" label), bit for bit against a clang-22 HIP twin, and against the CPU.
#include <catch2/catch.hpp>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <random>
#include <string>
#include <vector>

#include "jit/kernel.hpp"
#include "jit/lib/host_convert.hpp"
#include "runtime/device.hpp"
#include "runtime/model/model_device.hpp"
#include "tests/sim/hip_compile.hpp"
#include "tests/test_support.hpp"

using namespace cdnajit;

namespace {

constexpr uint32_t kN = 256;     // the transpose's n x n matrix (the README's size)
constexpr uint32_t kBatch = 16;  // GEMM tiles, one wave each
constexpr uint32_t kK = 32;      // the GEMM tile's depth

// The README's transpose; `pitch` 65 is the padded tile it shows, 64 the conflicting one.
BuildResult build_transpose(Arch arch, uint32_t n, uint32_t pitch) {
  Kernel k("transpose", arch);
  // README code begins (the README shows these lines verbatim; the last test case checks it)
  k.set_workgroup_size(256);                     // 4 waves; thread t: column t % 64, rows t / 64 + 4i
  Reg in = k.load_arg(k.arg<const float*>("in"));
  Reg out = k.load_arg(k.arg<float*>("out"));
  uint32_t tile = k.lds_alloc("tile", 64 * pitch * 4);
  Reg col = k.vgpr("col"), row = k.vgpr("row"), g = k.vgpr("g"), t = k.vgpr("t");
  Reg w = k.vgpr("w"), rd = k.vgpr("rd"), addr = k.vgpr("addr");
  k.v_and_b32(col, 63, k.workitem_id(0));
  k.v_lshrrev_b32(row, 6, k.workitem_id(0));
  // The tile's corner in bytes: in at rows 64*y, columns 64*x; out at rows 64*x, columns 64*y.
  Reg s_in = k.sgpr("s_in"), s_out = k.sgpr("s_out"), s_t = k.sgpr("s_t");
  k.s_mul_i32(s_in, k.workgroup_id(1), 64 * n * 4);
  k.s_lshl_b32(s_t, k.workgroup_id(0), 8);       // 64 floats
  k.s_add_u32(s_in, s_in, s_t);
  k.s_mul_i32(s_out, k.workgroup_id(0), 64 * n * 4);
  k.s_lshl_b32(s_t, k.workgroup_id(1), 8);
  k.s_add_u32(s_out, s_out, s_t);
  k.v_lshlrev_b32(t, 2, col);
  k.v_mul_u32_u24(g, n * 4, row);
  k.v_add_u32(g, g, t);                          // (row * n + col) * 4 inside the tile
  k.v_mul_u32_u24(w, pitch * 4, row);
  k.v_add_u32(w, w, t);                          // LDS write: tile[row][col]
  k.v_lshlrev_b32(t, 2, row);
  k.v_mul_u32_u24(rd, pitch * 4, col);
  k.v_add_u32(rd, rd, t);                        // LDS read: tile[col][row]
  Reg x = k.vgpr("x", 16);
  k.s_waitcnt(lgkmcnt(0));
  k.v_add_u32(addr, s_in, g);
  for (int i = 0; i < 16; ++i) {
    k.global_load_dword(x[i], addr, in);
    k.v_add_u32(addr, 4 * n * 4, addr);          // 4 rows down
  }
  k.s_waitcnt(vmcnt(0));
  for (int i = 0; i < 16; ++i) k.ds_write_b32(w, x[i], Offset(tile + i * 4 * pitch * 4));
  k.s_waitcnt(lgkmcnt(0));
  k.s_barrier();
  for (int i = 0; i < 16; ++i) k.ds_read_b32(x[i], rd, Offset(tile + i * 4 * 4));
  k.s_waitcnt(lgkmcnt(0));
  k.v_add_u32(addr, s_out, g);
  for (int i = 0; i < 16; ++i) {
    k.global_store_dword(addr, x[i], out);
    k.v_add_u32(addr, 4 * n * 4, addr);
  }
  k.s_endpgm();
  // README code ends
  return k.build();
}

// The README's MFMA tile: C[b] (32x32 fp32) = A[b] (32xK bf16, row-major) x B[b], B[b] stored
// transposed (32xK, row-major: row j is column j of B), one wave per b.
BuildResult build_mfma_tile(Arch arch, uint32_t K) {
  const bool gfx950 = arch == Arch::gfx950;
  const uint32_t kpl = gfx950 ? 8 : 4;           // bf16 per lane: 32x32x16 (gfx950) or 32x32x8
  Kernel k("mfma_tile", arch);
  // README code begins
  k.set_workgroup_size(64);
  Reg a = k.load_arg(k.arg<const bf16*>("a"));
  Reg b = k.load_arg(k.arg<const bf16*>("b"));
  Reg c = k.load_arg(k.arg<float*>("c"));
  Reg i = k.vgpr("i"), half = k.vgpr("half"), ab = k.vgpr("ab"), t = k.vgpr("t"), co = k.vgpr("co");
  Reg s_ab = k.sgpr("s_ab"), s_c = k.sgpr("s_c");
  k.v_and_b32(i, 31, k.workitem_id(0));          // A row, B column, C column
  k.v_lshrrev_b32(half, 5, k.workitem_id(0));    // lanes 32-63 hold the upper kpl k of each step
  k.s_mul_i32(s_ab, k.workgroup_id(0), 32 * K * 2);
  k.s_mul_i32(s_c, k.workgroup_id(0), 32 * 32 * 4);
  k.v_mul_u32_u24(ab, K * 2, i);
  k.v_mul_u32_u24(t, kpl * 2, half);
  k.v_add_u32(ab, ab, t);
  k.v_add_u32(ab, s_ab, ab);                     // (i * K + half * kpl) * 2 bytes
  k.s_waitcnt(lgkmcnt(0));
  const uint32_t steps = K / (2 * kpl);
  std::vector<Reg> av, bv;
  for (uint32_t s = 0; s < steps; ++s) {
    av.push_back(k.vgpr("a", kpl / 2));
    bv.push_back(k.vgpr("b", kpl / 2));
    if (gfx950) {
      k.global_load_dwordx4(av[s], ab, a, Offset(s * kpl * 4));
      k.global_load_dwordx4(bv[s], ab, b, Offset(s * kpl * 4));
    } else {
      k.global_load_dwordx2(av[s], ab, a, Offset(s * kpl * 4));
      k.global_load_dwordx2(bv[s], ab, b, Offset(s * kpl * 4));
    }
  }
  Reg acc = k.vgpr("acc", 16);
  for (int r = 0; r < 16; ++r) k.v_mov_b32(acc[r], 0);
  k.s_waitcnt(vmcnt(0));
  for (uint32_t s = 0; s < steps; ++s) {
    if (gfx950) k.v_mfma_f32_32x32x16_bf16(acc, av[s], bv[s], acc);
    else k.v_mfma_f32_32x32x8_bf16(acc, av[s], bv[s], acc);
  }
  // Lane l, register r holds C[8 * (r / 4) + 4 * (l / 32) + r % 4][l % 32].
  k.v_mul_u32_u24(co, 4 * 32 * 4, half);
  k.v_lshlrev_b32(t, 2, i);
  k.v_add_u32(co, co, t);
  k.v_add_u32(co, s_c, co);
  for (int r = 0; r < 16; ++r) k.global_store_dword(co, acc[r], c, Offset((8 * (r / 4) + r % 4) * 32 * 4));
  k.s_endpgm();
  // README code ends
  return k.build();
}

// The twins: the same data movement and the same MFMAs in the same order, in HIP.
const char* const kTwins = R"(
#define N 256
#define K 32
extern "C" __global__ void transpose(const float* in, float* out) {
  __shared__ float tile[64][65];
  const unsigned col = tid() % 64, row = tid() / 64, x = blockIdx.x, y = blockIdx.y;
  for (int i = 0; i < 16; ++i) tile[row + 4 * i][col] = in[(y * 64 + row + 4 * i) * N + x * 64 + col];
  sync();
  for (int i = 0; i < 16; ++i) out[(x * 64 + row + 4 * i) * N + y * 64 + col] = tile[col][row + 4 * i];
}

typedef short s4 __attribute__((ext_vector_type(4)));
typedef __bf16 y8 __attribute__((ext_vector_type(8)));
typedef float f16v __attribute__((ext_vector_type(16)));
extern "C" __global__ void mfma_tile(const unsigned short* a, const unsigned short* b, float* c) {
  const unsigned l = tid(), i = l % 32, h = l / 32;
  const unsigned short* A = a + bid() * 32 * K;
  const unsigned short* B = b + bid() * 32 * K;
  f16v acc = {};
#if defined(__gfx950__)
  for (int s = 0; s < K / 16; ++s) {
    y8 x, y;
    for (int j = 0; j < 8; ++j) {
      x[j] = __builtin_bit_cast(__bf16, A[i * K + s * 16 + h * 8 + j]);
      y[j] = __builtin_bit_cast(__bf16, B[i * K + s * 16 + h * 8 + j]);
    }
    acc = __builtin_amdgcn_mfma_f32_32x32x16_bf16(x, y, acc, 0, 0, 0);
  }
#else
  for (int s = 0; s < K / 8; ++s) {
    s4 x, y;
    for (int j = 0; j < 4; ++j) {
      x[j] = (short)A[i * K + s * 8 + h * 4 + j];
      y[j] = (short)B[i * K + s * 8 + h * 4 + j];
    }
    acc = __builtin_amdgcn_mfma_f32_32x32x8bf16_1k(x, y, acc, 0, 0, 0);
  }
#endif
  float* C = c + bid() * 32 * 32;
  for (int r = 0; r < 16; ++r) C[(8 * (r / 4) + 4 * h + r % 4) * 32 + i] = acc[r];
}
)";

// The twins' code object, or empty with `why` when clang++-22 cannot run (the test is skipped then).
std::vector<uint8_t> compile_twins(Arch arch, std::string& why) {
  try {
    return simtest::compile_hip(kTwins, arch);
  } catch (const std::exception& e) {
    const std::string msg = e.what();
    if (msg.find("cannot run") == std::string::npos && msg.find("posix_spawn failed") == std::string::npos) throw;
    why = "clang++-22 is not available to compile the HIP twins: " + msg;
    return {};
  }
}

size_t mismatches(const std::vector<uint32_t>& got, const std::vector<uint32_t>& want, std::string& first) {
  size_t n = 0;
  for (size_t i = 0; i < want.size(); ++i)
    if (got[i] != want[i] && n++ == 0) {
      char b[96];
      std::snprintf(b, sizeof b, "index %zu: got 0x%08x want 0x%08x", i, got[i], want[i]);
      first = b;
    }
  return n;
}

void print_modelled(const char* what, Arch arch, const model::ModelledLaunch& m) {
  std::printf("%s %s: modelled (model %s): %.0f cycles, %.5f ms\n", what, std::string(arch_name(arch)).c_str(),
              m.report.model.c_str(), m.report.cycles, m.report.ms);
}

}  // namespace

TEST_CASE("the README's LDS transpose matches its HIP twin bit for bit and is conflict-free", "[jit][tutorial][sim]") {
  for (Arch arch : {Arch::gfx942, Arch::gfx950}) {
    INFO(arch_name(arch));
    std::string why;
    const std::vector<uint8_t> twins = compile_twins(arch, why);
    if (twins.empty()) CDNAJIT_SKIP(why);
    std::mt19937 rng(uint32_t(test::test_seed("tutorial_transpose", 5)));
    std::vector<uint32_t> host(kN * kN);
    for (uint32_t& v : host) v = uint32_t(rng());   // any bits: a transpose moves them unchanged
    auto dev = open_device(arch == Arch::gfx942 ? "sim:gfx942" : "sim:gfx950");
    Buffer bin = dev->upload(host, "in");
    const model::Hardware& hw = model::default_product(arch);
    auto run = [&](const std::vector<uint8_t>& co, const char* what) {
      Buffer bout = dev->alloc(host.size() * 4, "out");
      auto m = model::model_launch(*dev, dev->load(co).kernel("transpose"), Dim3{kN / 64, kN / 64, 1}, Dim3{256, 1, 1},
                                   0, KernelArgs().ptr(bin).ptr(bout), hw);
      print_modelled(what, arch, m);
      CHECK(model::format_report(m.report).find("modelled (model " + m.report.model + ")") != std::string::npos);
      CHECK(m.report.ms > 0);
      return std::make_pair(dev->download<uint32_t>(bout), m.report.cycles);
    };
    auto [got, padded_cycles] = run(build_transpose(arch, kN, 65).code_object, "transpose (pitch 65)");
    auto [want, twin_cycles] = run(twins, "transpose HIP twin");
    std::string first;
    const size_t bad = mismatches(got, want, first);
    INFO("against the twin: " << first);
    CHECK(bad == 0);
    size_t wrong = 0;
    for (uint32_t r = 0; r < kN; ++r)
      for (uint32_t c = 0; c < kN; ++c) wrong += got[c * kN + r] != host[r * kN + c];
    CHECK(wrong == 0);
    // Without the padding column every lane of a tile[col][row] read hits one bank: the same
    // result, more modelled LDS time.
    auto [unpadded, conflicting_cycles] = run(build_transpose(arch, kN, 64).code_object, "transpose (pitch 64)");
    CHECK(unpadded == got);
    CHECK(padded_cycles < conflicting_cycles);
  }
}

TEST_CASE("the README's one-wave MFMA tile matches its HIP twin bit for bit", "[jit][tutorial][sim]") {
  for (Arch arch : {Arch::gfx942, Arch::gfx950}) {
    INFO(arch_name(arch));
    std::string why;
    const std::vector<uint8_t> twins = compile_twins(arch, why);
    if (twins.empty()) CDNAJIT_SKIP(why);
    std::mt19937 rng(uint32_t(test::test_seed("tutorial_mfma", 7)));
    // bf16 values of varied magnitude and sign: the accumulation's rounding depends on its order.
    std::vector<float> af(kBatch * 32 * kK), bf(kBatch * 32 * kK);
    std::vector<uint16_t> a(af.size()), b(bf.size());
    for (size_t e = 0; e < af.size(); ++e) {
      for (auto [f, h] : {std::pair{&af[e], &a[e]}, std::pair{&bf[e], &b[e]}}) {
        const float mant = 1.0f + float(rng() % 128) / 128.0f;
        *h = host::f32_to_bf16(std::ldexp(rng() % 2 ? -mant : mant, int(rng() % 16) - 8));
        *f = host::bf16_to_f32(*h);
      }
    }
    auto dev = open_device(arch == Arch::gfx942 ? "sim:gfx942" : "sim:gfx950");
    Buffer ba = dev->upload(a, "a"), bb = dev->upload(b, "b");
    const model::Hardware& hw = model::default_product(arch);
    auto run = [&](const std::vector<uint8_t>& co, const char* what) {
      Buffer bc = dev->alloc(kBatch * 32 * 32 * 4, "c");
      auto m = model::model_launch(*dev, dev->load(co).kernel("mfma_tile"), Dim3{kBatch, 1, 1}, Dim3{64, 1, 1}, 0,
                                   KernelArgs().ptr(ba).ptr(bb).ptr(bc), hw);
      print_modelled(what, arch, m);
      CHECK(model::format_report(m.report).find("modelled (model " + m.report.model + ")") != std::string::npos);
      CHECK(m.report.ms > 0);
      return dev->download<uint32_t>(bc);
    };
    const std::vector<uint32_t> got = run(build_mfma_tile(arch, kK).code_object, "mfma_tile");
    const std::vector<uint32_t> want = run(twins, "mfma_tile HIP twin");
    std::string first;
    const size_t bad = mismatches(got, want, first);
    INFO("against the twin: " << first);
    CHECK(bad == 0);
    // And the layout is the product's: against a CPU sum in double, within the MFMA's rounding.
    for (uint32_t t = 0; t < kBatch; ++t)
      for (uint32_t m = 0; m < 32; ++m)
        for (uint32_t n = 0; n < 32; ++n) {
          double s = 0, mag = 0;
          for (uint32_t q = 0; q < kK; ++q) {
            const double p = double(af[(t * 32 + m) * kK + q]) * bf[(t * 32 + n) * kK + q];
            s += p;
            mag += std::fabs(p);
          }
          const float g = std::bit_cast<float>(got[(t * 32 + m) * 32 + n]);
          INFO("tile " << t << " C[" << m << "][" << n << "]");
          REQUIRE(std::fabs(g - s) <= 1e-6 * mag);
        }
  }
}

// The kernels above are the README's, line for line (comments and indentation aside), so the
// tutorial cannot drift from the code this file runs.
TEST_CASE("the tutorial kernels in this test are the README's", "[jit][tutorial][docs]") {
  auto read = [](const char* path) {
    std::ifstream in(path);
    INFO(path);
    REQUIRE(in);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
  };
  auto code_of = [](const std::string& line) {  // without indentation and trailing comment
    std::string c = line.substr(0, line.find("//"));
    c.erase(0, c.find_first_not_of(' '));
    c.erase(c.find_last_not_of(' ') + 1);
    return c;
  };
  std::vector<std::string> readme;
  {
    std::istringstream in(read(CDNAJIT_README));
    for (std::string line; std::getline(in, line);) readme.push_back(code_of(line));
  }
  std::istringstream src(read(CDNAJIT_TUTORIAL_TEST_SOURCE));
  int regions = 0, lines = 0;
  bool inside = false;
  for (std::string line; std::getline(src, line);) {
    const std::string trimmed = line.substr(std::min(line.size(), line.find_first_not_of(' ')));
    if (trimmed.starts_with("// README code begins")) { inside = true; ++regions; continue; }
    if (trimmed.starts_with("// README code ends")) { inside = false; continue; }
    const std::string c = code_of(line);
    if (!inside || c.empty()) continue;
    ++lines;
    INFO("not in README.md: " << c);
    CHECK(std::find(readme.begin(), readme.end(), c) != readme.end());
  }
  CHECK(regions == 2);
  CHECK(lines > 60);
}
