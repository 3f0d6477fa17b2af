#include "tests/isa/llvm_helpers.hpp"

#include <llvm-c/Disassembler.h>
#include <llvm-c/Target.h>
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

std::vector<DisasmLine> disassemble(const std::vector<uint8_t>& code, Arch arch) {
  static bool init = [] {
    LLVMInitializeAMDGPUTargetInfo();
    LLVMInitializeAMDGPUTargetMC();
    LLVMInitializeAMDGPUDisassembler();
    return true;
  }();
  (void)init;
  std::string cpu(arch_name(arch));
  LLVMDisasmContextRef ctx = LLVMCreateDisasmCPU("amdgcn-amd-amdhsa", cpu.c_str(), nullptr, 0, nullptr, nullptr);
  if (!ctx) throw Error("LLVMCreateDisasmCPU failed for " + cpu);
  std::vector<DisasmLine> lines;
  std::vector<uint8_t> buf(code);
  size_t pc = 0;
  char text[512];
  while (pc < buf.size()) {
    size_t n = LLVMDisasmInstruction(ctx, buf.data() + pc, buf.size() - pc, pc, text, sizeof text);
    if (n == 0) {
      LLVMDisasmDispose(ctx);
      throw Error("LLVM cannot decode the word at .text+" + std::to_string(pc));
    }
    lines.push_back({pc, std::vector<uint8_t>(buf.begin() + long(pc), buf.begin() + long(pc + n)), text});
    pc += n;
  }
  LLVMDisasmDispose(ctx);
  return lines;
}

}  // namespace cdnajit::isa::test
