#include "jit/passes/hazard_context.hpp"

#include <climits>

#include "jit/passes/classify.hpp"

namespace cdnajit::passes {

std::optional<HazardContext::Hit> HazardContext::search(size_t consumer, int limit, const Matcher& match) const {
  std::optional<Hit> worst;
  // Fewest wait states seen so far on entering a block from its end: a later arrival
  // with as many or more can only find the same sources further away.
  std::vector<int>& best_at_end = best_at_end_;
  best_at_end.assign(cfg.blocks.size(), INT_MAX);
  std::vector<WorkItem>& work = work_;
  work.clear();
  work.push_back({cfg.block_of[consumer], static_cast<long>(consumer) - 1, extra[consumer]});
  while (!work.empty()) {
    WorkItem it = work.back();
    work.pop_back();
    const Block& blk = cfg.blocks[it.block];
    bool ended = false;
    int dist = it.dist;
    for (long j = it.pos; j >= static_cast<long>(blk.begin); --j) {
      if (dist >= limit) {
        ended = true;
        break;
      }
      if (auto required = match(static_cast<size_t>(j))) {
        int missing = *required - dist;
        if (missing > 0 && (!worst || missing > worst->missing))
          worst = Hit{missing, *required, static_cast<size_t>(j)};
        ended = true;
        break;
      }
      dist += wait_states_of(program[j]) + extra[j];
    }
    if (ended || dist >= limit) continue;
    for (int p : blk.preds) {
      if (dist >= best_at_end[p]) continue;
      best_at_end[p] = dist;
      work.push_back({p, static_cast<long>(cfg.blocks[p].end) - 1, dist});
    }
  }
  return worst;
}

std::string inst_text(const isa::MachineInst& mi) {
  isa::MachineInst copy = mi;
  copy.comment.clear();
  return isa::print(copy);
}

}  // namespace cdnajit::passes
