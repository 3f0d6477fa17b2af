// Test helper: programs written as assembly lines ("name:" lines are labels), parsed
// with the real instruction table, and printed back for exact comparisons.
#pragma once
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "jit/isa/machine_inst.hpp"
#include "jit/passes/passes.hpp"

namespace passes_test {

inline std::vector<cdnajit::isa::MachineInst> program(const std::vector<std::string>& lines) {
  std::vector<cdnajit::isa::MachineInst> out;
  for (const auto& l : lines) {
    cdnajit::isa::MachineInst mi;
    std::string err;
    INFO("line: " << l << " error: " << err);
    bool ok = cdnajit::isa::parse(l, mi, err);
    INFO("parse error: " << err);
    REQUIRE(ok);
    REQUIRE((mi.info != nullptr || !mi.label_def.empty()));
    out.push_back(std::move(mi));
  }
  return out;
}

// Printed without comments.
inline std::vector<std::string> text(const std::vector<cdnajit::isa::MachineInst>& prog) {
  std::vector<std::string> out;
  for (auto mi : prog) {
    mi.comment.clear();
    out.push_back(cdnajit::isa::print(mi));
  }
  return out;
}

inline std::string findings_text(const std::vector<cdnajit::passes::Finding>& fs) {
  std::string s;
  for (const auto& f : fs) s += "[" + f.rule + "] #" + std::to_string(f.index) + ": " + f.message + "\n";
  return s;
}

}  // namespace passes_test
