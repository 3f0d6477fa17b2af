#include "jit/barrier_balance.hpp"
#include "jit/isa/opcode.hpp"

#include <fmt/format.h>

#include <optional>

namespace cdnajit {

namespace {

constexpr int kExit = -1;  // an edge that leaves the role's code (or s_endpgm)

struct Blk {
  size_t first = 0;                 // first IrInst index
  std::vector<BarrierToken> tokens; // barriers in the block, in order
  std::vector<int> succs;           // block indices, kExit for leaving the range
  std::string origin;               // call site of the block's first entry
};

// The table entry of a program line: its own, or for a raw() line the entry its
// mnemonic (first word) names, so an s_barrier or a branch written as raw text is
// seen by this check instead of passing as a plain instruction.
const isa::InstrInfo* info_of(const IrInst& in) {
  if (in.info || !in.is_raw()) return in.info;
  const std::string& t = in.raw_text;
  size_t b = t.find_first_not_of(" \t");
  if (b == std::string::npos) return nullptr;
  size_t e = t.find_first_of(" \t", b);
  return isa::find(std::string_view(t).substr(b, e == std::string::npos ? std::string::npos : e - b));
}

bool is_label_target(const IrInst& in) {
  return !in.ops.empty() && std::holds_alternative<Label>(in.ops[0].v);
}

// Blocks of program[begin, end): split at labels and after branches / s_endpgm.
std::vector<Blk> blocks_of(const Kernel::Impl& k, size_t begin, size_t end, const std::string& role) {
  static const isa::InstrInfo* const s_branch = &isa::info(isa::Opcode::s_branch);
  static const isa::InstrInfo* const s_endpgm = &isa::info(isa::Opcode::s_endpgm);
  std::vector<Blk> blocks;
  std::vector<int> label_block(k.label_names.size(), kExit);
  std::vector<int> block_of(end - begin, 0);
  bool open = false;
  for (size_t i = begin; i < end; ++i) {
    const IrInst& in = k.program[i];
    // Every label starts a block (back-to-back loop headers stay separate blocks).
    if (!open || in.is_label()) {
      blocks.push_back({});
      blocks.back().first = i;
      blocks.back().origin = where(in.loc);
      open = true;
    }
    block_of[i - begin] = int(blocks.size() - 1);
    if (in.is_label()) label_block[in.label] = int(blocks.size() - 1);
    const isa::InstrInfo* info = info_of(in);
    if (info && info->unit == isa::Unit::Barrier)
      blocks.back().tokens.push_back({false, in.comment.empty() ? std::string(info->mnemonic) : in.comment, where(in.loc), {}});
    if (info && info->unit == isa::Unit::Branch) open = false;
  }
  // Edges.
  for (size_t i = begin; i < end; ++i) {
    const IrInst& in = k.program[i];
    const isa::InstrInfo* info = info_of(in);
    Blk& b = blocks[size_t(block_of[i - begin])];
    bool last_of_block = i + 1 == end || (info && info->unit == isa::Unit::Branch) ||
                         block_of[i + 1 - begin] != block_of[i - begin];
    if (!last_of_block) continue;
    int next = i + 1 < end ? block_of[i + 1 - begin] : kExit;
    if (info && info->unit == isa::Unit::Branch) {
      if (info == s_endpgm) {
        b.succs.push_back(kExit);
        continue;
      }
      if (!is_label_target(in))
        throw Error(fmt::format("{}: role '{}': {}{} is not a label branch; the barrier check of wave roles "
                                "understands s_branch / s_cbranch_* to labels and s_endpgm only",
                                where(in.loc), role, in.is_raw() ? "raw() " : "", info->mnemonic));
      b.succs.push_back(label_block[std::get<Label>(in.ops[0].v).id]);
      if (info != s_branch) b.succs.push_back(next);
    } else {
      b.succs.push_back(next);
    }
  }
  return blocks;
}

struct Region {
  std::vector<std::pair<int, BarrierSignature>> exits;  // (target block or kExit, signature)
  std::vector<BarrierSignature> continues;               // signatures at back edges to the loop header
};

class Walker {
 public:
  Walker(const std::vector<Blk>& b, const std::string& role) : blocks_(b), role_(role) {}

