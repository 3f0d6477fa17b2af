// Interleave: see interleave.hpp for the rules. The placement is a list
// schedule over the recorded instructions: the dependence edges always point
// from an earlier-recorded instruction to a later one, so placing an
// instruction's prerequisites first (recursively, each stream in its own
// order) always terminates.
#include "jit/interleave.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "jit/isa/error.hpp"
#include "jit/kernel_impl.hpp"

namespace cdnajit {

namespace {

// One register a node touches: dwords [first, first + count) of vreg id.
struct RegUse {
  uint32_t id;
  int first, count;
  bool def, use;
};

// What ordering needs to know about one instruction.
struct Footprint {
  std::vector<RegUse> regs;
  bool special = false;     // names VCC, EXEC, M0, SCC, ...
  bool salu = false;        // scalar ALU: SCC is read/written implicitly
  bool memory = false;      // DS, VMEM or SMEM
  bool writes_memory = false;
};

const Reg* reg_of(const Opnd& o) {
  if (auto* r = std::get_if<Reg>(&o.v)) return r;
  if (auto* n = std::get_if<Neg>(&o.v)) return &n->r;
  if (auto* a = std::get_if<Abs>(&o.v)) return &a->r;
  return nullptr;
}

Footprint footprint(const IrInst& in) {
  Footprint f;
  const isa::InstrInfo& info = *in.info;
  for (size_t j = 0; j < in.ops.size(); ++j) {
    if (std::holds_alternative<isa::SpecialReg>(in.ops[j].v)) f.special = true;
    const Reg* r = reg_of(in.ops[j]);
    if (!r) continue;
    const isa::OperandSpec& spec = info.operands[j];
    f.regs.push_back({r->id, r->first, r->dwords, spec.is_def, !spec.is_def || spec.also_read || in.defs_also_read});
  }
  f.salu = info.unit == isa::Unit::SALU;
  f.memory = info.unit == isa::Unit::DS || info.unit == isa::Unit::VMEM || info.unit == isa::Unit::SMEM;
  f.writes_memory = f.memory && (info.is_store || in.mods.lds);
  return f;
}

bool overlap(const RegUse& a, const RegUse& b) {
  return a.id == b.id && a.first < b.first + b.count && b.first < a.first + a.count;
}

// True when `later` must stay after `earlier` (recorded in that order).
bool depends(const Footprint& earlier, const Footprint& later) {
  if (earlier.special && later.special) return true;
  if (earlier.salu && later.salu) return true;
  if (earlier.memory && later.memory && (earlier.writes_memory || later.writes_memory)) return true;
  for (const RegUse& a : earlier.regs)
    for (const RegUse& b : later.regs)
      if (overlap(a, b) && (a.def || b.def)) return true;
  return false;
}

// Units that may not appear in a stream: their position is control flow or
// synchronisation the placement must not move.
bool movable(const isa::InstrInfo& info) {
  switch (info.unit) {
    case isa::Unit::Branch:
    case isa::Unit::Waitcnt:
    case isa::Unit::Barrier:
    case isa::Unit::Nop:
    case isa::Unit::Misc: return false;
    default: return true;
  }
}

}  // namespace

Interleave::Interleave(Kernel& k) : k_(k) {
  begin_ = end_ = k_.impl_->program.size();
}

int Interleave::stream(std::string name, const std::function<void()>& emit) {
  auto& program = k_.impl_->program;
  if (placed_) throw Error(fmt::format("Interleave: stream '{}' recorded after place(); use a new Interleave", name));
  if (program.size() != end_)
    throw Error(fmt::format("Interleave: {} instruction(s) were emitted between the streams (before stream '{}'); "
                            "streams must be recorded back to back",
                            program.size() - end_, name));
  size_t b = program.size();
  emit();
  size_t e = program.size();
  for (size_t i = b; i < e; ++i) {
    const IrInst& in = program[i];
    if (in.is_label())
      throw Error(fmt::format("{}: Interleave stream '{}' contains a label; streams are straight-line code",
                              where(in.loc), name));
    if (in.is_raw() && !in.raw_text.empty())
      throw Error(fmt::format("{}: Interleave stream '{}' contains raw text, whose registers and effects the "
                              "placement cannot see; emit it outside the streams",
                              where(in.loc), name));
    if (in.info && !movable(*in.info))
      throw Error(fmt::format("{}: Interleave stream '{}' contains {} ({}); branches, waits, barriers and nops "
                              "stay outside the streams (the wait-count and hazard passes add what the placed "
                              "order needs)",
                              where(in.loc), name, in.info->mnemonic, isa::unit_name(in.info->unit)));
  }
  streams_.push_back({std::move(name), b, e});
  end_ = e;
  return int(streams_.size() - 1);
}

void Interleave::place(const std::vector<Group>& pattern, const std::vector<Group>& prologue) {
  auto& program = k_.impl_->program;
  if (placed_) throw Error("Interleave: place() called twice");
  if (streams_.empty()) throw Error("Interleave: place() without any stream");
  if (program.size() != end_)
    throw Error(fmt::format("Interleave: {} instruction(s) were emitted after the last stream and before place()",
                            program.size() - end_));
  auto check = [&](const std::vector<Group>& gs, const char* what) {
    for (const Group& g : gs) {
      if (g.stream < 0 || size_t(g.stream) >= streams_.size())
        throw Error(fmt::format("Interleave: {} group names stream {}; valid ids are 0..{}", what, g.stream,
                                streams_.size() - 1));
      if (g.count < 1)
        throw Error(fmt::format("Interleave: {} group of stream '{}' has count {}; a group takes at least 1",
                                what, streams_[size_t(g.stream)].name, g.count));
    }
  };
  if (pattern.empty()) throw Error("Interleave: the repeated pattern is empty");
  check(pattern, "pattern");
  check(prologue, "prologue");

  // Nodes: one instruction with the comments recorded just before it.
  struct Node {
    size_t first, last;  // program indices (comments first_..last-1, the instruction at last)
    int stream;
    Footprint fp;
    std::vector<size_t> deps;  // earlier-recorded nodes of other streams it must follow
  };
  std::vector<Node> nodes;
  std::vector<std::vector<size_t>> of_stream(streams_.size());
  std::vector<size_t> trailing_comments;  // comments after a stream's last instruction
  for (size_t s = 0; s < streams_.size(); ++s) {
    size_t pending = streams_[s].begin;
    for (size_t i = streams_[s].begin; i < streams_[s].end; ++i) {
      if (!program[i].info) continue;  // a comment: travels with the next instruction
      of_stream[s].push_back(nodes.size());
      nodes.push_back({pending, i, int(s), footprint(program[i]), {}});
      pending = i + 1;
    }
    for (size_t i = pending; i < streams_[s].end; ++i) trailing_comments.push_back(i);
  }
  for (size_t b = 0; b < nodes.size(); ++b)
    for (size_t a = 0; a < b; ++a)
      if (nodes[a].stream != nodes[b].stream && depends(nodes[a].fp, nodes[b].fp)) nodes[b].deps.push_back(a);

  std::vector<bool> done(nodes.size(), false);
  std::vector<size_t> next(streams_.size(), 0);  // next unplaced position in each stream
  std::vector<size_t> order;
  placed_streams_.clear();
  // Places the next node of stream s, after whatever it depends on.
  std::function<void(size_t)> place_next = [&](size_t s) {
    size_t n = of_stream[s][next[s]];
    for (size_t d : nodes[n].deps) {
      size_t ds = size_t(nodes[d].stream);
      while (!done[d]) place_next(ds);
    }
    if (done[n]) return;  // placed while its own prerequisites were (cannot happen: deps are earlier)
    done[n] = true;
    ++next[s];
    order.push_back(n);
    placed_streams_.push_back(int(s));
  };
  auto remaining = [&](size_t s) { return next[s] < of_stream[s].size(); };
  auto run = [&](const std::vector<Group>& gs) {
    for (const Group& g : gs)
      for (int i = 0; i < g.count && remaining(size_t(g.stream)); ++i) place_next(size_t(g.stream));
  };
  run(prologue);
  auto any_left = [&] {
    for (size_t s = 0; s < streams_.size(); ++s)
      if (remaining(s)) return true;
    return false;
  };
  while (any_left()) {
    bool progress = false;
    for (const Group& g : pattern) progress |= remaining(size_t(g.stream));
    if (!progress) {
      std::string missing;
      for (size_t s = 0; s < streams_.size(); ++s)
        if (remaining(s)) missing += (missing.empty() ? "'" : ", '") + streams_[s].name + "'";
      throw Error(fmt::format("Interleave: the pattern never takes from stream(s) {}; every stream must appear "
                              "in the repeated pattern",
                              missing));
    }
    run(pattern);
  }

  std::vector<size_t> from;  // program index of each placed entry, in placed order
  from.reserve(end_ - begin_);
  for (size_t n : order)
    for (size_t i = nodes[n].first; i <= nodes[n].last; ++i) from.push_back(i);
  for (size_t i : trailing_comments) from.push_back(i);
  program.permute(begin_, from);
  placed_ = true;
}

}  // namespace cdnajit
