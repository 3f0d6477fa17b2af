// Micro-kernels with known physical limits, for the timing model's checks
// (tests/model and tools/report_model): a streaming copy (HBM bandwidth), an
// MFMA loop (peak matrix FLOP/s), a VALU FMA loop (peak vector FLOP/s) and an
// LDS read loop at a chosen dword stride (bank conflicts). The kernels alone (builders below) are
// what `cdnajit calibrate` times on a device.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "jit/isa/isa.hpp"
#include "jit/kernel.hpp"
#include "runtime/model/launch_model.hpp"

namespace cdnajit::model_micro {

constexpr uint32_t kMicroThreads = 256;     // work-items per workgroup (4 waves), except the LDS chase (1 wave)
constexpr int kMfmaAccumulators = 4;        // independent v_mfma_f32_32x32x8_bf16 chains per wave
constexpr int kValuAccumulators = 8;        // independent v_fmac_f32 chains per wave
constexpr int kChaseReadsPerIteration = 16; // dependent ds_read_b32 per loop iteration of the chase
constexpr int kB128ReadsPerIteration = 8;   // ds_read_b128 per loop iteration (then one wait)

// The kernels. Arguments: stream_kernel (in0.., out0..: float*), mfma/valu/b128 loops (out: float*,
// one dword per work-item), the chase (out: uint32_t*, one dword per lane of its single wave).
BuildResult stream_kernel(Arch arch, int reads, int writes);
BuildResult mfma_loop_kernel(Arch arch, int iterations);
BuildResult valu_loop_kernel(Arch arch, int iterations);
// One wave: iterations x 16 dependent conflict-free ds_read_b32, each waited for (LDS latency).
BuildResult lds_chase_kernel(Arch arch, int iterations);
// Conflict-free ds_read_b128, 8 per iteration then one wait (LDS read bandwidth).
BuildResult lds_read_b128_kernel(Arch arch, int iterations);

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
