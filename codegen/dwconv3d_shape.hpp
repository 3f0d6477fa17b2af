// Shape, variants and launch geometry of the bf16 NCDHW depthwise conv3d
// family (groups = C, stride 1). Everything here is plain arithmetic shared by
// the generator, the CPU models, the HIP references and the tests.
#pragma once
#include <cstdint>
#include <string>
#include <span>
#include <string_view>

#include "jit/isa/isa.hpp"

namespace cdnajit::codegen {

// input [N, C, D, H, W], weight [C, 1, KD, KH, KW], zero padding per dimension.
struct DwConvShape {
  int N = 1, C = 1, D = 1, H = 1, W = 1;
  int KD = 1, KH = 1, KW = 1;
  int padD = 0, padH = 0, padW = 0;

  int D_out() const { return D + 2 * padD - KD + 1; }
  int H_out() const { return H + 2 * padH - KH + 1; }
  int W_out() const { return W + 2 * padW - KW + 1; }
  int taps() const { return KD * KH * KW; }
  int64_t input_elems() const { return int64_t(N) * C * D * H * W; }
  int64_t weight_elems() const { return int64_t(C) * taps(); }
  int64_t output_elems() const { return int64_t(N) * C * D_out() * H_out() * W_out(); }
  // Multiply-adds per output element times two (the usual conv FLOP count).
  double gflop() const { return 2.0 * double(output_elems()) * taps() * 1e-9; }
  std::string str() const;  // "N1 C512 D61 H45 W80 k3x5x5 pad0,2,2"
};

// The seed shape: input [1,512,61,45,80], weight [512,1,3,5,5], pad (0,2,2).
DwConvShape seed_shape();

enum class DwVariant : uint8_t {
  lds_fmac,          // V97: zero-padded LDS tile, fp32 weights in VGPRs, batched ds_read_b32, v_fmac_f32
  lds_dot2,          // gfx950: packed bf16 weight pairs, v_dot2_f32_bf16 + v_alignbit_b32, v_fmac for the odd tap
  row_interleaved,   // per filter row: its reads, s_waitcnt lgkmcnt(0), its multiply-adds (seed JIT-ilv)
  lds_dot2_b64,      // lds_dot2 reading pairs (0,1), (2,3), ... of a row with one ds_read_b64 (seed JIT-dot2-b64)
  lds_dot2_pipe,     // lds_dot2 pipelined by depth: slice kd+1's reads in flight while slice kd computes (seed JIT-pipe)
  lds_dot2_kwp4,     // lds_dot2 with four outputs per thread and step (KW_PACK = 4; seed JIT-kwp4)
  row_interleaved2,  // row lookahead: row r+1's reads in flight while row r computes (seed JIT-ilv2)
  lds_dot2_sgb,      // lds_dot2 as a read stream and a VALU stream placed by jit::Interleave in row groups
  lds_fmac_sgb,      // lds_fmac placed the same way: the JIT counterpart of the HIP V97-sgb reference
  mfma_band,         // per-channel banded (Toeplitz) GEMM on the matrix cores (codegen/dwconv_mfma.hpp)
};

// How output work is spread over a workgroup's threads (the same arithmetic, so the
// same bits, either way).
enum class DwMapping : uint8_t {
  dense,      // work items (h, p) packed over all 256 threads: thread t takes items t, t+256, ... (V97)
  wave_rows,  // wave w takes output rows w, w+4, ...; lane l takes items l, l+64, ... of each row:
              // the mapping of the seed's JIT kernels (pyhip's conv_depthwise_3d_jit, from which
              // they were built). Lanes past the row's items idle (EXEC off): at W_out = 80 and
              // KW_PACK 2 a wave uses 40 of its 64 lanes, at KW_PACK 4 only 20.
};
std::string_view mapping_name(DwMapping m);     // "dense", "wave_rows"
DwMapping parse_mapping(std::string_view name);  // throws cdnajit::Error listing the valid names

// Which multiply-add a variant uses.
enum class DwArithmetic : uint8_t {
  fmac,             // v_fmac_f32 per tap on fp32 weights (both archs)
  dot2,             // v_dot2_f32_bf16 per tap pair (gfx950 only)
  dot2_where_able,  // dot2 on gfx950, fmac on gfx942
  mfma,             // bf16 MFMA on the channel's weight band (both archs; codegen/dwconv_mfma.hpp)
};
// How a thread's LDS reads are ordered against its multiply-adds.
enum class DwSchedule : uint8_t {
  batched,         // every read, one s_waitcnt lgkmcnt(0), every multiply-add (V97)
  row_wait,        // per filter row: reads, wait for them, multiply-adds
  row_lookahead,   // row r+1's reads issued before row r's multiply-adds
  depth_pipeline,  // depth slice kd+1's reads issued before slice kd's multiply-adds
  sched_groups,    // reads and multiply-adds written as two streams, placed in (row reads, row VALU)
                   // groups by jit::Interleave, as V97-sgb's sched_group_barrier hints ask LLVM to
};

// The one list of variants: everything that iterates the family (CLI, report,
// tests) walks dw_variants(), so a variant added here appears everywhere.
struct DwVariantInfo {
  DwVariant id;
  std::string_view name;        // "lds_dot2_b64": kernel "dwconv3d_<name>", CLI --variant
  DwArithmetic arithmetic;
  DwSchedule schedule;
  int kw_pack;                  // adjacent outputs per thread and step (2 or 4)
  bool read_b64;                // pairs of dwords of a row read with ds_read_b64
  std::string_view seed_kernel; // the seed kernel it reproduces (docs/depthwise trajectory naming)
  std::string_view summary;     // one line for listings
  DwMapping seed_mapping = DwMapping::dense;  // the work mapping of the seed kernel it reproduces
};
std::span<const DwVariantInfo> dw_variants();
const DwVariantInfo& variant_info(DwVariant v);
std::string_view variant_name(DwVariant v);
// Parses a variant name; throws cdnajit::Error listing the valid names.
DwVariant parse_variant(std::string_view name);
// The valid names, comma separated (for help and error texts).
std::string variant_names();
bool variant_available(DwVariant v, Arch a);   // dot2-only variants need gfx950
DwVariant default_variant(Arch a);             // gfx950: lds_dot2, gfx942: lds_fmac
// True when the variant accumulates pairs with v_dot2_f32_bf16 on this arch.
bool uses_dot2(DwVariant v, Arch a);

// Per-arch limits the generator enforces.
uint32_t lds_limit_bytes(Arch a);              // 64 KiB gfx942, 160 KiB gfx950

// Launch geometry and the LDS tile every variant shares.
struct DwConvGeometry {
  static constexpr int kThreads = 256;   // 4 waves per workgroup
  int kw_pack = 2;         // outputs per thread along W per step (2, or 4 for lds_dot2_kwp4)
  int grid_x = 0;          // N * C * D_out workgroups, index = (n*C + c)*D_out + d_out
  int tile_h = 0;          // H + 2*padH rows per depth slice
  int tile_w = 0;          // even; at least W + 2*padW, and wide enough for the last item's reads
  uint32_t tile_bytes = 0; // KD * tile_h * tile_w * 2
  int pairs_per_row = 0;   // ceil(W_out / kw_pack): work items per output row
  int items = 0;           // H_out * pairs_per_row work items per workgroup
  DwMapping mapping = DwMapping::dense;
  int steps = 0;           // loop trips per thread: dense ceil(items / 256);
                           // wave_rows ceil(H_out / 4) * ceil(pairs_per_row / 64) (for wave 0)
  int reads_per_row = 0;   // (KW + kw_pack - 1) / 2 dword reads per filter row
  bool lds_dma = false;    // input rows go global -> LDS by DMA (W and padW even), else global_load + ds_write
};
// Validates the shape (throws cdnajit::Error naming the bad field and the valid range,
// or the LDS limit) and returns the geometry of `v` (the tile and items depend on its KW_PACK).
DwConvGeometry dwconv_geometry(const DwConvShape& s, Arch a, DwVariant v = DwVariant::lds_fmac,
                               DwMapping m = DwMapping::dense);

// Kernel arguments, in order, for both the JIT kernels and the HIP references:
//   0: const bf16* input   (8 bytes)
//   1: const bf16* weight  (8 bytes)
//   2: bf16* output        (8 bytes)
// Buffers must be at least 4-byte aligned (the DMA path moves dwords).
inline constexpr const char* kArgOrder[] = {"input", "weight", "output"};

}  // namespace cdnajit::codegen
