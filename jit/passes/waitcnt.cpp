// The wait-count pass: see passes.hpp for the contract.
//
// Facts it relies on (gfx9 / gfx94x / gfx950):
// - vmcnt (max 63) counts VMEM loads, stores and LDS DMA, in issue order;
//   lgkmcnt (max 15) counts LDS ops, SMEM and messages. DS ops return in order,
//   SMEM may return out of order, FLAT ops count on both counters.
// - VMEM store data and addresses are read when the store issues: on gfx9 a later
//   instruction may overwrite them without waiting (LLVM's SIInsertWaitcnts only
//   tracks store data for targets before gfx7, "vmemWriteNeedsExpWaitcnt"). The
//   short 1-2 wait-state window of x3/x4 stores is a hazard, handled by run_hazards.
// - LDS DMA writes LDS, not registers: LDS is a pseudo-register written on vmcnt and
//   read by every DS instruction that touches LDS memory.
// - s_barrier does not wait for memory (gfx90a+ back-off barrier), but other waves
//   read LDS after it: the barrier counts as a reader of the LDS pseudo-register, so
//   this wave's pending LDS DMA is waited for before it (regs.cpp). It is also the
//   workgroup release of LLVM's memory model (AMDGPUUsage, "Memory Model GFX942": a
//   workgroup-scope release waits lgkmcnt(0) for LDS and, in threadgroup-split mode,
//   vmcnt(0) for global memory): it reads the LDS-stores pseudo-register (and, under
//   BarrierRelease::All, the global-stores one), so stores in flight are waited for.
//   Stores never wait for each other through these pseudo-registers (waitcnt_state.cpp).
// - s_endpgm needs no wait.
#include <algorithm>
#include <string>

#include "jit/isa/error.hpp"
#include "jit/isa/print_to.hpp"
#include "jit/passes/analysis_view.hpp"
#include "jit/passes/cfg.hpp"
#include "jit/passes/gpr_idx.hpp"
#include "jit/passes/classify.hpp"
#include "jit/passes/passes.hpp"
#include "jit/passes/shared_analysis.hpp"
#include "jit/passes/waitcnt_dataflow.hpp"

