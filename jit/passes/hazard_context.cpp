#include "jit/passes/hazard_context.hpp"

#include <algorithm>
#include <array>
#include <climits>

#include "jit/passes/classify.hpp"

namespace cdnajit::passes {
namespace {

std::optional<UnitRange> explicit_operand(const Access& a, size_t k) {
  for (const auto& r : a.explicit_regs)
    if (r.op_index == k) return r.units;
  return std::nullopt;
}

// The facts that depend on the instruction itself (its modifiers and operands), not only on its
// table row: the cached row facts (row_facts) are completed with these.
void set_instruction_facts(InstFacts& f, const isa::MachineInst& mi, const Access& a) {
  f.wait_states = wait_states_of(mi);
  f.lds_dma = is_lds_dma(mi);
  f.dpp = is_dpp(mi);
  f.sdwa = is_sdwa(mi);
  f.op0 = explicit_operand(a, 0);
  f.op3 = explicit_operand(a, 3);
  f.reads_m0 = a.reads(kM0Unit);
}

InstFacts all_facts_of(const isa::MachineInst& mi, const Access& a, Arch arch) {
  InstFacts f;
  f.mnemonic = base_mnemonic(mi);
  if (mi.info) f.opcode = isa::opcode_of(*mi.info);
  f.label = is_label(mi);
  f.comment = is_comment_line(mi);
  f.valu = is_valu(mi);
  f.mfma = is_mfma(mi);
  if (f.mfma) {
    f.mfma_passes = mfma_passes(mi, arch);
    f.smfmac = mi.info && isa::is(*mi.info, isa::kClassSmfmac);
    f.dgemm = is_dgemm(mi);
    f.dgemm_4x4 = f.opcode == isa::Opcode::v_mfma_f64_4x4x4_4b_f64;
    f.dgemm_16x16 = f.opcode == isa::Opcode::v_mfma_f64_16x16x4_f64;
    f.xdl = is_xdl(mi);
  }
  f.dot = is_dot(mi);
  f.trans = is_trans(mi);
  f.salu = is_salu(mi);
  f.smem = is_smem(mi);
  f.ds = is_ds(mi);
  f.vmem = is_vmem(mi);
  f.vcmpx = is_vcmpx(mi);
  set_instruction_facts(f, mi, a);
  return f;
}

// The facts of a table row as an instruction without operands or modifiers, worked out
// once per row and arch: asking every class predicate of every instruction again was most
// of this context's cost on each build.
const InstFacts& row_facts(isa::Opcode op, Arch arch) {
  static const std::array<std::vector<InstFacts>, 2> by_arch = [] {
    std::array<std::vector<InstFacts>, 2> t;
    for (Arch ar : {Arch::gfx942, Arch::gfx950})
      for (size_t o = 0; o < isa::kOpcodeCount; ++o) {
        isa::MachineInst row;
        row.info = &isa::info(isa::Opcode(o));
        row.mnemonic = std::string(row.info->mnemonic);
        t[size_t(ar)].push_back(all_facts_of(row, Access{}, ar));
      }
    return t;
  }();
  return by_arch[size_t(arch)][size_t(op)];
}

InstFacts facts_of(const isa::MachineInst& mi, const Access& a, Arch arch) {
  const isa::Opcode op = mi.info && mi.label_def.empty() ? isa::opcode_of(*mi.info) : isa::Opcode::Count;
  if (op == isa::Opcode::Count || size_t(arch) > 1) return all_facts_of(mi, a, arch);
  InstFacts f = row_facts(op, arch);
  set_instruction_facts(f, mi, a);
  return f;
}

}  // namespace

HazardContext::HazardContext(const std::vector<isa::MachineInst>& program_, Arch arch_, const Cfg& cfg_,
                             const std::vector<Access>& access_, const std::vector<int>& extra_,
                             const std::vector<uint32_t>* first_same)
    : program(program_), arch(arch_), cfg(cfg_), access(access_), extra(extra_) {
  facts.reserve(program.size());
  mfma_at_or_before.reserve(program.size());
  for (size_t i = 0; i < program.size(); ++i) {
    if (first_same && (*first_same)[i] != i) facts.push_back(facts[(*first_same)[i]]);
    else facts.push_back(facts_of(program[i], access[i], arch));
    const InstFacts& f = facts.back();
    mfma_at_or_before.push_back(f.mfma ? long(i) : i ? mfma_at_or_before.back() : -1);
    any_mfma = any_mfma || f.mfma;
    any_xdl = any_xdl || f.xdl;
    any_dot = any_dot || f.dot;
    any_trans = any_trans || f.trans;
    if (f.valu) access[i].for_each_def([&](const UnitRange& r) { valu_written.add(r); });
    if (f.mfma && f.op0) mfma_written.add(*f.op0);
    if (f.mfma && f.op3) mfma_src_c.add(*f.op3);
    if (f.vmem && program[i].info && program[i].info->is_store)
      access[i].for_each_use([&](const UnitRange& r) { vmem_store_read.add(r); });
  }
  for (const Access& a : access)
    for (const auto& r : a.explicit_regs) uses_agprs = uses_agprs || r.units.first >= kAgpr0;
}

std::optional<HazardContext::Hit> HazardContext::search(size_t consumer, int limit, const Matcher& match,
                                                        Sources sources, UnitRange written) const {
  std::optional<Hit> worst;
  if (sources == Sources::mfma_writing && !mfma_written.overlaps(written)) return worst;  // no MFMA can match
  // Walks one block back from `it.pos`; true if the walk ended there (a source, or the limit).
  auto walk = [&](const WorkItem& it, int& dist) {
    const long begin = static_cast<long>(cfg.blocks[it.block].begin);
    dist = it.dist;
    for (long j = it.pos; j >= begin; --j) {
      if (dist >= limit) return true;
      if (sources != Sources::any && mfma_at_or_before[size_t(j)] != j) {
        // Not a source: add its wait states, and those of the instructions up to the
        // block's previous MFMA, as the walk below would (the limit is checked before each).
        const long stop = std::max(mfma_at_or_before[size_t(j)], begin - 1);
        for (; j > stop && dist < limit; --j) dist += facts[size_t(j)].wait_states + extra[size_t(j)];
        ++j;  // the loop's --j
        continue;
      }
      if (sources == Sources::mfma_writing && !(facts[size_t(j)].op0 && facts[size_t(j)].op0->overlaps(written))) {
        dist += facts[size_t(j)].wait_states + extra[size_t(j)];  // an MFMA writing elsewhere: not a source
        continue;
      }
      if (auto required = match(static_cast<size_t>(j))) {
        int missing = *required - dist;
        if (missing > 0 && (!worst || missing > worst->missing))
          worst = Hit{missing, *required, static_cast<size_t>(j)};
        return true;
      }
      dist += facts[j].wait_states + extra[j];
    }
    return dist >= limit;
  };
  // The consumer's own block first: most searches end in it (a few wait states back), and
  // then need neither the list of blocks to visit nor the per-block bests.
  const WorkItem first{cfg.block_of[consumer], static_cast<long>(consumer) - 1, extra[consumer]};
  int dist = 0;
  if (walk(first, dist)) return worst;

  // Fewest wait states seen so far on entering a block from its end: a later arrival
  // with as many or more can only find the same sources further away.
  std::vector<int>& best_at_end = best_at_end_;
  std::vector<uint32_t>& epoch_at_end = epoch_at_end_;
  if (epoch_at_end.size() != cfg.blocks.size() || ++epoch_ == 0) {
    best_at_end.assign(cfg.blocks.size(), INT_MAX);
    epoch_at_end.assign(cfg.blocks.size(), 0);
    epoch_ = 1;
  }
  auto best = [&](int b) { return epoch_at_end[size_t(b)] == epoch_ ? best_at_end[size_t(b)] : INT_MAX; };
  std::vector<WorkItem>& work = work_;
  work.clear();
  auto push_preds = [&](int block, int d) {
    for (int p : cfg.blocks[block].preds) {
      if (d >= best(p)) continue;
      best_at_end[size_t(p)] = d;
      epoch_at_end[size_t(p)] = epoch_;
      work.push_back({p, static_cast<long>(cfg.blocks[p].end) - 1, d});
    }
  };
  push_preds(first.block, dist);
  while (!work.empty()) {
    WorkItem it = work.back();
    work.pop_back();
    if (walk(it, dist)) continue;
    push_preds(it.block, dist);
  }
  return worst;
}

std::string inst_text(const isa::MachineInst& mi) {
  isa::MachineInst copy = mi;
  copy.comment.clear();
  return isa::print(copy);
}

}  // namespace cdnajit::passes
