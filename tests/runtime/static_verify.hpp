// Cross-check for the wait-count and hazard passes: every clang-compiled HIP
// kernel of these tests is decoded and run through the passes' verify mode.
// clang's output is correct, so any finding is a bug in jit/passes.
#pragma once
#include <catch2/catch.hpp>

#include <sstream>
#include <string>
#include <vector>

#include "jit/isa/machine_inst.hpp"
#include "jit/passes/passes.hpp"
#include "jit/codeobject/code_object.hpp"
#include "runtime/sim/simulator.hpp"

namespace kt {

// The decoded instructions of one kernel, with byte addresses (branch targets resolved by address).
inline std::vector<cdnajit::isa::MachineInst> decoded_program(const cdnajit::CodeObject& co, const std::string& kernel) {
  cdnajit::sim::Simulator sim(co.arch);
  std::istringstream lines(sim.disassemble(co, kernel));  // "0x1c: v_add_f32 v0, v1, v2" per line
  std::vector<cdnajit::isa::MachineInst> prog;
  std::string line;
  while (std::getline(lines, line)) {
    size_t colon = line.find(": ");
    std::string text = line.substr(colon + 2);
    text = text.substr(0, text.find("    ;"));
    cdnajit::isa::MachineInst mi;
    mi.address = std::stoull(line.substr(0, colon), nullptr, 16);
    std::string err;
    if (!cdnajit::isa::parse(text, mi, err)) FAIL("cannot parse decoded '" << text << "': " << err);
    prog.push_back(std::move(mi));
  }
  return prog;
}

// Runs both passes in verify mode over every kernel of the code object; fails on any finding.
inline void require_static_verify_clean(const std::vector<uint8_t>& code_object) {
  cdnajit::CodeObject co = cdnajit::read_code_object(code_object);
  for (const cdnajit::KernelInfo& k : co.kernels) {
    std::vector<cdnajit::isa::MachineInst> prog = decoded_program(co, k.name);
    REQUIRE_FALSE(prog.empty());
    // A threadgroup-split kernel's barriers release its global stores too (clang waits vmcnt(0) there).
    auto release = k.tg_split() ? cdnajit::passes::BarrierRelease::All : cdnajit::passes::BarrierRelease::Lds;
    auto w = cdnajit::passes::run_waitcnt(prog, co.arch, cdnajit::passes::Mode::Verify, release);
    auto h = cdnajit::passes::run_hazards(prog, co.arch, cdnajit::passes::Mode::Verify);
    for (const auto* rep : {&w, &h})
      for (const auto& f : rep->findings) {
        INFO("kernel " << k.name << " (" << cdnajit::arch_name(co.arch) << "): [" << f.rule << "] " << f.message);
        CHECK(false);
      }
  }
}

}  // namespace kt
