#include "jit/asm/link.hpp"

#include <cstdio>
#include <mutex>
#include <optional>
#include <string>

#include "jit/asm/subprocess_toolchain.hpp"
#include "jit/codeobject/target_id.hpp"
#include "jit/asm/temp_dir.hpp"
#include "jit/isa/error.hpp"
#include "lld/Common/Driver.h"
#include "llvm/BinaryFormat/ELF.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

LLD_HAS_DRIVER(elf)

namespace cdnajit {
namespace {

// lld keeps global state per link: one link at a time in this process.
std::mutex lld_mutex;
bool lld_can_run_again = true;  // guarded by lld_mutex

std::string trim_trailing_newlines(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r')) s.pop_back();
  return s;
}

std::string hex(uint32_t v) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%x", v);
  return buf;
}

// lld reports malformed input through fatal(), after which it refuses to run
// again in this process. Checking the object with LLVM's reader first turns
// the common bad inputs into a plain error and keeps in-process lld usable.
void check_relocatable_object(std::span<const uint8_t> bytes, Arch arch) {
  const std::string what = "link_code_object(" + std::string(mcpu_name(arch)) + "): input ";
  llvm::MemoryBufferRef ref(llvm::StringRef(reinterpret_cast<const char*>(bytes.data()), bytes.size()),
                            "relocatable object");
  auto obj = llvm::object::ELF64LEObjectFile::create(ref);
  if (!obj)
    throw Error(what + "is not a 64-bit little-endian ELF object (" + llvm::toString(obj.takeError()) +
                "); pass the bytes assemble() returned");
  const auto& elf = obj->getELFFile();
  const auto& h = elf.getHeader();
  if (h.e_machine != llvm::ELF::EM_AMDGPU)
    throw Error(what + "has e_machine " + std::to_string(h.e_machine) + ", expected EM_AMDGPU (224)");
  if (h.e_type != llvm::ELF::ET_REL)
    throw Error(what + "has e_type " + std::to_string(h.e_type) + ", expected a relocatable object (ET_REL)");
  uint32_t mach = h.e_flags & llvm::ELF::EF_AMDGPU_MACH;
  if (mach != elf_mach(arch))
    throw Error(what + "was assembled for e_flags mach " + hex(mach) + ", expected " + hex(elf_mach(arch)) +
                " (" + std::string(mcpu_name(arch)) + ")");
  auto sections = elf.sections();
  if (!sections) throw Error(what + "has a bad section table: " + llvm::toString(sections.takeError()));
  for (const auto& sec : *sections) {
    if (sec.sh_type == llvm::ELF::SHT_NOBITS) continue;
    auto contents = elf.getSectionContents(sec);
    if (!contents) throw Error(what + "has a bad section: " + llvm::toString(contents.takeError()));
  }
}

}  // namespace

std::vector<uint8_t> link_code_object(std::span<const uint8_t> relocatable_object, Arch arch) {
  if (relocatable_object.empty())
    throw Error(std::string("link_code_object: empty input for ") + std::string(mcpu_name(arch)) +
                " (expected a relocatable AMDGPU ELF object from assemble())");

  check_relocatable_object(relocatable_object, arch);

  std::lock_guard<std::mutex> lock(lld_mutex);
  if (!lld_can_run_again) {
    // lld said its state may be corrupt after an earlier failure; the
    // executable is slower but always starts from a clean process.
    return SubprocessToolchain::find().link(relocatable_object, arch);
  }

  TempDir dir("cdnajit-lld");
  const std::string input = (dir.path() / "kernel.o").string();
  const std::string output = (dir.path() / "kernel.co").string();
  write_whole_file(input, relocatable_object);

  // The arguments clang passes when it links an amdgcn device object.
  // --threads=1: a kernel is one tiny object, and lld's thread pool costs more than it saves.
  const char* args[] = {"ld.lld", "-m", "elf64_amdgpu", "--no-undefined", "-shared", "--threads=1",
                        "-o",     output.c_str(),      input.c_str()};
  std::string out_text, err_text;
  llvm::raw_string_ostream out_stream(out_text), err_stream(err_text);
  // Without crash recovery enabled, an lld fatal() error exits the whole
  // process; enabled, lldMain returns instead. Scoped to this call so the
  // rest of the process keeps its own signal handlers.
  llvm::CrashRecoveryContext::Enable();
  lld::Result result = lld::lldMain(args, out_stream, err_stream, {{lld::Gnu, &lld::elf::link}});
  llvm::CrashRecoveryContext::Disable();
  out_stream.flush();
  err_stream.flush();
  lld_can_run_again = result.canRunAgain;

  if (result.retCode != 0) {
    std::string message = trim_trailing_newlines(err_text + out_text);
    throw Error("lld failed to link the " + std::string(mcpu_name(arch)) + " object (" +
                std::to_string(relocatable_object.size()) + " bytes) into a code object" +
                (message.empty() ? std::string(" (no message)") : ":\n" + message));
  }
  return read_whole_file(output);
}

bool in_process_linker_available() {
  std::lock_guard<std::mutex> lock(lld_mutex);
  return lld_can_run_again;
}

}  // namespace cdnajit
