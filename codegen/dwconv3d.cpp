// The depthwise conv3d generator. See dwconv3d.hpp for the kernel structure;
// the comments here say why each piece is emitted the way it is.
#include "codegen/dwconv3d.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <functional>
#include <map>
#include <vector>

#include "codegen/dsl_emitter.hpp"
#include "codegen/dwconv_workgroup.hpp"
#include "codegen/dwconv_mfma.hpp"
#include "jit/interleave.hpp"
#include "jit/isa/error.hpp"
#include "jit/isa/opcode.hpp"
#include "jit/isa/waitcnt.hpp"

namespace cdnajit::codegen {

std::string dwconv3d_kernel_name(DwVariant v, DwMapping m) {
  return m == DwMapping::dense ? fmt::format("dwconv3d_{}", variant_name(v))
                               : fmt::format("dwconv3d_{}_{}", variant_name(v), mapping_name(m));
}

namespace {

constexpr int kThreads = DwConvGeometry::kThreads;
constexpr uint32_t kDsMaxOffset = 65535;  // DS instruction offset field (16 bits)

class Generator {
 public:
  Generator(Kernel& k, const DwConvShape& s, DwVariant v, Arch a, DwMapping m)
      : k_(k), s_(s), info_(variant_info(v)), a_(a), g_(dwconv_geometry(s, a, v, m)), dot2_(uses_dot2(v, a)) {}

  void emit() {
    k_.set_workgroup_size(kThreads);
    k_.lds_alloc("tile", g_.tile_bytes, 16);
    Arg a_in = k_.arg_ptr("input", ElemType::bf16, true);
    Arg a_wt = k_.arg_ptr("weight", ElemType::bf16, true);
    Arg a_out = k_.arg_ptr("output", ElemType::bf16, false);
    in_ = k_.load_arg(a_in);
    wt_ = k_.load_arg(a_wt);
    out_ = k_.load_arg(a_out);
    wg_ = k_.workgroup_id(0);
    tid_ = k_.workitem_id(0);

    workgroup_coordinates();
    issue_weight_loads();
    zero_tile();
    issue_weight_pair_hi_loads();
    load_tile();
    if (g_.mapping == DwMapping::dense) main_loop();
    else main_loop_wave_rows();
  }

 private:
  // ------------------------------------------------------- workgroup setup
  // workgroup = (n*C + c)*D_out + d_out.
  void workgroup_coordinates() {
    const DwWorkgroupPlane p = dw_workgroup_plane(k_, e_, s_, wg_, out_, wt_);
    d_ = p.d_out;
    in_nc_off_ = p.in_nc_off;
    out_plane_ = p.out_plane;
    wt_c_ = p.weights;
  }

  // --------------------------------------------------------------- weights
  // Every lane loads the same bf16 (one VMEM request per wave), straight into
  // its final register with the d16 loads: global_load_short_d16_hi puts a bf16
  // in the high half of a zeroed register, which is its fp32 value, and a
  // short_d16 + short_d16_hi pair builds a packed bf16 pair. So no conversion
  // instructions and no raw copies (75 raw registers would set the peak).
  // fmac: one fp32 VGPR per tap. dot2: a packed pair per two taps of a filter
  // row (lo = tap 2q, hi = tap 2q+1) and fp32 for the odd last tap.
  // The loads are issued first so their latency hides behind the tile work;
  // load_tile() ends with s_waitcnt vmcnt(0).
  void issue_weight_loads() {
    Reg zero_off = k_.vgpr("zero_off");
    k_.v_mov_b32(zero_off, 0);
    auto byte = [&](int kd, int kh, int kw) { return Offset(2 * ((kd * s_.KH + kh) * s_.KW + kw)); };
    auto fp32_weight = [&](Reg r, int kd, int kh, int kw) {
      k_.v_mov_b32(r, 0);
      k_.global_load_short_d16_hi(r, zero_off, wt_c_, byte(kd, kh, kw));
    };
    if (!dot2_) {
      wf_ = k_.vgprs("w", {s_.KD, s_.KH, s_.KW});
      for (int kd = 0; kd < s_.KD; ++kd)
        for (int kh = 0; kh < s_.KH; ++kh)
          for (int kw = 0; kw < s_.KW; ++kw) fp32_weight(wf_.at({kd, kh, kw}), kd, kh, kw);
      return;
    }
    int pairs = s_.KW / 2;
    if (pairs) wpair_ = k_.vgprs("wpair", {s_.KD, s_.KH, pairs});
    wsingle_ = k_.vgprs("wsingle", {s_.KD, s_.KH});
    for (int kd = 0; kd < s_.KD; ++kd)
      for (int kh = 0; kh < s_.KH; ++kh) {
        for (int q = 0; q < pairs; ++q)
          k_.global_load_ushort(wpair_.at({kd, kh, q}), zero_off, wt_c_, byte(kd, kh, 2 * q));
        fp32_weight(wsingle_.at({kd, kh}), kd, kh, s_.KW - 1);
      }
    zero_off_ = zero_off;
  }

