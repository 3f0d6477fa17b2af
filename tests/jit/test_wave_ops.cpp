// jit/lib/wave_ops: each collective against its HIP twin (clang-22, the same arithmetic in the same
// order through clang's DPP / ds_swizzle / permlane / readlane builtins), bit for bit on the
// simulator on both archs, and against a CPU model of the reduction order.
#include <catch2/catch.hpp>

#include <algorithm>
#include <bit>
#include <cstdio>
#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "jit/lib/wave_ops.hpp"
#include "runtime/device.hpp"
#include "runtime/model/model_device.hpp"
#include "tests/sim/hip_compile.hpp"
#include "tests/test_support.hpp"

using namespace cdnajit;
using lib::ReduceOp;

namespace {

constexpr uint32_t kThreads = 256;  // 4 waves
constexpr uint32_t kGroups = 2;
constexpr uint32_t kN = kThreads * kGroups;
constexpr int kBroadcastLane = 37;

struct OpCase {
  ReduceOp op;
  const char* name;  // also the twin's kernel suffix
  bool is_float;
};
constexpr OpCase kOps[] = {{ReduceOp::add_f32, "add_f32", true}, {ReduceOp::max_f32, "max_f32", true},
                           {ReduceOp::min_f32, "min_f32", true}, {ReduceOp::add_i32, "add_i32", false},
                           {ReduceOp::max_i32, "max_i32", false}, {ReduceOp::min_i32, "min_i32", false}};

// The twins: one source for every op and both collectives.
const char* const kTwins = R"(
struct add_f32 { typedef float T; static __device__ T op(T a, T b) { return a + b; } };
struct max_f32 { typedef float T; static __device__ T op(T a, T b) { return fmaxf(a, b); } };
struct min_f32 { typedef float T; static __device__ T op(T a, T b) { return fminf(a, b); } };
struct add_i32 { typedef int T; static __device__ T op(T a, T b) { return (int)((unsigned)a + (unsigned)b); } };
struct max_i32 { typedef int T; static __device__ T op(T a, T b) { return a > b ? a : b; } };
struct min_i32 { typedef int T; static __device__ T op(T a, T b) { return a < b ? a : b; } };

#define DPP(x, ctrl) __builtin_bit_cast(T, __builtin_amdgcn_update_dpp(0, __builtin_bit_cast(int, x), ctrl, 0xf, 0xf, false))
#define LANE(x, l) __builtin_bit_cast(T, __builtin_amdgcn_readlane(__builtin_bit_cast(int, x), l))

template <class O> static __device__ typename O::T wave_reduce(typename O::T x) {
  typedef typename O::T T;
  x = O::op(DPP(x, 0xb1), x);   // quad_perm:[1,0,3,2]
  x = O::op(DPP(x, 0x4e), x);   // quad_perm:[2,3,0,1]
  x = O::op(DPP(x, 0x141), x);  // row_half_mirror
  x = O::op(DPP(x, 0x140), x);  // row_mirror
  x = O::op(__builtin_bit_cast(T, __builtin_amdgcn_ds_swizzle(__builtin_bit_cast(int, x), 0x401f)), x);  // SWAP,16
#if defined(__gfx950__)
  auto p = __builtin_amdgcn_permlane32_swap(__builtin_bit_cast(unsigned, x), __builtin_bit_cast(unsigned, x), false, false);
  // Copied out first: clang 22 reads __builtin_bit_cast(T, p[1]) from p's first element.
  unsigned lo = p[0], hi = p[1];
  return O::op(__builtin_bit_cast(T, lo), __builtin_bit_cast(T, hi));
#else
  return O::op(LANE(x, 0), LANE(x, 32));
#endif
}

template <class O> static __device__ void wave_k(const typename O::T* in, typename O::T* out) {
  unsigned i = bid() * bdim() + tid();
  out[i] = wave_reduce<O>(in[i]);
}

template <class O> static __device__ void group_k(const typename O::T* in, typename O::T* out) {
  typedef typename O::T T;
  __shared__ T part[4];
  unsigned i = bid() * bdim() + tid();
  part[tid() >> 6] = wave_reduce<O>(in[i]);
  sync();
  T acc = part[0];
  for (int w = 1; w < 4; ++w) acc = O::op(acc, part[w]);
  out[i] = acc;
}

#define KERNELS(O) \
  extern "C" __global__ void wave_##O(const O::T* in, O::T* out) { wave_k<O>(in, out); } \
  extern "C" __global__ void group_##O(const O::T* in, O::T* out) { group_k<O>(in, out); }
KERNELS(add_f32) KERNELS(max_f32) KERNELS(min_f32) KERNELS(add_i32) KERNELS(max_i32) KERNELS(min_i32)

extern "C" __global__ void broadcast(const int* in, int* out) {
  unsigned i = bid() * bdim() + tid();
  out[i] = __builtin_amdgcn_readlane(in[i], 37);
}

// The README's row softmax: the same reductions, then v_exp_f32 of x * log2(e) and v_rcp_f32 then a
// multiply (the hardware approximations through their builtins, not expf / division's libcalls).
extern "C" __global__ void row_softmax(const float* in, float* out) {
  unsigned i = bid() * 64 + tid();
  float x = in[i];
  float mx = wave_reduce<max_f32>(x);
  x = (x - mx) * 1.44269504f;
  x = __builtin_amdgcn_exp2f(x);
  float sum = wave_reduce<add_f32>(x);
  out[i] = x * __builtin_amdgcn_rcpf(sum);
}
)";

