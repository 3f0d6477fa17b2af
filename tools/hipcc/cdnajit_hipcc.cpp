// cdnajit-hipcc: build a HIP program that runs on cdnajit's simulator.
//
// Used like hipcc: `cdnajit-hipcc prog.hip -o prog --offload-arch=gfx942`.
// Debian's clang-22 has no clang-offload-bundler and Debian's ROCm 5.2 device
// libraries predate gfx942/gfx950, so instead of one clang call per source this
// runs the steps clang's HIP driver would:
//   1. per target: the device code, linked into a code object
//      (--cuda-device-only), with this tool's device library (device_lib.hip:
//      the ockl functions the headers call) and ROCm's math library (ocml.bc of
//      Debian's rocm-device-libs, with its control constants) linked in as bitcode;
//   2. the offload bundle of those code objects (runtime/hip_sim/offload_bundle);
//   3. the host code, embedding the bundle (-fcuda-include-gpubinary);
// and links the objects with the drop-in libamdhip64 (rpath to its folder).
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "jit/isa/error.hpp"
#include "runtime/hip_sim/offload_bundle.hpp"

extern "C" char** environ;
extern const char kDeviceLibText[];

// Included before every source (-include): ROCm 5.2's <hip/hip_fp16.h> calls __llvm_amdgcn_rcp_f16
// and __llvm_amdgcn_rcp_2f16 and leaves their declaration to clang's HIP wrapper headers, which
// clang 22's no longer make, so any file including it failed to compile. Defined here as the
// hardware v_rcp_f16 (what ROCm's libraries lower them to).
constexpr const char* kCompatHeader = R"(#pragma once
#if defined(__HIP__)
extern "C" __attribute__((device, const)) inline _Float16 __llvm_amdgcn_rcp_f16(_Float16 x) {
  return (_Float16)__builtin_amdgcn_rcph(x);
}
typedef _Float16 __cdnajit_hipcc_2f16 __attribute__((ext_vector_type(2)));
static __attribute__((device)) inline __cdnajit_hipcc_2f16 __llvm_amdgcn_rcp_2f16(__cdnajit_hipcc_2f16 x) {
  return __cdnajit_hipcc_2f16{(_Float16)__builtin_amdgcn_rcph(x.x), (_Float16)__builtin_amdgcn_rcph(x.y)};
}
#endif
)";

// <hip/hip_runtime.h> as a program includes it: a header of that name in a folder searched before
// /usr/include, which includes ROCm 5.2's own (#include_next) with three of its device functions
// renamed out of the way, and replaced:
//  - atomicInc / atomicDec call llvm.amdgcn.atomic.inc/dec by name, intrinsics LLVM has since
//    removed (the device link failed on them): these use clang's builtins, same order and scope;
//  - __assert_fail (a failed assert()) is a weak definition printing through the hostcall
//    functions, which need a host thread serving the GPU's calls: declared here, it is the device
//    library's (device_lib.hip), which prints through the printf buffer and traps. The C library's
//    host declaration, which the header's <assert.h> made under the other name, is made again.
// Only where the program includes it, so that what the program defines first still configures
// ROCm's header (HIP_TEMPLATE_KERNEL_LAUNCH, HIP_STRICT, ...), as with clang's own HIP driver.
constexpr const char* kRuntimeHeaderWrapper = R"(#pragma once
#if defined(__HIP__) && !defined(CDNAJIT_HIPCC_DEVICE_LIB)
#define atomicInc __cdnajit_hipcc_rocm52_atomicInc
#define atomicDec __cdnajit_hipcc_rocm52_atomicDec
#define __assert_fail __cdnajit_hipcc_rocm52_assert_fail
#include_next <hip/hip_runtime.h>
#undef atomicInc
#undef atomicDec
#undef __assert_fail
__attribute__((device)) inline unsigned int atomicInc(unsigned int* address, unsigned int val) {
  return __builtin_amdgcn_atomic_inc32(address, val, __ATOMIC_RELAXED, "agent");
}
__attribute__((device)) inline unsigned int atomicDec(unsigned int* address, unsigned int val) {
  return __builtin_amdgcn_atomic_dec32(address, val, __ATOMIC_RELAXED, "agent");
}
extern "C" void __assert_fail(const char*, const char*, unsigned int, const char*) noexcept __attribute__((__noreturn__));
extern "C" __attribute__((device)) void __assert_fail(const char*, const char*, unsigned int, const char*);
#else
#include_next <hip/hip_runtime.h>
#endif
)";

namespace fs = std::filesystem;

