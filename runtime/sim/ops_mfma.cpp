// MFMA (matrix fused multiply-add) and accumulation-register moves.
//
// Lane layouts (AMD CDNA3/CDNA4 ISA, "dense matrix" section; also AMD's
// matrix instruction calculator), for a wave64 MxNxK op with A: MxK, B: KxN:
//   A: lane l, element j of the lane's packed K-slice -> A[l % M][(l / M) * kpl + j]
//   B: lane l, element j                              -> B[(l / N) * kpl + j][l % N]
//   C/D (M=N=16): lane l, register r -> D[4 * (l / 16) + r][l % 16]
//   C/D (M=N=32): lane l, register r -> D[8 * (r / 4) + 4 * (l / 32) + r % 4][l % 32]
// where kpl = K / (64 / M) elements per lane.
// Accumulation: Options::mfma_numerics picks the arithmetic (mfma_numerics.cpp): the
// published CDNA3 rules (default), or the exact sum rounded once.
#include <algorithm>
#include <cmath>

#include "runtime/sim/fp.hpp"
#include "runtime/sim/mfma_numerics.hpp"
#include "runtime/sim/mfma_operands.hpp"
#include "runtime/sim/mx_format.hpp"
#include "runtime/sim/sim_internal.hpp"

namespace cdnajit::sim {
namespace {

double element(uint32_t dword, int j, Fmt f, bool fnuz) { return mfma_element(dword, j, f, fnuz); }

// f16/bf16 MFMAs with the CDNA3 numerics on hosts with the row-vector path (mfma_half_row8): the
// operands decoded straight from their registers, by K (lanes M*q .. M*q + M - 1 hold the same K
// index of M consecutive rows / columns), and eight outputs of a row accumulated at once. Returns
// false, having written nothing, when an operand holds an infinity or NaN: the per-output path
// below runs the instruction then.
template <int M, int K>
bool mfma_half_run(Wave& w, const Op& op, bool bf16) {
  constexpr int kpl = K / (64 / M), nreg = M * M / 64;
  static_assert(K % 8 == 0 && kpl % 2 == 0);
  static thread_local uint32_t sig[2][K * M];
  static thread_local int32_t ex[2][K * M];
  static thread_local uint16_t raw[2][K * M];
  for (int x = 0; x < 2; ++x) {
    const Src& src = op.s[x];
    for (int d = 0; d < kpl / 2; ++d) {
      uint32_t tmp[64];
      const uint32_t* row = tmp;
      if (src.k == SrcKind::V) row = w.vr(uint16_t(src.idx + d));
      else for (int l = 0; l < 64; ++l) tmp[l] = lane_src(w, src, l, d);
      for (int h = 0; h < 2; ++h)
        for (int q = 0; q < 64 / M; ++q) {
          const int k = q * kpl + 2 * d + h;
          if (!mfma_half_decode(row + M * q, M, h, bf16, sig[x] + k * M, ex[x] + k * M, raw[x] + k * M)) return false;
        }
    }
  }
  const MfmaHalfOperands t{bf16, K, M, M, sig[0], ex[0], sig[1], ex[1], raw[0], raw[1]};
  uint32_t out[nreg][64];
  float c[32];
  // Row i of D: register r, lanes l0 .. l0 + M - 1 (the layouts at the top of this file).
  auto reg_of = [](int i) { return M == 16 ? i % 4 : 4 * (i / 8) + i % 4; };
  auto lane_of = [](int i) { return M == 16 ? 16 * (i / 4) : 32 * ((i / 4) % 2); };
  for (int i = 0; i < M; i += 2)  // two rows and sixteen columns at a time
    for (int j0 = 0; j0 < M; j0 += 16) {
      for (int y = 0; y < 2; ++y) {
        const int lane = lane_of(i + y) + j0, reg = reg_of(i + y);
        if (op.s[2].k == SrcKind::V) std::memcpy(c + 16 * y, w.vr(uint16_t(op.s[2].idx + reg)) + lane, 64);  // f32 bits
        else for (int x = 0; x < 16; ++x) c[16 * y + x] = f32_of(lane_src(w, op.s[2], lane + x, reg));
      }
      mfma_half_rows16x2(t, i, j0, c);
      for (int y = 0; y < 2; ++y)
        for (int x = 0; x < 16; ++x) out[reg_of(i + y)][lane_of(i + y) + j0 + x] = bits_of(c[16 * y + x]);
    }
  for (int r = 0; r < nreg; ++r) std::memcpy(w.vr(uint16_t(op.d[0].idx + r)), out[r], 256);
  w.lane_ops += 64;
  return true;
}

template <int M, int K>
void mfma_run(Wave& w, const Op& op, Fmt fa, Fmt fb) {
  constexpr int N = M;
  if constexpr (K % 8 == 0 && K / (64 / M) % 2 == 0) {
    if ((fa == Fmt::F16 || fa == Fmt::BF16) && fb == fa && w.L->opt.mfma_numerics != Options::MfmaNumerics::Exact &&
        mfma_half_rows_available() && mfma_half_run<M, K>(w, op, fa == Fmt::BF16))
      return;
  }
  constexpr int kpl = K / (64 / M);
  constexpr int nreg = M * N / 64;
  static_assert(nreg == 4 || nreg == 16);
  const bool fnuz = w.L->arch == Arch::gfx942;
  // Rows of A and columns of B.
  static thread_local OperandVec<K> A[M], B[N];
  for (int l = 0; l < 64; ++l) {
    mfma_gather_fragment(w, op.s[0], l, kpl, fa, fnuz, A[l % M].v + (l / M) * kpl);
    mfma_gather_fragment(w, op.s[1], l, kpl, fb, fnuz, B[l % N].v + (l / N) * kpl);
  }
  const MfmaKind kind = mfma_kind(fa);
  const MfmaFormat format{kind, mfma_min_exp(fa, fnuz), mfma_min_exp(fb, fnuz)};
  const bool exact = w.L->opt.mfma_numerics == Options::MfmaNumerics::Exact;
  if (!exact && kind != MfmaKind::F32 && fa != Fmt::I8) {
    for (auto& x : A) x.decode(format.min_exp_a);
    for (auto& x : B) x.decode(format.min_exp_b);
  }
  uint32_t out[nreg][64];
  for (int l = 0; l < 64; ++l)
    for (int r = 0; r < nreg; ++r) {
      int i = M == 16 ? 4 * (l / 16) + r : 8 * (r / 4) + 4 * (l / 32) + r % 4;
      int j = l % N;
      if (fa == Fmt::I8) {  // integer MFMA: exact products, int32 accumulation with wrap-around
        uint32_t acc = lane_src(w, op.s[2], l, r);
        for (int k = 0; k < K; ++k) acc += uint32_t(int32_t(A[i].v[k]) * int32_t(B[j].v[k]));
        out[r][l] = acc;
        continue;
      }
      float c = f32_of(lane_src(w, op.s[2], l, r));
      out[r][l] = bits_of(exact ? mfma_dot_exact(A[i].v, B[j].v, K, c) : mfma_dot_cdna3(A[i].view(), B[j].view(), K, c, format));
    }
  // MFMA ignores EXEC on gfx9 (the whole wave participates).
  for (int r = 0; r < nreg; ++r) std::memcpy(w.vr(uint16_t(op.d[0].idx + r)), out[r], 256);
  w.lane_ops += 64;
}

template <int M, int K, Fmt FA, Fmt FB>
void mfma(Wave& w, const Op& op) {
  // A single-block MFMA has one block, so CBSZ and ABID must be 0 (CBSZ <= log2(blocks), ABID <
  // 2^CBSZ); AMD's matrix instruction calculator lists no BLGP for the single-block CDNA3 MFMAs.
  if (op.cbsz || op.abid) fail(w, op, "cbsz/abid on a single-block MFMA (only 0 is valid: it has one block)");
  if (op.blgp) fail(w, op, "blgp on a single-block MFMA is not supported on CDNA3 and not modelled by the simulator");
  mfma_run<M, K>(w, op, FA, FB);
}

// v_mfma_f64_16x16x4_f64 (CDNA3/CDNA4): one f64 element of A and of B per lane (a VGPR pair),
// A[i][k] in lane 16k + i, B[k][j] in lane 16k + j; D/C: lane l, VGPR pair r -> D[4r + l / 16][l % 16]
// (AMD's matrix instruction calculator for CDNA3, `--instruction v_mfma_f64_16x16x4_f64
// --register-layout --D-matrix`: D[i][j] in pair i / 4, lane 16 (i % 4) + j; a published gfx90a
// probe reports the same. It is not the f32 16x16 layout with pairs, which this file used before.)
// Arithmetic: a K-ordered chain of f64 FMAs, each rounded RNE (MMA-Sim, arXiv:2511.10909: the
// f32/f64 MFMAs are chains of FMAs). Options::mfma_numerics does not change it (the exact model
// is an f32 one). neg:[a,b,c] (neg_lo) negates A, B, C: the f64 MFMAs are the only MFMAs with
// NEG modifiers (CDNA3 ISA guide; LLVM accepts neg on them only). CBSZ/ABID/BLGP do not exist
// for it (LLVM 22 rejects them).
void mfma_f64_16x16x4(Wave& w, const Op& op) {
  if (op.cbsz || op.abid || op.blgp) fail(w, op, "cbsz/abid/blgp on v_mfma_f64_16x16x4_f64 (only 0 is valid)");
  auto f64_at = [&](const Src& s, int lane, int part) {
    return as_d(uint64_t(lane_src(w, s, lane, part)) | uint64_t(lane_src(w, s, lane, part + 1)) << 32);
  };
  const double sa = (op.neg_lo & 1) ? -1.0 : 1.0, sb = (op.neg_lo & 2) ? -1.0 : 1.0, sc = (op.neg_lo & 4) ? -1.0 : 1.0;
  double A[16][4], B[4][16];
  for (int l = 0; l < 64; ++l) {
    A[l % 16][l / 16] = sa * f64_at(op.s[0], l, 0);
    B[l / 16][l % 16] = sb * f64_at(op.s[1], l, 0);
  }
  uint64_t out[4][64];
  for (int l = 0; l < 64; ++l)
    for (int r = 0; r < 4; ++r) {
      const int i = 4 * r + l / 16, j = l % 16;
      double c = sc * f64_at(op.s[2], l, 2 * r);
      for (int k = 0; k < 4; ++k) c = std::fma(A[i][k], B[k][j], c);
      out[r][l] = as_u64(c);
    }
  for (int r = 0; r < 4; ++r) {
    uint32_t* lo = w.vr(uint16_t(op.d[0].idx + 2 * r));
    uint32_t* hi = w.vr(uint16_t(op.d[0].idx + 2 * r + 1));
    for (int l = 0; l < 64; ++l) { lo[l] = uint32_t(out[r][l]); hi[l] = uint32_t(out[r][l] >> 32); }
  }
  w.lane_ops += 64;
}

// v_mfma_f64_4x4x4_4b_f64 (CDNA3/CDNA4): four independent 4x4x4 f64 products, one f64 of A, B and
// C/D per lane. With lane = 16 * hi + 4 * b + lo (block b): A[b][i][k] in lane 16k + 4b + i,
// B[b][k][j] in lane 16k + 4b + j, D[b][i][j] in lane 16i + 4b + j. This is the multi-block layout
// of the f32 4x4 MFMAs (A/B: row/column in the low lanes, block next, K across 16-lane groups;
// D: block b in lanes 4b.., row i in what is VGPR i for the f32 forms, here the 16-lane group i,
// since the f64 result has one VGPR pair). A public probe of v_mfma_f64_4x4x4f64 on gfx90a
// (MI250X) reports the same mapping (notes of a GPU port of a MADNESS multiwavelet transform,
// "4x4x4 layout - CONFIRMED": lane S = 16a + 4g + b holds A_g[b][a], B_g[a][b], D_g[a][b]); no
// CDNA3/CDNA4 measurement is published, so this is a documented assumption (README.md).
// Arithmetic and neg:[a,b,c] as v_mfma_f64_16x16x4_f64 (a K-ordered chain of RNE f64 FMAs).
// CBSZ/ABID (LLVM accepts them here) are refused: whether the f64 block broadcast exists is
// not documented for CDNA3/CDNA4 (the guides list the fields for the multi-block forms).
void mfma_f64_4x4x4_4b(Wave& w, const Op& op) {
  if (op.cbsz || op.abid) fail(w, op, "cbsz/abid on v_mfma_f64_4x4x4_4b_f64 are not modelled by the simulator");
  if (op.blgp) fail(w, op, "blgp on v_mfma_f64_4x4x4_4b_f64 (only 0 is valid; LLVM prints the field as neg)");
  auto f64_at = [&](const Src& s, int lane) {
    return as_d(uint64_t(lane_src(w, s, lane, 0)) | uint64_t(lane_src(w, s, lane, 1)) << 32);
  };
  const double sa = (op.neg_lo & 1) ? -1.0 : 1.0, sb = (op.neg_lo & 2) ? -1.0 : 1.0, sc = (op.neg_lo & 4) ? -1.0 : 1.0;
  uint64_t out[64];
  for (int l = 0; l < 64; ++l) {
    const int i = l / 16, b = (l / 4) % 4, j = l % 4;
    double c = sc * f64_at(op.s[2], l);
    for (int k = 0; k < 4; ++k) c = std::fma(sa * f64_at(op.s[0], 16 * k + 4 * b + i), sb * f64_at(op.s[1], 16 * k + 4 * b + j), c);
    out[l] = as_u64(c);
  }
  uint32_t* lo = w.vr(op.d[0].idx);
  uint32_t* hi = w.vr(uint16_t(op.d[0].idx + 1));
  for (int l = 0; l < 64; ++l) { lo[l] = uint32_t(out[l]); hi[l] = uint32_t(out[l] >> 32); }
  w.lane_ops += 64;
}

// BLGP: the lane whose B data lane `lane` uses (CDNA3 ISA guide, "B-matrix lane group pattern";
// the same table as AMD's matrix instruction calculator): 1/2 broadcast the low/high 32 lanes,
// 3 rotates down by 16, 4..7 broadcast one 16-lane group.
int blgp_lane(int lane, int blgp) {
  switch (blgp) {
    case 1: return lane % 32;
    case 2: return 32 + lane % 32;
    case 3: return (lane + 16) % 64;
    case 4: case 5: case 6: case 7: return 16 * (blgp - 4) + lane % 16;
    default: return lane;
  }
}

// Multi-block MFMAs (_2b/_4b/_16b): BLK independent MxM products, K per block. Layouts (CDNA3 ISA
// guide; AMD's matrix instruction calculator, gfx9): with kpl = K * M * BLK / 64 elements per lane,
//   A[b][i][k]: lane b*M + (k / kpl)*M*BLK + i, element k % kpl (B[b][k][j] likewise with j);
//   D[b][i][j]: register b*(M*M/64) + (i / (4*(64/M)))*4 + i%4, lane (b % bpr)*M +
//               ((i/4) % (64/M))*bpr*M + j, with bpr = ceil(64 / (M*M/4)) blocks per register.
// CBSZ/ABID: block b takes its A from block (b / 2^CBSZ)*2^CBSZ + ABID; BLGP: B from blgp_lane.
template <int M, int K, int BLK, Fmt F>
void mfma_blocks(Wave& w, const Op& op) {
  constexpr int kpl = K * M * BLK / 64;
  constexpr int per = F == Fmt::F32 ? 1 : (F == Fmt::F16 || F == Fmt::BF16) ? 2 : 4;
  constexpr int nreg = M * M * BLK / 64;
  constexpr int bpr = (64 + M * M / 4 - 1) / (M * M / 4);
  static_assert(kpl >= 1 && nreg >= 4);
  int max_cbsz = 0;
  while ((2 << max_cbsz) <= BLK && max_cbsz < 4) ++max_cbsz;
  if (op.cbsz > max_cbsz || op.abid >= (1 << op.cbsz))
    fail(w, op, "cbsz must be <= " + std::to_string(max_cbsz) + " and abid < 2^cbsz for a " + std::to_string(BLK) +
                    "-block MFMA");
  const bool fnuz = w.L->arch == Arch::gfx942;
  // A[b][i]: row i of block b's A; B[b][j]: column j of block b's B.
  static thread_local OperandVec<K> A[BLK][M], B[BLK][M];
  for (int b = 0; b < BLK; ++b)
    for (int x = 0; x < M; ++x)
      for (int k = 0; k < K; ++k) {
        int lane = b * M + (k / kpl) * M * BLK + x, e = k % kpl;
        A[b][x].v[k] = element(lane_src(w, op.s[0], lane, e / per), e % per, F, fnuz);
        B[b][x].v[k] = element(lane_src(w, op.s[1], blgp_lane(lane, op.blgp), e / per), e % per, F, fnuz);
      }
  const MfmaFormat format{F == Fmt::F32 ? MfmaKind::F32 : MfmaKind::Fused, F == Fmt::F16 ? -14 : -126,
                          F == Fmt::F16 ? -14 : -126};
  const bool exact = w.L->opt.mfma_numerics == Options::MfmaNumerics::Exact;
  if (!exact && F != Fmt::F32 && F != Fmt::I8)
    for (int b = 0; b < BLK; ++b)
      for (int x = 0; x < M; ++x) { A[b][x].decode(format.min_exp_a); B[b][x].decode(format.min_exp_b); }
  const int group = 1 << op.cbsz;
  uint32_t out[nreg][64];
  for (int b = 0; b < BLK; ++b)
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < M; ++j) {
        int r = b * (M * M / 64) + (i / (4 * (64 / M))) * 4 + i % 4;
        int l = (b % bpr) * M + ((i / 4) % (64 / M)) * bpr * M + j;
        const OperandVec<K>& arow = A[(b / group) * group + op.abid][i];
        const OperandVec<K>& bcol = B[b][j];
        if (F == Fmt::I8) {  // exact products, int32 accumulation with wrap-around
          uint32_t acc = lane_src(w, op.s[2], l, r);
          for (int k = 0; k < K; ++k) acc += uint32_t(int32_t(arow.v[k]) * int32_t(bcol.v[k]));
          out[r][l] = acc;
          continue;
        }
        float c = f32_of(lane_src(w, op.s[2], l, r));
        out[r][l] = bits_of(exact ? mfma_dot_exact(arow.v, bcol.v, K, c) : mfma_dot_cdna3(arow.view(), bcol.view(), K, c, format));
      }
  for (int r = 0; r < nreg; ++r) std::memcpy(w.vr(uint16_t(op.d[0].idx + r)), out[r], 256);
  w.lane_ops += 64;
}

// gfx950 f8f6f4 MFMAs, plain and v_mfma_scale_*: CBSZ selects A's element format and BLGP B's
// (CDNA4 ISA guide; LLVM's MFMA f8f6f4 format operands): 0 fp8 E4M3, 1 bf8 E5M2, 2 fp6 E2M3,
// 3 bf6 E3M2, 4 fp4 E2M1 (OCP Microscaling Formats (MX) specification v1.0: fp6/fp4 have no
// inf/NaN; biases 1, 3, 1). Each lane holds 32 consecutive K elements packed as one bit string,
// element j at bits [w*j, w*j + w) of the lane's 8 (fp8), 6 (fp6) or 4 (fp4) dwords (LLVM gives
// the operands v8i32 / v6i32 / v4i32). The scaled forms multiply every element of a lane's 32-K
// block by 2^(s - 127), s the E8M0 byte of that lane's scale VGPR chosen by op_sel[i] +
// 2 * op_sel_hi[i] (i = 0 for A, 1 for B; s = 255 is NaN); LLVM only allocates VGPRs for them.
// Accumulation: the CDNA3 8-bit-float rules (groups of 16, even/odd sub-sums) on every format, the
// scale added to the element exponents (the format's smallest normal exponent shifts with it):
// a hypothesis, see README.md.
// MxFmt, mx_bits, mx_min_exp and mx_value: mx_format.hpp (shared with the v_cvt_scalef32_* conversions).

template <int M, int K, bool SCALED>
void mfma_f8f6f4(Wave& w, const Op& op) {
  if (op.cbsz > 4 || op.blgp > 4)
    fail(w, op, "f8f6f4 MFMA format " + std::to_string(std::max(op.cbsz, op.blgp)) +
                    " is not valid (cbsz/blgp: 0 fp8, 1 bf8, 2 fp6, 3 bf6, 4 fp4)");
  if (op.abid) fail(w, op, "abid on an f8f6f4 MFMA is not modelled by the simulator");
  constexpr int N = M, kpl = K / (64 / M), nreg = M * N / 64;
  const MxFmt fa = MxFmt(op.cbsz), fb = MxFmt(op.blgp);
  // Per lane: the E8M0 scale exponents of its A and B blocks (exponent 0 = byte 127 = unscaled;
  // byte 255 -> NaN).
  int sa[64] = {}, sb[64] = {};
  bool nan_a[64] = {}, nan_b[64] = {};
  if (SCALED) {
    if (op.ns < 5 || op.s[3].k != SrcKind::V || op.s[4].k != SrcKind::V)
      fail(w, op, std::string(op.info->mnemonic) + ": the scale operands must be VGPRs (LLVM allocates them so)");
    // Byte 0: OCP's 2^-127 or LLVM's 1.0 (Options::e8m0_zero; README.md, known and assumed).
    const bool zero_is_one = w.L->opt.e8m0_zero == Options::E8m0Zero::One;
    const uint8_t hi = op.op_sel_hi_set ? op.op_sel_hi : 0;
    const int sel_a = (op.op_sel & 1) | (hi & 1) << 1, sel_b = ((op.op_sel >> 1) & 1) | ((hi >> 1) & 1) << 1;
    for (int l = 0; l < 64; ++l) {
      int ea = int((lane_src(w, op.s[3], l) >> (8 * sel_a)) & 0xff), eb = int((lane_src(w, op.s[4], l) >> (8 * sel_b)) & 0xff);
      nan_a[l] = ea == 255; nan_b[l] = eb == 255;
      sa[l] = ea - 127; sb[l] = eb - 127;
      if (zero_is_one) { if (ea == 0) sa[l] = 0; if (eb == 0) sb[l] = 0; }
    }
  }
  static thread_local OperandVec<K> A[M], B[N];  // rows of A, columns of B
  auto load = [&](const Src& src, MxFmt f, int l, const int* sc, const bool* nan, auto put) {
    const int bits = mx_bits(f);
    uint32_t words[8];
    for (int d = 0; d < bits; ++d) words[d] = lane_src(w, src, l, d);  // 32 elements x bits = bits dwords
    for (int j = 0; j < kpl; ++j) {
      int bit = j * bits;
      uint64_t window = uint64_t(words[bit / 32]) | (bit / 32 + 1 < bits ? uint64_t(words[bit / 32 + 1]) << 32 : 0);
      uint32_t code = uint32_t(window >> (bit % 32)) & ((1u << bits) - 1);
      put(j, nan[l] ? NAN : std::ldexp(mx_value(code, f), sc[l]));
    }
  };
  for (int l = 0; l < 64; ++l) {
    load(op.s[0], fa, l, sa, nan_a, [&](int j, double v) { A[l % M].v[(l / M) * kpl + j] = v; });
    load(op.s[1], fb, l, sb, nan_b, [&](int j, double v) { B[l % N].v[(l / N) * kpl + j] = v; });
  }
  const bool exact = w.L->opt.mfma_numerics == Options::MfmaNumerics::Exact;
  // Decoded per 32-K block: each block's smallest normal exponent moves with its lane's scale.
  if (!exact) {
    auto decode = [&](OperandVec<K>& x, int first_lane, int stride, MxFmt f, const int* sc) {
      x.decoded = true;
      for (int k0 = 0; k0 < K; k0 += kpl)
        x.decoded &= mfma_decode(x.v + k0, kpl, mx_min_exp(f) + sc[first_lane + stride * (k0 / kpl)], x.t + k0);
    };
    for (int i = 0; i < M; ++i) decode(A[i], i, M, fa, sa);
    for (int j = 0; j < N; ++j) decode(B[j], j, N, fb, sb);
  }
  uint32_t out[nreg][64];
  for (int l = 0; l < 64; ++l)
    for (int r = 0; r < nreg; ++r) {
      int i = M == 16 ? 4 * (l / 16) + r : 8 * (r / 4) + 4 * (l / 32) + r % 4;
      int j = l % N;
      float c = f32_of(lane_src(w, op.s[2], l, r));
      if (exact) { out[r][l] = bits_of(mfma_dot_exact(A[i].v, B[j].v, K, c)); continue; }
      // One 32-K block at a time (groups of 16 never straddle blocks), each with its scales.
      for (int k0 = 0; k0 < K; k0 += kpl) {
        int la = i + M * (k0 / kpl), lb = j + N * (k0 / kpl);  // the lanes holding this block
        const MfmaFormat format{MfmaKind::Fp8, mx_min_exp(fa) + sa[la], mx_min_exp(fb) + sb[lb]};
        c = mfma_dot_cdna3(MfmaOperand{A[i].v + k0, A[i].t + k0, A[i].decoded},
                           MfmaOperand{B[j].v + k0, B[j].t + k0, B[j].decoded}, kpl, c, format);
      }
      out[r][l] = bits_of(c);
    }
  for (int r = 0; r < nreg; ++r) std::memcpy(w.vr(uint16_t(op.d[0].idx + r)), out[r], 256);
  w.lane_ops += 64;
}

void accvgpr_move(Wave& w, const Op& op) {
  uint64_t e = w.exec();
  w.lane_ops += uint64_t(__builtin_popcountll(e));
  uint32_t* d = w.vr(op.d[0].idx);
  for (int l = 0; l < 64; ++l)
    if ((e >> l) & 1) d[l] = lane_src(w, op.s[0], l);
}

}  // namespace