  // The high halves of the dot2 pairs go into the same registers as the low
  // halves; the simulator (strictly) rejects two loads in flight to one VGPR,
  // so these are issued after the low halves have landed (called after the
  // tile is zeroed, so the wait costs little).
  void issue_weight_pair_hi_loads() {
    int pairs = s_.KW / 2;
    if (!dot2_ || pairs == 0) return;
    k_.s_waitcnt(vmcnt(0));
    for (int kd = 0; kd < s_.KD; ++kd)
      for (int kh = 0; kh < s_.KH; ++kh)
        for (int q = 0; q < pairs; ++q)
          k_.global_load_short_d16_hi(wpair_.at({kd, kh, q}), zero_off_, wt_c_,
                                      Offset(2 * ((kd * s_.KH + kh) * s_.KW + 2 * q + 1)));
  }

  // ------------------------------------------------------------ LDS tile
  // Zero the whole tile (the padding must read as +0), one dword per thread
  // per 1 KiB, then a barrier so no wave's zeroes land after another's data.
  void zero_tile() {
    uint32_t dwords = g_.tile_bytes / 4;
    Reg zero = k_.vgpr("zero");
    k_.v_mov_b32(zero, 0);
    Reg addr = k_.vgpr("zero_addr");
    k_.v_lshlrev_b32(addr, 2, tid_);
    uint32_t full = dwords / kThreads, rest = dwords % kThreads;
    const Reg addr0 = addr;
    uint32_t base = 0;  // byte value already added to `addr`
    auto write_at = [&](uint32_t byte) {
      if (byte - base > kDsMaxOffset) {  // past the DS offset field: a new base register
        Reg a2 = k_.vgpr("zero_addr");
        k_.v_add_u32(a2, int64_t(byte), addr0);
        base = byte;
        addr = a2;
      }
      k_.ds_write_b32(addr, zero, Offset(int32_t(byte - base)));
    };
    for (uint32_t i = 0; i < full; ++i) write_at(i * kThreads * 4);
    if (rest)
      k_.if_vcc([&] { k_.v_cmp_gt_u32(vcc, int64_t(rest), tid_); }, [&] { write_at(full * kThreads * 4); });
    k_.s_waitcnt(lgkmcnt(0));
    k_.s_barrier();
  }

  // Input rows are spread over the 4 waves (row hi = wave, wave+4, ...), the
  // lanes of a wave over the row's columns. DMA when a row is whole dwords at
  // a dword-aligned tile column; element copies otherwise.
  void load_tile() {
    Reg wave = e_.wave_index(tid_);
    wave_ = wave;
    Reg lane = e_.lane_index(tid_);
    lane_ = lane;
    int unit = g_.lds_dma ? 4 : 2;             // bytes per lane per chunk
    int per_row = g_.lds_dma ? s_.W / 2 : s_.W; // lanes' work items per row
    int chunks = (per_row + 63) / 64;
    int rest = per_row % 64;
    std::vector<Reg> lane_off;  // lane*unit + chunk*64*unit
    for (int ch = 0; ch < chunks; ++ch) {
      Reg o = k_.vgpr(fmt::format("lane_off{}", ch));
      if (ch == 0) k_.v_lshlrev_b32(o, unit == 4 ? 2 : 1, lane);
      else k_.v_add_u32(o, int64_t(ch * 64 * unit), lane_off[0]);
      lane_off.push_back(o);
    }
    Reg row_stride = e_.sconst(uint32_t(s_.W) * 2, "in_row_bytes");
    Reg tile_row_stride = e_.sconst(uint32_t(g_.tile_w) * 2, "tile_row_bytes");

    for (int kd = 0; kd < s_.KD; ++kd) {
      // Input depth di = d_out - padD + kd; only the first padD and last padD
      // slices can fall outside [0, D) (then they stay zero).
      auto slice = [&] {
        Reg hi = k_.sgpr("hi");
        k_.s_mov_b32(hi, wave);
        k_.if_scc([&] { k_.s_cmp_lt_u32(hi, int64_t(s_.H)); },
                  [&] {
                    k_.do_while_scc(
                        [&] { copy_row(kd, hi, row_stride, tile_row_stride, lane_off, chunks, rest, unit); },
                        [&] {
                          k_.s_add_u32(hi, hi, 4);
                          k_.s_cmp_lt_u32(hi, int64_t(s_.H));
                        });
                  });
      };
      int delta = kd - s_.padD;  // di = d_out + delta
      bool may_be_below = delta < 0, may_be_above = kd >= s_.KD - s_.padD;
      if (!may_be_below && !may_be_above) {
        slice();
      } else {
        // di in [0, D)  <=>  d_out + delta is in [0, D)  <=>  (unsigned)(d_out + delta) < D.
        Reg di = k_.sgpr("di");
        k_.s_add_u32(di, d_, int64_t(int32_t(delta)) & 0xffffffff);
        k_.if_scc([&] { k_.s_cmp_lt_u32(di, int64_t(s_.D)); }, slice);
      }
    }
    // DMA writes to LDS are counted by vmcnt; element copies by lgkmcnt.
    k_.s_waitcnt(vmcnt(0) + lgkmcnt(0));
    k_.s_barrier();
  }