namespace {

constexpr const char* kHelp = R"(usage: cdnajit-hipcc [options] FILE... [-o OUT]

Compiles HIP sources with clang-22 against the ROCm 5.2 headers (/usr/include/hip)
and links them with cdnajit's drop-in HIP runtime (libamdhip64.so.5, which runs
kernels on cdnajit's simulator; rpath set), so the program runs unmodified:
    cdnajit-hipcc vadd.hip -o vadd --offload-arch=gfx942 && ./vadd

Options:
  --offload-arch=ARCH  gfx942 or gfx950; repeat for both (default gfx942)
  -o FILE              output (default a.out, or SOURCE.o with -c)
  -c                   compile only: an object holding host code and the fat binary
  --emit-static-lib    compile the sources and archive the objects (host code and fat
                       binary each) into -o LIBRARY.a, as hipcc --emit-static-lib does
                       without -fgpu-rdc; link it into a program built by cdnajit-hipcc
  --genco              device code only: the code object of one source for one
                       --offload-arch (default SOURCE.co), as hipcc --genco makes it: for
                       hipModuleLoad, `cdnajit run` and `cdnajit check`
  -O0..-O3             optimisation of host and device code (default -O3: at -O0 device
                       code calls helpers through a dynamic stack, which the simulator refuses)
  -v                   print each command
  --help               this text
Sources: .hip .cu .cpp .cc .cxx are compiled as HIP; .o .a .so files are linked.
Every other option goes to the compiles (-I -D -O -std -g -f... -W...) or, for
-L -l -Wl,... -pthread -shared -static, to the link.

What this wrapper supplies that Debian's toolchain lacks (and what follows):
  - __AMDGCN_WAVEFRONT_SIZE=64 (clang-22 no longer defines it; the headers need it)
  - __llvm_amdgcn_rcp_f16 / _2f16, which <hip/hip_fp16.h> calls and clang-22's wrapper
    headers no longer declare (the hardware v_rcp_f16), included before every source
  - the device-library functions the ROCm 5.2 headers call: ROCm's math library
    (ocml.bc of Debian's rocm-device-libs, 5.2: sinf, atan2f, erff, sin, exp, pow,
    ... as ROCm computes them; CDNAJIT_ROCM_BITCODE_DIR overrides its folder) and
    cdnajit's own device_lib.hip for the rest: the work-item functions
    (__ockl_get_local_id, _group_id, _local_size, _num_groups, _global_id,
    _global_size), __atomic_work_item_fence (__syncthreads, __threadfence),
    __syncthreads_count / _and / _or, cooperative groups' grid.sync() and
    grid.is_valid() (__ockl_grid_sync / _is_valid: hipLaunchCooperativeKernel), and
    the __ockl lane/vote/clz/mul24/mul_hi helpers. Any other ockl function fails at
    the device link: "undefined hidden symbol: __ockl_...".
  - atomicInc / atomicDec on clang's builtins (ROCm 5.2's call LLVM intrinsics
    LLVM has since removed)
  - device printf, buffered (-mprintf-kind=buffered: each call writes a frame to a
    buffer the drop-in runtime (or `cdnajit run`) gives the launch and prints when it ends, on stdout;
    1 MiB per launch, calls beyond it are counted and reported), and assert() through
    it: ROCm's message ("file:line: function: Device-side assertion `...' failed."),
    then the trap that fails the launch (hipErrorLaunchFailure). The hostcall printf
    functions (__ockl_fprintf_*) are not served: a kernel calling them traps.
  - the offload bundle (no clang-offload-bundler); compressed bundles are not made.
Run-time settings of the program (see the README, "HIP programs on the simulator"):
  CDNAJIT_HIP_DEVICE=sim:gfx942|sim:gfx950, CDNAJIT_HIP_MODEL=mi300x|...|FILE.json|off.
)";

struct Options {
  std::vector<std::string> archs, sources, link_inputs, compile_flags, link_flags;
  std::string output;
  bool compile_only = false, genco = false, static_lib = false, verbose = false;
};

bool ends_with(const std::string& s, const char* suffix) {
  const size_t n = std::strlen(suffix);
  return s.size() >= n && s.compare(s.size() - n, n, suffix) == 0;
}
bool is_source(const std::string& f) {
  for (const char* e : {".hip", ".cu", ".cpp", ".cc", ".cxx", ".C"})
    if (ends_with(f, e)) return true;
  return false;
}
bool is_link_input(const std::string& f) { return ends_with(f, ".o") || ends_with(f, ".a") || ends_with(f, ".so"); }

