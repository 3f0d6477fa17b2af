// Running a depthwise conv3d kernel over the channels of a shape in chunks of
// launches, and the per-output instruction arithmetic. Shared by the seed job
// (tools/jobs/seed_job.cpp) and the report tool (tools/report_dwconv.cpp).
#pragma once
#include <cstdint>
#include <functional>
#include <ostream>
#include <string_view>

#include "codegen/dwconv3d_shape.hpp"
#include "jit/codeobject/kernel_occupancy.hpp"  // code_object_occupancy, allocated_sgprs
#include "runtime/device.hpp"

namespace cdnajit::codegen {

// Sums over the launches of one chunked run.
struct RunTotals {
  sim::Stats stats;      // simulator statistics, summed (valid when has_sim)
  double host_ms = 0;    // host wall time of all launches
  double gpu_ms = 0;     // HIP event time of all launches (valid when has_gpu)
  bool has_sim = false, has_gpu = false;
};

// Workgroups of one launch that covers `channels` channels.
using GridForChannels = std::function<uint32_t(int channels)>;
// The V97 grid (JIT kernels and the HIP V97 reference): channels * D_out workgroups.
GridForChannels per_channel_grid(const DwConvShape& s);

// Runs `kernel` (arguments: input, weight, output) over channels [0, s.C) in
// launches of `chunk` channels of 256 threads, offsetting the tensor pointers
// per launch (valid for N = 1 and kernels whose work is relative to the
// pointers, as the V97-style kernels are). A kernel that bakes the full
// channel count into its bounds (the naive HIP reference) must be run with
// chunk = s.C. Prints one progress line per launch to `log`, prefixed by `what`.
// Throws cdnajit::Error for N != 1 or chunk < 1.
RunTotals run_chunked(std::ostream& log, Device& dev, const DeviceKernel& kernel, const DwConvShape& s,
                      const Buffer& in, const Buffer& wt, const Buffer& out, int chunk, std::string_view what,
                      const GridForChannels& grid = {});

// Thread-instructions per output element: wave instructions x 64 lanes / outputs of s.
double per_output(uint64_t wave_insts, const DwConvShape& s);

}  // namespace cdnajit::codegen