  void copy_row(int kd, Reg hi, Reg row_stride, Reg tile_row_stride, const std::vector<Reg>& lane_off, int chunks,
                int rest, int unit) {
    // Global: in + nc*D*H*W*2 + (d_out - padD + kd)*H*W*2 + hi*W*2 (all in range here).
    Reg goff = k_.sgpr("row_goff");
    k_.s_mul_i32(goff, d_, e_.sconst(uint32_t(s_.H) * s_.W * 2, "slice_bytes"));
    k_.s_add_u32(goff, goff, in_nc_off_);
    int64_t delta_bytes = int64_t(kd - s_.padD) * s_.H * s_.W * 2;
    if (delta_bytes) k_.s_add_u32(goff, goff, delta_bytes & 0xffffffff);
    Reg t = k_.sgpr("row_in_slice");
    k_.s_mul_i32(t, hi, row_stride);
    k_.s_add_u32(goff, goff, t);
    Reg gptr = e_.sptr_add(in_, goff, "row_ptr");
    // LDS: ((kd*tile_h + hi + padH)*tile_w + padW)*2.
    Reg loff = k_.sgpr("row_loff");
    k_.s_mul_i32(loff, hi, tile_row_stride);
    uint32_t lconst = uint32_t(((kd * g_.tile_h + s_.padH) * g_.tile_w + s_.padW) * 2);
    if (lconst) k_.s_add_u32(loff, loff, int64_t(lconst));

    for (int ch = 0; ch < chunks; ++ch) {
      bool partial = (ch == chunks - 1) && rest;
      auto body = [&] {
        if (g_.lds_dma) {
          // LDS address = M0 + lane*4: M0 carries the row start plus the chunk.
          if (ch == 0) {
            k_.s_mov_b32(m0, loff);
          } else {
            Reg m = k_.sgpr("m0_value");
            k_.s_add_u32(m, loff, int64_t(ch * 256));
            k_.s_mov_b32(m0, m);
          }
          k_.global_load_lds_dword(lane_off[size_t(ch)], gptr);
        } else {
          Reg x = k_.vgpr("x16");
          k_.global_load_ushort(x, lane_off[size_t(ch)], gptr);
          Reg la = k_.vgpr("lds_addr");
          k_.v_add_u32(la, loff, lane_off[size_t(ch)]);
          k_.s_waitcnt(vmcnt(0));
          k_.ds_write_b16(la, x);
        }
      };
      if (partial)
        k_.if_vcc([&] { k_.v_cmp_gt_u32(vcc, int64_t(rest), lane_); }, body);
      else
        body();
    }
  }

