// jit/lib/host_convert.hpp against the simulator's conversion instructions on both archs:
// f32 -> bf16 (v_cvt_pk_bf16_f32, gfx950), f32 -> fp8/bf8 (v_cvt_pk_fp8_f32 / v_cvt_pk_bf8_f32:
// FNUZ on gfx942, OCP on gfx950, also saturating under MODE.FP16_OVFL on gfx950) and back
// (v_cvt_f32_fp8 / v_cvt_f32_bf8 over all 256 codes).
#include <catch2/catch.hpp>

#include <bit>
#include <cmath>
#include <random>
#include <vector>

#include "jit/kernel.hpp"
#include "jit/lib/host_convert.hpp"
#include "runtime/device.hpp"

using namespace cdnajit;
using host::Fp8;

namespace {

constexpr int kHwRegMode = 1;  // hwreg(HW_REG_MODE, 23, 1): MODE.FP16_OVFL
constexpr int kFp16OvflHwreg = kHwRegMode | 23 << 6;

// One element per lane: out[3i] = fp8 pair, out[3i+1] = bf8 pair, out[3i+2] = bf16 pair (gfx950) of in[i].
std::vector<uint8_t> encode_kernel(Arch arch, bool saturate) {
  Kernel k("enc", arch);
  k.set_workgroup_size(64);
  Reg in = k.load_arg(k.arg<const float*>("in")), out = k.load_arg(k.arg<uint32_t*>("out"));
  Reg i = k.vgpr("i"), off = k.vgpr("off"), oo = k.vgpr("oo"), x = k.vgpr("x"), f = k.vgpr("f"), b = k.vgpr("b"), h = k.vgpr("h");
  if (saturate) k.s_setreg_imm32_b32(kFp16OvflHwreg, 1);
  k.v_lshl_add_u32(i, k.workgroup_id(0), 6, k.workitem_id(0));
  k.v_lshlrev_b32(off, 2, i);
  k.v_mul_u32_u24(oo, 12, i);
  k.s_waitcnt(lgkmcnt(0));
  k.global_load_dword(x, off, in);
  k.s_waitcnt(vmcnt(0));
  k.v_mov_b32(f, 0);
  k.v_mov_b32(b, 0);
  k.v_mov_b32(h, 0);
  k.v_cvt_pk_fp8_f32(f, x, x);
  k.v_cvt_pk_bf8_f32(b, x, x);
  if (arch == Arch::gfx950) k.v_cvt_pk_bf16_f32(h, x, x);
  k.global_store_dword(oo, f, out);
  k.global_store_dword(oo, b, out, Offset(4));
  k.global_store_dword(oo, h, out, Offset(8));
  k.s_endpgm();
  return k.build().code_object;
}

// Codes 0..255 in, out[2c] = fp8 -> f32, out[2c+1] = bf8 -> f32.
std::vector<uint8_t> decode_kernel(Arch arch) {
  Kernel k("dec", arch);
  k.set_workgroup_size(64);
  Reg in = k.load_arg(k.arg<const uint32_t*>("in")), out = k.load_arg(k.arg<float*>("out"));
  Reg i = k.vgpr("i"), off = k.vgpr("off"), oo = k.vgpr("oo"), x = k.vgpr("x"), f = k.vgpr("f"), b = k.vgpr("b");
  k.v_lshl_add_u32(i, k.workgroup_id(0), 6, k.workitem_id(0));
  k.v_lshlrev_b32(off, 2, i);
  k.v_lshlrev_b32(oo, 3, i);
  k.s_waitcnt(lgkmcnt(0));
  k.global_load_dword(x, off, in);
  k.s_waitcnt(vmcnt(0));
  k.v_cvt_f32_fp8(f, x);
  k.v_cvt_f32_bf8(b, x);
  k.global_store_dword(oo, f, out);
  k.global_store_dword(oo, b, out, Offset(4));
  k.s_endpgm();
  return k.build().code_object;
}

std::vector<float> encode_inputs() {
  std::vector<float> v = {0.0f, -0.0f, INFINITY, -INFINITY, NAN, -NAN, std::bit_cast<float>(0x7f800001u),
                          std::bit_cast<float>(0xffc12345u), 1.0f, -1.0f, 448.0f, 464.0f, 480.0f, -480.0f, 240.0f, 248.0f,
                          57344.0f, 61440.0f, 65536.0f, 1e30f, -1e30f, 1e-30f, std::bit_cast<float>(1u)};
  // Every 8-bit value of each format, and the midpoints to its neighbours (ties: round to even).
  for (Fp8 f : {Fp8::e4m3_fnuz, Fp8::e5m2_fnuz, Fp8::e4m3_ocp, Fp8::e5m2_ocp})
    for (int c = 0; c < 127; ++c) {
      const float a = host::fp8_to_f32(uint8_t(c), f), b = host::fp8_to_f32(uint8_t(c + 1), f);
      if (!std::isfinite(a) || !std::isfinite(b)) continue;
      for (float s : {1.0f, -1.0f}) {
        v.push_back(s * a);
        v.push_back(s * float((double(a) + double(b)) / 2));
        v.push_back(s * std::nextafter(float((double(a) + double(b)) / 2), 0.0f));
        v.push_back(s * std::nextafter(float((double(a) + double(b)) / 2), INFINITY));
      }
    }
  // bf16 ties and random patterns over the 8-bit formats' exponent range and beyond.
  std::mt19937 rng(5);
  for (int i = 0; i < 1024; ++i) {
    const uint32_t exp = 127 - 28 + rng() % 48;
    uint32_t bits = (rng() & 0x80000000u) | exp << 23 | (rng() & 0x7fffffu);
    if (i % 4 == 0) bits = (bits & ~0xffffu) | 0x8000u;  // a bf16 tie
    v.push_back(std::bit_cast<float>(bits));
  }
  while (v.size() % 64) v.push_back(0.5f);
  return v;
}

}  // namespace

