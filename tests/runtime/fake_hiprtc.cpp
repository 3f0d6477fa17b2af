// A stand-in for ROCm 6's libhiprtc (built as libhiprtc.so.6.2.0), so the
// runtime's hiprtc path — version check, options, header prepending, log and
// code retrieval, offload-bundle unwrapping — runs on machines without ROCm.
// "Compiling" runs clang++ 22 on the received source (no HIP headers, so the
// prepended cdnajit header supplies the HIP API, as with -nogpuinc).
#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

struct Program {
  std::string source, log;
  std::vector<char> code;
};

std::string slurp(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

// Wraps a code object into a two-entry clang offload bundle (host + device).
std::vector<char> bundle(const std::string& co, const std::string& arch) {
  std::vector<std::string> triples = {"host-x86_64-unknown-linux-gnu", "hipv4-amdgcn-amd-amdhsa--" + arch};
  std::vector<std::string> bodies = {"", co};
  size_t header = 24 + 8;
  for (auto& t : triples) header += 24 + t.size();
  std::vector<char> out(header);
  std::memcpy(out.data(), "__CLANG_OFFLOAD_BUNDLE__", 24);
  uint64_t n = triples.size(), off = header;
  std::memcpy(out.data() + 24, &n, 8);
  size_t at = 32;
  for (size_t i = 0; i < triples.size(); ++i) {
    uint64_t size = bodies[i].size(), tlen = triples[i].size();
    std::memcpy(out.data() + at, &off, 8);
    std::memcpy(out.data() + at + 8, &size, 8);
    std::memcpy(out.data() + at + 16, &tlen, 8);
    std::memcpy(out.data() + at + 24, triples[i].data(), tlen);
    at += 24 + tlen;
    off += size;
  }
  for (auto& b : bodies) out.insert(out.end(), b.begin(), b.end());
  return out;
}

}  // namespace

extern "C" {

int hiprtcVersion(int* major, int* minor) {
  *major = 6;
  *minor = 2;
  return 0;
}
const char* hiprtcGetErrorString(int e) { return e == 0 ? "HIPRTC_SUCCESS" : "HIPRTC_ERROR_COMPILATION"; }
int hiprtcCreateProgram(void** prog, const char* src, const char*, int, const char**, const char**) {
  *prog = new Program{src, "", {}};
  return 0;
}
int hiprtcDestroyProgram(void** prog) {
  delete static_cast<Program*>(*prog);
  *prog = nullptr;
  return 0;
}
int hiprtcCompileProgram(void* prog, int n, const char** options) {
  Program& p = *static_cast<Program*>(prog);
  std::string arch, dir = "/tmp/fake-hiprtc-" + std::to_string(getpid());
  std::vector<std::string> args = {CDNAJIT_CLANG, "-x", "hip", "--cuda-device-only", "--no-gpu-bundle-output",
                                   "-nogpulib", "-nogpuinc"};
  for (int i = 0; i < n; ++i) {
    std::string o = options[i];
    if (o.rfind("--offload-arch=", 0) == 0) arch = o.substr(15);
    args.push_back(o);
  }
  if (arch.empty()) {
    p.log = "fake hiprtc: no --offload-arch option";
    return 6;
  }
  std::string mk = "mkdir -p " + dir;
  if (std::system(mk.c_str()) != 0) return 6;
  std::ofstream(dir + "/prog.hip") << p.source;
  args.insert(args.end(), {dir + "/prog.hip", "-o", dir + "/prog.co"});
  std::string cmd;
  for (auto& a : args) cmd += "'" + a + "' ";
  cmd += "> " + dir + "/log.txt 2>&1";
  int rc = std::system(cmd.c_str());
  p.log = slurp(dir + "/log.txt");
  if (rc != 0) {
    std::system(("rm -rf " + dir).c_str());
    return 6;
  }
  std::string co = slurp(dir + "/prog.co");
  std::system(("rm -rf " + dir).c_str());
  if (const char* b = std::getenv("FAKE_HIPRTC_BUNDLE"); b && *b == '1')
    p.code = bundle(co, arch);
  else
    p.code.assign(co.begin(), co.end());
  return 0;
}
int hiprtcGetProgramLogSize(void* prog, size_t* n) {
  *n = static_cast<Program*>(prog)->log.size() + 1;
  return 0;
}
int hiprtcGetProgramLog(void* prog, char* out) {
  const std::string& log = static_cast<Program*>(prog)->log;
  std::memcpy(out, log.c_str(), log.size() + 1);
  return 0;
}
int hiprtcGetCodeSize(void* prog, size_t* n) {
  *n = static_cast<Program*>(prog)->code.size();
  return 0;
}
int hiprtcGetCode(void* prog, char* out) {
  const auto& c = static_cast<Program*>(prog)->code;
  std::memcpy(out, c.data(), c.size());
  return 0;
}

}  // extern "C"
