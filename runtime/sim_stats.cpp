// format_sim_stats: the simulator's counters as a short human report.
#include <fmt/format.h>

#include "runtime/device.hpp"

namespace cdnajit {

std::string format_sim_stats(const sim::Stats& s) {
  std::string out = fmt::format("simulated {} workgroup(s), {} wave(s) in {:.3f} ms\n", s.workgroups, s.waves,
                                s.seconds * 1e3);
  out += fmt::format("  wave instructions: {}", s.wave_instructions);
  if (s.waves) out += fmt::format(" ({:.1f} per wave)", double(s.wave_instructions) / double(s.waves));
  out += "\n";
  if (s.lane_ops) {
    uint64_t vector_insts = s.by_unit[int(isa::Unit::VALU)] + s.by_unit[int(isa::Unit::MFMA)];
    out += fmt::format("  VALU+MFMA lane ops: {}", s.lane_ops);
    if (vector_insts) out += fmt::format(" (mean {:.1f} active lanes of 64)", double(s.lane_ops) / double(vector_insts));
    out += "\n";
  }
  for (int u = 0; u <= int(isa::Unit::Misc); ++u) {
    if (!s.by_unit[u]) continue;
    double pct = s.wave_instructions ? 100.0 * double(s.by_unit[u]) / double(s.wave_instructions) : 0.0;
    out += fmt::format("  {:<8} {:>12} {:5.1f}%\n", isa::unit_name(isa::Unit(u)), s.by_unit[u], pct);
  }
  if (s.seconds > 0 && s.wave_instructions)
    out += fmt::format("  simulation rate: {:.2f} M wave-instructions/s\n", s.wave_instructions / s.seconds / 1e6);
  return out;
}

}  // namespace cdnajit
