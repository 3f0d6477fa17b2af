// One K tile of an MFMA GEMM core out of LDS: the fragment reads of every k-step and the
// MFMAs that consume them, shared by the GEMM-shaped generators (implicit-GEMM conv3d, gemm).
//
// LDS holds the A tile (rows = output rows) and the B tile (rows = output columns), each row
// K-contiguous, `lds_row_bytes` apart. A wave multiplies blocks_m x blocks_n blocks of
// mfma.m x mfma.m; lane l reads row (base row + l % m) at K byte (l / m) * a_bytes of each
// k-step. Reads are issued first (per k-step the B fragments, then the A fragments), then the
// MFMAs k-step by k-step, row of blocks by row of blocks; each MFMA waits only for its own two
// fragments (LDS reads return in order). The order of the MFMAs on one accumulator is
// ascending k-steps, which the HIP references reproduce.
#pragma once
#include <functional>
#include <vector>

#include "codegen/conv3d_igemm_config.hpp"
#include "jit/kernel.hpp"

namespace cdnajit::codegen {

struct MfmaTileLayout {
  MfmaShape mfma;
  int esize = 2;          // bytes per element
  int lds_row_bytes = 0;  // distance between LDS rows (row + padding)
  int k_steps = 1;        // MFMA k-steps per K tile
  int blocks_m = 1, blocks_n = 1;
  uint8_t mfma_format = 0;  // gfx950 f8f6f4: the cbsz (A) and blgp (B) format of both operands; 0 = E4M3
};

// Per-lane LDS read addresses. Padded layout: `a`/`b` point at the lane's first fragment byte
// (block 0, k-step 0); the fragments are at immediate offsets. XOR-swizzled layout (parts not
// empty): one base per (k-step, 16-byte part), index ks * (a_bytes / 16) + part.
struct MfmaTileBases {
  Reg a, b;
  std::vector<Reg> a_parts, b_parts;
};

// One MFMA acc += a * b of the layout's shape (with its f8f6f4 format fields when set).
void emit_mfma(Kernel& k, const MfmaTileLayout& t, Reg acc, Reg a, Reg b);

// `after_reads` runs between the fragment reads and the MFMAs (e.g. to issue the next tile's
// loads behind the reads).
void emit_mfma_tile(Kernel& k, const MfmaTileLayout& t, const MfmaTileBases& bases, const RegArray& acc,
                    const std::function<void()>& after_reads = {});

}  // namespace cdnajit::codegen
