#include "tools/fuzz_code_object.hpp"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <thread>
#include <vector>

#include "jit/isa/error.hpp"
#include "jit/codeobject/code_object.hpp"
#include "runtime/sim/simulator.hpp"

namespace cdnajit {

std::vector<uint8_t> mutate_code_object(std::span<const uint8_t> seed, std::mt19937& rng) {
  std::vector<uint8_t> m(seed.begin(), seed.end());
  switch (rng() % 5) {
    case 0:  // a few random byte flips anywhere
      for (int i = 0, n = 1 + int(rng() % 8); i < n && !m.empty(); ++i) m[rng() % m.size()] ^= uint8_t(1 + rng() % 255);
      break;
    case 1:  // truncation
      m.resize(rng() % (m.size() + 1));
      break;
    case 2:  // stomp a 4/8-byte field in the ELF header or section headers with extreme values
      if (m.size() >= 8) {
        size_t at = (rng() % 2 ? rng() % std::min<size_t>(64, m.size() - 8) : rng() % (m.size() - 8));
        uint64_t v = (rng() % 3 == 0) ? ~0ull : (rng() % 2 ? 0 : (uint64_t(rng()) << 32 | rng()));
        std::memcpy(&m[at], &v, 4 + 4 * (rng() % 2));
      }
      break;
    case 3:  // splice a block of random bytes
      if (!m.empty()) {
        size_t at = rng() % m.size(), n = std::min<size_t>(m.size() - at, 1 + rng() % 64);
        for (size_t i = 0; i < n; ++i) m[at + i] = uint8_t(rng());
      }
      break;
    default:  // pure garbage of a random length
      m.assign(rng() % 512, 0);
      for (auto& b : m) b = uint8_t(rng());
      break;
  }
  return m;
}

void exercise_code_object(std::span<const uint8_t> bytes, bool launch) {
  CodeObject co = read_code_object(bytes);
  // Loading is not enough: decode every kernel too (the decoder must reject bad code, not crash).
  sim::Simulator s(co.arch);
  for (const KernelInfo& k : co.kernels) s.disassemble(co, k.name);
  if (!launch) return;
  sim::Options o;
  o.instruction_budget = 1u << 20;
  o.time_limit_seconds = 2;
  o.threads = 1;
  for (const KernelInfo& k : co.kernels) {
    std::vector<uint8_t> kernarg(std::max<size_t>(k.kernarg_size, 16), 0);  // null pointers: loads fail as out of bounds
    sim::LaunchDims d;
    d.block[0] = std::clamp<uint32_t>(k.max_flat_workgroup_size, 1, 64);
    s.launch(co, k.name, kernarg, d, o);
  }
}

namespace {

// Child exit statuses.
constexpr int kAccepted = 0, kRejected = 10, kOtherException = 11;

std::string signal_name(int sig) {
  const char* n = strsignal(sig);
  return "signal " + std::to_string(sig) + " (" + (n ? n : "?") + ")";
}

std::string save_reproducer(const FuzzOptions& opt, const std::string& kind, uint64_t iteration,
                            const std::vector<uint8_t>& bytes) {
  std::error_code ec;
  std::filesystem::create_directories(opt.crash_dir, ec);
  std::string path = opt.crash_dir + "/" + kind + "-" + std::to_string(opt.rng_seed) + "-" + std::to_string(iteration) + ".co";
  std::ofstream f(path, std::ios::binary);
  f.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
  return f ? path : "(could not write " + path + ")";
}

}  // namespace

ChildOutcome run_in_child(const std::function<void()>& fn, double timeout_seconds) {
  int pipefd[2];
  if (::pipe(pipefd) != 0) throw Error(std::string("fuzz: pipe() failed: ") + std::strerror(errno));
  std::fflush(nullptr);
  pid_t pid = ::fork();
  if (pid < 0) {
    ::close(pipefd[0]);
    ::close(pipefd[1]);
    throw Error(std::string("fuzz: fork() failed: ") + std::strerror(errno));
  }
  if (pid == 0) {
    ::close(pipefd[0]);
    int status = kAccepted;
    std::string msg;
    try {
      fn();
    } catch (const Error& e) {
      status = kRejected;
      msg = e.what();
    } catch (const std::exception& e) {
      status = kOtherException;
      msg = e.what();
    } catch (...) {
      status = kOtherException;
      msg = "(not a std::exception)";
    }
    if (!msg.empty()) (void)!::write(pipefd[1], msg.data(), std::min<size_t>(msg.size(), 4000));
    ::_exit(status);  // no atexit handlers or static destructors of the parent's state
  }
  ::close(pipefd[1]);
  // Wait for the child with a deadline; a child past it is a hang.
  int wstatus = 0;
  bool hung = false;
  auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_seconds);
  for (;;) {
    pid_t w = ::waitpid(pid, &wstatus, WNOHANG);
    if (w == pid) break;
    if (std::chrono::steady_clock::now() > deadline) {
      ::kill(pid, SIGKILL);
      ::waitpid(pid, &wstatus, 0);
      hung = true;
      break;
    }
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
  ChildOutcome out;
  char buf[4096];
  for (ssize_t n; (n = ::read(pipefd[0], buf, sizeof buf)) > 0;) out.message.append(buf, size_t(n));
  ::close(pipefd[0]);
  if (hung) {
    out.kind = ChildOutcome::Hung;
    out.message = "still running after " + std::to_string(timeout_seconds) + " s (killed)";
  } else if (WIFSIGNALED(wstatus)) {
    out.kind = ChildOutcome::Signalled;
    out.message = signal_name(WTERMSIG(wstatus));
  } else if (WEXITSTATUS(wstatus) == kAccepted) {
    out.kind = ChildOutcome::Returned;
  } else if (WEXITSTATUS(wstatus) == kRejected) {
    out.kind = ChildOutcome::Rejected;
  } else if (WEXITSTATUS(wstatus) == kOtherException) {
    out.kind = ChildOutcome::OtherException;
  } else {
    out.kind = ChildOutcome::BadExit;  // e.g. a sanitizer's report ends the child with exit status 1
    out.message = "exit status " + std::to_string(WEXITSTATUS(wstatus)) + (out.message.empty() ? "" : ": " + out.message);
  }
  return out;
}

FuzzReport fuzz_code_object(std::span<const uint8_t> seed, const FuzzOptions& opt) {
  std::mt19937 rng(opt.rng_seed);
  FuzzReport r;
  auto t0 = std::chrono::steady_clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(); };
  while (r.iterations < opt.max_iterations && elapsed() < opt.seconds) {
    std::vector<uint8_t> m = mutate_code_object(seed, rng);
    ++r.iterations;
    ChildOutcome c = run_in_child([&] { exercise_code_object(m, opt.launch); }, opt.per_input_seconds);
    auto finding = [&](const char* kind) {
      r.findings.push_back({kind, c.message, save_reproducer(opt, kind, r.iterations, m)});
    };
    switch (c.kind) {
      case ChildOutcome::Returned: ++r.accepted; break;
      case ChildOutcome::Rejected:
        ++r.rejected;
        if (r.first_rejection.empty()) r.first_rejection = c.message;
        break;
      case ChildOutcome::Signalled: finding("crash"); break;
      case ChildOutcome::Hung: finding("hang"); break;
      case ChildOutcome::OtherException: c.message = "exception other than cdnajit::Error: " + c.message; finding("exception"); break;
      case ChildOutcome::BadExit: finding("exception"); break;
    }
  }
  return r;
}

}  // namespace cdnajit