  // ------------------------------------------------------------ main loop
  // Work item i = h*pairs_per_row + p covers outputs (h, K*p) .. (h, K*p+K-1), K = kw_pack;
  // thread t takes items t, t+256, ... Each thread keeps (h, p) and steps
  // them by (256 / pairs, 256 % pairs) with one carry.
  void main_loop() {
    const int pairs = g_.pairs_per_row;
    Reg h = k_.vgpr("h"), p = k_.vgpr("p");
    if (pairs >= kThreads) {
      k_.v_mov_b32(h, 0);
      k_.v_mov_b32(p, tid_);
    } else {
      // tid < 256 and pairs <= 256: floor(tid * ceil(2^16/pairs) / 2^16) is exact.
      uint32_t m = ((1u << 16) + pairs - 1) / pairs;
      Reg t = k_.vgpr("t");
      k_.v_mul_u32_u24(t, int64_t(m), tid_);
      k_.v_lshrrev_b32(h, 16, t);
      Reg hp = k_.vgpr("hp");
      k_.v_mul_u32_u24(hp, int64_t(pairs), h);
      k_.v_sub_u32(p, tid_, hp);
    }
    const bool guard = g_.items % kThreads != 0;
    auto step = [&] { guarded_compute_and_store(h, p, guard, h, s_.H_out()); };
    if (g_.steps == 1) {
      step();
      return;
    }
    Reg iter = e_.sconst(uint32_t(g_.steps), "steps_left");
    int dq = kThreads / pairs, dr = kThreads % pairs;
    k_.do_while_scc(
        [&] {
          step();
          if (dr) {
            k_.v_add_u32(p, int64_t(dr), p);
            k_.v_cmp_le_u32(vcc, int64_t(pairs), p);  // p >= pairs: wrap to the next row
            Reg wrapped = k_.vgpr("p_wrapped");
            k_.v_subrev_u32(wrapped, int64_t(pairs), p);
            k_.v_cndmask_b32(p, p, wrapped, vcc);
            k_.v_addc_co_u32(h, vcc, int64_t(dq), h, vcc);
          } else {
            k_.v_add_u32(h, int64_t(dq), h);
          }
        },
        [&] {
          k_.s_sub_u32(iter, iter, 1);
          k_.s_cmp_lg_u32(iter, 0);
        });
  }

  // One work item, switched off in the lanes where `index` >= `limit` when `guard` is set
  // (items past the output's rows or past a row's pairs).
  void guarded_compute_and_store(Reg h, Reg p, bool guard, Reg index, int limit) {
    auto work = [&] { compute_and_store(h, p); };
    if (guard) k_.if_vcc([&] { k_.v_cmp_gt_u32(vcc, int64_t(limit), index); }, work);
    else work();
  }

  // The seed JIT kernels' mapping (DwMapping::wave_rows): the wave's output row h
  // is wave-uniform (an SGPR loop, h = wave, wave+4, ...); lane l takes items
  // l, l+64, ... of the row; lanes past the row's items are switched off.
  void main_loop_wave_rows() {
    constexpr int kWaves = kThreads / 64;
    const int pairs = g_.pairs_per_row, chunks = (pairs + 63) / 64;
    Reg hs = k_.sgpr("h_row");
    k_.s_mov_b32(hs, wave_);
    auto row = [&] {
      Reg h = k_.vgpr("h");
      k_.v_mov_b32(h, hs);
      for (int ch = 0; ch < chunks; ++ch) {
        Reg p = lane_;
        if (ch) {
          p = k_.vgpr("p");
          k_.v_add_u32(p, int64_t(64 * ch), lane_);
        }
        const int in_chunk = std::min(64, pairs - 64 * ch);
        guarded_compute_and_store(h, p, in_chunk < 64, p, pairs);
      }
    };
    k_.if_scc([&] { k_.s_cmp_lt_u32(hs, int64_t(s_.H_out())); },
              [&] {
                k_.do_while_scc(row, [&] {
                  k_.s_add_u32(hs, hs, kWaves);
                  k_.s_cmp_lt_u32(hs, int64_t(s_.H_out()));
                });
              });
  }

  // LDS byte address of filter row (kd, kh), pair j for this thread's item,
  // as (base register, offset) with the offset inside the DS field.
  struct Addr {
    Reg base;
    int32_t offset;
  };
  class RowAddressing {
   public:
    RowAddressing(Kernel& k, Reg base) : k_(k), base_(base) {}
    Addr at(uint32_t byte) {
      if (byte < cur_ || byte - cur_ > kDsMaxOffset) {
        Reg b = k_.vgpr("lds_row_base");
        k_.v_add_u32(b, int64_t(byte), base_);
        cur_ = byte;
        cur_reg_ = b;
      }
      return {cur_reg_.valid() ? cur_reg_ : base_, int32_t(byte - cur_)};
    }

   private:
    Kernel& k_;
    Reg base_;
    Reg cur_reg_;
    uint32_t cur_ = 0;
  };

  uint32_t row_byte(int kd, int kh, int j) const {
    return uint32_t(((kd * g_.tile_h + kh) * g_.tile_w + 2 * j) * 2);
  }

