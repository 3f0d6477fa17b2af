// Dpp and Swizzle (jit/kernel.hpp): the typed cross-lane operands. Each factory checks its own
// arguments and names the caller's file:line; which instruction takes which control is checked
// where the operand is used (jit/operand_check.cpp, from jit/isa/cross_lane.hpp).
#include <bit>

#include <fmt/format.h>

#include "jit/isa/cross_lane.hpp"
#include "jit/kernel.hpp"

namespace cdnajit {
namespace {

void check_range(int v, int lo, int hi, const char* what, const std::source_location& loc) {
  if (v < lo || v > hi) throw Error(fmt::format("{}: {} is {} (valid: {}..{})", where(loc), what, v, lo, hi));
}

uint16_t quad_code(const std::array<int, 4>& lanes, const char* who, const std::source_location& loc) {
  for (int i = 0; i < 4; ++i) {
    if (lanes[size_t(i)] < 0 || lanes[size_t(i)] > 3)
      throw Error(fmt::format("{}: {}({{{}, {}, {}, {}}}): entry {} is {} (valid: lanes 0..3 of the quad)", where(loc), who,
                              lanes[0], lanes[1], lanes[2], lanes[3], i, lanes[size_t(i)]));
  }
  return uint16_t(lanes[0] | lanes[1] << 2 | lanes[2] << 4 | lanes[3] << 6);
}

Dpp make(uint16_t ctrl, const std::source_location& loc) {
  Dpp d;
  d.ctrl = ctrl;
  d.loc = loc;
  return d;
}

}  // namespace

Dpp Dpp::quad_perm(std::array<int, 4> lanes, Loc loc) { return make(quad_code(lanes, "Dpp::quad_perm", loc), loc); }
Dpp Dpp::row_shl(int n, Loc loc) {
  check_range(n, 1, 15, "Dpp::row_shl's shift", loc);
  return make(uint16_t(isa::dpp::kRowShl + n), loc);
}
Dpp Dpp::row_shr(int n, Loc loc) {
  check_range(n, 1, 15, "Dpp::row_shr's shift", loc);
  return make(uint16_t(isa::dpp::kRowShr + n), loc);
}
Dpp Dpp::row_ror(int n, Loc loc) {
  check_range(n, 1, 15, "Dpp::row_ror's rotation", loc);
  return make(uint16_t(isa::dpp::kRowRor + n), loc);
}
Dpp Dpp::wave_shl(Loc loc) { return make(isa::dpp::kWaveShl1, loc); }
Dpp Dpp::wave_shr(Loc loc) { return make(isa::dpp::kWaveShr1, loc); }
Dpp Dpp::wave_rol(Loc loc) { return make(isa::dpp::kWaveRol1, loc); }
Dpp Dpp::wave_ror(Loc loc) { return make(isa::dpp::kWaveRor1, loc); }
Dpp Dpp::row_mirror(Loc loc) { return make(isa::dpp::kRowMirror, loc); }
Dpp Dpp::row_half_mirror(Loc loc) { return make(isa::dpp::kRowHalfMirror, loc); }
Dpp Dpp::row_bcast15(Loc loc) { return make(isa::dpp::kRowBcast15, loc); }
Dpp Dpp::row_bcast31(Loc loc) { return make(isa::dpp::kRowBcast31, loc); }
Dpp Dpp::row_newbcast(int lane, Loc loc) {
  check_range(lane, 0, 15, "Dpp::row_newbcast's lane", loc);
  return make(uint16_t(isa::dpp::kRowNewBcast + lane), loc);
}

Dpp Dpp::row_mask(int mask, Loc l) const {
  check_range(mask, 0, 15, "Dpp row_mask (bit r: row r of 16 lanes is written)", l);
  Dpp d = *this;
  d.rows = uint8_t(mask);
  return d;
}
Dpp Dpp::bank_mask(int mask, Loc l) const {
  check_range(mask, 0, 15, "Dpp bank_mask (bit b: lanes 4b..4b+3 of each row are written)", l);
  Dpp d = *this;
  d.banks = uint8_t(mask);
  return d;
}
Dpp Dpp::bound_ctrl() const {
  Dpp d = *this;
  d.zero_invalid = true;
  return d;
}

Swizzle Swizzle::xor_mask(int mask, Loc loc) {
  check_range(mask, 0, 31, "Swizzle::xor_mask's mask (ds_swizzle permutes within 32 lanes)", loc);
  return {isa::swizzle_bitmask_offset(31, 0, mask), loc};
}
Swizzle Swizzle::quad_perm(std::array<int, 4> lanes, Loc loc) {
  const uint16_t c = quad_code(lanes, "Swizzle::quad_perm", loc);
  return {isa::swizzle_quad_offset(c & 3, c >> 2 & 3, c >> 4 & 3, c >> 6 & 3), loc};
}
Swizzle Swizzle::bitmask(int and_mask, int or_mask, int xor_mask, Loc loc) {
  check_range(and_mask, 0, 31, "Swizzle::bitmask's and_mask", loc);
  check_range(or_mask, 0, 31, "Swizzle::bitmask's or_mask", loc);
  check_range(xor_mask, 0, 31, "Swizzle::bitmask's xor_mask", loc);
  return {isa::swizzle_bitmask_offset(and_mask, or_mask, xor_mask), loc};
}
Swizzle Swizzle::broadcast(int group, int lane, Loc loc) {
  if (group < 2 || group > 32 || !std::has_single_bit(unsigned(group)))
    throw Error(fmt::format("{}: Swizzle::broadcast's group is {} (valid: 2, 4, 8, 16 or 32 lanes)", where(loc), group));
  check_range(lane, 0, group - 1, "Swizzle::broadcast's lane", loc);
  return {isa::swizzle_bitmask_offset(32 - group, lane, 0), loc};
}

}  // namespace cdnajit