TEST_CASE("host f32 -> bf16/fp8/bf8 conversions equal the simulator's conversion instructions", "[jit][host_convert][sim]") {
  const std::vector<float> in = encode_inputs();
  const size_t n = in.size();
  for (Arch arch : {Arch::gfx942, Arch::gfx950}) {
    const Fp8 fp8 = arch == Arch::gfx942 ? Fp8::e4m3_fnuz : Fp8::e4m3_ocp;
    const Fp8 bf8 = arch == Arch::gfx942 ? Fp8::e5m2_fnuz : Fp8::e5m2_ocp;
    for (bool saturate : {false, true}) {
      if (saturate && arch == Arch::gfx942) continue;  // gfx942's conversions do not saturate (fp8_encode.hpp)
      INFO(arch_name(arch) << (saturate ? " saturating" : ""));
      auto dev = open_device(arch == Arch::gfx942 ? "sim:gfx942" : "sim:gfx950");
      Buffer bi = dev->upload(in, "in"), bo = dev->alloc(n * 12, "out");
      Module m = dev->load(encode_kernel(arch, saturate));
      dev->launch(m.kernel("enc"), Dim3{uint32_t(n / 64), 1, 1}, Dim3{64, 1, 1}, 0, KernelArgs().ptr(bi).ptr(bo));
      const std::vector<uint32_t> got = dev->download<uint32_t>(bo);
      int bad = 0;
      for (size_t i = 0; i < n; ++i) {
        const uint8_t want_f = host::f32_to_fp8(in[i], fp8, saturate), want_b = host::f32_to_fp8(in[i], bf8, saturate);
        const uint32_t want_pf = uint32_t(want_f) * 0x101u, want_pb = uint32_t(want_b) * 0x101u;
        const uint32_t want_h = arch == Arch::gfx950 ? uint32_t(host::f32_to_bf16(in[i])) * 0x10001u : 0u;
        if ((got[3 * i] != want_pf || got[3 * i + 1] != want_pb || got[3 * i + 2] != want_h) && bad++ < 5)
          FAIL_CHECK("input 0x" << std::hex << std::bit_cast<uint32_t>(in[i]) << " (" << in[i] << "): fp8 got " << got[3 * i]
                                << " want " << want_pf << ", bf8 got " << got[3 * i + 1] << " want " << want_pb
                                << ", bf16 got " << got[3 * i + 2] << " want " << want_h);
      }
      CHECK(bad == 0);
    }
  }
}

TEST_CASE("host fp8/bf8 -> f32 conversions equal the simulator's for all 256 codes", "[jit][host_convert][sim]") {
  std::vector<uint32_t> codes(256);
  for (uint32_t c = 0; c < 256; ++c) codes[c] = c;
  for (Arch arch : {Arch::gfx942, Arch::gfx950}) {
    INFO(arch_name(arch));
    const Fp8 fp8 = arch == Arch::gfx942 ? Fp8::e4m3_fnuz : Fp8::e4m3_ocp;
    const Fp8 bf8 = arch == Arch::gfx942 ? Fp8::e5m2_fnuz : Fp8::e5m2_ocp;
    auto dev = open_device(arch == Arch::gfx942 ? "sim:gfx942" : "sim:gfx950");
    Buffer bi = dev->upload(codes, "in"), bo = dev->alloc(256 * 8, "out");
    Module m = dev->load(decode_kernel(arch));
    dev->launch(m.kernel("dec"), Dim3{4, 1, 1}, Dim3{64, 1, 1}, 0, KernelArgs().ptr(bi).ptr(bo));
    const std::vector<float> got = dev->download<float>(bo);
    int nans = 0;
    for (uint32_t c = 0; c < 256; ++c) {
      for (int j = 0; j < 2; ++j) {
        const float want = host::fp8_to_f32(uint8_t(c), j ? bf8 : fp8), g = got[2 * c + uint32_t(j)];
        INFO("code " << c << (j ? " bf8" : " fp8") << ": got " << g << " want " << want);
        if (std::isnan(want)) {
          ++nans;
          CHECK(std::isnan(g));
        } else {
          CHECK(std::bit_cast<uint32_t>(g) == std::bit_cast<uint32_t>(want));
        }
      }
    }
    CHECK(nans == (arch == Arch::gfx942 ? 2 : 2 + 6));  // FNUZ: 0x80 each; OCP: E4M3 two, E5M2 six
  }
}