  // Filter rows in (kd, kh) order.
  int rows() const { return s_.KD * s_.KH; }

  // One filter row's input dwords a[0..R-1]: a[j] holds columns (w+2j, w+2j+1)
  // of the row as (lo, hi) bf16, w = kw_pack * p the item's first output column.
  using RowInputs = std::vector<Reg>;

  // The reads of row r: R ds_read_b32, or (lds_dot2_b64) one ds_read_b64 per
  // two dwords and a ds_read_b32 for an odd last one. The b64 address is the
  // b32 one (w = 2p columns, byte 4p of the row): 8-byte reads at addresses
  // that are only 4-byte aligned for odd p, the seed's access pattern.
  template <class AddrOf>
  RowInputs read_row(int r, AddrOf&& addr) {
    int kd = r / s_.KH, kh = r % s_.KH;
    const int R = g_.reads_per_row;
    RowInputs a;
    for (int j = 0; j < R;) {
      Addr ad = addr.at(row_byte(kd, kh, j));
      if (info_.read_b64 && j + 1 < R) {
        Reg x = k_.vgpr(fmt::format("in[{}][{}][{}:{}]", kd, kh, j, j + 1), 2, 2);
        k_.ds_read_b64(x, ad.base, Offset(ad.offset));
        a.push_back(x[0]);
        a.push_back(x[1]);
        j += 2;
      } else {
        Reg x = k_.vgpr(fmt::format("in[{}][{}][{}]", kd, kh, j));
        k_.ds_read_b32(x, ad.base, Offset(ad.offset));
        a.push_back(x);
        j += 1;
      }
    }
    return a;
  }

  // Waits until at most n of this thread's LDS reads are outstanding. lgkmcnt
  // is a 4-bit field whose maximum (15) means "no wait", so a larger n is
  // clamped to 14 (a little more waiting than needed, never less).
  void wait_reads(int n) { k_.s_waitcnt(lgkmcnt(std::min(n, isa::kMaxLgkmcnt - 1))); }

  // VALU instructions compute_row emits for one filter row (the VALU group of
  // the sched_groups schedule): fmac: KW + K - 1 bf16 extractions and K*KW
  // multiply-adds; dot2: per pair and output pair an alignbit and two dot2,
  // per output pair two extractions and two fmac for the odd tap.
  int valu_per_row() const {
    const int K = g_.kw_pack;
    if (!dot2_) return s_.KW + K - 1 + K * s_.KW;
    return (s_.KW / 2) * (K / 2) * 3 + (K / 2) * 4;
  }

  // The ds_read instructions one row issues.
  int reads_issued_per_row() const {
    const int R = g_.reads_per_row;
    return info_.read_b64 ? R / 2 + R % 2 : R;
  }