enum class Which { wave, group, broadcast };

std::vector<uint8_t> build_dsl(Arch arch, Which which, ReduceOp op, bool is_float) {
  Kernel k("dsl", arch);
  k.set_workgroup_size(kThreads);
  Arg in_arg = is_float ? k.arg<const float*>("in") : k.arg<const int32_t*>("in");
  Arg out_arg = is_float ? k.arg<float*>("out") : k.arg<int32_t*>("out");
  Reg in = k.load_arg(in_arg), out = k.load_arg(out_arg);
  uint32_t lds = which == Which::group ? k.lds_alloc("partials", 4 * kThreads / 64) : 0;
  Reg off = k.vgpr("off"), x = k.vgpr("x"), r = k.vgpr("r"), base = k.sgpr("base");
  k.s_lshl_b32(base, k.workgroup_id(0), 10);  // 256 threads x 4 bytes per workgroup
  k.v_lshlrev_b32(off, 2, k.workitem_id(0));
  k.v_add_u32(off, base, off);
  k.s_waitcnt(lgkmcnt(0));
  k.global_load_dword(x, off, in);
  k.s_waitcnt(vmcnt(0));
  if (which == Which::wave) lib::wave_reduce(k, op, r, x);
  if (which == Which::group) lib::workgroup_reduce(k, op, r, x, lds);
  if (which == Which::broadcast) lib::wave_broadcast(k, r, x, kBroadcastLane);
  k.global_store_dword(off, r, out);
  k.s_endpgm();
  return k.build().code_object;
}

std::vector<uint32_t> run(Device& dev, const std::vector<uint8_t>& co, const std::string& name, const std::vector<uint32_t>& input) {
  Buffer bin = dev.upload(input, "in"), bout = dev.alloc(kN * 4, "out");
  Module m = dev.load(co);
  dev.launch(m.kernel(name), Dim3{kGroups, 1, 1}, Dim3{kThreads, 1, 1}, 0, KernelArgs().ptr(bin).ptr(bout));
  return dev.download<uint32_t>(bout);
}

// The reduction order wave_reduce documents, on the CPU.
template <class T, class F>
T model_wave(const T* v64, F op) {
  T v[64];
  std::copy(v64, v64 + 64, v);
  for (int m : {1, 2, 4, 8, 16}) {
    T n[64];
    for (int l = 0; l < 64; ++l) n[l] = op(v[l ^ m], v[l]);
    std::copy(n, n + 64, v);
  }
  return op(v[0], v[32]);
}

template <class T>
std::vector<uint32_t> model(ReduceOp op, Which which, const std::vector<uint32_t>& input) {
  auto f = [op](T a, T b) -> T {
    switch (op) {
      case ReduceOp::add_f32:
      case ReduceOp::add_i32:
        if constexpr (std::is_same_v<T, float>) return a + b;
        else return T(uint32_t(a) + uint32_t(b));
      case ReduceOp::max_f32:
      case ReduceOp::max_i32: return a > b ? a : b;
      default: return a < b ? a : b;
    }
  };
  std::vector<T> in(kN);
  std::memcpy(in.data(), input.data(), kN * 4);
  std::vector<T> out(kN);
  for (uint32_t g = 0; g < kGroups; ++g) {
    T part[kThreads / 64];
    for (uint32_t w = 0; w < kThreads / 64; ++w) part[w] = model_wave(&in[g * kThreads + w * 64], f);
    T acc = part[0];
    for (uint32_t w = 1; w < kThreads / 64; ++w) acc = f(acc, part[w]);
    for (uint32_t t = 0; t < kThreads; ++t) out[g * kThreads + t] = which == Which::wave ? part[t / 64] : acc;
  }
  std::vector<uint32_t> bits(kN);
  std::memcpy(bits.data(), out.data(), kN * 4);
  return bits;
}

