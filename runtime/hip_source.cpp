#include "runtime/hip_source.hpp"

#include <dlfcn.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>

#include "jit/isa/error.hpp"

extern char** environ;

#ifndef CDNAJIT_CLANG
#define CDNAJIT_CLANG "clang++-22"
#endif

namespace cdnajit {

extern const char kHipDeviceHeaderText[];  // generated from runtime/hip_device.h

std::string_view hip_device_header() { return kHipDeviceHeaderText; }

namespace {

// ---- hiprtc ----------------------------------------------------------------

struct Hiprtc {
  void* lib = nullptr;
  std::string lib_name;
  int major = 0, minor = 0;
  std::string why_not;  // non-empty: unusable

  int (*Version)(int*, int*) = nullptr;
  int (*CreateProgram)(void**, const char*, const char*, int, const char**, const char**) = nullptr;
  int (*CompileProgram)(void*, int, const char**) = nullptr;
  int (*GetProgramLogSize)(void*, size_t*) = nullptr;
  int (*GetProgramLog)(void*, char*) = nullptr;
  int (*GetCodeSize)(void*, size_t*) = nullptr;
  int (*GetCode)(void*, char*) = nullptr;
  int (*DestroyProgram)(void**) = nullptr;
  const char* (*GetErrorString)(int) = nullptr;
};

// The ROCm major version of a loaded hiprtc. hiprtcVersion is not reliable
// for this: ROCm 5's hiprtc (built into libamdhip64) reports a constant 9.0.
// The versioned file name (libhiprtc.so.6.2.60200) is, so it wins; a library
// without one is trusted only if hiprtcVersion gives a plausible ROCm major.
int hiprtc_rocm_major(void* symbol, int reported_major, std::string* file) {
  Dl_info info{};
  if (dladdr(symbol, &info) && info.dli_fname) {
    std::error_code ec;
    auto real = std::filesystem::canonical(info.dli_fname, ec);
    *file = ec ? std::string(info.dli_fname) : real.string();
    auto name = std::filesystem::path(*file).filename().string();
    if (name.rfind("libamdhip64", 0) == 0) return 5;  // hiprtc inside the HIP runtime: ROCm 5
    auto so = name.find(".so.");
    if (name.rfind("libhiprtc", 0) == 0 && so != std::string::npos) return std::atoi(name.c_str() + so + 4);
  }
  return reported_major >= 6 && reported_major < 9 ? reported_major : 0;
}

// Loads the first usable hiprtc among `names`. Libraries are never unloaded:
// libamdhip64 (ROCm 5's home of hiprtc) does not survive dlclose reliably.
Hiprtc load_hiprtc(const std::vector<std::string>& names) {
  Hiprtc h;
  std::string refused;
  for (const auto& n : names) {
    void* lib = dlopen(n.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!lib) continue;
    auto version = reinterpret_cast<int (*)(int*, int*)>(dlsym(lib, "hiprtcVersion"));
    int major = 0, minor = 0;
    if (!version || version(&major, &minor) != 0) continue;
    std::string file = n;
    int rocm = hiprtc_rocm_major(reinterpret_cast<void*>(version), major, &file);
    if (rocm < 6) {
      // Debian's ROCm 5.2 hiprtc does not know gfx942/gfx950 and aborts the
      // process when asked to compile for them: never call it.
      if (refused.empty())
        refused = fmt::format("hiprtc in {} is from ROCm {} (hiprtcVersion says {}.{}); ROCm >= 6 is needed "
                              "for gfx942/gfx950, so it is not used",
                              file, rocm ? std::to_string(rocm) : std::string("< 6 or unknown"), major, minor);
      continue;
    }
    h.lib = lib;
    h.lib_name = file;
    h.Version = version;
    h.major = rocm;
    h.minor = minor;
    break;
  }
  if (!h.lib) {
    h.why_not = refused.empty() ? "hiprtc not found (no libhiprtc.so from a ROCm >= 6 install)" : refused;
    return h;
  }
  bool ok = true;
  auto get = [&](auto& fn, const char* sym) {
    fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(dlsym(h.lib, sym));
    ok = ok && fn;
  };
  get(h.CreateProgram, "hiprtcCreateProgram");
  get(h.CompileProgram, "hiprtcCompileProgram");
  get(h.GetProgramLogSize, "hiprtcGetProgramLogSize");
  get(h.GetProgramLog, "hiprtcGetProgramLog");
  get(h.GetCodeSize, "hiprtcGetCodeSize");
  get(h.GetCode, "hiprtcGetCode");
  get(h.DestroyProgram, "hiprtcDestroyProgram");
  get(h.GetErrorString, "hiprtcGetErrorString");
  if (!ok) h.why_not = fmt::format("{} lacks some hiprtc entry points", h.lib_name);
  return h;
}

// $CDNAJIT_HIPRTC_LIBRARY alone if set; else ROCm >= 6's libhiprtc sonames,
// then libamdhip64 (ROCm 5 kept hiprtc inside it: found, then refused).
const Hiprtc& hiprtc() {
  static const Hiprtc h = [] {
    if (const char* env = std::getenv("CDNAJIT_HIPRTC_LIBRARY"); env && *env) return load_hiprtc({env});
    return load_hiprtc({"libhiprtc.so", "libhiprtc.so.7", "libhiprtc.so.6", "/opt/rocm/lib/libhiprtc.so",
                        "libamdhip64.so"});
  }();
  return h;
}

// hiprtc may return a clang offload bundle; take the entry for our target.
std::vector<uint8_t> unbundle(std::vector<uint8_t> code, Arch arch) {
  static const char kMagic[] = "__CLANG_OFFLOAD_BUNDLE__";
  const size_t magic_len = sizeof kMagic - 1;
  if (code.size() < magic_len || std::memcmp(code.data(), kMagic, magic_len) != 0) return code;
  auto u64 = [&](size_t at) {
    if (at + 8 > code.size()) throw Error("hiprtc output: truncated offload bundle header");
    uint64_t v;
    std::memcpy(&v, code.data() + at, 8);
    return v;
  };
  uint64_t n = u64(magic_len);
  size_t at = magic_len + 8;
  std::string triples;
  for (uint64_t i = 0; i < n; ++i) {
    uint64_t off = u64(at), size = u64(at + 8), tlen = u64(at + 16);
    at += 24;
    if (at + tlen > code.size()) throw Error("hiprtc output: truncated offload bundle entry");
    std::string triple(reinterpret_cast<const char*>(code.data() + at), tlen);
    at += tlen;
    triples += " " + triple;
    if (triple.find("amdgcn-amd-amdhsa") != std::string::npos && triple.find(arch_name(arch)) != std::string::npos) {
      if (off + size > code.size()) throw Error("hiprtc output: bundle entry beyond the end");
      return std::vector<uint8_t>(code.begin() + off, code.begin() + off + size);
    }
  }
  throw Error(fmt::format("hiprtc output: no {} code object in the offload bundle (entries:{})", arch_name(arch),
                          triples));
}

std::vector<uint8_t> compile_hiprtc(const Hiprtc& h, std::string_view source, Arch arch,
                                    const std::vector<std::string>& flags) {
  if (!h.why_not.empty()) throw Error("compile_hip: hiprtc requested but unusable: " + h.why_not);
  // The header is prepended as text ("#pragma once" would warn in a main file).
  std::string header(hip_device_header());
  if (auto at = header.find("#pragma once"); at != std::string::npos) header.erase(at, 12);
  std::string full = header + "\n#line 1 \"kernel.hip\"\n" + std::string(source);
  void* prog = nullptr;
  int e = h.CreateProgram(&prog, full.c_str(), "kernel.hip", 0, nullptr, nullptr);
  if (e != 0) throw Error(std::string("hiprtcCreateProgram failed: ") + h.GetErrorString(e));
  std::vector<std::string> opts = {"--offload-arch=" + std::string(arch_name(arch)), "-O3"};
  opts.insert(opts.end(), flags.begin(), flags.end());
  std::vector<const char*> argv;
  for (const auto& o : opts) argv.push_back(o.c_str());
  e = h.CompileProgram(prog, int(argv.size()), argv.data());
  size_t log_size = 0;
  std::string log;
  if (h.GetProgramLogSize(prog, &log_size) == 0 && log_size > 1) {
    log.resize(log_size);
    h.GetProgramLog(prog, log.data());
    log.resize(strnlen(log.data(), log.size()));
  }
  std::vector<uint8_t> code;
  if (e == 0) {
    size_t n = 0;
    if (h.GetCodeSize(prog, &n) == 0 && n) {
      code.resize(n);
      h.GetCode(prog, reinterpret_cast<char*>(code.data()));
    }
  }
  h.DestroyProgram(&prog);
  if (e != 0)
    throw Error(fmt::format("compile_hip (hiprtc, ROCm {}, {}): compilation failed: {}\n{}", h.major,
                            arch_name(arch), h.GetErrorString(e), log));
  if (code.empty()) throw Error("compile_hip (hiprtc): no code produced");
  return unbundle(std::move(code), arch);
}

// ---- clang++ subprocess ----------------------------------------------------

std::string clang_path() {
  if (const char* env = std::getenv("CDNAJIT_CLANG"); env && *env) return env;
  return CDNAJIT_CLANG;
}

std::string read_file(const std::filesystem::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

void write_file(const std::filesystem::path& p, std::string_view text) {
  std::ofstream f(p, std::ios::binary);
  f.write(text.data(), std::streamsize(text.size()));
  if (!f) throw Error("compile_hip: cannot write temporary file " + p.string());
}

// A private temporary directory, removed on scope exit.
struct TempDir {
  std::filesystem::path path;
  TempDir() {
    const char* tmp = std::getenv("TMPDIR");
    std::string tmpl = std::string(tmp && *tmp ? tmp : "/tmp") + "/cdnajit-hip-XXXXXX";
    if (!mkdtemp(tmpl.data())) throw Error("compile_hip: cannot create a temporary directory from " + tmpl);
    path = tmpl;
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
};

std::vector<uint8_t> compile_clang(std::string_view source, Arch arch, const std::vector<std::string>& flags) {
  TempDir dir;
  auto src = dir.path / "kernel.hip", hdr = dir.path / "cdnajit_hip_device.h", out = dir.path / "kernel.co",
       diag = dir.path / "diagnostics.txt";
  write_file(src, source);
  write_file(hdr, hip_device_header());

  std::string clang = clang_path();
  std::vector<std::string> args = {clang,
                                   "-x",
                                   "hip",
                                   "--offload-arch=" + std::string(arch_name(arch)),
                                   "--cuda-device-only",
                                   "--no-gpu-bundle-output",
                                   "-nogpulib",
                                   "-nogpuinc",
                                   "-O3",
                                   "-include",
                                   hdr.string()};
  args.insert(args.end(), flags.begin(), flags.end());
  args.insert(args.end(), {src.string(), "-o", out.string()});
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);

  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 1, diag.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_adddup2(&fa, 1, 2);
  pid_t pid = 0;
  // A bare name is looked up on PATH; a path is used as given.
  int rc = clang.find('/') == std::string::npos ? posix_spawnp(&pid, clang.c_str(), &fa, nullptr, argv.data(), environ)
                                                : posix_spawn(&pid, clang.c_str(), &fa, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  if (rc != 0)
    throw Error(fmt::format("compile_hip: cannot run '{}': {} (set CDNAJIT_CLANG to a clang++ 22 binary)", clang,
                            std::strerror(rc)));
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) throw Error(fmt::format("compile_hip: waitpid failed: {}", std::strerror(errno)));
  }
  std::string diagnostics = read_file(diag);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    std::string cmd;
    for (const auto& a : args) cmd += (cmd.empty() ? "" : " ") + a;
    std::string how = WIFEXITED(status) ? fmt::format("exit code {}", WEXITSTATUS(status))
                                        : fmt::format("signal {}", WIFSIGNALED(status) ? WTERMSIG(status) : -1);
    if (diagnostics.size() > 16384) diagnostics = diagnostics.substr(0, 16384) + "\n[... truncated]";
    throw Error(fmt::format("compile_hip ({}, {}): clang failed with {}\ncommand: {}\n{}", clang, arch_name(arch),
                            how, cmd, diagnostics));
  }
  std::string co = read_file(out);
  if (co.empty()) throw Error(fmt::format("compile_hip: clang produced no output file\n{}", diagnostics));
  return std::vector<uint8_t>(co.begin(), co.end());
}

std::mutex cache_mutex;
std::atomic<size_t> compiler_runs{0};
std::map<std::string, std::vector<uint8_t>>& cache() {
  static std::map<std::string, std::vector<uint8_t>> c;
  return c;
}

}  // namespace

