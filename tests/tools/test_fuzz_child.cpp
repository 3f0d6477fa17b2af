// The fuzzer's observation of a child process: a crash, a hang, a stray
// exception and an abort must each be reported as what they are (a fuzzer that
// cannot see a crash proves nothing).
#include <catch2/catch.hpp>

#include <csignal>
#include <cstdlib>
#include <stdexcept>

#include "jit/isa/error.hpp"
#include "tools/fuzz_code_object.hpp"

using cdnajit::ChildOutcome;
using cdnajit::run_in_child;

TEST_CASE("run_in_child reports how the child ended", "[fuzz]") {
  CHECK(run_in_child([] {}, 10).kind == ChildOutcome::Returned);
  ChildOutcome rej = run_in_child([] { throw cdnajit::Error("bad input"); }, 10);
  CHECK(rej.kind == ChildOutcome::Rejected);
  CHECK(rej.message == "bad input");
  ChildOutcome other = run_in_child([] { throw std::runtime_error("stoul"); }, 10);
  CHECK(other.kind == ChildOutcome::OtherException);
  CHECK(other.message == "stoul");
  ChildOutcome segv = run_in_child([] { std::raise(SIGSEGV); }, 10);
  CHECK(segv.kind == ChildOutcome::Signalled);
  CHECK_THAT(segv.message, Catch::Contains("signal 11"));
  ChildOutcome abrt = run_in_child([] { std::abort(); }, 10);
  CHECK(abrt.kind == ChildOutcome::Signalled);
  ChildOutcome hang = run_in_child([] { for (volatile int i = 0;; i = i + 1) {} }, 0.3);
  CHECK(hang.kind == ChildOutcome::Hung);
  ChildOutcome exit3 = run_in_child([] { std::_Exit(3); }, 10);
  CHECK(exit3.kind == ChildOutcome::BadExit);
  CHECK_THAT(exit3.message, Catch::Contains("exit status 3"));
}
