#include "jit/asm/subprocess_toolchain.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

#include "jit/codeobject/target_id.hpp"
#include "jit/asm/temp_dir.hpp"
#include "jit/isa/error.hpp"

extern char** environ;

namespace cdnajit {
namespace {

#ifndef CDNAJIT_LLVM_BIN_DIR
#define CDNAJIT_LLVM_BIN_DIR "/usr/lib/llvm-22/bin"
#endif

std::filesystem::path find_tool(std::string_view plain, std::string_view versioned) {
  std::filesystem::path candidates[] = {
      std::filesystem::path(CDNAJIT_LLVM_BIN_DIR) / plain,
      std::filesystem::path("/usr/bin") / versioned,
  };
  for (const auto& c : candidates)
    if (::access(c.c_str(), X_OK) == 0) return c;
  throw Error("cannot find " + std::string(plain) + ": tried " + candidates[0].string() + " and " +
              candidates[1].string() + " (install llvm-22 / lld-22)");
}

// Runs argv[0] with the given arguments, stdout and stderr redirected to
// `log`. Returns the exit status (or throws if the process could not start).
int run(const std::vector<std::string>& args, const std::filesystem::path& log) {
  std::vector<char*> argv;
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_adddup2(&actions, 1, 2);
  pid_t pid = 0;
  int rc = posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) throw Error("cannot start '" + args[0] + "': " + std::strerror(rc));
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) throw Error("waitpid for '" + args[0] + "' failed: " + std::strerror(errno));
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

std::string log_text(const std::filesystem::path& log) {
  auto bytes = read_whole_file(log);
  return std::string(bytes.begin(), bytes.end());
}

}  // namespace

SubprocessToolchain SubprocessToolchain::find() {
  return {find_tool("llvm-mc", "llvm-mc-22"), find_tool("ld.lld", "ld.lld-22")};
}

std::vector<uint8_t> SubprocessToolchain::assemble(std::string_view asm_text, Arch arch) const {
  TempDir dir("cdnajit-mc");
  auto src = dir.path() / "kernel.s", obj = dir.path() / "kernel.o", log = dir.path() / "log";
  write_whole_file(src, std::span(reinterpret_cast<const uint8_t*>(asm_text.data()), asm_text.size()));
  int status = run({llvm_mc.string(), "-triple=" + std::string(kAmdgpuTriple),
                    "-mcpu=" + std::string(mcpu_name(arch)), "-filetype=obj", "-o", obj.string(),
                    src.string()},
                   log);
  if (status != 0)
    throw Error(llvm_mc.string() + " failed (exit " + std::to_string(status) + ") for " +
                std::string(mcpu_name(arch)) + ":\n" + log_text(log));
  return read_whole_file(obj);
}

std::vector<uint8_t> SubprocessToolchain::link(std::span<const uint8_t> relocatable_object,
                                               Arch arch) const {
  TempDir dir("cdnajit-ld");
  auto obj = dir.path() / "kernel.o", out = dir.path() / "kernel.co", log = dir.path() / "log";
  write_whole_file(obj, relocatable_object);
  int status = run({ld_lld.string(), "-m", "elf64_amdgpu", "--no-undefined", "-shared", "-o",
                    out.string(), obj.string()},
                   log);
  if (status != 0)
    throw Error(ld_lld.string() + " failed (exit " + std::to_string(status) + ") linking a " +
                std::string(mcpu_name(arch)) + " object:\n" + log_text(log));
  return read_whole_file(out);
}

std::vector<uint8_t> SubprocessToolchain::assemble_and_link(std::string_view asm_text, Arch arch) const {
  return link(assemble(asm_text, arch), arch);
}

}  // namespace cdnajit
