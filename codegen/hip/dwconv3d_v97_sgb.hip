// HIP C++ reference of the seed's V97-sgb (its Phase 12c): the V97 design of
// dwconv3d_v97.hip with the compute loop restructured row by row and
// __builtin_amdgcn_sched_group_barrier hints that ask LLVM's machine scheduler
// to place, per filter row, the row's DS reads as one group and then a group of
// VALU instructions (the seed: 3 DS reads then 10 VALU for KW = 5).
//
// The arithmetic is V97's, operation for operation: per output acc = +0, then
// acc = fma(w, x, acc) over kd, kh, kw ascending, so the results are bitwise
// identical to dwconv3d_v97.hip (and the JIT lds_fmac / lds_fmac_sgb kernels);
// only the instruction order differs. The LDS tile is the exact tile (the
// seed's kernel over-allocated LDS by a dead weight reservation; the schedule,
// not the allocation, is what this reference reproduces). The tile and weight
// set-up is V97's own function (dwconv3d_v97_common.h).
//
// sched_group_barrier(mask, size, sync_id): mask 0x0100 = DS read, 0x0002 =
// VALU (LLVM AMDGPU docs, "llvm.amdgcn.sched.group.barrier"). Groups with the
// same sync_id are filled in program order from the instructions of the
// scheduling region, respecting dependencies.
//
// Shape comes from -D flags: DW_N DW_C DW_D DW_H DW_W DW_KD DW_KH DW_KW DW_PD DW_PH DW_PW.
// Arguments: (const bf16* input, const bf16* weight, bf16* output), bf16 as unsigned short.
#include "codegen_hip_prelude.h"
#include "dwconv3d_v97_common.h"

namespace {
constexpr int ROW_VALU = 2 * KW;               // the seed's VALU group size: one v_fmac per tap and output
constexpr unsigned kSchedDsRead = 0x0100;
constexpr unsigned kSchedValu = 0x0002;
}  // namespace

extern "C" __global__ __attribute__((amdgpu_flat_work_group_size(256, 256))) void dwconv3d_v97_sgb(
    const unsigned short* __restrict__ input, const unsigned short* __restrict__ weight,
    unsigned short* __restrict__ output) {
  __shared__ unsigned tile[TILE_DWORDS];
  const int t = opaque(int(threadIdx.x));
  const int b = blockIdx.x;
  const int d = b % DO, nc = b / DO, c = nc % C;
  float wr[KD][KH][KW];
  v97_setup(tile, wr, input, weight, nc, d, c, t);
  __syncthreads();

  unsigned short* out = output + unsigned(nc * DO + d) * HO * WO;
#pragma unroll 1
  for (int item = t; item < ITEMS; item += 256) {
    const int h = item / PAIRS, w = 2 * (item % PAIRS);
    float acc0 = 0.0f, acc1 = 0.0f;
#pragma unroll
    for (int kd = 0; kd < KD; ++kd)
#pragma unroll
      for (int kh = 0; kh < KH; ++kh) {
        // One filter row: its R pair reads, then its multiply-adds, both
        // outputs in the same row body.
        unsigned a[R];
#pragma unroll
        for (int j = 0; j < R; ++j) a[j] = tile[((kd * TH + h + kh) * TW + w) / 2 + j];
        __builtin_amdgcn_sched_group_barrier(kSchedDsRead, R, 0);
        __builtin_amdgcn_sched_group_barrier(kSchedValu, ROW_VALU, 0);
#pragma unroll
        for (int kw = 0; kw < KW; ++kw) {
          acc0 = __builtin_fmaf(wr[kd][kh][kw], col(a, kw), acc0);
          acc1 = __builtin_fmaf(wr[kd][kh][kw], col(a, kw + 1), acc1);
        }
      }
    out[h * WO + w] = to_bf16_bits(acc0);
    if (WO % 2 == 0 || w + 1 < WO) out[h * WO + w + 1] = to_bf16_bits(acc1);
  }
}
