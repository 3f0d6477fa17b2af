#include "tools/check_code_object.hpp"

#include <map>
#include <sstream>

#include "jit/isa/error.hpp"
#include "jit/isa/machine_inst.hpp"
#include "jit/isa/opcode.hpp"
#include "jit/passes/passes.hpp"
#include "jit/codeobject/code_object.hpp"
#include "runtime/sim/semantics_check.hpp"
#include "runtime/sim/simulator.hpp"
#include "tools/code_object_symbols.hpp"

namespace cdnajit {
namespace {

struct Line {
  uint64_t pc;
  std::string text;
  bool implemented;
};

// The simulator's decoded listing: "0x1c: text[    ; <not implemented>][    ; <private parser>]".
std::vector<Line> listing(sim::Simulator& sim, const CodeObject& co, const std::string& kernel) {
  std::vector<Line> out;
  std::istringstream in(sim.disassemble(co, kernel));
  std::string s;
  while (std::getline(in, s)) {
    size_t colon = s.find(": ");
    if (colon == std::string::npos) continue;
    Line l;
    l.pc = std::stoull(s.substr(0, colon), nullptr, 16);
    std::string rest = s.substr(colon + 2);
    l.implemented = rest.find("<not implemented>") == std::string::npos;
    l.text = rest.substr(0, rest.find("    ;"));
    out.push_back(std::move(l));
  }
  return out;
}

// Whether the kernel reads the work-item ids the hardware puts in v0: the first instruction in
// program order that names v0 reads it (a kernel that writes v0 first never sees the ids).
bool reads_workitem_ids(const std::vector<isa::MachineInst>& prog) {
  for (const isa::MachineInst& mi : prog) {
    if (!mi.info) continue;
    bool read = false, written = false;
    for (size_t j = 0; j < mi.operands.size(); ++j) {
      const isa::Operand& o = mi.operands[j];
      if (o.kind != isa::Operand::Kind::Reg || o.file != isa::RegFile::VGPR || o.index != 0) continue;
      const bool def = j < mi.info->operands.size() && mi.info->operands[j].is_def;
      (def ? written : read) = true;
      if (def && mi.info->operands[j].also_read) read = true;
    }
    if (read) return true;
    if (written) return false;
  }
  return false;
}

// What an SGPR pair holds, as far as straight-line code shows: the address s_getpc_b64 returned,
// then that address plus the rel32 offset of s_add_u32 (low half) and s_addc_u32 (high half).
struct PcValue {
  uint64_t value = 0;
  int stage = 0;     // 0: s_getpc_b64's result; 1: low half added; 2: the full offset added
  uint32_t lo = 0;   // stage 1: the low half's offset
  uint16_t hi = 0;   // stage 1: the SGPR holding the high half s_addc_u32 adds to
};

bool is_sgpr(const isa::Operand& o) { return o.kind == isa::Operand::Kind::Reg && o.file == isa::RegFile::SGPR; }

// The source SGPR and the literal of a SALU add "sD, sA, literal" (sources in either order).
bool reg_and_literal(const std::vector<isa::Operand>& ops, isa::Operand& reg, int64_t& imm) {
  if (ops.size() != 3 || !is_sgpr(ops[0]) || ops[0].dwords != 1) return false;
  for (int r = 1; r <= 2; ++r) {
    const isa::Operand& x = ops[size_t(r)];
    const isa::Operand& y = ops[size_t(3 - r)];
    if (is_sgpr(x) && x.dwords == 1 && y.kind == isa::Operand::Kind::Imm) {
      reg = x;
      imm = y.imm;
      return true;
    }
  }
  return false;
}

// A launch with more than one work-item in a dimension whose id the descriptor does not enable:
// those ids are not delivered (v0 holds zero there), so work-items that differ only in them run
// the same code on the same ids. Reported only when the kernel reads its work-item ids.
void check_workitem_dims(const KernelInfo& k, const std::array<uint32_t, 3>& block,
                         const std::vector<isa::MachineInst>& prog, const std::string& name, uint64_t pc,
                         const std::string& text, std::vector<CheckFinding>& out) {
  const int enabled = k.workitem_id_vgprs + 1;  // x; x and y; x, y and z
  int used = block[2] > 1 ? 3 : block[1] > 1 ? 2 : 1;
  if (used <= enabled || !reads_workitem_ids(prog)) return;
  static const char* const kIds[] = {"X", "X and Y", "X, Y and Z"};
  const std::string dims = std::to_string(block[0]) + "x" + std::to_string(block[1]) + "x" + std::to_string(block[2]);
  const uint64_t same = enabled == 1 ? uint64_t(block[1]) * block[2] : block[2];
  const std::string flat = std::to_string(uint64_t(block[0]) * block[1] * block[2]) +
                           (enabled == 1 ? "x1x1" : "");
  out.push_back({name, pc, text, "workitem-id",
                 "launched with block " + dims + ", but the descriptor enables only the " + kIds[enabled - 1] +
                     " work-item id" + (enabled == 1 ? "" : "s") + " (ENABLE_VGPR_WORKITEM_ID = " +
                     std::to_string(k.workitem_id_vgprs) + ", .amdhsa_system_vgpr_workitem_id " +
                     std::to_string(k.workitem_id_vgprs) + "): the others are not delivered and read as zero in v0, so " +
                     std::to_string(same) + " work-items share every id the kernel sees and do the same work. If they "
                     "should differ, use the missing id in the kernel (threadIdx.y/z in HIP, Kernel::workitem_id(1/2) "
                     "in the DSL), which enables it; otherwise launch a block of " +
                     (enabled == 1 ? flat : std::to_string(block[0]) + "x" + std::to_string(uint64_t(block[1]) * block[2]) + "x1") +
                     " work-items"});
}

std::vector<CheckFinding> not_modelled_in(const CodeObject& co, const KernelInfo& k, const std::vector<Line>& lines) {
  std::vector<CheckFinding> out;
  // The simulator runs the kernel's code and the code object's other functions (its calls' targets);
  // the listing's pcs count from the lowest of them.
  const std::vector<CodeRange> ranges = kernel_code_ranges(co, k);
  uint64_t lowest = k.entry_offset;
  for (const CodeRange& r : ranges) lowest = std::min(lowest, r.offset);
  const uint64_t base = co.text_address + lowest;
  auto inside = [&](uint64_t a) {
    for (const CodeRange& r : ranges)
      if (a >= co.text_address + r.offset && a - co.text_address - r.offset < r.size) return true;
    return false;
  };
  // `cdnajit run` maps the code object's image (PT_LOAD segments, relocations applied) as the
  // HSA loader does (runtime/sim/code_object_load.hpp): an address inside it reaches the variable.
  auto in_image = [&](uint64_t a) {
    for (const LoadSegment& s : co.segments)
      if (a >= s.vaddr && a - s.vaddr < s.mem_size) return true;
    return false;
  };
  const std::string why =
      "the simulator runs only the kernel's code and the code object's functions (it maps the code "
      "object's data), so a run would use a wrong address";
  std::map<uint16_t, PcValue> pairs;  // by the pair's first SGPR
  auto forget = [&](const isa::MachineInst& mi) {  // the first operand is the destination of what writes SGPRs
    if (mi.operands.empty() || !is_sgpr(mi.operands[0])) return;
    const isa::Operand& d = mi.operands[0];
    for (auto it = pairs.begin(); it != pairs.end();)
      it = it->first + 2 > d.index && it->first < d.index + d.dwords ? pairs.erase(it) : std::next(it);
  };
  for (const Line& l : lines) {
    // The kernel's own instructions; a function's jumps (its return through the address its caller
    // left, calls from it) the simulator checks when they run.
    if (base + l.pc < co.text_address + k.entry_offset || base + l.pc - co.text_address - k.entry_offset >= k.code_size) continue;
    isa::MachineInst mi;
    mi.address = l.pc;
    std::string err;
    if (!l.implemented || !isa::parse(l.text, mi, err) || !mi.info) continue;  // reported as coverage/decode findings
    const auto& ops = mi.operands;
    const isa::Opcode op = isa::opcode_of(*mi.info);
    isa::Operand src;
    int64_t imm = 0;
    if (op == isa::Opcode::s_getpc_b64 && ops.size() == 1 && is_sgpr(ops[0])) {
      forget(mi);
      pairs[ops[0].index] = {base + l.pc + 4, 0, 0};
    } else if (op == isa::Opcode::s_add_u32 && reg_and_literal(ops, src, imm) && pairs.count(src.index) &&
               pairs[src.index].stage == 0) {
      // The low half: into the same pair (clang's usual form) or another one.
      PcValue p = pairs[src.index];
      p.stage = 1, p.lo = uint32_t(imm), p.hi = uint16_t(src.index + 1);
      forget(mi);
      pairs[ops[0].index] = p;
    } else if (op == isa::Opcode::s_addc_u32 && reg_and_literal(ops, src, imm) && ops[0].index > 0 &&
               pairs.count(ops[0].index - 1) && pairs[ops[0].index - 1].stage == 1 &&
               pairs[ops[0].index - 1].hi == src.index) {
      PcValue& p = pairs[ops[0].index - 1];
      p.value += (uint64_t(uint32_t(imm)) << 32) | p.lo;  // the 64-bit sum the add/addc carry chain makes
      p.stage = 2;
      if (!inside(p.value) && !in_image(p.value))
        out.push_back({k.name, l.pc, l.text, "not-modelled",
                       "PC-relative address of " + describe_code_object_address(co.bytes, p.value) +
                           ", outside the kernel's code and the code object's image: " + why});
    } else if ((op == isa::Opcode::s_swappc_b64 || op == isa::Opcode::s_setpc_b64) && !ops.empty() &&
               is_sgpr(ops.back())) {
      auto it = pairs.find(ops.back().index);
      const bool known = it != pairs.end() && it->second.stage == 2;
      if (!known || !inside(it->second.value))
        out.push_back({k.name, l.pc, l.text, "not-modelled",
                       std::string(op == isa::Opcode::s_swappc_b64 ? "function call" : "jump") + " to " +
                           (known ? describe_code_object_address(co.bytes, it->second.value)
                                  : std::string("an address computed at run time")) +
                           ": calls and jumps out of the kernel's and its code object's functions are not modelled; " + why});
      forget(mi);
      // s_swappc_b64's destination holds the return address: a later s_setpc_b64 of it stays inside.
      if (op == isa::Opcode::s_swappc_b64 && is_sgpr(ops[0])) pairs[ops[0].index] = {base + l.pc + 4, 2, 0, 0};
    } else if (op == isa::Opcode::s_call_b64 && ops.size() == 2 && is_sgpr(ops[0]) &&
               ops[1].kind == isa::Operand::Kind::Label) {
      if (!inside(base + uint64_t(ops[1].imm)))
        out.push_back({k.name, l.pc, l.text, "not-modelled",
                       "function call to " + describe_code_object_address(co.bytes, base + uint64_t(ops[1].imm)) +
                           ", outside the kernel's code and its code object's functions: " + why});
      forget(mi);
      pairs[ops[0].index] = {base + l.pc + 4, 2, 0, 0};  // the return address
    } else {
      forget(mi);
    }
  }
  return out;
}

}  // namespace

std::vector<CheckFinding> not_modelled_findings(const std::vector<uint8_t>& bytes, const std::string& kernel) {
  CodeObject co = read_code_object(bytes);
  const KernelInfo* k = co.find(kernel);
  if (!k) throw Error("no kernel '" + kernel + "' in the code object");
  sim::Simulator sim(co.arch);
  return not_modelled_in(co, *k, listing(sim, co, kernel));
}

CheckResult check_code_object(const std::vector<uint8_t>& bytes, const std::string& kernel,
                              const std::array<uint32_t, 3>* block) {
  CodeObject co = read_code_object(bytes);
  CheckResult r;
  for (const KernelInfo& k : co.kernels)
    if (kernel.empty() || k.name == kernel) r.kernels.push_back(k.name);
  if (r.kernels.empty()) {
    std::string names;
    for (const KernelInfo& k : co.kernels) names += (names.empty() ? "" : ", ") + k.name;
    throw Error("check: no kernel '" + kernel + "' in the code object (kernels: " + (names.empty() ? "none" : names) + ")");
  }
  sim::Simulator sim(co.arch);
  const std::vector<sim::UnboundInstruction> unbound = sim::unbound_instructions(co);
  auto unbound_reason = [&](const std::string& kernel, uint64_t pc) {
    for (const auto& u : unbound)
      if (u.kernel == kernel && u.pc == pc) return u.reason;
    return std::string("the simulator has no handler for this instruction (running it would stop with an error)");
  };
  for (const std::string& name : r.kernels) {
    std::vector<Line> lines = listing(sim, co, name);
    r.instructions += lines.size();
    for (CheckFinding& f : not_modelled_in(co, *co.find(name), lines)) r.findings.push_back(std::move(f));
    std::vector<isa::MachineInst> prog;
    bool parsed_all = true;
    for (const Line& l : lines) {
      if (!l.implemented)
        r.findings.push_back({name, l.pc, l.text, "sim-coverage", unbound_reason(name, l.pc)});
      if (!l.implemented && !l.text.empty() && l.text[0] == '<') {
        // A decoder placeholder (runtime/sim/decode.cpp: undecodable bytes, code cut off
        // mid-instruction), not an instruction: the sim-coverage finding above says what it is.
        if (parsed_all) r.findings.back().message += "; the wait-count and hazard verifiers were not run on this kernel";
        parsed_all = false;
        continue;
      }
      isa::MachineInst mi;
      mi.address = l.pc;  // before parsing: a numeric branch operand is resolved against it
      std::string err;
      if (!isa::parse(l.text, mi, err)) {
        parsed_all = false;
        r.findings.push_back({name, l.pc, l.text, "decode",
                              "the instruction table cannot parse this instruction (" + err +
                                  "), so the wait-count and hazard verifiers were not run on this kernel"});
        continue;
      }
      prog.push_back(std::move(mi));
    }
    if (!parsed_all) continue;
    // The last instruction must end the program or branch away unconditionally; anything else
    // lets execution run past the end of the code.
    if (!prog.empty() && prog.back().info) {
      const isa::InstrInfo& last = *prog.back().info;
      const bool leaves = isa::is(last, isa::kClassTerminator) ||
                          (isa::is(last, isa::kClassBranch) && !isa::is(last, isa::kClassCondBranch));
      if (!leaves)
        r.findings.push_back({name, lines.back().pc, lines.back().text, "end-of-code",
                              "the kernel's last instruction neither ends the program (s_endpgm) nor branches "
                              "unconditionally: execution can run past the end of its code (the simulator stops "
                              "there with an error; a GPU runs whatever bytes follow)"});
    }
    if (block && !prog.empty())
      check_workitem_dims(*co.find(name), *block, prog, name, lines.front().pc, lines.front().text, r.findings);
    // The verifiers index the program they were given: map each finding back to its line.
    // A threadgroup-split kernel's barriers must release its global stores too (clang waits vmcnt(0)).
    const KernelInfo* info = co.find(name);
    const auto release = info && info->tg_split() ? passes::BarrierRelease::All : passes::BarrierRelease::Lds;
    auto w = passes::run_waitcnt(prog, co.arch, passes::Mode::Verify, release);
    auto h = passes::run_hazards(prog, co.arch, passes::Mode::Verify);
    for (const passes::Report* rep : {&w, &h})
      for (const passes::Finding& f : rep->findings) {
        const Line& l = lines.at(f.index);
        r.findings.push_back({name, l.pc, l.text, f.rule, f.message});
      }
  }
  return r;
}

}  // namespace cdnajit
