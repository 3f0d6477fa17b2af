// Reads the instruction lines of a built kernel's .s back into MachineInsts, so
// tests can run the passes' checkers over exactly the text that was assembled.
#pragma once
#include <sstream>
#include <string>
#include <vector>

#include "jit/isa/error.hpp"
#include "jit/isa/machine_inst.hpp"

namespace cdnajit::test {

inline std::vector<isa::MachineInst> program_of_assembly(const std::string& s, const std::string& kernel) {
  std::vector<isa::MachineInst> prog;
  std::istringstream in(s);
  std::string line;
  bool inside = false;
  while (std::getline(in, line)) {
    if (!inside) {
      inside = line == kernel + ":";
      continue;
    }
    if (line.rfind(".L" + kernel + "_end:", 0) == 0) break;
    std::string code = line.substr(0, line.find(';'));
    code.erase(0, code.find_first_not_of(" \t"));
    code.erase(code.find_last_not_of(" \t") + 1);
    if (code.empty()) continue;
    isa::MachineInst mi;
    if (code.back() == ':') {
      mi.label_def = code.substr(0, code.size() - 1);
    } else {
      std::string err;
      if (!isa::parse(code, mi, err)) throw Error("cannot parse .s line '" + code + "': " + err);
    }
    prog.push_back(std::move(mi));
  }
  if (!inside) throw Error("kernel label '" + kernel + ":' not found in the .s");
  return prog;
}

}  // namespace cdnajit::test