[[noreturn]] void usage_error(const std::string& what) {
  std::fprintf(stderr, "cdnajit-hipcc: %s (see cdnajit-hipcc --help)\n", what.c_str());
  std::exit(2);
}

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&](const char* flag) -> std::string {
      if (i + 1 >= argc) usage_error(std::string(flag) + " needs a value");
      return argv[++i];
    };
    if (a == "--help" || a == "-h") {
      std::fputs(kHelp, stdout);
      std::exit(0);
    } else if (a.rfind("--offload-arch=", 0) == 0) {
      std::string arch = a.substr(15);
      if (arch != "gfx942" && arch != "gfx950") usage_error("--offload-arch=" + arch + ": valid are gfx942 and gfx950");
      o.archs.push_back(arch);
    } else if (a == "-o") {
      o.output = value("-o");
    } else if (a == "-c") {
      o.compile_only = true;
    } else if (a == "--genco") {
      o.genco = true;
    } else if (a == "--emit-static-lib") {
      o.static_lib = true;
    } else if (a == "-v") {
      o.verbose = true;
    } else if (a == "-I" || a == "-D" || a == "-U" || a == "-include" || a == "-isystem") {
      o.compile_flags.push_back(a);
      o.compile_flags.push_back(value(a.c_str()));
    } else if (a == "-L" || a == "-l" || a == "-Xlinker") {
      o.link_flags.push_back(a);
      o.link_flags.push_back(value(a.c_str()));
    } else if (a.rfind("-L", 0) == 0 || a.rfind("-l", 0) == 0 || a.rfind("-Wl,", 0) == 0 || a == "-shared" ||
               a == "-static" || a == "-rdynamic") {
      o.link_flags.push_back(a);
    } else if (a == "-pthread") {
      o.compile_flags.push_back(a);
      o.link_flags.push_back(a);
    } else if (a == "-x" || a.rfind("-x", 0) == 0 || a == "--cuda-device-only" || a == "--cuda-host-only" ||
               a.rfind("--offload", 0) == 0 || a == "-fgpu-rdc") {
      usage_error("option " + a + " is not supported (cdnajit-hipcc picks the language and offload steps itself)");
    } else if (!a.empty() && a[0] == '-') {
      o.compile_flags.push_back(a);
    } else if (is_source(a)) {
      o.sources.push_back(a);
    } else if (is_link_input(a)) {
      o.link_inputs.push_back(a);
    } else {
      usage_error("'" + a + "': not a HIP/C++ source (.hip .cu .cpp .cc .cxx) nor an object (.o .a .so)");
    }
  }
  if (o.archs.empty()) o.archs.push_back("gfx942");
  // -O3 unless the command line says otherwise: the simulator runs only kernels without a
  // dynamic stack, and unoptimised device code calls its helper functions through one.
  bool has_opt = false;
  for (const auto& f : o.compile_flags) has_opt = has_opt || f.rfind("-O", 0) == 0;
  if (!has_opt) o.compile_flags.insert(o.compile_flags.begin(), "-O3");
  if (o.sources.empty() && o.link_inputs.empty()) usage_error("no input files");
  if (o.compile_only && !o.output.empty() && o.sources.size() > 1) usage_error("-c -o with more than one source");
  if (o.compile_only && o.sources.empty()) usage_error("-c without a source");
  if (o.genco && o.compile_only) usage_error("--genco with -c: --genco writes a code object, -c an object file");
  if (o.genco && (o.sources.size() != 1 || !o.link_inputs.empty()))
    usage_error("--genco takes one HIP source (its device code), nothing to link");
  if (o.genco && o.archs.size() != 1) usage_error("--genco makes one code object: give one --offload-arch");
  if (o.static_lib && (o.compile_only || o.genco)) usage_error("--emit-static-lib with -c or --genco");
  if (o.static_lib && (o.sources.empty() || o.output.empty()))
    usage_error("--emit-static-lib needs HIP sources and -o LIBRARY.a");
  for (const auto& s : o.sources)
    if (!fs::exists(s)) usage_error("no such file: " + s);
  return o;
}