bool hiprtc_available(std::string* why_not) {
  const Hiprtc& h = hiprtc();
  if (why_not) *why_not = h.why_not;
  return h.why_not.empty();
}

HipSourceBackend hip_source_backend() {
  HipSourceBackend b;
  std::string why;
  bool rtc = hiprtc_available(&why);
  const char* force = std::getenv("CDNAJIT_HIP_COMPILER");
  std::string forced = force ? force : "";
  if (!forced.empty() && forced != "clang" && forced != "hiprtc")
    throw Error("CDNAJIT_HIP_COMPILER=\"" + forced + "\": valid values are \"clang\" and \"hiprtc\"");
  if (forced == "hiprtc" || (forced.empty() && rtc)) {
    b.kind = HipSourceBackend::Kind::hiprtc;
    if (rtc) {
      const Hiprtc& h = hiprtc();
      b.compiler = fmt::format("hiprtc from ROCm {} ({})", h.major, h.lib_name);
    } else {
      b.compiler = "hiprtc (unusable)";
      b.note = "CDNAJIT_HIP_COMPILER=hiprtc, but " + why;
    }
  } else {
    b.kind = HipSourceBackend::Kind::clang;
    b.compiler = clang_path();
    b.note = forced == "clang" ? "CDNAJIT_HIP_COMPILER=clang" : why;
  }
  return b;
}