  void compute_and_store(Reg h, Reg p) {
    // Tile byte address of (kd=0, kh=0, column kw_pack*p) for output row h.
    Reg t = k_.vgpr("t");
    k_.v_mul_u32_u24(t, int64_t(g_.tile_w * 2), h);
    Reg base = k_.vgpr("lds_base");
    k_.v_lshl_add_u32(base, p, g_.kw_pack == 4 ? 3 : 2, t);
    RowAddressing addr(k_, base);

    std::vector<Reg> acc;
    for (int o = 0; o < g_.kw_pack; ++o) acc.push_back(k_.vgpr(fmt::format("acc{}", o)));
    bool first = true;
    auto compute_row = [&](int r, const RowInputs& a) {
      int kd = r / s_.KH, kh = r % s_.KH;
      if (dot2_) dot2_row(kd, kh, a, acc, first);
      else fmac_row(kd, kh, a, acc, first);
      first = false;
    };
    const int reads = reads_issued_per_row();

    switch (info_.schedule) {
      case DwSchedule::batched: {
        // V97: every read first, one wait, then every multiply-add.
        std::vector<RowInputs> all;
        for (int r = 0; r < rows(); ++r) all.push_back(read_row(r, addr));
        wait_reads(0);
        for (int r = 0; r < rows(); ++r) compute_row(r, all[size_t(r)]);
        break;
      }
      case DwSchedule::row_wait:
        // Seed JIT-ilv: a row's reads, a full wait, its multiply-adds.
        for (int r = 0; r < rows(); ++r) {
          RowInputs a = read_row(r, addr);
          wait_reads(0);
          compute_row(r, a);
        }
        break;
      case DwSchedule::row_lookahead: {
        // Seed JIT-ilv2: reads of row r+1 are in flight while row r is
        // computed: wait until at most one row's reads are outstanding.
        RowInputs cur = read_row(0, addr);
        for (int r = 0; r < rows(); ++r) {
          RowInputs next;
          if (r + 1 < rows()) next = read_row(r + 1, addr);
          wait_reads(r + 1 < rows() ? reads : 0);
          compute_row(r, cur);
          cur = std::move(next);
        }
        break;
      }
      case DwSchedule::sched_groups: {
        // V97-sgb: the reads and the multiply-adds are written as two streams
        // in V97's batched order and placed by jit::Interleave in groups of
        // one filter row's reads, then one row's VALU instructions, like
        // sched_group_barrier(DS read, R) + sched_group_barrier(VALU, V) per row.
        // The wait-count pass derives the waits of the placed order. Address
        // registers (only for tiles past the 64 KiB DS offset range) are made
        // before the streams so the read stream holds DS reads only.
        std::map<uint32_t, Addr> addr_of;
        for (int r = 0; r < rows(); ++r)
          for (int j = 0; j < g_.reads_per_row; j += info_.read_b64 ? 2 : 1) {
            uint32_t byte = row_byte(r / s_.KH, r % s_.KH, j);
            addr_of.emplace(byte, addr.at(byte));
          }
        struct Lookup {
          std::map<uint32_t, Addr>& m;
          Addr at(uint32_t byte) { return m.at(byte); }
        } lookup{addr_of};
        std::vector<RowInputs> all;
        Interleave il(k_);
        int reads_stream = il.stream("lds reads", [&] {
          for (int r = 0; r < rows(); ++r) all.push_back(read_row(r, lookup));
        });
        int valu_stream = il.stream("multiply-adds", [&] {
          for (int r = 0; r < rows(); ++r) compute_row(r, all[size_t(r)]);
        });
        il.place({{reads_stream, reads}, {valu_stream, valu_per_row()}});
        break;
      }
      case DwSchedule::depth_pipeline: {
        // Seed JIT-pipe: slices 0 and 1 are read first; then for each slice kd,
        // slice kd+1's reads are issued (if not yet), the wait leaves them in
        // flight (lgkmcnt(KH * reads per row)) and slice kd is computed.
        std::vector<RowInputs> row_in(static_cast<size_t>(rows()));
        auto issue_slice = [&](int kd) {
          for (int kh = 0; kh < s_.KH; ++kh) row_in[size_t(kd * s_.KH + kh)] = read_row(kd * s_.KH + kh, addr);
        };
        issue_slice(0);
        if (s_.KD > 1) issue_slice(1);
        for (int kd = 0; kd < s_.KD; ++kd) {
          if (kd >= 1 && kd + 1 < s_.KD) issue_slice(kd + 1);
          wait_reads(kd + 1 < s_.KD ? s_.KH * reads : 0);
          for (int kh = 0; kh < s_.KH; ++kh) compute_row(kd * s_.KH + kh, row_in[size_t(kd * s_.KH + kh)]);
        }
        break;
      }
    }
    store(h, p, acc);
  }

  // acc[o] gets columns w+o .. w+o+KW-1 of the row (w = kw_pack*p); column c
  // is the lo (c even) or hi (c odd) half of a[c/2]. The first tap of each
  // output uses +0 as addend, exactly like fma(w, x, 0.0f).
  void fmac_row(int kd, int kh, const RowInputs& a, const std::vector<Reg>& acc, bool first) {
    const int K = int(acc.size());
    std::vector<Reg> x;
    for (int col = 0; col < s_.KW + K - 1; ++col) {
      Reg v = k_.vgpr(fmt::format("x{}", col));
      if (col % 2 == 0) k_.v_lshlrev_b32(v, 16, a[size_t(col / 2)]);
      else k_.v_and_b32(v, int64_t(0xffff0000u), a[size_t(col / 2)]);
      x.push_back(v);
    }
    for (int kw = 0; kw < s_.KW; ++kw) {
      Reg w = wf_.at({kd, kh, kw});
      for (int o = 0; o < K; ++o) {
        if (first && kw == 0) k_.v_fma_f32(acc[size_t(o)], w, x[size_t(o)], 0);
        else k_.v_fmac_f32(acc[size_t(o)], w, x[size_t(kw + o)]);
      }
    }
  }