// Runs a command (no shell); returns its exit status.
int run(const std::vector<std::string>& cmd, bool verbose) {
  if (verbose) {
    for (const auto& c : cmd) std::fprintf(stderr, "%s ", c.c_str());
    std::fputc('\n', stderr);
  }
  std::vector<char*> argv;
  for (const auto& c : cmd) argv.push_back(const_cast<char*>(c.c_str()));
  argv.push_back(nullptr);
  pid_t pid;
  if (posix_spawnp(&pid, argv[0], nullptr, nullptr, argv.data(), environ) != 0) {
    std::fprintf(stderr, "cdnajit-hipcc: cannot run %s: %s\n", argv[0], std::strerror(errno));
    return 127;
  }
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

void must(int status, const std::string& step) {
  if (status != 0) {
    std::fprintf(stderr, "cdnajit-hipcc: %s failed (exit status %d)\n", step.c_str(), status);
    std::exit(1);
  }
}

// The folder holding the drop-in libamdhip64.so.5: installed beside this program
// (PREFIX/bin/cdnajit-hipcc, PREFIX/<libdir>/cdnajit), else the build tree's.
std::string library_dir() {
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    const fs::path installed = exe.parent_path().parent_path() / CDNAJIT_HIPCC_INSTALL_LIBDIR;
    if (fs::exists(installed / "libamdhip64.so.5")) return installed.string();
  }
  return CDNAJIT_HIPCC_BUILD_LIBDIR;
}

// ROCm's device math library and the control constants it reads, as clang's HIP driver links
// them for a default (not fast-math) compile. ocml is target-independent bitcode; its ISA-version
// constant only selects instruction paths, and Debian's 5.2 set stops at gfx940, whose paths
// gfx942 and gfx950 both have.
std::vector<fs::path> rocm_math_bitcode() {
  const char* env = std::getenv("CDNAJIT_ROCM_BITCODE_DIR");
  const fs::path dir = env && *env ? env : CDNAJIT_ROCM_BITCODE_DIR;
  std::vector<fs::path> files;
  for (const char* f : {"ocml.bc", "oclc_isa_version_940.bc", "oclc_finite_only_off.bc", "oclc_unsafe_math_off.bc",
                        "oclc_daz_opt_off.bc", "oclc_correctly_rounded_sqrt_on.bc", "oclc_wavefrontsize64_on.bc",
                        "oclc_abi_version_500.bc"}) {
    files.push_back(dir / f);
    if (!fs::exists(files.back())) {
      std::fprintf(stderr,
                   "cdnajit-hipcc: ROCm's device math library is missing: %s not found; install Debian's "
                   "rocm-device-libs (tools/setup-deps.sh does) or set CDNAJIT_ROCM_BITCODE_DIR to the folder "
                   "holding ocml.bc and the oclc_*.bc files\n",
                   files.back().c_str());
      std::exit(1);
    }
  }
  return files;
}