std::string hex(uint32_t v) {
  char b[16];
  std::snprintf(b, sizeof b, "%08x", v);
  return b;
}

size_t mismatches(const std::vector<uint32_t>& got, const std::vector<uint32_t>& want, std::string& first) {
  size_t n = 0;
  for (size_t i = 0; i < want.size(); ++i)
    if (got[i] != want[i] && n++ == 0) first = "index " + std::to_string(i) + ": got 0x" + hex(got[i]) + " want 0x" + hex(want[i]);
  return n;
}

}  // namespace

TEST_CASE("wave_reduce, workgroup_reduce and wave_broadcast match their HIP twins bit for bit", "[jit][wave_ops][sim]") {
  for (Arch arch : {Arch::gfx942, Arch::gfx950}) {
    INFO(arch_name(arch));
    std::vector<uint8_t> twins;
    try {
      twins = simtest::compile_hip(kTwins, arch);
    } catch (const std::exception& e) {
      const std::string msg = e.what();
      if (msg.find("cannot run") != std::string::npos || msg.find("posix_spawn failed") != std::string::npos)
        CDNAJIT_SKIP("clang++-22 is not available to compile the HIP twins: " + msg);
      throw;
    }
    auto dev = open_device(arch == Arch::gfx942 ? "sim:gfx942" : "sim:gfx950");
    std::mt19937 rng(uint32_t(test::test_seed("wave_ops", 11)));
    std::vector<uint32_t> floats(kN), ints(kN);
    for (uint32_t i = 0; i < kN; ++i) {
      // Nonzero finite floats over a wide exponent range (the sum's rounding depends on the order),
      // and 32-bit integers over the whole range (the sum wraps).
      const float mant = 1.0f + float(rng() % 8388608) / 8388608.0f;
      floats[i] = std::bit_cast<uint32_t>(std::ldexp(rng() % 2 ? -mant : mant, int(rng() % 40) - 20));
      ints[i] = uint32_t(rng());
    }
    for (const OpCase& c : kOps) {
      const std::vector<uint32_t>& input = c.is_float ? floats : ints;
      for (Which which : {Which::wave, Which::group}) {
        const std::string twin = std::string(which == Which::wave ? "wave_" : "group_") + c.name;
        INFO(twin);
        const std::vector<uint32_t> got = run(*dev, build_dsl(arch, which, c.op, c.is_float), "dsl", input);
        const std::vector<uint32_t> want = run(*dev, twins, twin, input);
        std::string first;
        CHECK(mismatches(got, want, first) == 0);
        INFO("against the twin: " << first);
        const std::vector<uint32_t> cpu = c.is_float ? model<float>(c.op, which, input) : model<int32_t>(c.op, which, input);
        CHECK(mismatches(got, cpu, first) == 0);
        INFO("against the CPU model: " << first);
      }
    }
    const std::vector<uint32_t> got = run(*dev, build_dsl(arch, Which::broadcast, ReduceOp::add_i32, false), "dsl", ints);
    const std::vector<uint32_t> want = run(*dev, twins, "broadcast", ints);
    std::string first;
    CHECK(mismatches(got, want, first) == 0);
    INFO(first);
    for (uint32_t i = 0; i < kN; ++i) CHECK(got[i] == ints[i / 64 * 64 + kBroadcastLane]);
  }
}

