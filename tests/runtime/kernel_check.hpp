// Helpers for the HIP-source kernel tests: compile + load on a simulator
// device, host/device transfers, CPU half/bf16 conversions and the
// bit-for-bit comparison the project's correctness rules ask for.
#pragma once
#include <catch2/catch.hpp>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "runtime/backends.hpp"
#include "runtime/device.hpp"
#include "runtime/hip_source.hpp"
#include "tests/runtime/static_verify.hpp"

namespace kt {

using namespace cdnajit;

// One simulator device per arch, shared by all kernel tests (saves setup). With
// CDNAJIT_TEST_DROP_IN set to cdnajit's drop-in HIP runtime (runtime/hip_sim), the arch it
// simulates (CDNAJIT_HIP_DEVICE) runs through the HIP back end instead, hip:0 on that library:
// the same CPU checks then prove its results equal the simulator's bit for bit.
inline Device& sim_device(Arch a) {
  static std::map<Arch, std::unique_ptr<Device>> devs;
  auto& d = devs[a];
  if (!d) {
    const char* drop_in = std::getenv("CDNAJIT_TEST_DROP_IN");
    const char* drop_in_device = std::getenv("CDNAJIT_HIP_DEVICE");
    const std::string spec = a == Arch::gfx942 ? "sim:gfx942" : "sim:gfx950";
    if (drop_in && *drop_in && drop_in_device && spec == drop_in_device)
      d = detail::make_hip_device_from({drop_in}, 0);
    else
      d = open_device(spec);
  }
  return *d;
}

// A simulator device whose MFMAs add C and all products exactly and round once
// (sim::Options::MfmaNumerics::Exact): for tests whose CPU model is that sum.
// The default CDNA3 rules are tested against their own oracle in tests/sim.
inline Device& sim_device_exact_mfma(Arch a) {
  static std::map<Arch, std::unique_ptr<Device>> devs;
  auto& d = devs[a];
  if (!d) {
    sim::Options opt;
    opt.mfma_numerics = sim::Options::MfmaNumerics::Exact;
    d = open_sim_device(a, opt);
  }
  return *d;
}

// Compiles and loads a test kernel; on the way, its code must pass the static
// wait-count and hazard verifiers (tests/runtime/static_verify.hpp).
inline Module load(Device& dev, std::string_view src, const std::vector<std::string>& flags = {}) {
  std::vector<uint8_t> co = compile_hip(src, dev.arch(), flags);
  require_static_verify_clean(co);
  return dev.load(co);
}

template <class T>
Buffer up(Device& dev, const std::vector<T>& v, std::string name) {
  return dev.upload(std::span<const T>(v), std::move(name));
}
template <class T>
std::vector<T> down(Device& dev, const Buffer& b) {
  return dev.download<T>(b);
}
inline Buffer zeros(Device& dev, size_t bytes, std::string name) {
  Buffer b = dev.alloc(bytes, std::move(name));
  std::vector<uint8_t> z(bytes, 0);
  dev.copy_to_device(b, z.data(), bytes);
  return b;
}

template <class T>
std::string show(T v) {
  std::ostringstream os;
  if constexpr (std::is_floating_point_v<T>) {
    using U = std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>;
    os.precision(9);
    os << v << " (0x" << std::hex << std::bit_cast<U>(v) << ")";
  } else if constexpr (sizeof(T) == 1) {
    os << int(v);
  } else {
    os << +v << " (0x" << std::hex << +v << ")";
  }
  return os.str();
}

// Raw-byte comparison. Returns "" when identical, else the mismatch count,
// the first mismatching index and both values.
template <class T>
std::string bit_diff(const std::vector<T>& got, const std::vector<T>& want) {
  if (got.size() != want.size())
    return "size mismatch: got " + std::to_string(got.size()) + ", want " + std::to_string(want.size());
  size_t count = 0, first = 0;
  for (size_t i = 0; i < got.size(); ++i)
    if (std::memcmp(&got[i], &want[i], sizeof(T)) != 0)
      if (count++ == 0) first = i;
  if (!count) return "";
  return std::to_string(count) + " of " + std::to_string(got.size()) + " elements differ; first at index " +
         std::to_string(first) + ": got " + show(got[first]) + ", want " + show(want[first]);
}

#define CHECK_BITS(got, want)                  \
  do {                                         \
    std::string diff_ = kt::bit_diff(got, want); \
    INFO(diff_);                               \
    CHECK(diff_.empty());                      \
  } while (0)

// Runs `body(arch)` for each arch, with the arch in failure messages. An
// exception (compile error, simulator finding) fails that arch only, so every
// arch is always tried.
template <class F>
void for_archs(std::initializer_list<Arch> archs, F body) {
  for (Arch a : archs) {
    INFO("arch " << arch_name(a));
    try {
      body(a);
    } catch (const std::exception& e) {
      FAIL_CHECK(arch_name(a) << ": " << e.what());
    }
  }
}

// ---- CPU models of the conversions (round to nearest even) ----
inline float bf16_to_float(uint16_t b) { return std::bit_cast<float>(uint32_t(b) << 16); }
inline uint16_t float_to_bf16(float f) {  // inputs here are never NaN
  uint32_t u = std::bit_cast<uint32_t>(f);
  u += 0x7fffu + ((u >> 16) & 1);
  return uint16_t(u >> 16);
}
inline float half_to_float(uint16_t h) {
  uint32_t sign = uint32_t(h >> 15) << 31, exp = (h >> 10) & 0x1f, man = h & 0x3ff;
  if (exp == 31) return std::bit_cast<float>(sign | 0x7f800000u | (man << 13));
  if (exp == 0) return std::bit_cast<float>(sign) + (sign ? -1.0f : 1.0f) * std::ldexp(float(man), -24);
  return std::bit_cast<float>(sign | ((exp + 112) << 23) | (man << 13));
}
// Exact value (double) -> nearest-even binary16.
inline uint16_t double_to_half(double d) {
  uint16_t sign = std::signbit(d) ? 0x8000 : 0;
  double a = std::fabs(d);
  if (std::isnan(d)) return 0x7e00;
  if (a >= 65520.0) return sign | 0x7c00;  // rounds to infinity
  if (a < std::ldexp(1.0, -14)) {          // subnormal range: units of 2^-24
    double q = std::nearbyint(std::ldexp(a, 24));  // default rounding mode: nearest even
    return sign | uint16_t(q);
  }
  int e;
  double m = std::frexp(a, &e);                      // a = m * 2^e, m in [0.5, 1)
  double q = std::nearbyint(std::ldexp(m, 11));      // 11 significant bits
  if (q == 2048.0) q = 1024.0, ++e;
  uint16_t exp = uint16_t(e - 1 + 15), man = uint16_t(uint32_t(q) - 1024);
  if (exp >= 31) return sign | 0x7c00;
  return sign | uint16_t(exp << 10) | man;
}
inline uint16_t float_to_half(float f) { return double_to_half(double(f)); }

// Deterministic inputs.
inline std::vector<float> random_floats(size_t n, float lo, float hi, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<float> v(n);
  for (auto& x : v) x = lo + (hi - lo) * float(rng() >> 8) * (1.0f / 16777216.0f);
  return v;
}
inline std::vector<uint32_t> random_u32(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<uint32_t> v(n);
  for (auto& x : v) x = rng();
  return v;
}

}  // namespace kt
