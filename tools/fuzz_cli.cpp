#include "tools/fuzz_cli.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <thread>

#include "jit/isa/error.hpp"
#include "runtime/kernel_args.hpp"
#include "jit/codeobject/code_object.hpp"
#include "tools/fuzz_code_object.hpp"

namespace cdnajit {

namespace {

// A `--arg` for one explicit kernel argument: a buffer for a pointer, a small
// value of the kind its type name (or size) says for a scalar. Small values keep
// loops short; a mutant that changes the metadata gets a named mismatch error.
std::string arg_for(const KernelArgInfo& a, size_t index) {
  if (a.value_kind == "global_buffer") return fmt::format("buf:b{}:65536:random", index);
  const std::string& t = a.type_name;
  if (t == "float") return "f32:1.5";
  if (t == "double") return "f64:1.5";
  if (t == "int" || t == "int32_t" || t == "signed int") return "i32:64";
  if (t == "long" || t == "int64_t" || t == "long long") return "i64:64";
  return a.size == 8 ? "u64:64" : "u32:64";
}

void write_bytes(const std::string& path, const std::vector<uint8_t>& bytes) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  f.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
  f.close();
  if (!f) throw Error("fuzz: cannot write '" + path + "'");
}

// A child running one command on one mutant.
struct Child {
  pid_t pid = -1;
  int err_fd = -1;  // read end of the child's stderr
  uint64_t iteration = 0;
  bool is_run = false;
  std::string file, command, err;
  std::vector<uint8_t> mutant;
  std::chrono::steady_clock::time_point deadline;
};

// Starts `argv` with stdout on /dev/null and stderr on a pipe. The sanitizers
// (in an -DCDNAJIT_SANITIZE build of cdnajit) end the child with status 86, so
// their reports are never mistaken for a named error (status 1).
void spawn(Child& c, const std::vector<std::string>& argv) {
  int p[2];
  if (::pipe2(p, O_CLOEXEC) != 0) throw Error(std::string("fuzz: pipe failed: ") + std::strerror(errno));
  std::vector<char*> cargv;
  for (const std::string& a : argv) cargv.push_back(const_cast<char*>(a.c_str()));
  cargv.push_back(nullptr);
  pid_t pid = ::fork();
  if (pid < 0) {
    ::close(p[0]);
    ::close(p[1]);
    throw Error(std::string("fuzz: fork failed: ") + std::strerror(errno));
  }
  if (pid == 0) {
    int devnull = ::open("/dev/null", O_WRONLY);
    if (devnull >= 0) ::dup2(devnull, 1);
    ::dup2(p[1], 2);
    ::setenv("ASAN_OPTIONS", "exitcode=86", 0);
    ::setenv("UBSAN_OPTIONS", "exitcode=86:print_stacktrace=1", 0);
    ::execv(cargv[0], cargv.data());
    ::_exit(127);
  }
  ::close(p[1]);
  ::fcntl(p[0], F_SETFL, O_NONBLOCK);
  c.pid = pid;
  c.err_fd = p[0];
}

// Reads what the child wrote to stderr so far (keeps the last 8 KB: a pipe
// that is never drained would block a chatty child).
void drain(Child& c) {
  char buf[4096];
  for (ssize_t n; (n = ::read(c.err_fd, buf, sizeof buf)) > 0;) c.err.append(buf, size_t(n));
  if (c.err.size() > 8192) c.err.erase(0, c.err.size() - 8192);
}

std::string last_lines(const std::string& s, size_t max_chars = 600) {
  return s.size() <= max_chars ? s : "..." + s.substr(s.size() - max_chars);
}

}  // namespace

CliFuzzSeed make_cli_fuzz_seed(std::string label, std::vector<uint8_t> code_object, const std::string& kernel) {
  CodeObject co = read_code_object(code_object);
  if (co.kernels.empty()) throw Error("fuzz: seed " + label + " has no kernel");
  const KernelInfo* k = kernel.empty() ? &co.kernels.front() : co.find(kernel);
  if (!k) throw Error("fuzz: seed " + label + " has no kernel '" + kernel + "'");
  CliFuzzSeed s;
  s.label = std::move(label);
  s.code_object = std::move(code_object);
  uint32_t block = std::clamp<uint32_t>(k->max_flat_workgroup_size ? k->max_flat_workgroup_size : 64, 64, 256);
  s.run_args = {"--kernel", k->name, "--device", "sim:" + std::string(arch_name(co.arch)), "--grid", "2",
                "--block", std::to_string(block), "--timeout", "5", "--max-instructions", "4000000"};
  size_t index = 0;
  for (const KernelArgInfo& a : k->args)
    if (!is_hidden_arg(a)) s.run_args.insert(s.run_args.end(), {"--arg", arg_for(a, index++)});
  return s;
}