std::vector<uint8_t> compile_hip_with(HipSourceBackend::Kind kind, std::string_view source, Arch arch,
                                      const std::vector<std::string>& extra_flags) {
  std::string key = kind == HipSourceBackend::Kind::hiprtc ? "hiprtc" : "clang:" + clang_path();
  key += '\0';
  key += arch_name(arch);
  for (const auto& f : extra_flags) key += '\0' + f;
  key += '\0';
  key += source;
  {
    std::lock_guard lock(cache_mutex);
    auto it = cache().find(key);
    if (it != cache().end()) return it->second;
  }
  ++compiler_runs;
  std::vector<uint8_t> code = kind == HipSourceBackend::Kind::hiprtc ? compile_hiprtc(hiprtc(), source, arch, extra_flags)
                                                                     : compile_clang(source, arch, extra_flags);
  std::lock_guard lock(cache_mutex);
  cache().emplace(std::move(key), code);
  return code;
}

std::vector<uint8_t> compile_hip(std::string_view source, Arch arch, const std::vector<std::string>& extra_flags) {
  return compile_hip_with(hip_source_backend().kind, source, arch, extra_flags);
}

namespace detail {
std::vector<uint8_t> compile_hip_with_hiprtc_library(const std::string& library, std::string_view source, Arch arch,
                                                     const std::vector<std::string>& extra_flags,
                                                     std::string* why_not) {
  static std::mutex mutex;
  static std::map<std::string, Hiprtc> loaded;
  std::unique_lock lock(mutex);
  auto it = loaded.find(library);
  if (it == loaded.end()) it = loaded.emplace(library, load_hiprtc({library})).first;
  const Hiprtc& h = it->second;
  lock.unlock();
  if (why_not) *why_not = h.why_not;
  return compile_hiprtc(h, source, arch, extra_flags);
}
}  // namespace detail

size_t hip_compiler_runs() { return compiler_runs.load(); }

size_t hip_compile_cache_size() {
  std::lock_guard lock(cache_mutex);
  return cache().size();
}

}  // namespace cdnajit
