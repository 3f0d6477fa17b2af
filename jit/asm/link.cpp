#include "jit/asm/link.hpp"

#include <mutex>
#include <optional>
#include <string>

#include "jit/asm/subprocess_toolchain.hpp"
#include "jit/asm/target_id.hpp"
#include "jit/asm/temp_dir.hpp"
#include "jit/isa/error.hpp"
#include "lld/Common/Driver.h"
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

}  // namespace

std::vector<uint8_t> link_code_object(std::span<const uint8_t> relocatable_object, Arch arch) {
  if (relocatable_object.empty())
    throw Error(std::string("link_code_object: empty input for ") + std::string(mcpu_name(arch)) +
                " (expected a relocatable AMDGPU ELF object from assemble())");

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
  const char* args[] = {"ld.lld", "-m", "elf64_amdgpu", "--no-undefined", "-shared",
                        "-o",     output.c_str(),      input.c_str()};
  std::string out_text, err_text;
  llvm::raw_string_ostream out_stream(out_text), err_stream(err_text);
  lld::Result result = lld::lldMain(args, out_stream, err_stream, {{lld::Gnu, &lld::elf::link}});
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

}  // namespace cdnajit
