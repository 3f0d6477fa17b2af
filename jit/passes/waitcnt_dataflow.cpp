#include "jit/passes/waitcnt_dataflow.hpp"

#include "jit/isa/error.hpp"
#include "jit/passes/classify.hpp"

namespace cdnajit::passes {
namespace {

struct Step {
  std::optional<WaitNeed> need;
  bool redundant = false;
};

// What the transfer function needs to know about one instruction, classified once per
// sweep (the fixed point visits loop bodies many times).
struct InstFacts {
  // kCall: a call (s_swappc_b64, s_call_b64): its own reads are checked as any instruction's, and
  // when it returns every counter is zero, because the callee waits for them all on entry (LLVM's
  // SIInsertWaitcnts puts `s_waitcnt vmcnt(0) expcnt(0) lgkmcnt(0)` first in every non-kernel
  // function; clang-22's callees in tests/hip_sim/device_calls.hip begin so).
  enum Kind : uint8_t { kSkip, kWait, kEnd, kOther, kCall } kind = kOther;
  WaitFields wait;  // kWait: the fields of the program's s_waitcnt
  IssueInfo issue;
  // kOther: the entry of `touched` holding every unit the instruction reads or writes (-1: raw
  // text, whose units are unknown). Most instructions touch no unit with a write in flight, and
  // one intersection of two sets tells, where wait_needed() would look at each range in turn.
  int32_t touched = -1;
};

InstFacts facts_of(const isa::MachineInst& mi) {
  InstFacts f;
  if (is_label(mi)) {
    f.kind = InstFacts::kSkip;
    return f;
  }
  if (auto w = read_waitcnt(mi)) {
    f.kind = InstFacts::kWait;
    f.wait = *w;
    return f;
  }
  // The program ends here: nothing in flight can be observed any more.
  f.kind = branch_kind(mi) == BranchKind::End                                        ? InstFacts::kEnd
           : is_one_of(mi, {isa::Opcode::s_swappc_b64, isa::Opcode::s_call_b64}) ? InstFacts::kCall
                                                                                  : InstFacts::kOther;
  f.issue = issue_info(mi);
  return f;
}

// Transfer function of one instruction; a need names the units it protects.
Step transfer(Brackets& s, const InstFacts& f, const std::vector<UnitSet>& touched, const Access& a, size_t index,
              bool apply_needed) {
  Step st;
  switch (f.kind) {
    case InstFacts::kSkip: return st;
    case InstFacts::kWait:
      st.redundant = s.satisfied(f.wait);
      s.apply(f.wait);
      return st;
    case InstFacts::kOther:
    case InstFacts::kCall:
      // Nothing it touches in flight: wait_needed() would find nothing (exactly: it only
      // reports pending units of the instruction's ranges).
      if (f.touched >= 0 && !s.pending_units.intersects(touched[size_t(f.touched)])) break;
      st.need = wait_needed(s, f.issue, a);
      if (st.need && apply_needed) s.apply(st.need->wait);
      break;
    case InstFacts::kEnd: break;
  }
  s.issue(f.issue, a, static_cast<int32_t>(index));
  if (f.kind == InstFacts::kCall) s.apply(WaitFields{0, 0, 0});
  return st;
}

}  // namespace

WaitSweep sweep_waits(const std::vector<isa::MachineInst>& prog, const Cfg& cfg,
                      const std::vector<Access>& access, bool apply_needed,
                      const std::vector<uint32_t>* first_same) {
  const size_t nb = cfg.blocks.size();
  std::vector<InstFacts> facts;
  facts.reserve(prog.size());
  thread_local std::vector<UnitSet> touched_buffer;  // this thread's, reused by every build
  std::vector<UnitSet>& touched = touched_buffer;
  touched.clear();
  for (size_t i = 0; i < prog.size(); ++i) {
    if (first_same && (*first_same)[i] != i) {  // equal instructions have equal accesses here
      facts.push_back(facts[(*first_same)[i]]);
      continue;
    }
    InstFacts f = facts_of(prog[i]);
    if ((f.kind == InstFacts::kOther || f.kind == InstFacts::kCall) && !access[i].unknown) {
      UnitSet& t = touched.emplace_back();
      access[i].for_each_use([&](const UnitRange& r) { t.add(r); });
      access[i].for_each_def([&](const UnitRange& r) { t.add(r); });
      f.touched = int32_t(touched.size() - 1);
    }
    facts.push_back(f);
  }
  std::vector<std::optional<Brackets>> in(nb), out(nb);

  std::vector<const Brackets*> preds;
  const Brackets empty;
  auto entry_state = [&](int b) {
    preds.clear();
    for (int p : cfg.blocks[b].preds)
      if (out[p]) preds.push_back(&*out[p]);
    if (b == 0 || preds.empty()) preds.push_back(&empty);  // kernel entry: nothing in flight
    return Brackets::merge(preds);
  };

  // Widening: a loop that issues memory operations grows the in-flight span at its
  // header by a few operations per round, up to the counter's capacity (63 for vmcnt).
  // After a few changes of a block's entry state, jump straight to a saturated span:
  // register distances from the newest operation are unchanged, so the waits derived
  // stay the same; only "how much is in flight" becomes the (safe) maximum.
  constexpr int kChangesBeforeWidening = 3;
  std::vector<int> changes(nb, 0);
  bool applied_needed = false;
  // What the latest visit of each block found, instruction by instruction, needs with the units
  // they protect included. A block is visited again only when its entry state changes, so once
  // the fixed point is reached these are what a sweep from the final entry states would find.
  // (The rounds used to find only the waits and re-sweep every block with a need for its units:
  // in a kernel whose LDS DMA leaves nearly every block with a finding, that repeated the sweep.)
  WaitSweep result;
  result.need.resize(prog.size());
  result.redundant.assign(prog.size(), 0);
  bool changed = true;
  int rounds = 0;
  while (changed) {
    changed = false;
    // The state lattice is finite (counts are capped), so this only guards against a bug.
    if (++rounds > 10000)
      throw Error("wait-count dataflow did not reach a fixed point over " + std::to_string(nb) +
                  " blocks; this is a bug in jit/passes");
    for (int b : cfg.rpo) {
      Brackets s = entry_state(b);
      if (in[b] && *in[b] == s) continue;
      if (++changes[b] > kChangesBeforeWidening) s.saturate();
      if (in[b] && *in[b] == s) continue;
      in[b] = s;
      for (size_t i = cfg.blocks[b].begin; i < cfg.blocks[b].end; ++i) {
        Step st = transfer(s, facts[i], touched, access[i], i, apply_needed);
        if (st.need && apply_needed) applied_needed = true;
        result.need[i] = std::move(st.need);
        result.redundant[i] = st.redundant;
      }
      if (!out[b] || !(*out[b] == s)) {
        out[b] = std::move(s);
        changed = true;
      }
    }
  }

  result.applied_needed = applied_needed;
  return result;
}

}  // namespace cdnajit::passes
