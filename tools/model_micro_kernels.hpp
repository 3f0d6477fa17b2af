// Micro-kernels with known physical limits, for the timing model's checks
// (tests/model and tools/report_model): a streaming copy (HBM bandwidth), an
// MFMA loop (peak matrix FLOP/s), a VALU FMA loop (peak vector FLOP/s) and an
// LDS read loop at a chosen dword stride (bank conflicts).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "jit/isa/isa.hpp"
#include "runtime/model/launch_model.hpp"

namespace cdnajit::model_micro {

struct MicroRun {
  std::string name;
  model::ModelReport report;
  double flops = 0;   // FLOPs the launch performs (0 for copy / LDS)
  double bytes = 0;   // global bytes read + written (copy)
  sim::Stats stats;
};

// Each builds the kernel, runs it on the simulator with the model and checks the
// functional result (throws cdnajit::Error on a wrong answer).
MicroRun stream_copy(Arch arch, const model::Hardware& hw, uint32_t workgroups, int threads = 0);
// A stream of `reads` input arrays and `writes` output arrays (16 bytes per thread each): every
// output gets the float sum of the inputs (1.0f when there is none). reads + writes >= 1, each <= 3.
MicroRun stream(Arch arch, const model::Hardware& hw, uint32_t workgroups, int reads, int writes, int threads = 0);
MicroRun mfma_loop(Arch arch, const model::Hardware& hw, uint32_t workgroups, int iterations, int threads = 0);
MicroRun valu_loop(Arch arch, const model::Hardware& hw, uint32_t workgroups, int iterations, int threads = 0);
// Every lane reads the dword at (lane * stride_dwords) modulo the tile, 16 reads per iteration.
MicroRun lds_stride(Arch arch, const model::Hardware& hw, uint32_t workgroups, int stride_dwords, int iterations,
                    int threads = 0);

}  // namespace cdnajit::model_micro
