#include "tests/sim/hip_compile.hpp"

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>
#include <stdexcept>

namespace simtest {

const char* const kPrelude = R"(
#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
#define __device__ __attribute__((device))
static __device__ inline unsigned tid() { return __builtin_amdgcn_workitem_id_x(); }
static __device__ inline unsigned bid() { return __builtin_amdgcn_workgroup_id_x(); }
static __device__ inline unsigned bdim() { return __builtin_amdgcn_workgroup_size_x(); }
static __device__ inline void sync() {
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
  __builtin_amdgcn_s_barrier();
  __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
}
)";

namespace {
std::mutex g_mutex;
std::map<std::string, std::vector<uint8_t>> g_cache;

// Scratch directory for sources and objects, removed when the process exits.
struct WorkDir {
  std::filesystem::path path;
  WorkDir() {
    path = std::filesystem::temp_directory_path() / ("cdnajit_simtest_" + std::to_string(getpid()));
    std::filesystem::create_directories(path);
  }
  ~WorkDir() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
};

std::filesystem::path workdir() {
  static WorkDir d;
  return d.path;
}

std::string run(const std::string& cmd) {
  std::string out;
  FILE* f = popen((cmd + " 2>&1").c_str(), "r");
  if (!f) throw std::runtime_error("cannot run: " + cmd);
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, f)) > 0) out.append(buf, n);
  int rc = pclose(f);
  if (rc != 0) throw std::runtime_error("command failed: " + cmd + "\n" + out);
  return out;
}

std::vector<uint8_t> slurp(const std::filesystem::path& p) {
  std::ifstream f(p, std::ios::binary);
  return std::vector<uint8_t>((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
}
}  // namespace

std::vector<uint8_t> compile_hip(const std::string& source, cdnajit::Arch arch) {
  std::lock_guard<std::mutex> lock(g_mutex);
  std::string key = "hip:" + std::string(cdnajit::arch_name(arch)) + ":" + source;
  if (auto it = g_cache.find(key); it != g_cache.end()) return it->second;
  auto dir = workdir();
  std::string stem = "k";
  stem += std::to_string(g_cache.size());
  auto src = dir / (stem + ".hip"), obj = dir / (stem + ".co");
  std::ofstream(src) << kPrelude << source;
  run("/usr/lib/llvm-22/bin/clang++ -x hip --offload-arch=" + std::string(cdnajit::arch_name(arch)) +
      " --cuda-device-only --no-gpu-bundle-output -nogpulib -nogpuinc -O3 -c " + src.string() + " -o " + obj.string());
  auto bytes = slurp(obj);
  g_cache[key] = bytes;
  return bytes;
}

std::vector<uint8_t> assemble(const std::string& asm_text, cdnajit::Arch arch) {
  std::lock_guard<std::mutex> lock(g_mutex);
  std::string key = "asm:" + std::string(cdnajit::arch_name(arch)) + ":" + asm_text;
  if (auto it = g_cache.find(key); it != g_cache.end()) return it->second;
  auto dir = workdir();
  std::string stem = "a";
  stem += std::to_string(g_cache.size());
  auto src = dir / (stem + ".s"), obj = dir / (stem + ".o"), co = dir / (stem + ".co");
  std::ofstream(src) << asm_text;
  std::string cpu(cdnajit::arch_name(arch));
  run("/usr/lib/llvm-22/bin/llvm-mc -triple=amdgcn-amd-amdhsa -mcpu=" + cpu + " -filetype=obj " + src.string() +
      " -o " + obj.string());
  run("/usr/lib/llvm-22/bin/ld.lld -shared " + obj.string() + " -o " + co.string());
  auto bytes = slurp(co);
  g_cache[key] = bytes;
  return bytes;
}

}  // namespace simtest
