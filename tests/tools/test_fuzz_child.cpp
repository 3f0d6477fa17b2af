// The fuzzer's observation of a child process: a crash, a hang, a stray
// exception and an abort must each be reported as what they are (a fuzzer that
// cannot see a crash proves nothing).
#include <catch2/catch.hpp>

#include <unistd.h>

#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "jit/isa/error.hpp"
#include "tools/builtin_kernels.hpp"
#include "tools/fuzz_cli.hpp"
#include "tools/fuzz_code_object.hpp"

using cdnajit::ChildOutcome;
using cdnajit::run_in_child;

// In an AddressSanitizer build (-DCDNAJIT_SANITIZE=ON) ASan's SIGSEGV handler reports the
// crash and ends the child with its exit status (1) instead of the signal.
#if defined(__SANITIZE_ADDRESS__)
constexpr bool kAsan = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kAsan = true;
#else
constexpr bool kAsan = false;
#endif
#else
constexpr bool kAsan = false;
#endif

TEST_CASE("run_in_child reports how the child ended", "[fuzz]") {
  CHECK(run_in_child([] {}, 10).kind == ChildOutcome::Returned);
  ChildOutcome rej = run_in_child([] { throw cdnajit::Error("bad input"); }, 10);
  CHECK(rej.kind == ChildOutcome::Rejected);
  CHECK(rej.message == "bad input");
  ChildOutcome other = run_in_child([] { throw std::runtime_error("stoul"); }, 10);
  CHECK(other.kind == ChildOutcome::OtherException);
  CHECK(other.message == "stoul");
  ChildOutcome segv = run_in_child([] { std::raise(SIGSEGV); }, 10);
  if (kAsan) {
    CHECK(segv.kind == ChildOutcome::BadExit);  // still a finding, never "returned" or "rejected"
    CHECK_THAT(segv.message, Catch::Contains("exit status 1"));
  } else {
    CHECK(segv.kind == ChildOutcome::Signalled);
    CHECK_THAT(segv.message, Catch::Contains("signal 11"));
  }
  ChildOutcome abrt = run_in_child([] { std::abort(); }, 10);
  CHECK(abrt.kind == ChildOutcome::Signalled);
  ChildOutcome hang = run_in_child([] {
    volatile int i = 0;  // volatile: the endless loop has a side effect, so it stays a loop
    for (;;) i = i + 1;
  }, 0.3);
  CHECK(hang.kind == ChildOutcome::Hung);
  ChildOutcome exit3 = run_in_child([] { std::_Exit(3); }, 10);
  CHECK(exit3.kind == ChildOutcome::BadExit);
  CHECK_THAT(exit3.message, Catch::Contains("exit status 3"));
}

// fuzz_through_cli observes real processes: a stand-in program (a shell script
// that behaves as told by the first byte of the mutant file it is given) must be
// reported as exactly what it did. The mutants here are one-byte files.
namespace {

std::filesystem::path fake_cli(const std::filesystem::path& dir) {
  std::filesystem::create_directories(dir);
  std::filesystem::path p = dir / "fake-cdnajit.sh";
  std::ofstream(p) << "#!/bin/sh\n"
                      "# $1 = run|check, $2 = the mutant file: behave as the env says\n"
                      "case \"$FAKE_CLI\" in\n"
                      "  ok) exit 0 ;;\n"
                      "  error) echo 'cdnajit: error: a named error' >&2; exit 1 ;;\n"
                      "  segv) kill -SEGV $$ ;;\n"
                      "  status3) exit 3 ;;\n"
                      "  hang) exec sleep 30 ;;\n"
                      "esac\n"
                      "exit 99\n";
  std::filesystem::permissions(p, std::filesystem::perms::owner_all);
  return p;
}

cdnajit::CliFuzzReport fuzz_fake(const std::string& mode, const std::filesystem::path& dir, double timeout = 30) {
  ::setenv("FAKE_CLI", mode.c_str(), 1);
  cdnajit::CliFuzzOptions o;
  o.cdnajit = fake_cli(dir).string();
  o.iterations = 6;
  o.seconds = 86400;  // the iteration count ends the run
  o.rng_seed = 5;
  o.per_input_seconds = timeout;
  o.jobs = 2;
  o.work_dir = (dir / "work").string();
  o.crash_dir = (dir / ("crashes-" + mode)).string();
  cdnajit::CliFuzzSeed seed{"one byte", {0x7f}, {"--kernel", "k"}};
  auto r = cdnajit::fuzz_through_cli({seed}, o);
  ::unsetenv("FAKE_CLI");
  return r;
}

}  // namespace

TEST_CASE("a fuzz reproducer's run command names the seed's kernel and an --arg per argument", "[fuzz]") {
  cdnajit::BuildResult r = cdnajit::build_builtin_kernel("vector_add", cdnajit::Arch::gfx942, {});
  cdnajit::CliFuzzSeed seed = cdnajit::make_cli_fuzz_seed("vector_add", r.code_object);
  std::string cmd = cdnajit::cli_run_command(seed, "crashes/crash-1.co");
  INFO(cmd);
  CHECK_THAT(cmd, Catch::StartsWith("cdnajit run crashes/crash-1.co --kernel vector_add --device sim:gfx942 --grid 2"));
  // vector_add(a, b, out, n): a buffer per pointer, a value for n.
  size_t args = 0;
  for (size_t p = cmd.find("--arg "); p != std::string::npos; p = cmd.find("--arg ", p + 1)) ++args;
  CHECK(args == 4);
  CHECK_THAT(cmd, Catch::Contains("--arg buf:") && !Catch::Contains("NAME"));
}

TEST_CASE("fuzz_through_cli reports how each command process ended", "[fuzz]") {
  auto dir = std::filesystem::temp_directory_path() / ("cdnajit_test_fuzz_cli_" + std::to_string(::getpid()));
  auto ok = fuzz_fake("ok", dir);
  CHECK(ok.iterations == 6);
  CHECK(ok.run_ok == 3);  // odd mutants go to `run`, even ones to `check`
  CHECK(ok.check_ok == 3);
  CHECK(ok.findings.empty());

  auto err = fuzz_fake("error", dir);
  CHECK(err.run_error == 3);
  CHECK(err.check_nonzero == 3);
  CHECK(err.findings.empty());
  CHECK(err.example_error == "cdnajit: error: a named error");

  auto segv = fuzz_fake("segv", dir);
  REQUIRE(segv.findings.size() == 6);
  CHECK(segv.findings[0].kind == "crash");
  CHECK_THAT(segv.findings[0].what, Catch::Contains("signal 11"));
  CHECK_THAT(segv.findings[0].command, Catch::Contains("cli-crash-5-"));
  CHECK(std::filesystem::is_regular_file(dir / "crashes-segv" / "cli-crash-5-1.co"));

  auto bad = fuzz_fake("status3", dir);
  REQUIRE(bad.findings.size() == 6);
  CHECK(bad.findings[0].kind == "bad-exit");
  CHECK_THAT(bad.findings[0].what, Catch::Contains("exit status 3"));

  auto hang = fuzz_fake("hang", dir, 0.3);
  REQUIRE(hang.findings.size() == 6);
  CHECK(hang.findings[0].kind == "hang");
  std::filesystem::remove_all(dir);
}