void register_mfma(Registry& r) {
  using F = Fmt;
  r.add(O::v_mfma_f32_16x16x16_f16, &mfma<16, 16, F::F16, F::F16>, FType::F16);
  r.add(O::v_mfma_f32_32x32x8_f16, &mfma<32, 8, F::F16, F::F16>, FType::F16);
  r.add(O::v_mfma_f32_16x16x16_bf16, &mfma<16, 16, F::BF16, F::BF16>, FType::BF16);
  r.add(O::v_mfma_f32_32x32x8_bf16, &mfma<32, 8, F::BF16, F::BF16>, FType::BF16);
  r.add(O::v_mfma_f32_16x16x32_bf16, &mfma<16, 32, F::BF16, F::BF16>, FType::BF16);
  r.add(O::v_mfma_f32_16x16x32_f16, &mfma<16, 32, F::F16, F::F16>, FType::F16);
  r.add(O::v_mfma_f32_32x32x16_bf16, &mfma<32, 16, F::BF16, F::BF16>, FType::BF16);
  r.add(O::v_mfma_f32_32x32x16_f16, &mfma<32, 16, F::F16, F::F16>, FType::F16);
  // The fp8/bf8 (and below f8f6f4 / scaled) MFMAs are float instructions like the f16/bf16 ones: FType F32 (their
  // f32 accumulator's inline constants; the same encoding Int gave) makes them fail under a non-default MODE, as
  // the other float MFMAs do, instead of silently assuming MODE-independence nobody has published.
  r.add(O::v_mfma_f32_16x16x32_fp8_fp8, &mfma<16, 32, F::FP8, F::FP8>, FType::F32);
  r.add(O::v_mfma_f32_16x16x32_fp8_bf8, &mfma<16, 32, F::FP8, F::BF8>, FType::F32);
  r.add(O::v_mfma_f32_16x16x32_bf8_fp8, &mfma<16, 32, F::BF8, F::FP8>, FType::F32);
  r.add(O::v_mfma_f32_16x16x32_bf8_bf8, &mfma<16, 32, F::BF8, F::BF8>, FType::F32);
  r.add(O::v_mfma_f32_32x32x16_fp8_fp8, &mfma<32, 16, F::FP8, F::FP8>, FType::F32);
  r.add(O::v_mfma_f32_32x32x16_fp8_bf8, &mfma<32, 16, F::FP8, F::BF8>, FType::F32);
  r.add(O::v_mfma_f32_32x32x16_bf8_fp8, &mfma<32, 16, F::BF8, F::FP8>, FType::F32);
  r.add(O::v_mfma_f32_32x32x16_bf8_bf8, &mfma<32, 16, F::BF8, F::BF8>, FType::F32);
  r.add(O::v_mfma_f32_16x16x4_f32, &mfma<16, 4, F::F32, F::F32>, FType::F32);
  r.add(O::v_mfma_f32_32x32x2_f32, &mfma<32, 2, F::F32, F::F32>, FType::F32);
  r.add(O::v_mfma_f32_16x16x8_xf32, &mfma<16, 8, F::XF32, F::XF32>, FType::F32);
  r.add(O::v_mfma_f32_32x32x4_xf32, &mfma<32, 4, F::XF32, F::XF32>, FType::F32);
  r.add(O::v_mfma_f64_16x16x4_f64, &mfma_f64_16x16x4, FType::F64);
  r.add(O::v_mfma_f64_4x4x4_4b_f64, &mfma_f64_4x4x4_4b, FType::F64);
  r.add(O::v_mfma_i32_16x16x32_i8, &mfma<16, 32, F::I8, F::I8>);
  r.add(O::v_mfma_i32_32x32x16_i8, &mfma<32, 16, F::I8, F::I8>);
  r.add(O::v_mfma_i32_16x16x64_i8, &mfma<16, 64, F::I8, F::I8>);
  r.add(O::v_mfma_i32_32x32x32_i8, &mfma<32, 32, F::I8, F::I8>);
  // Multi-block forms (gfx940+ names; LLVM also accepts the gfx908 spellings, e.g. 4x4x1f32).
  r.add(O::v_mfma_f32_32x32x1_2b_f32, &mfma_blocks<32, 1, 2, F::F32>, FType::F32);
  r.add(O::v_mfma_f32_16x16x1_4b_f32, &mfma_blocks<16, 1, 4, F::F32>, FType::F32);
  r.add(O::v_mfma_f32_4x4x1_16b_f32, &mfma_blocks<4, 1, 16, F::F32>, FType::F32);
  r.add(O::v_mfma_f32_32x32x4_2b_f16, &mfma_blocks<32, 4, 2, F::F16>, FType::F16);
  r.add(O::v_mfma_f32_16x16x4_4b_f16, &mfma_blocks<16, 4, 4, F::F16>, FType::F16);
  r.add(O::v_mfma_f32_4x4x4_16b_f16, &mfma_blocks<4, 4, 16, F::F16>, FType::F16);
  r.add(O::v_mfma_f32_32x32x4_2b_bf16, &mfma_blocks<32, 4, 2, F::BF16>, FType::BF16);
  r.add(O::v_mfma_f32_16x16x4_4b_bf16, &mfma_blocks<16, 4, 4, F::BF16>, FType::BF16);
  r.add(O::v_mfma_f32_4x4x4_16b_bf16, &mfma_blocks<4, 4, 16, F::BF16>, FType::BF16);
  r.add(O::v_mfma_i32_32x32x4_2b_i8, &mfma_blocks<32, 4, 2, F::I8>);
  r.add(O::v_mfma_i32_16x16x4_4b_i8, &mfma_blocks<16, 4, 4, F::I8>);
  r.add(O::v_mfma_i32_4x4x4_16b_i8, &mfma_blocks<4, 4, 16, F::I8>);
  r.add(O::v_mfma_f32_16x16x128_f8f6f4, &mfma_f8f6f4<16, 128, false>, FType::F32);
  r.add(O::v_mfma_f32_32x32x64_f8f6f4, &mfma_f8f6f4<32, 64, false>, FType::F32);
  r.add(O::v_mfma_scale_f32_16x16x128_f8f6f4, &mfma_f8f6f4<16, 128, true>, FType::F32);
  r.add(O::v_mfma_scale_f32_32x32x64_f8f6f4, &mfma_f8f6f4<32, 64, true>, FType::F32);
  // v_mfma_ld_scale_b32 exists for LLVM 22 only as the first half of a scaled MFMA: the VOP3PX2
  // encoding of v_mfma_scale_* is the ld_scale words (its two scale operands and their op_sel /
  // op_sel_hi byte selects) followed by the f8f6f4 MFMA words with ABID = 1 (llvm/llvm-project
  // PR #116723: "a new VOP3PX encoding ... which bundles the pre-scale v_mfma_ld_scale_b32";
  // PR #140183: the MFMA half carries abid:1, which SP3 prints and LLVM implies). The disassembler
  // decodes exactly that pair as the fused instruction whichever way it was written (checked with
  // llvm-objdump-22: ld_scale words + MFMA words with ABID[0] = 1 give v_mfma_scale_*, with the
  // ld_scale's unused op_sel_hi[2] bit either 0 or 1), so that documented case runs above. What is
  // left decodes as a lone ld_scale: followed by an MFMA with ABID = 0, by another instruction, or at
  // the end of a block. LLVM (no intrinsic or pattern emits it alone) and AMD's public code use it only
  // as that prefix, and no published source found says whether the scales a lone one loads are
  // dropped, kept for a later scaled MFMA or applied to the next MFMA anyway (the CDNA4 guide's own
  // text for it was not checked), so it stays an Error naming that.
  r.refuse(O::v_mfma_ld_scale_b32,
           "it is only documented as the prefix of a scaled MFMA (the next instruction an "
           "f8f6f4 MFMA with ABID = 1, which decodes as v_mfma_scale_*); what a lone one does with its scales "
           "(dropped, kept for a later MFMA, or applied to the next MFMA) is not documented");
  r.add(O::v_accvgpr_read_b32, &accvgpr_move);
  r.add(O::v_accvgpr_write_b32, &accvgpr_move);
  r.add(O::v_accvgpr_mov_b32, &accvgpr_move);
}

}  // namespace cdnajit::sim