  // Pairs (2q, 2q+1) with v_dot2_f32_bf16: output 2m reads a[q+m] directly,
  // output 2m+1 the pair shifted by one column, (a[q+m].hi, a[q+m+1].lo) =
  // alignbit(a[q+m+1], a[q+m], 16) (made per output, as the seed's kernels do).
  // The odd last tap (column 2m+KW-1 / 2m+KW) is one v_fmac_f32 per output.
  void dot2_row(int kd, int kh, const RowInputs& a, const std::vector<Reg>& acc, bool first) {
    const int K = int(acc.size());
    int pairs = s_.KW / 2;
    for (int q = 0; q < pairs; ++q) {
      Reg wp = wpair_.at({kd, kh, q});
      bool init = first && q == 0;
      for (int m = 0; m < K / 2; ++m) {
        Reg shifted = k_.vgpr("shifted");
        k_.v_alignbit_b32(shifted, a[size_t(q + m + 1)], a[size_t(q + m)], 16);
        if (init) {
          k_.v_dot2_f32_bf16(acc[size_t(2 * m)], wp, a[size_t(q + m)], 0);
          k_.v_dot2_f32_bf16(acc[size_t(2 * m + 1)], wp, shifted, 0);
        } else {
          k_.v_dot2_f32_bf16(acc[size_t(2 * m)], wp, a[size_t(q + m)], acc[size_t(2 * m)]);
          k_.v_dot2_f32_bf16(acc[size_t(2 * m + 1)], wp, shifted, acc[size_t(2 * m + 1)]);
        }
      }
    }
    Reg ws = wsingle_.at({kd, kh});
    for (int m = 0; m < K / 2; ++m) {
      Reg lo = k_.vgpr("x_lo"), hi = k_.vgpr("x_hi");
      k_.v_lshlrev_b32(lo, 16, a[size_t(pairs + m)]);
      k_.v_and_b32(hi, int64_t(0xffff0000u), a[size_t(pairs + m)]);
      if (first && pairs == 0) {
        k_.v_fma_f32(acc[size_t(2 * m)], ws, lo, 0);
        k_.v_fma_f32(acc[size_t(2 * m + 1)], ws, hi, 0);
      } else {
        k_.v_fmac_f32(acc[size_t(2 * m)], ws, lo);
        k_.v_fmac_f32(acc[size_t(2 * m + 1)], ws, hi);
      }
    }
  }

  // bf16 RNE of an fp32 value in the high half of the result (low half garbage):
  // x + 0x7fff + bit16(x), NaN -> x | 0x400000 (quiet).
  Reg round_bf16_gfx942(Reg x, Reg c7fff) {
    Reg lsb = k_.vgpr("bf16_lsb");
    k_.v_bfe_u32(lsb, x, 16, 1);
    Reg r = k_.vgpr("bf16_rounded");
    k_.v_add3_u32(r, x, lsb, c7fff);
    Reg qnan = k_.vgpr("bf16_qnan");
    k_.v_or_b32(qnan, int64_t(0x400000), x);
    k_.v_cmp_u_f32(vcc, x, x);
    k_.v_cndmask_b32(r, r, qnan, vcc);
    return r;
  }

  // Packs acc[2m], acc[2m+1] to a bf16 pair.
  Reg pack(Reg lo, Reg hi) {
    Reg packed = k_.vgpr("packed");
    if (a_ == Arch::gfx950) {
      k_.v_cvt_pk_bf16_f32(packed, lo, hi);
    } else {
      Reg c7fff = e_.sconst(0x7fff, "c7fff");
      Reg r0 = round_bf16_gfx942(lo, c7fff);
      Reg r1 = round_bf16_gfx942(hi, c7fff);
      // bytes (r0.b2, r0.b3, r1.b2, r1.b3): v_perm selectors 0-3 pick src1 bytes, 4-7 src0 bytes.
      k_.v_perm_b32(packed, r1, r0, e_.sconst(0x07060302u, "perm_hi_halves"));
    }
    return packed;
  }

