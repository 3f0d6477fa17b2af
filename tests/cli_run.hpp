// Runs the cdnajit binary as a user would, for the tests of its commands:
// stdout and stderr together, and the exit status. CDNAJIT_CLI (the binary's
// path) is defined by each test target that includes this.
#pragma once
#include <sys/wait.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <string>

namespace cdnajit_test {

struct Run {
  int status;
  std::string out;
};

inline Run cli(const std::string& args) {
  std::string cmd = std::string(CDNAJIT_CLI) + " " + args + " 2>&1";
  FILE* p = popen(cmd.c_str(), "r");
  REQUIRE(p != nullptr);
  std::string out;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  int st = pclose(p);
  return {WIFEXITED(st) ? WEXITSTATUS(st) : -1, out};
}

}  // namespace cdnajit_test