std::vector<uint8_t> read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::vector<uint8_t>((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

}  // namespace

int main(int argc, char** argv) {
  const Options o = parse(argc, argv);
  const std::string clang = CDNAJIT_CLANG;
  std::vector<std::string> common = {"-D__AMDGCN_WAVEFRONT_SIZE=64", "-Wno-unused-result"};
  // Every device compile (the device library's and the sources'): no ROCm device-library search
  // (the libraries are linked explicitly), printf into the launch's buffer.
  const std::vector<std::string> device_flags = {"-nogpulib", "-mprintf-kind=buffered"};

  char tmpl[] = "/tmp/cdnajit-hipcc-XXXXXX";
  if (!mkdtemp(tmpl)) {
    std::fprintf(stderr, "cdnajit-hipcc: cannot make a temporary folder: %s\n", std::strerror(errno));
    return 1;
  }
  const fs::path tmp = tmpl;
  struct Cleanup {
    fs::path p;
    ~Cleanup() {
      std::error_code ec;
      fs::remove_all(p, ec);
    }
  } cleanup{tmp};
  std::ofstream(tmp / "cdnajit_hipcc_compat.h") << kCompatHeader;
  fs::create_directories(tmp / "include" / "hip");
  std::ofstream(tmp / "include" / "hip" / "hip_runtime.h") << kRuntimeHeaderWrapper;
  common.insert(common.end(), {"-include", (tmp / "cdnajit_hipcc_compat.h").string(), "-I", (tmp / "include").string()});

  // The device library, once per target.
  if (!o.sources.empty()) {
    std::ofstream(tmp / "device_lib.hip") << kDeviceLibText;
    for (const auto& arch : o.archs) {
      std::vector<std::string> cmd = {clang, "-x", "hip", "--cuda-device-only", "-fgpu-rdc", "--offload-arch=" + arch};
      cmd.insert(cmd.end(), device_flags.begin(), device_flags.end());
      cmd.insert(cmd.end(), {"-DCDNAJIT_HIPCC_DEVICE_LIB", "-O2", "-emit-llvm", "-c"});
      cmd.insert(cmd.end(), common.begin(), common.end());
      cmd.insert(cmd.end(), {(tmp / "device_lib.hip").string(), "-o", (tmp / ("device_lib-" + arch + ".bc")).string()});
      must(run(cmd, o.verbose), "compiling the device library for " + arch);
    }
  }

  std::vector<std::string> math_link;
  if (!o.sources.empty())
    for (const fs::path& f : rocm_math_bitcode()) math_link.insert(math_link.end(), {"-Xclang", "-mlink-builtin-bitcode", "-Xclang", f.string()});

  std::vector<std::string> objects;
  for (size_t si = 0; si < o.sources.size(); ++si) {
    const std::string& src = o.sources[si];
    const std::string stem = std::to_string(si) + "-" + fs::path(src).stem().string();
    std::vector<std::pair<std::string, std::vector<uint8_t>>> code_objects;
    for (const auto& arch : o.archs) {
      const fs::path co = tmp / (stem + "-" + arch + ".co");
      std::vector<std::string> cmd = {clang, "-x", "hip", "--cuda-device-only", "--no-gpu-bundle-output", "--offload-arch=" + arch};
      cmd.insert(cmd.end(), device_flags.begin(), device_flags.end());
      cmd.insert(cmd.end(), {"-Xclang", "-mlink-builtin-bitcode", "-Xclang", (tmp / ("device_lib-" + arch + ".bc")).string()});
      cmd.insert(cmd.end(), math_link.begin(), math_link.end());
      cmd.insert(cmd.end(), common.begin(), common.end());
      cmd.insert(cmd.end(), o.compile_flags.begin(), o.compile_flags.end());
      cmd.insert(cmd.end(), {src, "-o", co.string()});
      must(run(cmd, o.verbose), "device compile of " + src + " for " + arch);
      code_objects.emplace_back(arch, read_file(co));
    }
    if (o.genco) {
      const std::string out = o.output.empty() ? fs::path(src).stem().string() + ".co" : o.output;
      std::error_code ec;
      fs::copy_file(tmp / (stem + "-" + o.archs[0] + ".co"), out, fs::copy_options::overwrite_existing, ec);
      if (ec) {
        std::fprintf(stderr, "cdnajit-hipcc: cannot write %s: %s\n", out.c_str(), ec.message().c_str());
        return 1;
      }
      return 0;
    }
    const fs::path bundle = tmp / (stem + ".hipfb");
    {
      const std::vector<uint8_t> bytes = cdnajit::hip_sim::write_offload_bundle(code_objects);
      std::ofstream(bundle, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
    }
    std::string obj = o.compile_only ? (o.output.empty() ? fs::path(src).stem().string() + ".o" : o.output)
                                     : (tmp / (stem + ".o")).string();
    std::vector<std::string> cmd = {clang, "-x", "hip", "--cuda-host-only", "-nogpulib"};
    for (const auto& arch : o.archs) cmd.push_back("--offload-arch=" + arch);
    cmd.insert(cmd.end(), common.begin(), common.end());
    cmd.insert(cmd.end(), {"-Xclang", "-fcuda-include-gpubinary", "-Xclang", bundle.string()});
    cmd.insert(cmd.end(), o.compile_flags.begin(), o.compile_flags.end());
    cmd.insert(cmd.end(), {"-c", src, "-o", obj});
    must(run(cmd, o.verbose), "host compile of " + src);
    objects.push_back(obj);
  }
  if (o.compile_only) return 0;
  if (o.static_lib) {  // the objects, each with its fat binary, in one archive (as hipcc --emit-static-lib)
    std::error_code ec;
    fs::remove(o.output, ec);
    std::vector<std::string> ar = {CDNAJIT_HIPCC_AR, "rcs", o.output};
    ar.insert(ar.end(), objects.begin(), objects.end());
    must(run(ar, o.verbose), "archive " + o.output);
    return 0;
  }

  const std::string libdir = library_dir();
  if (!fs::exists(fs::path(libdir) / "libamdhip64.so.5")) {
    std::fprintf(stderr, "cdnajit-hipcc: the drop-in HIP runtime is missing: %s/libamdhip64.so.5 (build target cdnajit_hip_sim)\n",
                 libdir.c_str());
    return 1;
  }
  std::vector<std::string> cmd = {clang};
  cmd.insert(cmd.end(), objects.begin(), objects.end());
  cmd.insert(cmd.end(), o.link_inputs.begin(), o.link_inputs.end());
  cmd.insert(cmd.end(), o.link_flags.begin(), o.link_flags.end());
  cmd.insert(cmd.end(), {"-L" + libdir, "-l:libamdhip64.so.5", "-Wl,-rpath," + libdir, "-o",
                         o.output.empty() ? "a.out" : o.output});
  must(run(cmd, o.verbose), "link");
  return 0;
}