TEST_CASE("the wave helpers refuse bad arguments with what, where and what is valid", "[jit][wave_ops]") {
  Kernel k("bad", Arch::gfx942);
  k.set_workgroup_size(96);
  Reg v = k.vgpr("v"), s = k.sgpr("s");
  auto error_of = [](auto f) {
    try {
      f();
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  std::string e = error_of([&] { lib::wave_reduce(k, ReduceOp::add_f32, s, v); });
  CHECK(e.find("test_wave_ops.cpp:") != std::string::npos);
  CHECK(e.find("lib::wave_reduce: dst must be a one-dword VGPR") != std::string::npos);
  e = error_of([&] { lib::wave_broadcast(k, v, v, 64); });
  CHECK(e.find("lane 64 (valid: 0..63)") != std::string::npos);
  e = error_of([&] { lib::workgroup_reduce(k, ReduceOp::add_f32, v, v, 0); });
  CHECK(e.find("workgroup 96x1x1 (valid: one dimension, a multiple of 64 threads") != std::string::npos);
  k.set_workgroup_size(128);
  e = error_of([&] { lib::workgroup_reduce(k, ReduceOp::add_f32, v, v, 0); });
  CHECK(e.find("needs 8 bytes of LDS at offset 0, but the kernel allocated 0") != std::string::npos);
}


// The README's row softmax ("Cross-lane operations and wave collectives"), run through
// model::model_launch with its modelled time printed: bit for bit against its HIP twin (the same
// reduction order and the same v_exp_f32 / v_rcp_f32 approximations), and within 1e-5 relative of a
// CPU softmax in double (those instructions are approximations).
TEST_CASE("the README's row softmax matches its HIP twin bit for bit", "[jit][wave_ops][sim]") {
  for (Arch arch : {Arch::gfx942, Arch::gfx950}) {
    INFO(arch_name(arch));
    std::vector<uint8_t> twins;
    try {
      twins = simtest::compile_hip(kTwins, arch);
    } catch (const std::exception& e) {
      const std::string msg = e.what();
      if (msg.find("cannot run") != std::string::npos || msg.find("posix_spawn failed") != std::string::npos)
        CDNAJIT_SKIP("clang++-22 is not available to compile the HIP twins: " + msg);
      throw;
    }
    Kernel k("row_softmax", arch);
    k.set_workgroup_size(64);
    Reg in = k.load_arg(k.arg<const float*>("in"));
    Reg out = k.load_arg(k.arg<float*>("out"));
    Reg base = k.sgpr("row_base"), off = k.vgpr("off"), x = k.vgpr("x"), mx = k.vgpr("max"), sum = k.vgpr("sum");
    k.s_lshl_b32(base, k.workgroup_id(0), 8);
    k.v_lshlrev_b32(off, 2, k.workitem_id(0));
    k.v_add_u32(off, base, off);
    k.s_waitcnt(lgkmcnt(0));
    k.global_load_dword(x, off, in);
    k.s_waitcnt(vmcnt(0));
    lib::wave_reduce(k, lib::ReduceOp::max_f32, mx, x);
    k.v_sub_f32(x, x, mx);
    k.v_mul_f32(x, 1.44269504f, x);
    k.v_exp_f32(x, x);
    lib::wave_reduce(k, lib::ReduceOp::add_f32, sum, x);
    k.v_rcp_f32(sum, sum);
    k.v_mul_f32(x, x, sum);
    k.global_store_dword(off, x, out);
    k.s_endpgm();
    BuildResult r = k.build();
    const uint32_t rows = 64;
    std::mt19937 rng(uint32_t(test::test_seed("wave_ops_softmax", 3)));
    std::vector<float> host(rows * 64);
    // Values in [-8, 8) with all 23 mantissa bits in play: the sums' rounding depends on the order.
    for (float& v : host) v = float(int32_t(rng() % (1u << 24)) - (1 << 23)) / float(1 << 20);
    auto dev = open_device(arch == Arch::gfx942 ? "sim:gfx942" : "sim:gfx950");
    Buffer bin = dev->upload(host, "in");
    const model::Hardware& hw = model::default_product(arch);
    auto run = [&](const std::vector<uint8_t>& co, const char* what) {
      Buffer bout = dev->alloc(host.size() * 4, "out");
      auto m = model::model_launch(*dev, dev->load(co).kernel("row_softmax"), Dim3{rows, 1, 1}, Dim3{64, 1, 1}, 0,
                                   KernelArgs().ptr(bin).ptr(bout), hw);
      std::printf("%s %s: modelled (model %s): %.0f cycles, %.5f ms\n", what, std::string(arch_name(arch)).c_str(),
                  m.report.model.c_str(), m.report.cycles, m.report.ms);
      CHECK(model::format_report(m.report).find("modelled (model " + m.report.model + ")") != std::string::npos);
      CHECK(m.report.ms > 0);
      return dev->download<uint32_t>(bout);
    };
    const std::vector<uint32_t> got = run(r.code_object, "row_softmax");
    const std::vector<uint32_t> want = run(twins, "row_softmax HIP twin");
    std::string first;
    const size_t bad = mismatches(got, want, first);
    INFO("against the twin: " << first);
    CHECK(bad == 0);
    for (uint32_t row = 0; row < rows; ++row) {
      double mxv = -1e300, s = 0;
      for (int l = 0; l < 64; ++l) mxv = std::max(mxv, double(host[row * 64 + l]));
      for (int l = 0; l < 64; ++l) s += std::exp(double(host[row * 64 + l]) - mxv);
      for (int l = 0; l < 64; ++l) {
        const double w = std::exp(double(host[row * 64 + l]) - mxv) / s;
        INFO("row " << row << " lane " << l);
        CHECK(std::fabs(std::bit_cast<float>(got[row * 64 + l]) - w) <= 1e-5 * w);
      }
    }
  }
}
