// s_memtime / s_memrealtime values (clock_feed.hpp).
#include "runtime/sim/clock_feed.hpp"

#include "runtime/sim/sim_internal.hpp"

namespace cdnajit::sim {

ClockKind clock_kind(const isa::InstrInfo* info) {
  if (info == &isa::info(isa::Opcode::s_memtime)) return ClockKind::ShaderCycles;
  if (info == &isa::info(isa::Opcode::s_memrealtime)) return ClockKind::RealTime;
  return ClockKind::None;
}

uint64_t clock_value(Wave& w, ClockKind kind) {
  ClockFeed* f = w.L->opt.clock_feed;
  if (!f) return w.icount * 4;  // no timing model: a deterministic count, not a time
  const uint64_t lin = w.wg[0] + uint64_t(f->grid[0]) * (w.wg[1] + uint64_t(f->grid[1]) * w.wg[2]);
  if (lin < f->read_clock.size()) f->read_clock[lin] = 1;
  uint64_t cycle = 0;
  auto it = f->cycles.find(lin * f->waves_per_workgroup + uint64_t(w.wave_in_wg));
  if (it != f->cycles.end() && w.clock_reads < it->second.size()) {
    cycle = it->second[w.clock_reads];
  } else {
    cycle = w.clock_reads ? w.clock_cycle + 4 * (w.icount - w.clock_icount) : 4 * w.icount;
    if (lin < f->unfed.size()) f->unfed[lin] = 1;
  }
  ++w.clock_reads;
  w.clock_cycle = cycle;
  w.clock_icount = w.icount;
  if (kind == ClockKind::RealTime) return uint64_t(double(cycle) * f->realtime_ticks_per_cycle);
  return cycle;
}

}  // namespace cdnajit::sim