std::string cli_run_command(const CliFuzzSeed& seed, const std::string& file) {
  std::string cmd = "cdnajit run " + file;
  for (const std::string& a : seed.run_args) cmd += " " + a;
  return cmd;
}

CliFuzzReport fuzz_through_cli(const std::vector<CliFuzzSeed>& seeds, const CliFuzzOptions& opt) {
  if (seeds.empty()) throw Error("fuzz: no seed code objects");
  std::error_code ec;
  std::filesystem::create_directories(opt.work_dir, ec);
  if (ec) throw Error("fuzz: cannot create '" + opt.work_dir + "': " + ec.message());
  std::mt19937 rng(opt.rng_seed);
  CliFuzzReport r;
  auto t0 = std::chrono::steady_clock::now();
  auto out_of_time = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() >= opt.seconds;
  };
  std::vector<Child> slots(size_t(std::max(1, opt.jobs)));
  uint64_t started = 0;

  auto finding = [&](Child& c, const std::string& kind, const std::string& what) {
    std::filesystem::create_directories(opt.crash_dir, ec);
    std::string path = fmt::format("{}/cli-{}-{}-{}.co", opt.crash_dir, kind, opt.rng_seed, c.iteration);
    std::string saved = path;
    try {
      write_bytes(path, c.mutant);
    } catch (const Error&) {
      saved = "(could not write " + path + ")";
    }
    std::string cmd = c.command;
    size_t at = cmd.find(c.file);
    if (at != std::string::npos) cmd.replace(at, c.file.size(), saved);
    r.findings.push_back({kind, what + (c.err.empty() ? "" : "; stderr: " + last_lines(c.err)), cmd});
  };

  auto finish = [&](Child& c, int wstatus, bool hung) {
    drain(c);
    ::close(c.err_fd);
    ++r.iterations;
    if (hung) {
      finding(c, "hang", fmt::format("still running after {} s (killed)", opt.per_input_seconds));
    } else if (WIFSIGNALED(wstatus)) {
      const char* n = strsignal(WTERMSIG(wstatus));
      finding(c, "crash", fmt::format("signal {} ({})", WTERMSIG(wstatus), n ? n : "?"));
    } else if (int st = WEXITSTATUS(wstatus); st == 0 || st == 1) {
      if (c.is_run) ++(st == 0 ? r.run_ok : r.run_error);
      else ++(st == 0 ? r.check_ok : r.check_nonzero);
      if (st == 1 && r.example_error.empty() && c.err.find("error:") != std::string::npos)
        r.example_error = c.err.substr(0, c.err.find('\n'));
    } else {
      finding(c, "bad-exit", fmt::format("exit status {} (valid: 0 done, 1 a named error)", st));
    }
    std::filesystem::remove(c.file, ec);
    c.pid = -1;
    if (opt.progress && opt.progress_every && r.iterations % opt.progress_every == 0) opt.progress(r);
  };

  for (;;) {
    bool running = false;
    for (size_t slot = 0; slot < slots.size(); ++slot) {
      Child& c = slots[slot];
      if (c.pid > 0) {
        drain(c);
        int wstatus = 0;
        pid_t w = ::waitpid(c.pid, &wstatus, WNOHANG);
        if (w == c.pid) {
          finish(c, wstatus, false);
        } else if (std::chrono::steady_clock::now() > c.deadline) {
          ::kill(c.pid, SIGKILL);
          ::waitpid(c.pid, &wstatus, 0);
          finish(c, wstatus, true);
        } else {
          running = true;
          continue;
        }
      }
      if (started >= opt.iterations || out_of_time()) continue;
      // Start the next mutant in this slot.
      const CliFuzzSeed& seed = seeds[started % seeds.size()];
      c = Child{};
      c.iteration = ++started;
      c.is_run = c.iteration % 2 == 1;
      c.mutant = mutate_code_object(seed.code_object, rng);
      c.file = fmt::format("{}/mutant-{}-{}.co", opt.work_dir, ::getpid(), slot);
      write_bytes(c.file, c.mutant);
      std::vector<std::string> argv = {opt.cdnajit, c.is_run ? "run" : "check", c.file};
      if (c.is_run) argv.insert(argv.end(), seed.run_args.begin(), seed.run_args.end());
      c.command.clear();
      for (size_t i = 0; i < argv.size(); ++i) {
        if (i) c.command += ' ';
        c.command += i == 0 ? std::string("cdnajit") : argv[i];
      }
      c.command += "   # mutant of " + seed.label;
      c.deadline = std::chrono::steady_clock::now() + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                                           std::chrono::duration<double>(opt.per_input_seconds));
      spawn(c, argv);
      running = true;
    }
    if (!running) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  return r;
}

}  // namespace cdnajit
