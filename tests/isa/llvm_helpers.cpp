#include "tests/isa/llvm_helpers.hpp"

#include <llvm-c/Disassembler.h>
#include <llvm-c/Target.h>
#include <sys/wait.h>
#include <csignal>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>

#include "jit/isa/error.hpp"

namespace cdnajit::isa::test {

std::vector<uint8_t> compile_hip(const std::string& source_path, Arch arch) {
  std::string out = "/tmp/cdnajit_test_isa_" + std::to_string(getpid()) + "_" + std::string(arch_name(arch)) + ".co";
  std::string cmd = std::string(CDNAJIT_TEST_CLANG) + " -x hip --offload-arch=" + std::string(arch_name(arch)) +
                    " --cuda-device-only --no-gpu-bundle-output -nogpulib -nogpuinc -O3 -c '" + source_path +
                    "' -o '" + out + "' 2>&1";
  if (std::system(cmd.c_str()) != 0) throw Error("clang failed: " + cmd);
  std::ifstream f(out, std::ios::binary);
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  std::remove(out.c_str());
  if (bytes.empty()) throw Error("clang produced no output: " + cmd);
  return bytes;
}

namespace {
template <class T>
T read_at(const std::vector<uint8_t>& b, size_t off) {
  if (off + sizeof(T) > b.size()) throw Error("ELF: truncated file");
  T v;
  std::memcpy(&v, b.data() + off, sizeof(T));
  return v;
}
}  // namespace

std::vector<uint8_t> elf_section(const std::vector<uint8_t>& elf, std::string_view name) {
  if (elf.size() < 64 || std::memcmp(elf.data(), "\x7f" "ELF", 4) != 0 || elf[4] != 2)
    throw Error("not an ELF64 file");
  uint64_t shoff = read_at<uint64_t>(elf, 0x28);
  uint16_t shentsize = read_at<uint16_t>(elf, 0x3a), shnum = read_at<uint16_t>(elf, 0x3c),
           shstrndx = read_at<uint16_t>(elf, 0x3e);
  auto sh = [&](size_t i) { return shoff + i * shentsize; };
  uint64_t strtab = read_at<uint64_t>(elf, sh(shstrndx) + 0x18);
  for (size_t i = 0; i < shnum; ++i) {
    uint32_t name_off = read_at<uint32_t>(elf, sh(i));
    const char* n = reinterpret_cast<const char*>(elf.data() + strtab + name_off);
    if (name == n) {
      uint64_t off = read_at<uint64_t>(elf, sh(i) + 0x18), size = read_at<uint64_t>(elf, sh(i) + 0x20);
      if (off + size > elf.size()) throw Error("ELF: section outside the file");
      return {elf.begin() + long(off), elf.begin() + long(off + size)};
    }
  }
  return {};
}

Disassembler::Disassembler(Arch arch) {
  static bool init = [] {
    LLVMInitializeAMDGPUTargetInfo();
    LLVMInitializeAMDGPUTargetMC();
    LLVMInitializeAMDGPUDisassembler();
    return true;
  }();
  (void)init;
  std::string cpu(arch_name(arch));
  ctx_ = LLVMCreateDisasmCPU("amdgcn-amd-amdhsa", cpu.c_str(), nullptr, 0, nullptr, nullptr);
  if (!ctx_) throw Error("LLVMCreateDisasmCPU failed for " + cpu);
}

Disassembler::~Disassembler() { LLVMDisasmDispose(static_cast<LLVMDisasmContextRef>(ctx_)); }

size_t Disassembler::decode(const uint8_t* bytes, size_t size, uint64_t pc, std::string& text) {
  char buf[512];
  std::vector<uint8_t> copy(bytes, bytes + size);  // the C API takes a non-const pointer
  size_t n = LLVMDisasmInstruction(static_cast<LLVMDisasmContextRef>(ctx_), copy.data(), size, pc, buf, sizeof buf);
  text = n ? buf : "";
  return n;
}

std::vector<DisasmLine> disassemble(const std::vector<uint8_t>& code, Arch arch) {
  Disassembler d(arch);
  std::vector<DisasmLine> lines;
  size_t pc = 0;
  std::string text;
  while (pc < code.size()) {
    size_t n = d.decode(code.data() + pc, code.size() - pc, pc, text);
    if (n == 0) throw Error("LLVM cannot decode the word at .text+" + std::to_string(pc));
    lines.push_back({pc, std::vector<uint8_t>(code.begin() + long(pc), code.begin() + long(pc + n)), text});
    pc += n;
  }
  return lines;
}

std::vector<DisasmLine> decode_every_word_isolated(const std::vector<uint8_t>& code, Arch arch,
                                                   std::vector<uint64_t>& crashed) {
  std::vector<DisasmLine> out;
  size_t start = 0;
  while (start + 16 <= code.size()) {
    int fds[2];
    if (pipe(fds) != 0) throw Error("pipe failed");
    std::fflush(nullptr);
    pid_t pid = fork();
    if (pid < 0) throw Error("fork failed");
    if (pid == 0) {  // child: "S pc" before each decode, "T pc text" after a successful one
      // Die quietly: the test framework's crash handlers belong to the parent.
      for (int sig : {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT}) std::signal(sig, SIG_DFL);
      close(fds[0]);
      FILE* w = fdopen(fds[1], "w");
      Disassembler d(arch);
      std::string text;
      for (size_t pc = start; pc + 16 <= code.size(); pc += 4) {
        std::fprintf(w, "S %zu\n", pc);
        std::fflush(w);
        if (d.decode(code.data() + pc, 16, pc, text) && text.find('\n') == std::string::npos)
          std::fprintf(w, "T %zu %s\n", pc, text.c_str());
      }
      std::fflush(w);
      _exit(0);
    }
    close(fds[1]);
    FILE* r = fdopen(fds[0], "r");
    size_t last_started = start;
    char* line = nullptr;
    size_t cap = 0;
    ssize_t len;
    while ((len = getline(&line, &cap, r)) > 0) {
      std::string l(line, size_t(len));
      if (!l.empty() && l.back() == '\n') l.pop_back();
      size_t pc = std::stoull(l.substr(2));
      if (l[0] == 'S') {
        last_started = pc;
      } else {
        auto sp = l.find(' ', 2);
        out.push_back({pc, std::vector<uint8_t>(code.begin() + long(pc), code.begin() + long(pc + 4)), l.substr(sp + 1)});
      }
    }
    std::free(line);
    std::fclose(r);
    int status = 0;
    waitpid(pid, &status, 0);
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) break;
    crashed.push_back(last_started);
    start = last_started + 4;
  }
  return out;
}

}  // namespace cdnajit::isa::test
