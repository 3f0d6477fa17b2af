// Test harness: compile + load + launch on the simulator with typed buffers.
#pragma once
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "jit/codeobject/code_object.hpp"
#include "runtime/sim/simulator.hpp"
#include "tests/sim/hip_compile.hpp"

namespace simtest {

// Packs explicit kernel arguments at the offsets the metadata gives, in order.
struct ArgPack {
  std::vector<std::vector<uint8_t>> values;
  template <class T>
  ArgPack& add(T v) {
    std::vector<uint8_t> b(sizeof(T));
    std::memcpy(b.data(), &v, sizeof(T));
    values.push_back(std::move(b));
    return *this;
  }
  std::vector<uint8_t> build(const cdnajit::KernelInfo& k) const {
    std::vector<uint8_t> out(k.kernarg_size, 0);
    size_t i = 0;
    for (const auto& a : k.args) {
      if (a.value_kind.rfind("hidden_", 0) == 0) continue;
      if (i >= values.size()) throw std::runtime_error("too few kernel arguments for " + k.name);
      std::memcpy(out.data() + a.offset, values[i].data(), std::min<size_t>(a.size, values[i].size()));
      ++i;
    }
    if (i != values.size()) throw std::runtime_error("too many kernel arguments for " + k.name);
    return out;
  }
};

struct Device {
  cdnajit::Arch arch;
  cdnajit::sim::Simulator sim;
  explicit Device(cdnajit::Arch a) : arch(a), sim(a) {}

  template <class T>
  uint64_t upload(const std::vector<T>& v, std::string name = "") {
    uint64_t a = sim.memory().alloc(v.size() * sizeof(T), std::move(name));
    sim.memory().write(a, v.data(), v.size() * sizeof(T));
    return a;
  }
  template <class T>
  std::vector<T> download(uint64_t addr, size_t n) {
    std::vector<T> v(n);
    sim.memory().read(addr, v.data(), n * sizeof(T));
    return v;
  }
  cdnajit::sim::Stats run(const cdnajit::CodeObject& co, const std::string& kernel, const ArgPack& args,
                          cdnajit::sim::LaunchDims dims, const cdnajit::sim::Options& opt = {}) {
    const cdnajit::KernelInfo* k = co.find(kernel);
    if (!k) throw std::runtime_error("no kernel " + kernel);
    auto ka = args.build(*k);
    return sim.launch(co, kernel, ka, dims, opt);
  }
};

inline cdnajit::CodeObject load_hip(const std::string& src, cdnajit::Arch arch, const std::vector<std::string>& flags = {}) {
  return cdnajit::read_code_object(compile_hip(src, arch, flags));
}

// load_hip, or no code object when the toolchain cannot run here (clang++-22 missing, or clang
// unable to start a tool it needs): then `why` says so and the caller skips the test case:
//   std::string why;
//   auto co = load_hip_or_skip(src, arch, why);
//   if (!co) CDNAJIT_SKIP(why);
// Any other failure (a compile error in the test's source) is thrown, not skipped.
inline std::optional<cdnajit::CodeObject> load_hip_or_skip(const std::string& src, cdnajit::Arch arch, std::string& why,
                                                           const std::vector<std::string>& flags = {}) {
  try {
    return load_hip(src, arch, flags);
  } catch (const std::exception& e) {
    const std::string msg = e.what();
    if (msg.find("cannot run") == std::string::npos && msg.find("posix_spawn failed") == std::string::npos) throw;
    why = "clang++-22 is not available to compile the HIP kernels: " + msg;
    return std::nullopt;
  }
}

inline cdnajit::sim::LaunchDims dims1(uint32_t grid, uint32_t block) {
  cdnajit::sim::LaunchDims d;
  d.grid[0] = grid;
  d.block[0] = block;
  return d;
}

inline uint32_t bits(float f) { uint32_t u; std::memcpy(&u, &f, 4); return u; }
inline float flt(uint32_t u) { float f; std::memcpy(&f, &u, 4); return f; }

}  // namespace simtest
