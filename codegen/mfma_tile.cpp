#include "codegen/mfma_tile.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace cdnajit::codegen {

void emit_mfma_tile(Kernel& k, const MfmaTileLayout& t, const MfmaTileBases& bases, const RegArray& acc,
                    const std::function<void()>& after_reads) {
  const int RB = t.lds_row_bytes, fdw = t.mfma.a_bytes / 4;
  const int kstep_bytes = t.mfma.k * t.esize;
  const bool swizzled = !bases.a_parts.empty();
  std::vector<std::vector<Reg>> fa(size_t(t.k_steps)), fbv(size_t(t.k_steps));
  std::vector<std::vector<int>> done_a(size_t(t.k_steps)), done_b(size_t(t.k_steps));
  int total = 0;  // DS reads issued so far
  auto read = [&](Reg dst, Reg base, int byte) {
    for (int part = 0; part < fdw; part += 4) {
      int dw = std::min(4, fdw - part);
      if (dw == 4) k.ds_read_b128(dst.slice(part, 4), base, Offset(byte + part * 4));
      else k.ds_read_b64(dst.slice(part, 2), base, Offset(byte + part * 4));
      ++total;
    }
  };
  // Swizzled layout: 16-byte parts at their own base registers (one 8-byte part for 8-byte fragments).
  auto read_parts = [&](Reg dst, const std::vector<Reg>& parts, int ks, int byte) {
    if (fdw == 2) {
      k.ds_read_b64(dst, parts[size_t(ks)], Offset(byte));
      ++total;
      return;
    }
    for (int j = 0; j < fdw / 4; ++j) {
      k.ds_read_b128(dst.slice(4 * j, 4), parts[size_t(ks * (fdw / 4) + j)], Offset(byte));
      ++total;
    }
  };
  // One operand's fragments of k-step ks: `blocks` of them, named "<name>_frag<ks>_<block>".
  auto read_fragments = [&](const char* name, int blocks, Reg base, const std::vector<Reg>& parts, int ks,
                            std::vector<Reg>& frags, std::vector<int>& done) {
    for (int bk = 0; bk < blocks; ++bk) {
      Reg f = k.vgpr(fmt::format("{}_frag{}_{}", name, ks, bk), fdw, 2);
      if (swizzled) read_parts(f, parts, ks, bk * t.mfma.m * RB);
      else read(f, base, bk * t.mfma.m * RB + ks * kstep_bytes);
      frags.push_back(f);
      done.push_back(total);
    }
  };
  for (int ks = 0; ks < t.k_steps; ++ks) {
    read_fragments("b", t.blocks_n, bases.b, bases.b_parts, ks, fbv[size_t(ks)], done_b[size_t(ks)]);
    read_fragments("a", t.blocks_m, bases.a, bases.a_parts, ks, fa[size_t(ks)], done_a[size_t(ks)]);
  }
  if (after_reads) after_reads();
  int waited = 0;  // reads known complete
  for (int ks = 0; ks < t.k_steps; ++ks)
    for (int bi = 0; bi < t.blocks_m; ++bi)
      for (int bj = 0; bj < t.blocks_n; ++bj) {
        const int need = std::max(done_a[size_t(ks)][size_t(bi)], done_b[size_t(ks)][size_t(bj)]);
        if (need > waited) {
          // lgkmcnt holds at most 15 on gfx9: waiting for more outstanding is waiting for fewer
          k.s_waitcnt(lgkmcnt(std::min(15, total - need)));
          waited = std::max(need, total - 15);
        }
        emit_mfma(k, t, acc.at({bi, bj}), fa[size_t(ks)][size_t(bi)], fbv[size_t(ks)][size_t(bj)]);
      }
}

void emit_mfma(Kernel& k, const MfmaTileLayout& t, Reg acc, Reg a, Reg b) {
  if (t.mfma_format)
    k.emit(t.mfma.mnemonic, {acc, a, b, acc, Cbsz{t.mfma_format}, Blgp{t.mfma_format}});
  else
    k.emit(t.mfma.mnemonic, {acc, a, b, acc});
}

}  // namespace cdnajit::codegen
