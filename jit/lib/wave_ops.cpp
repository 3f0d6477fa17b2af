#include "jit/lib/wave_ops.hpp"

#include <fmt/format.h>

#include "jit/isa/opcode.hpp"

namespace cdnajit::lib {
namespace {

using isa::Opcode;

Opcode opcode_of(ReduceOp op) {
  switch (op) {
    case ReduceOp::add_f32: return Opcode::v_add_f32;
    case ReduceOp::max_f32: return Opcode::v_max_f32;
    case ReduceOp::min_f32: return Opcode::v_min_f32;
    case ReduceOp::add_i32: return Opcode::v_add_u32;  // two's complement: the same bits as a signed add
    case ReduceOp::max_i32: return Opcode::v_max_i32;
    case ReduceOp::min_i32: return Opcode::v_min_i32;
  }
  throw Error("lib::ReduceOp " + std::to_string(int(op)) + " is not an operation (valid: add/max/min _f32/_i32)");
}

void require_vgpr(const Reg& r, const char* what, const char* fn, const std::source_location& loc) {
  if (!r.valid() || r.cls != RegClass::V || r.dwords != 1)
    throw Error(fmt::format("{}: lib::{}: {} must be a one-dword VGPR", where(loc), fn, what));
}

bool same(const Reg& a, const Reg& b) { return a.id == b.id && a.first == b.first && a.dwords == b.dwords; }

}  // namespace

void wave_reduce(Kernel& k, ReduceOp op, Reg dst, Reg src, std::source_location loc) {
  require_vgpr(dst, "dst", "wave_reduce", loc);
  require_vgpr(src, "src", "wave_reduce", loc);
  const Opcode o = opcode_of(op);
  if (!same(dst, src)) k.emit(Opcode::v_mov_b32, {dst, src}, loc);
  // Within a row of 16: partners l^1 and l^2, then the mirrored half-row and row, whose lanes hold
  // the same partials as l^4 and l^8 once the quads and the halves are uniform.
  for (const Dpp& d : {Dpp::quad_perm({1, 0, 3, 2}, loc), Dpp::quad_perm({2, 3, 0, 1}, loc), Dpp::row_half_mirror(loc),
                       Dpp::row_mirror(loc)})
    k.emit(o, {dst, dst, dst, d}, loc);
  // Across the two rows of each 32 lanes.
  Reg t = k.vgpr("wave_reduce.partner", 1, 0, loc);
  k.emit(Opcode::ds_swizzle_b32, {t, dst, Swizzle::xor_mask(16, loc)}, loc);
  k.emit(Opcode::s_waitcnt, {lgkmcnt(0, loc)}, loc);
  k.emit(o, {dst, t, dst}, loc);
  // Across the halves of the wave: op(lanes 0..31's total, lanes 32..63's total) in every lane.
  if (isa::info(Opcode::v_permlane32_swap_b32).on(k.arch())) {
    Reg lo = k.vgpr("wave_reduce.lo", 1, 0, loc), hi = k.vgpr("wave_reduce.hi", 1, 0, loc);
    k.emit(Opcode::v_mov_b32, {lo, dst}, loc);
    k.emit(Opcode::v_mov_b32, {hi, dst}, loc);
    k.emit(Opcode::v_permlane32_swap_b32, {lo, hi}, loc);  // lo: [lanes 0..31 | lanes 0..31], hi: [32..63 | 32..63]
    k.emit(o, {dst, lo, hi}, loc);
  } else {
    Reg lo = k.sgpr("wave_reduce.lo", 1, 0, loc), hi = k.sgpr("wave_reduce.hi", 1, 0, loc);
    k.emit(Opcode::v_readlane_b32, {lo, dst, 0}, loc);
    k.emit(Opcode::v_readlane_b32, {hi, dst, 32}, loc);
    k.emit(Opcode::v_mov_b32, {t, hi}, loc);  // a VOP2 reads one SGPR: the high total goes through a VGPR
    k.emit(o, {dst, lo, t}, loc);
  }
}

void wave_broadcast(Kernel& k, Reg dst, Reg src, int lane, std::source_location loc) {
  require_vgpr(dst, "dst", "wave_broadcast", loc);
  require_vgpr(src, "src", "wave_broadcast", loc);
  if (lane < 0 || lane > 63)
    throw Error(fmt::format("{}: lib::wave_broadcast: lane {} (valid: 0..63)", where(loc), lane));
  Reg s = k.sgpr("wave_broadcast.value", 1, 0, loc);
  k.emit(Opcode::v_readlane_b32, {s, src, lane}, loc);
  k.emit(Opcode::v_mov_b32, {dst, s}, loc);
}

void workgroup_reduce(Kernel& k, ReduceOp op, Reg dst, Reg src, uint32_t lds_offset, std::source_location loc) {
  require_vgpr(dst, "dst", "workgroup_reduce", loc);
  require_vgpr(src, "src", "workgroup_reduce", loc);
  const auto wg = k.workgroup_size();
  if (wg[1] != 1 || wg[2] != 1 || wg[0] % 64 != 0)
    throw Error(fmt::format("{}: lib::workgroup_reduce: workgroup {}x{}x{} (valid: one dimension, a multiple of 64 threads; "
                            "call set_workgroup_size first)", where(loc), wg[0], wg[1], wg[2]));
  const uint32_t waves = wg[0] / 64;
  if (uint64_t(lds_offset) + 4 * waves > k.lds_bytes())
    throw Error(fmt::format("{}: lib::workgroup_reduce: needs {} bytes of LDS at offset {}, but the kernel allocated {} "
                            "(valid: reserve them with k.lds_alloc(\"partials\", {}))", where(loc), 4 * waves, lds_offset,
                            k.lds_bytes(), 4 * waves));
  const Opcode o = opcode_of(op);
  Reg r = k.vgpr("workgroup_reduce.wave", 1, 0, loc), addr = k.vgpr("workgroup_reduce.addr", 1, 0, loc);
  wave_reduce(k, op, r, src, loc);
  k.emit(Opcode::v_lshrrev_b32, {addr, 6, k.workitem_id(0, loc)}, loc);  // the wave's index
  k.emit(Opcode::v_lshlrev_b32, {addr, 2, addr}, loc);
  k.emit(Opcode::ds_write_b32, {addr, r, Offset(int32_t(lds_offset))}, loc);  // every lane stores the same value
  k.emit(Opcode::s_waitcnt, {lgkmcnt(0, loc)}, loc);
  k.emit(Opcode::s_barrier, {}, loc);
  k.emit(Opcode::v_mov_b32, {addr, 0}, loc);
  std::vector<Reg> part;
  for (uint32_t w = 0; w < waves; ++w) {
    part.push_back(w == 0 ? dst : k.vgpr(fmt::format("workgroup_reduce.p{}", w), 1, 0, loc));
    k.emit(Opcode::ds_read_b32, {part.back(), addr, Offset(int32_t(lds_offset + 4 * w))}, loc);
  }
  k.emit(Opcode::s_waitcnt, {lgkmcnt(0, loc)}, loc);
  for (uint32_t w = 1; w < waves; ++w) k.emit(o, {dst, dst, part[w]}, loc);
}

}  // namespace cdnajit::lib