  // Output pair m of item p holds columns kw_pack*p + 2m (+1). Column c exists
  // for items p < ceil((W_out - c0) / kw_pack) where c0 is its offset in the item;
  // a store whose items all exist is unconditional, otherwise it is guarded.
  void store(Reg h, Reg p, const std::vector<Reg>& acc) {
    const int K = g_.kw_pack, items = g_.pairs_per_row, wo = s_.W_out();
    std::vector<Reg> packed;
    for (int m = 0; m < K / 2; ++m) packed.push_back(pack(acc[size_t(2 * m)], acc[size_t(2 * m + 1)]));
    Reg t = k_.vgpr("t");
    k_.v_mul_u32_u24(t, int64_t(wo * 2), h);
    Reg off = k_.vgpr("out_off");
    k_.v_lshl_add_u32(off, p, K == 4 ? 3 : 2, t);
    auto items_with = [&](int c0) { return std::max(0, (wo - c0 + K - 1) / K); };
    auto guarded = [&](int limit, const std::function<void()>& st) {
      if (limit >= items) st();
      else if (limit > 0) k_.if_vcc([&] { k_.v_cmp_gt_u32(vcc, int64_t(limit), p); }, st);
    };
    for (int m = 0; m < K / 2; ++m) {
      int lo_items = items_with(2 * m), hi_items = items_with(2 * m + 1);
      Reg v = packed[size_t(m)];
      if (lo_items == hi_items) {
        guarded(lo_items, [&] { k_.global_store_dword(off, v, out_plane_, Offset(4 * m)); });
      } else {
        // The last item of a row has the lo output of this pair but not the hi one.
        guarded(lo_items, [&] { k_.global_store_short(off, v, out_plane_, Offset(4 * m)); });
        guarded(hi_items, [&] { k_.global_store_short_d16_hi(off, v, out_plane_, Offset(4 * m + 2)); });
      }
    }
  }

  Kernel& k_;
  const DwConvShape& s_;
  const DwVariantInfo& info_;
  DslEmitter e_{k_};  // scalar constants, division, pointer arithmetic
  Arch a_;
  DwConvGeometry g_;
  bool dot2_;
  Reg in_, wt_, out_, wg_, tid_;
  Reg lane_, wave_, zero_off_;
  Reg d_, in_nc_off_, out_plane_, wt_c_;
  RegArray wf_, wpair_, wsingle_;
};

}  // namespace

BuildResult build_dwconv3d(const DwConvShape& s, DwVariant v, Arch a, const BuildOptions& opts) {
  return build_dwconv3d(s, v, a, DwMapping::dense, opts);
}

BuildResult build_dwconv3d(const DwConvShape& s, DwVariant v, Arch a, DwMapping m, const BuildOptions& opts) {
  if (v == DwVariant::mfma_band) {
    if (m != DwMapping::dense)
      throw Error(fmt::format("depthwise conv3d variant mfma_band has one work mapping (16 x 16 output blocks per "
                              "wave); --mapping {} applies to the VALU variants only",
                              mapping_name(m)));
    return build_dwconv_mfma(s, a, opts);
  }
  if (!variant_available(v, a))
  {
    std::string valid;
    for (const DwVariantInfo& i : dw_variants())
      if (variant_available(i.id, a)) valid += fmt::format("{}{}", valid.empty() ? "" : ", ", i.name);
    throw Error(fmt::format("depthwise conv3d variant {} is not available on {}: {} and {} exist only on gfx950; "
                            "variants available on {}: {}",
                            variant_name(v), arch_name(a), isa::info(isa::Opcode::v_dot2_f32_bf16).mnemonic,
                            isa::info(isa::Opcode::v_cvt_pk_bf16_f32).mnemonic, arch_name(a), valid));
  }
  dwconv_geometry(s, a, v, m);  // shape and LDS checks with a precise message
  Kernel k(dwconv3d_kernel_name(v, m), a);
  Generator(k, s, v, a, m).emit();
  // The generator writes every s_waitcnt itself (the batched / row-by-row waits are
  // the design). The default Auto pass keeps each of them that is needed, drops any
  // that is provably a no-op and adds only what is missing.
  return k.build(opts);
}

std::string format_build_stats(const BuildResult& r) {
  const KernelStats& st = r.stats;
  return fmt::format("{} ({}): VGPRs {}, AGPRs {}, SGPRs {}, LDS {} B, occupancy {} waves/SIMD (registers {}, LDS {}), "
                     "{} instructions (VALU {}, DS {}, VMEM {}, SALU {}), build {:.2f} ms",
                     r.name, arch_name(r.arch), st.vgprs, st.agprs, st.sgprs, st.lds_bytes,
                     st.occupancy.waves_per_simd, st.occupancy.waves_per_simd_regs, st.occupancy.waves_per_simd_lds,
                     st.instructions, st.by_unit[int(isa::Unit::VALU)], st.by_unit[int(isa::Unit::DS)],
                     st.by_unit[int(isa::Unit::VMEM)], st.by_unit[int(isa::Unit::SALU)], st.ms_build);
}

}  // namespace cdnajit::codegen
