#include "tools/jobs/seed_run.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "jit/isa/error.hpp"

namespace cdnajit::codegen {

GridForChannels per_channel_grid(const DwConvShape& s) {
  const int d_out = s.D_out();
  return [d_out](int channels) { return uint32_t(channels * d_out); };
}

namespace {

void add(sim::Stats& sum, const sim::Stats& s) {
  for (int u = 0; u <= int(isa::Unit::Misc); ++u) sum.by_unit[u] += s.by_unit[u];
  sum.wave_instructions += s.wave_instructions;
  sum.lane_ops += s.lane_ops;
  sum.waves += s.waves;
  sum.workgroups += s.workgroups;
  sum.seconds += s.seconds;
}

}  // namespace

RunTotals run_chunked(std::ostream& log, Device& dev, const DeviceKernel& kernel, const DwConvShape& s,
                      const Buffer& in, const Buffer& wt, const Buffer& out, int chunk, std::string_view what,
                      const GridForChannels& grid) {
  if (s.N != 1)
    throw Error(fmt::format("run_chunked ({}): N = {}; channel chunks by pointer offset need N = 1", what, s.N));
  if (chunk < 1) throw Error(fmt::format("run_chunked ({}): chunk = {} channels must be at least 1", what, chunk));
  const GridForChannels grid_of = grid ? grid : per_channel_grid(s);
  RunTotals t;
  size_t in_c = size_t(s.D) * s.H * s.W * 2, wt_c = size_t(s.taps()) * 2,
         out_c = size_t(s.D_out()) * s.H_out() * s.W_out() * 2;
  for (int c0 = 0; c0 < s.C; c0 += chunk) {
    int cn = std::min(chunk, s.C - c0);
    KernelArgs args;
    args.ptr(in.sub(c0 * in_c, cn * in_c)).ptr(wt.sub(c0 * wt_c, cn * wt_c)).ptr(out.sub(c0 * out_c, cn * out_c));
    LaunchResult r = dev.launch(kernel, {grid_of(cn)}, {256}, 0, args);
    t.host_ms += r.host_ms;
    if (r.sim_stats) {
      t.has_sim = true;
      add(t.stats, *r.sim_stats);
    }
    if (r.gpu_ms) {
      t.has_gpu = true;
      t.gpu_ms += *r.gpu_ms;
    }
    log << fmt::format("  {}: channels {}..{} of {} done ({:.1f} s so far)\n", what, c0, c0 + cn - 1, s.C,
                       t.host_ms / 1e3)
        << std::flush;
  }
  return t;
}

double per_output(uint64_t wave_insts, const DwConvShape& s) {
  return double(wave_insts) * 64.0 / double(s.output_elems());
}

}  // namespace cdnajit::codegen
