// The hazard pass: runs every rule of hazards/*.cpp at every instruction, then inserts
// the fewest s_nop wait states that satisfy all of them (Auto) or reports them (Verify).
//
// Auto visits instructions in program order; the s_nop it decides to put before
// instruction k are recorded in `extra[k]` and count as wait states for every later
// check, so one rule's nops also serve the others. Around a loop back edge the nops of
// instructions not yet visited count as 0, which can only over-estimate a requirement.
// Inserted nops are split into `s_nop 7` chunks (8 wait states each) as LLVM does,
// although gfx9 encodes up to s_nop 15.
#include <algorithm>
#include <bit>
#include <string>

#include "jit/passes/analysis_view.hpp"
#include "jit/isa/error.hpp"
#include "jit/isa/opcode.hpp"
#include "jit/passes/classify.hpp"
#include "jit/passes/gpr_idx.hpp"
#include "jit/passes/hazards/rules.hpp"
#include "jit/passes/passes.hpp"
#include "jit/passes/shared_analysis.hpp"

namespace cdnajit::passes {
namespace {

constexpr int kMaxNopStates = 8;

isa::MachineInst make_nop(int wait_states, std::string comment) {
  isa::MachineInst mi;
  mi.info = &isa::info(isa::Opcode::s_nop);
  mi.mnemonic = std::string(mi.info->mnemonic);
  mi.operands.push_back(isa::Operand::immediate(wait_states - 1));
  mi.comment = std::move(comment);
  return mi;
}

std::string describe(const HazardContext& ctx, size_t consumer, const HazardNeed& n, const char* rule) {
  return std::string(rule) + ": '" + inst_text(ctx.at(consumer)) + "' (instruction #" + std::to_string(consumer) +
         ") needs " + std::to_string(n.required) + " wait state" + (n.required == 1 ? "" : "s") + " after '" +
         inst_text(ctx.at(n.source)) + "' (instruction #" + std::to_string(n.source) + ") but has " +
         std::to_string(n.required - n.missing) + "; " + std::to_string(n.missing) + " missing (" + n.what + ")";
}

}  // namespace

const std::vector<HazardRule>& hazard_rules() {
  using namespace hazards;
  static const std::vector<HazardRule> rules = {
      kValuSgprVmem,  kValuVccDivFmas, kValuSgprLaneSelect, kValuSgprValu,   kValuVgprReadlane,
      kValuExecLaneAccess, kTransUse,  kDstSelForwarding,   kDpp,            kStoreDataOverwrite,
      kSaluM0,        kPermlane,       kValuExecMfma,       kValuVgprMfma,   kMfmaMfma,
      kMfmaRead,      kMfmaOverwrite,  kMfmaSrcCOverwrite,  kDotResult,      kDgemmFma64,
      kSoftClause,
  };
  return rules;
}

Report run_hazards(std::vector<isa::MachineInst>& program, Arch arch, Mode mode) {
  return run_hazards(program, arch, mode, nullptr);
}

Report run_hazards(std::vector<isa::MachineInst>& program, Arch arch, Mode mode, const SharedAnalysis* shared,
                   std::vector<uint32_t>* first_same) {
  Report report;
  if (mode == Mode::Off) return report;
  // `program` is not modified until the analysis is done, so without raw entries it is its own view.
  std::vector<isa::MachineInst> parsed;
  if (has_raw_entries(program)) parsed = analysis_view(program);
  const std::vector<isa::MachineInst>& view = parsed.empty() ? program : parsed;
  const bool reuse = shared && shared->valid;
  Cfg own_cfg;
  if (!reuse) own_cfg = build_cfg(view);
  const Cfg& cfg = reuse ? shared->cfg : own_cfg;
  // This thread's buffer, reused by every build (as in run_waitcnt: a fresh array per build
  // is memory glibc's default trimming returns and the next build faults in again).
  thread_local std::vector<Access> access_buffer;
  size_t widened = 0;
  if (!reuse) {
    access_buffer.clear();
    access_buffer.reserve(view.size());
    for (const auto& mi : view) access_buffer.push_back(access_of(mi));
    widened = widen_gpr_indexed(view, cfg, access_buffer);  // VGPR indexing: the whole reachable range
  }
  // Shared accesses come from the wait-count pass, which widened them the same way.
  const std::vector<Access>& access = reuse ? *shared->access : access_buffer;
  std::vector<int> extra(view.size(), 0);
  // The reason for each instruction that needs nops, in program order (only those: a string
  // per instruction was fresh memory to fault in on every build).
  std::vector<std::pair<size_t, std::string>> why;
  // Equal instructions have equal classes when they have equal accesses (the program is its own
  // view, and no VGPR-indexed operand was widened by position).
  const bool by_content = parsed.empty() && (reuse ? shared->access_by_content : widened == 0);
  const std::vector<uint32_t>* same =
      by_content && first_same && first_same->size() == program.size() ? first_same : nullptr;
  const HazardContext ctx(view, arch, cfg, access, extra, same);

  // The rules whose consumer class each instruction is in, as bits in rule order: worked out once
  // per distinct instruction (facts of equal instructions are equal: HazardContext shares them).
  const std::vector<HazardRule>& rules = hazard_rules();
  if (rules.size() > 32) throw Error("internal: more than 32 hazard rules; widen the rule mask in run_hazards");
  thread_local std::vector<uint32_t> rules_at_buffer;  // reused by every build, as access_buffer
  std::vector<uint32_t>& rules_at = rules_at_buffer;
  rules_at.resize(view.size());
  for (size_t i = 0; i < view.size(); ++i) {
    if (same && (*same)[i] != i) {
      rules_at[i] = rules_at[(*same)[i]];
      continue;
    }
    uint32_t mask = 0;
    for (size_t r = 0; r < rules.size(); ++r)
      if (rules[r].consumer(ctx.is(i))) mask |= uint32_t(1) << r;
    rules_at[i] = mask;
  }

  std::vector<HazardNeed> needs;
  for (size_t i = 0; i < view.size(); ++i) {
    if (ctx.is(i).label || access[i].unknown || !rules_at[i]) continue;
    // Every rule measures from the program as it is before instruction i (extra[i] is
    // still 0 here), so their needs are comparable and the largest one is the answer.
    int most = 0;
    std::string reason;
    for (uint32_t m = rules_at[i]; m; m &= m - 1) {  // in rule order
      const HazardRule& rule = rules[size_t(std::countr_zero(m))];
      needs.clear();
      rule.check(ctx, i, needs);
      for (const HazardNeed& n : needs) {
        if (n.missing <= 0) continue;
        if (mode == Mode::Verify) {
          std::string msg = describe(ctx, i, n, rule.name);
          bool dup = false;  // e.g. the same register read by two operands
          for (auto f = report.findings.rbegin(); f != report.findings.rend() && f->index == i; ++f)
            dup = dup || f->message == msg;
          if (!dup) report.findings.push_back({i, rule.name, msg});
        } else if (n.missing > most) {
          most = n.missing;
          reason = std::string("hazard ") + rule.name + ": " + n.what;
        }
      }
    }
    extra[i] = most;
    if (most > 0) why.emplace_back(i, std::move(reason));
  }
  if (mode == Mode::Verify) return report;

  // In place: the entries move back to make room for the nops (a second copy of a large
  // program was a heap allocation, and its page faults, on every build).
  auto chunks = [](int states) { return (states + kMaxNopStates - 1) / kMaxNopStates; };
  const size_t n = program.size();
  size_t total = n;
  for (size_t i = 0; i < n; ++i) total += size_t(chunks(extra[i]));
  program.reserve(total);  // exactly: resize() alone would double the capacity
  program.resize(total);
  // first_same follows the entries to their new places; each inserted s_nop is its own first.
  std::vector<uint32_t> new_index;
  if (first_same && first_same->size() == n) {
    new_index.resize(n);
    for (size_t i = 0, w = 0; i < n; ++i) {
      w += size_t(chunks(extra[i]));
      new_index[i] = uint32_t(w++);
    }
  } else if (first_same) {
    first_same->clear();
  }
  for (size_t i = n, w = total; i-- > 0;) {
    --w;
    if (w != i) program[w] = std::move(program[i]);
    // The chunks before instruction i, in order: full ones first, the first one carries the reason.
    const int count = chunks(extra[i]);
    for (int c = count - 1; c >= 0; --c) {
      const int chunk = std::min(extra[i] - c * kMaxNopStates, kMaxNopStates);
      program[--w] = make_nop(chunk, c == 0 ? why.back().second : std::string());
      ++report.nops_inserted;
      report.wait_states_inserted += chunk;
    }
    if (count > 0) why.pop_back();  // instruction i's reason (the list is in program order)
  }
  if (!new_index.empty()) {
    std::vector<uint32_t>& f = *first_same;
    std::vector<uint32_t> old = std::move(f);
    f.resize(total);
    for (size_t w = 0; w < total; ++w) f[w] = uint32_t(w);  // the s_nop
    for (size_t i = 0; i < n; ++i) f[new_index[i]] = new_index[old[i]];
  }
  return report;
}

}  // namespace cdnajit::passes
