#include "jit/passes/cfg.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>

#include "jit/isa/error.hpp"
#include "jit/passes/classify.hpp"

namespace cdnajit::passes {
namespace {

std::string describe(const std::vector<isa::MachineInst>& prog, size_t i) {
  return "'" + isa::print(prog[i]) + "' (instruction #" + std::to_string(i) + ")";
}

// Index of the instruction a branch jumps to.
size_t branch_target(const std::vector<isa::MachineInst>& prog, size_t i,
                     const std::unordered_map<std::string, size_t>& labels,
                     const std::map<uint64_t, size_t>& addresses) {
  for (const auto& o : prog[i].operands) {
    if (o.kind != isa::Operand::Kind::Label) continue;
    if (!o.label.empty()) {
      auto it = labels.find(o.label);
      if (it == labels.end())
        throw Error("branch " + describe(prog, i) + " targets label '" + o.label +
                    "', which is not defined in the program (define it with a label_def entry)");
      return it->second;
    }
    auto it = addresses.find(static_cast<uint64_t>(o.imm));
    if (it == addresses.end())
      throw Error("branch " + describe(prog, i) + " targets byte address " + std::to_string(o.imm) +
                  ", which is not the address of any instruction in the program");
    return it->second;
  }
  throw Error("branch " + describe(prog, i) +
              " has no label operand; expected a label name or a decoded target address");
}

}  // namespace

Cfg build_cfg(const std::vector<isa::MachineInst>& prog) {
  const size_t n = prog.size();
  std::unordered_map<std::string, size_t> labels;
  std::map<uint64_t, size_t> addresses;
  for (size_t i = 0; i < n; ++i) {
    if (is_label(prog[i])) {
      if (!labels.emplace(prog[i].label_def, i).second)
        throw Error("label '" + prog[i].label_def + "' is defined twice (entries #" +
                    std::to_string(labels[prog[i].label_def]) + " and #" + std::to_string(i) + ")");
    } else {
      // Decoded programs: byte address -> instruction. try_emplace, not emplace: a builder's
      // program has address 0 everywhere, and emplace allocated a node for each just to drop it.
      addresses.try_emplace(prog[i].address, i);
    }
  }

  // Leaders. (`target` is allocated before `leader`: the other way round GCC 12 -O3 warns
  // -Walloc-size-larger-than about target's allocation, for 2^64 - 16 bytes, a size no vector of
  // n instructions can ask for.)
  std::vector<std::optional<size_t>> target(n);
  std::vector<char> leader(n + 1, 0);
  if (n) leader[0] = 1;
  for (size_t i = 0; i < n; ++i) {
    if (is_label(prog[i])) leader[i] = 1;
    BranchKind k = branch_kind(prog[i]);
    if (k == BranchKind::None) continue;
    leader[i + 1] = 1;
    if (k == BranchKind::Uncond || k == BranchKind::Cond) {
      target[i] = branch_target(prog, i, labels, addresses);
      leader[*target[i]] = 1;
    }
  }

  Cfg cfg;
  cfg.block_of.assign(n, -1);
  for (size_t i = 0; i < n; ++i) {
    if (leader[i]) cfg.blocks.push_back(Block{i, i, {}, {}});
    cfg.blocks.back().end = i + 1;
    cfg.block_of[i] = static_cast<int>(cfg.blocks.size()) - 1;
  }
  auto add_edge = [&](int from, int to) {
    auto& s = cfg.blocks[from].succs;
    if (std::find(s.begin(), s.end(), to) != s.end()) return;
    s.push_back(to);
    cfg.blocks[to].preds.push_back(from);
  };
  for (int b = 0; b < static_cast<int>(cfg.blocks.size()); ++b) {
    size_t last = cfg.blocks[b].end - 1;
    BranchKind k = branch_kind(prog[last]);
    if (k == BranchKind::Uncond || k == BranchKind::Cond) add_edge(b, cfg.block_of[*target[last]]);
    bool falls_through = k == BranchKind::None || k == BranchKind::Cond;
    if (falls_through && b + 1 < static_cast<int>(cfg.blocks.size())) add_edge(b, b + 1);
  }

  // Reverse post-order (iterative DFS), unreachable blocks after it in program order.
  std::vector<char> seen(cfg.blocks.size(), 0);
  std::vector<int> post;
  if (!cfg.blocks.empty()) {
    std::vector<std::pair<int, size_t>> stack{{0, 0}};
    seen[0] = 1;
    while (!stack.empty()) {
      auto& [b, next] = stack.back();
      if (next < cfg.blocks[b].succs.size()) {
        int s = cfg.blocks[b].succs[next++];
        if (!seen[s]) {
          seen[s] = 1;
          stack.push_back({s, 0});
        }
      } else {
        post.push_back(b);
        stack.pop_back();
      }
    }
  }
  cfg.rpo.assign(post.rbegin(), post.rend());
  for (int b = 0; b < static_cast<int>(cfg.blocks.size()); ++b)
    if (!seen[b]) cfg.rpo.push_back(b);
  return cfg;
}

}  // namespace cdnajit::passes