namespace cdnajit::passes {
namespace {

// Appends "v[4:5] (global_load_dwordx2 #12), s3 (s_load_dword #2)".
void describe_pending(std::string& out, const std::vector<isa::MachineInst>& prog, const std::vector<PendingUse>& uses) {
  thread_local std::vector<int32_t> writers;
  thread_local std::vector<int> units;
  writers.clear();
  for (const auto& u : uses)
    if (std::find(writers.begin(), writers.end(), u.writer) == writers.end()) writers.push_back(u.writer);
  for (size_t k = 0; k < writers.size(); ++k) {
    const int32_t w = writers[k];
    units.clear();
    for (const auto& u : uses)
      if (u.writer == w) units.push_back(u.unit);
    if (k) out += ", ";
    out += units_text(units);
    if (w >= 0 && static_cast<size_t>(w) < prog.size())
    {
      out += " (";
      out += base_mnemonic(prog[w]);
      out += " #";
      out += std::to_string(w);
      out += ')';
    }
  }
}

// The first writer the message names (the first pending use's) writes only LDS, and is an LDS DMA load.
bool first_writer_lds_dma_only(const std::vector<isa::MachineInst>& prog, const std::vector<PendingUse>& uses) {
  const int32_t w = uses.front().writer;
  if (w < 0 || static_cast<size_t>(w) >= prog.size() || !is_lds_dma(prog[w])) return false;
  return std::all_of(uses.begin(), uses.end(), [w](const PendingUse& u) { return u.writer != w || u.unit == kLds; });
}

std::string describe_pending(const std::vector<isa::MachineInst>& prog, const std::vector<PendingUse>& uses) {
  std::string out;
  describe_pending(out, prog, uses);
  return out;
}

// Appends "'<instruction text>' (instruction #i)".
void inst_ref(std::string& s, const std::vector<isa::MachineInst>& prog, size_t i) {
  s += '\'';
  isa::print_to(s, prog[i]);
  s += "' (instruction #";
  s += std::to_string(i);
  s += ')';
}

std::string inst_ref(const std::vector<isa::MachineInst>& prog, size_t i) {
  std::string s;
  inst_ref(s, prog, i);
  return s;
}

std::vector<Access> access_list(const std::vector<isa::MachineInst>& prog) {
  std::vector<Access> acc;
  acc.reserve(prog.size());
  for (const auto& mi : prog) acc.push_back(access_of(mi));
  return acc;
}

// access_of gives s_barrier the default release (BarrierRelease::Lds); another one replaces it.
void set_barrier_release(const std::vector<isa::MachineInst>& prog, std::vector<Access>& access, BarrierRelease release) {
  if (release == BarrierRelease::Lds) return;
  const UnitRange units = barrier_release_units(release);
  for (size_t i = 0; i < prog.size(); ++i) {
    if (!is_one_of(prog[i], {isa::Opcode::s_barrier})) continue;
    InlineList<UnitRange, 2> uses;
    for (const UnitRange& u : access[i].implicit_uses) uses.push_back(u.first == kLds ? units : u);
    access[i].implicit_uses = std::move(uses);
  }
}

}  // namespace

Report run_waitcnt(std::vector<isa::MachineInst>& program, Arch arch, Mode mode, BarrierRelease release) {
  return run_waitcnt(program, arch, mode, nullptr, release);
}

void run_waitcnt_and_hazards(std::vector<isa::MachineInst>& program, Arch arch, Mode waitcnt, Mode hazards,
                             Report& waitcnt_report, Report& hazards_report, BarrierRelease release,
                             std::vector<uint32_t>* first_same, bool lds_dma_findings) {
  SharedAnalysis shared;
  waitcnt_report = run_waitcnt(program, arch, waitcnt, &shared, release, first_same, lds_dma_findings);
  hazards_report = run_hazards(program, arch, hazards, &shared, first_same);
}

Report run_waitcnt(std::vector<isa::MachineInst>& program, Arch arch, Mode mode, SharedAnalysis* shared,
                   BarrierRelease release, std::vector<uint32_t>* first_same, bool lds_dma_findings) {
  (void)arch;  // gfx942 and gfx950 share the gfx9 counters and encoding
  Report report;
  if (mode == Mode::Off) return report;
  // `program` is not modified until the analysis is done, so without raw entries it is its own view.
  std::vector<isa::MachineInst> parsed;
  if (has_raw_entries(program)) parsed = analysis_view(program);
  const std::vector<isa::MachineInst>& view = parsed.empty() ? program : parsed;
  // Equal instructions of the program are equal in the view only when it is the program itself.
  const std::vector<uint32_t>* same =
      first_same && parsed.empty() && first_same->size() == program.size() ? first_same : nullptr;
  Cfg cfg = build_cfg(view);
  // This thread's buffer, reused by every build: a fresh array of this size per build is
  // memory glibc's default trimming hands back to the system and the next build faults in
  // again (on this kind of virtual machine those faults cost more than the pass).
  thread_local std::vector<Access> access_buffer;
  std::vector<Access>& access = access_buffer;
  access.clear();
  access.reserve(view.size());
  for (size_t i = 0; i < view.size(); ++i) {
    // Copied in place (a conditional expression of the two would copy into a temporary first).
    if (same && (*same)[i] != i) access.push_back(access[(*same)[i]]);  // reserved: no reallocation
    else access.push_back(access_of(view[i]));
  }
  set_barrier_release(view, access, release);
  // VGPR indexing: the whole reachable range (by position: equal instructions may differ after it).
  const bool widened = widen_gpr_indexed(view, cfg, access) > 0;
  const WaitSweep sweep = sweep_waits(view, cfg, access, mode == Mode::Auto, widened ? nullptr : same);
  // The program stays as it is (Verify, or Auto with nothing to change): hand the analysis on.
  auto share = [&] {
    if (!shared) return;
    shared->cfg = std::move(cfg);
    shared->access = &access;
    shared->access_by_content = !widened;
    shared->valid = true;
  };

  if (mode == Mode::Verify) {
    for (size_t i = 0; i < program.size(); ++i) {
      const auto& need = sweep.need[i];
      if (!need) continue;
      // A DS instruction uses the LDS pseudo-register whether it loads or stores: "accesses" fits both.
      const bool lds_only = std::all_of(need->reads.begin(), need->reads.end(), [](const PendingUse& u) { return u.unit == kLds; });
      // s_barrier reads only memory pseudo-registers: it releases them to the other waves.
      const bool release = !need->reads.empty() && is_one_of(view[i], {isa::Opcode::s_barrier});
      // A read of LDS whose first pending writer is an LDS DMA load, and nothing else overwritten:
      // this pass treats all of LDS as one location, so a schedule that loads one LDS region by DMA
      // while it reads another is reported here though the two never meet. Its own rule name lets a
      // generator that places those waits itself tell these findings from the rest (or not ask for them).
      const bool lds_dma_read = (lds_only || release) && !need->reads.empty() && need->writes.empty() &&
                                first_writer_lds_dma_only(view, need->reads);
      if (lds_dma_read && !lds_dma_findings) continue;
      // Written into one string (a kernel whose author placed the waits can have hundreds of these).
      std::string msg;
      msg.reserve(256 + program[i].comment.size());
      inst_ref(msg, program, i);
      if (!need->reads.empty()) {
        msg += release ? " releases " : lds_only ? " accesses " : " reads ";
        describe_pending(msg, view, need->reads);
      }
      if (!need->reads.empty() && !need->writes.empty()) msg += " and";
      if (!need->writes.empty()) {
        msg += " overwrites ";
        describe_pending(msg, view, need->writes);
      }
      if (need->reads.empty() && need->writes.empty()) msg += " is raw text the pass cannot analyse";
      msg += release ? " to the other waves of the workgroup while the memory operation may still be in flight; needs '"
                     : " while the load may still be in flight; needs '";
      msg += waitcnt_text(need->wait);
      msg += "' before it";
      report.findings.push_back({i, lds_dma_read ? "waitcnt-lds-dma" : "waitcnt", std::move(msg)});
    }
    share();
    return report;
  }

  // Nothing to insert, nothing to drop, and the needed-wait rule never fired: the program
  // stays as it is, and the precise re-check below would be this very sweep again (same
  // program, CFG and accesses; apply_needed changed nothing, so the fixed point and every
  // `redundant` flag would repeat, all zero). Skipping it is exact, not a shortcut: the
  // re-check only ever drops waits, and it would drop none. (The common case: kernels whose
  // author placed every wait, such as the seed depthwise kernel.)
  bool any_redundant = false;
  for (char r : sweep.redundant) any_redundant = any_redundant || r;
  if (!sweep.applied_needed && !any_redundant) {
    share();
    return report;
  }

  // The program changes below: first_same no longer describes it (the caller works it out again).
  if (first_same) first_same->clear();
  // The inserted waits, described before any instruction moves out of `program` (which may be the view).
  std::vector<isa::MachineInst> waits;  // in program order
  for (size_t i = 0; i < program.size(); ++i) {
    if (const auto& need = sweep.need[i]) {
      std::vector<PendingUse> all = need->reads;
      all.insert(all.end(), need->writes.begin(), need->writes.end());
      std::string comment = all.empty() ? "raw instruction: wait for all memory operations"
                                        : "protects " + describe_pending(view, all);
      waits.push_back(make_waitcnt(need->wait, comment));
    }
  }
  // The program is rebuilt in place (a kernel's instruction list is large: a second copy
  // per pass was a heap allocation, and its page faults, on every build). First the
  // no-op waits leave, then the entries move back to make room for the inserted waits.
  // `access` stays parallel to the program (an inserted s_waitcnt has no register access),
  // so the check below need not work the accesses out again.
  const size_t n = program.size();
  std::vector<char> wait_before;  // parallel to the compacted program
  wait_before.reserve(n);
  size_t kept = 0;
  for (size_t i = 0; i < n; ++i) {
    if (sweep.redundant[i]) {
      ++report.waits_removed;  // a no-op where it stands: removing it changes nothing
      continue;
    }
    if (kept != i) {
      program[kept] = std::move(program[i]);
      access[kept] = std::move(access[i]);
    }
    wait_before.push_back(sweep.need[i] ? 1 : 0);
    ++kept;
  }
  const size_t total = kept + waits.size();
  program.reserve(total);  // exactly: resize() alone would double the capacity
  program.resize(total);
  access.resize(total);
  std::vector<char> ours(total, 0);  // inserted by this pass
  size_t next_wait = waits.size();
  for (size_t i = kept, w = total; i-- > 0;) {
    --w;
    if (w != i) {
      program[w] = std::move(program[i]);
      access[w] = std::move(access[i]);
    }
    if (wait_before[i]) {
      --w;
      program[w] = std::move(waits[--next_wait]);
      access[w] = access_of(program[w]);
      ours[w] = 1;
      ++report.waits_inserted;
    }
  }

  // The Auto dataflow may settle on a more pessimistic fixed point than the most precise
  // one (the waits it inserts feed back into loops), so check the result once more with
  // the precise analysis and drop every wait that is a no-op there. Dropping no-ops does
  // not change that analysis, so one round suffices.
  // `program` stays unchanged until this check is done, so without raw entries it is its own view.
  std::vector<isa::MachineInst> out_parsed;
  if (has_raw_entries(program)) out_parsed = analysis_view(program);
  const std::vector<isa::MachineInst>& out_view = out_parsed.empty() ? program : out_parsed;
  const Cfg out_cfg = build_cfg(out_view);
  widen_gpr_indexed(out_view, out_cfg, access);
  const WaitSweep check = sweep_waits(out_view, out_cfg, access, /*apply_needed=*/false);
  kept = 0;
  for (size_t k = 0; k < program.size(); ++k) {
    if (check.redundant[k]) {
      if (ours[k]) --report.waits_inserted;
      else ++report.waits_removed;
      continue;
    }
    if (kept != k) program[kept] = std::move(program[k]);
    ++kept;
  }
  program.resize(kept);
  return report;
}

std::vector<Finding> find_redundant_waits(const std::vector<isa::MachineInst>& program, Arch arch) {
  (void)arch;
  const std::vector<isa::MachineInst> view = analysis_view(program);
  const Cfg cfg = build_cfg(view);
  std::vector<Access> access = access_list(view);
  widen_gpr_indexed(view, cfg, access);
  const WaitSweep sweep = sweep_waits(view, cfg, access, /*apply_needed=*/false);
  std::vector<Finding> out;
  for (size_t i = 0; i < program.size(); ++i)
    if (sweep.redundant[i])
      out.push_back({i, "redundant-waitcnt",
                     inst_ref(program, i) +
                         " is already satisfied on every path to it: no counter it names can exceed its "
                         "threshold there"});
  return out;
}

}  // namespace cdnajit::passes