  // Blocks [lo, hi) entered at lo with signature `start`. When `loop` is set, lo is the
  // header of the loop being analysed and edges back to it are continues.
  Region walk(int lo, int hi, bool loop, const BarrierSignature& start) {
    Region r;
    std::vector<std::optional<BarrierSignature>> in(size_t(hi - lo));
    in[0] = start;
    auto send = [&](int from, int t, const BarrierSignature& s) {
      if (loop && t == lo) {
        r.continues.push_back(s);
      } else if (t == kExit || t < lo || t >= hi) {
        r.exits.push_back({t, s});
      } else if (t <= from) {
        throw Error(fmt::format("{}: role '{}': a branch back to {} that is not the header of an enclosing loop; "
                                "the barrier check of wave roles needs structured control flow (do_while_scc, if_scc, if_vcc)",
                                blocks_[size_t(from)].origin, role_, blocks_[size_t(t)].origin));
      } else {
        auto& slot = in[size_t(t - lo)];
        if (!slot) slot = s;
        else if (!(*slot == s))
          throw Error(fmt::format("{}: role '{}': two paths reach this point after different barriers: {} and {}; "
                                  "every path of a role must execute the same s_barriers (pad the shorter one with "
                                  "WaveRoles::pad_barriers)",
                                  blocks_[size_t(t)].origin, role_, describe(*slot), describe(s)));
      }
    };
    for (int b = lo; b < hi; ++b) {
      if (!in[size_t(b - lo)]) continue;  // unreachable
      BarrierSignature seq = *in[size_t(b - lo)];
      int latch = -1;
      if (!(loop && b == lo))
        for (int p = b; p < hi; ++p)
          for (int s : blocks_[size_t(p)].succs)
            if (s == b) latch = p;
      if (latch >= 0) {
        Region body = walk(b, latch + 1, true, {});
        const BarrierSignature* common = nullptr;
        auto agree = [&](const BarrierSignature& s, const std::string& what) {
          if (!common) common = &s;
          else if (!(*common == s))
            throw Error(fmt::format("{}: role '{}': the loop's {} carries barriers {} but another iteration or exit "
                                    "carries {}; a loop must execute the same barriers on every iteration and exit",
                                    blocks_[size_t(b)].origin, role_, what, describe(s), describe(*common)));
        };
        for (const auto& c : body.continues) agree(c, "back edge");
        for (const auto& e : body.exits) agree(e.second, "exit");
        if (common && !common->empty()) seq.push_back({true, "loop", blocks_[size_t(b)].origin, *common});
        for (const auto& e : body.exits) send(latch, e.first, seq);
        b = latch;
        continue;
      }
      const Blk& blk = blocks_[size_t(b)];
      seq.insert(seq.end(), blk.tokens.begin(), blk.tokens.end());
      for (int s : blk.succs) send(b, s, seq);
    }
    return r;
  }

 private:
  const std::vector<Blk>& blocks_;
  const std::string& role_;
};

void describe_into(std::string& out, const BarrierSignature& s) {
  out += '[';
  for (size_t i = 0; i < s.size(); ++i) {
    if (i) out += ", ";
    if (s[i].is_loop) {
      out += "loop@" + s[i].origin + "{";
      describe_into(out, s[i].body);
      out += "}";
    } else {
      out += s[i].name + "@" + s[i].origin;
    }
  }
  out += ']';
}

std::string token_text(const BarrierToken& t) {
  if (!t.is_loop) return fmt::format("barrier '{}' at {}", t.name, t.origin);
  return fmt::format("a loop at {} with barriers {}", t.origin, describe(t.body));
}

// First difference of a and b as text ("" when equal), with `path` naming enclosing loops.
std::string first_difference(const BarrierSignature& a, const BarrierSignature& b, const std::string& ra,
                             const std::string& rb, const std::string& path) {
  for (size_t i = 0; i < std::max(a.size(), b.size()); ++i) {
    std::string pos = fmt::format("{}barrier step {}", path, i + 1);
    if (i >= a.size())
      return fmt::format("{}: role '{}' has no more barriers but role '{}' executes {}", pos, ra, rb, token_text(b[i]));
    if (i >= b.size())
      return fmt::format("{}: role '{}' executes {} but role '{}' has no more barriers", pos, ra, token_text(a[i]), rb);
    if (a[i].is_loop && b[i].is_loop) {
      std::string inner = first_difference(a[i].body, b[i].body, ra, rb,
                                           fmt::format("{}in the loops at {} / {}, ", path, a[i].origin, b[i].origin));
      if (!inner.empty()) return inner;
    } else if (a[i].is_loop != b[i].is_loop) {
      return fmt::format("{}: role '{}' executes {} but role '{}' executes {}", pos, ra, token_text(a[i]), rb,
                         token_text(b[i]));
    }
  }
  return "";
}

}  // namespace

std::string describe(const BarrierSignature& s) {
  std::string out;
  describe_into(out, s);
  return out;
}

BarrierSignature role_barrier_signature(const Kernel::Impl& k, size_t begin, size_t end, const std::string& role) {
  if (begin >= end) return {};
  std::vector<Blk> blocks = blocks_of(k, begin, end, role);
  Walker w(blocks, role);
  Region r = w.walk(0, int(blocks.size()), false, {});
  if (r.exits.empty()) return {};  // never ends (an endless loop): nothing to compare
  for (const auto& e : r.exits)
    if (!(e.second == r.exits.front().second))
      throw Error(fmt::format("role '{}': its paths end after different barriers: {} and {}; every path of a role "
                              "must execute the same s_barriers",
                              role, describe(r.exits.front().second), describe(e.second)));
  return r.exits.front().second;
}

void check_barrier_balance(const std::vector<std::string>& roles, const std::vector<BarrierSignature>& signatures) {
  for (size_t i = 1; i < roles.size(); ++i) {
    std::string d = first_difference(signatures[0], signatures[i], roles[0], roles[i], "");
    if (!d.empty())
      throw Error(fmt::format("wave roles are not barrier-balanced ({}); role '{}' executes {}, role '{}' executes {}. "
                              "Every role must execute the same s_barrier sequence (WaveRoles::pad_barriers adds dummy ones)",
                              d, roles[0], describe(signatures[0]), roles[i], describe(signatures[i])));
  }
}

}  // namespace cdnajit
