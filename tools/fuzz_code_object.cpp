#include "tools/fuzz_code_object.hpp"

#include <chrono>
#include <cstring>
#include <random>
#include <vector>

#include "jit/isa/error.hpp"
#include "runtime/sim/code_object.hpp"
#include "runtime/sim/simulator.hpp"

namespace cdnajit {

namespace {

std::vector<uint8_t> mutate(std::span<const uint8_t> seed, std::mt19937& rng) {
  std::vector<uint8_t> m(seed.begin(), seed.end());
  switch (rng() % 5) {
    case 0:  // a few random byte flips anywhere
      for (int i = 0, n = 1 + int(rng() % 8); i < n && !m.empty(); ++i) m[rng() % m.size()] ^= uint8_t(1 + rng() % 255);
      break;
    case 1:  // truncation
      m.resize(rng() % (m.size() + 1));
      break;
    case 2:  // stomp a 4/8-byte field in the ELF header or section headers with extreme values
      if (m.size() >= 8) {
        size_t at = (rng() % 2 ? rng() % std::min<size_t>(64, m.size() - 8) : rng() % (m.size() - 8));
        uint64_t v = (rng() % 3 == 0) ? ~0ull : (rng() % 2 ? 0 : (uint64_t(rng()) << 32 | rng()));
        std::memcpy(&m[at], &v, 4 + 4 * (rng() % 2));
      }
      break;
    case 3:  // splice a block of random bytes
      if (!m.empty()) {
        size_t at = rng() % m.size(), n = std::min<size_t>(m.size() - at, 1 + rng() % 64);
        for (size_t i = 0; i < n; ++i) m[at + i] = uint8_t(rng());
      }
      break;
    default:  // pure garbage of a random length
      m.assign(rng() % 512, 0);
      for (auto& b : m) b = uint8_t(rng());
      break;
  }
  return m;
}

}  // namespace

FuzzReport fuzz_code_object(std::span<const uint8_t> seed, double seconds, uint64_t max_iterations, uint32_t rng_seed) {
  std::mt19937 rng(rng_seed);
  FuzzReport r;
  auto t0 = std::chrono::steady_clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(); };
  while (r.iterations < max_iterations && elapsed() < seconds) {
    std::vector<uint8_t> m = mutate(seed, rng);
    ++r.iterations;
    try {
      CodeObject co = read_code_object(m);
      // Loading is not enough: decode every kernel too (the decoder must reject bad code, not crash).
      sim::Simulator s(co.arch);
      for (const KernelInfo& k : co.kernels) s.disassemble(co, k.name);
      ++r.accepted;
    } catch (const Error& e) {
      ++r.rejected;
      if (r.first_rejection.empty()) r.first_rejection = e.what();
    }
  }
  return r;
}

}  // namespace cdnajit
