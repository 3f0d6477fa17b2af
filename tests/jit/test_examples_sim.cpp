// The JIT-core example kernels run on the simulator (both archs) and match a
// CPU execution of the same arithmetic bit for bit.
#include <catch2/catch.hpp>

#include <bit>
#include <cmath>
#include <cstring>
#include <random>

#include "codegen/examples/examples.hpp"
#include "runtime/device.hpp"

using namespace cdnajit;

namespace {

float bf16_to_f32(uint16_t b) { return std::bit_cast<float>(uint32_t(b) << 16); }

// Random bf16 with a small exponent range, so that the exact dot2 sum fits in a double
// (the reference for the simulator's single-rounding dot2 can then round once from double).
uint16_t random_bf16(std::mt19937& rng) {
  uint32_t sign = rng() & 1, exp = 120 + rng() % 12, mant = rng() & 0x7f;
  return uint16_t(sign << 15 | exp << 7 | mant);
}

template <class T>
size_t mismatches(const std::vector<T>& got, const std::vector<T>& want, std::string& first) {
  size_t n = 0;
  for (size_t i = 0; i < want.size(); ++i)
    if (std::memcmp(&got[i], &want[i], sizeof(T)) != 0) {
      if (n++ == 0)
        first = "index " + std::to_string(i) + ": got " + std::to_string(got[i]) + " want " + std::to_string(want[i]);
    }
  return n;
}

}  // namespace

TEST_CASE("vector_add runs on the simulator and matches the CPU bit for bit", "[examples][sim]") {
  for (Arch arch : {Arch::gfx942, Arch::gfx950}) {
    INFO(arch_name(arch));
    Kernel k("vector_add", arch);
    examples::define_vector_add(k);
    BuildResult r = k.build();
    auto dev = open_device(arch == Arch::gfx942 ? "sim:gfx942" : "sim:gfx950");
    const uint32_t n = 1000;  // not a multiple of 256: the guard matters
    std::mt19937 rng(7);
    std::vector<float> a(n), b(n), want(n);
    for (uint32_t i = 0; i < n; ++i) {
      a[i] = std::ldexp(float(int(rng() % 2001) - 1000), -int(rng() % 20));
      b[i] = std::ldexp(float(int(rng() % 2001) - 1000), -int(rng() % 20));
      want[i] = a[i] + b[i];
    }
    Buffer ba = dev->upload(std::span<const float>(a), "a"), bb = dev->upload(std::span<const float>(b), "b");
    Buffer bo = dev->alloc(n * 4 + 256 * 4, "out");  // room past n: the kernel must not write it
    std::vector<float> zeros(n + 256, 0.0f);
    dev->copy_to_device(bo, zeros.data(), zeros.size() * 4);
    Module m = dev->load(r.code_object);
    KernelArgs args;
    args.ptr(ba).ptr(bb).ptr(bo).u32(n);
    dev->launch(m.kernel("vector_add"), Dim3{(n + 255) / 256, 1, 1}, Dim3{256, 1, 1}, 0, args);
    std::vector<float> got = dev->download<float>(bo);
    std::vector<float> head(got.begin(), got.begin() + n), tail(got.begin() + n, got.end());
    std::string first;
    CHECK(mismatches(head, want, first) == 0);
    INFO(first);
    for (float t : tail) CHECK(t == 0.0f);
  }
}

TEST_CASE("bf16_dot runs on the simulator and matches the CPU model of its instructions", "[examples][sim]") {
  for (Arch arch : {Arch::gfx942, Arch::gfx950}) {
    INFO(arch_name(arch));
    Kernel k("bf16_dot", arch);
    examples::define_bf16_dot(k);
    BuildResult r = k.build();
    // Explicit default dot2 semantics: one rounding of lo*lo + hi*hi + acc (see runtime/sim/README.md).
    sim::Options so;
    so.dot2 = sim::Options::Dot2::FusedSingleRounding;
    auto dev = open_sim_device(arch, so);
    const uint32_t n = 300, per = examples::kDotElemsPerThread;
    std::mt19937 rng(11);
    std::vector<uint16_t> a(n * per), b(n * per);
    for (auto& x : a) x = random_bf16(rng);
    for (auto& x : b) x = random_bf16(rng);
    std::vector<float> want(n);
    for (uint32_t i = 0; i < n; ++i) {
      float acc = 0.0f;
      for (uint32_t p = 0; p < per / 2; ++p) {
        float alo = bf16_to_f32(a[i * per + 2 * p]), ahi = bf16_to_f32(a[i * per + 2 * p + 1]);
        float blo = bf16_to_f32(b[i * per + 2 * p]), bhi = bf16_to_f32(b[i * per + 2 * p + 1]);
        if (arch == Arch::gfx950) {
          // Exact in double for these inputs, then one rounding to f32.
          acc = float(double(alo) * blo + double(ahi) * bhi + double(acc));
        } else {
          acc = std::fma(alo, blo, acc);
          acc = std::fma(ahi, bhi, acc);
        }
      }
      want[i] = acc;
    }
    Buffer ba = dev->upload(std::span<const uint16_t>(a), "a"), bb = dev->upload(std::span<const uint16_t>(b), "b");
    Buffer bo = dev->alloc(n * 4, "out");
    Module m = dev->load(r.code_object);
    KernelArgs args;
    args.ptr(ba).ptr(bb).ptr(bo).u32(n);
    dev->launch(m.kernel("bf16_dot"), Dim3{(n + 255) / 256, 1, 1}, Dim3{256, 1, 1}, 0, args);
    std::vector<float> got = dev->download<float>(bo);
    std::string first;
    size_t bad = mismatches(got, want, first);
    INFO(first);
    CHECK(bad == 0);
  }
}
