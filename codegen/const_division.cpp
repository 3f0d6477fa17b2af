#include "codegen/const_division.hpp"

#include <fmt/format.h>

#include <bit>

#include "jit/isa/error.hpp"

namespace cdnajit::codegen {

bool division_needs_magic(uint32_t d) { return d > 1 && !std::has_single_bit(d); }

DivisionMagic division_magic(uint32_t d) {
  if (!division_needs_magic(d))
    throw Error(fmt::format("division_magic({}): only for divisors that are neither 0, 1 nor a power of two", d));
  DivisionMagic m;
  m.shift = int(std::bit_width(d - 1)) - 1;
  m.multiplier = uint32_t(((uint64_t(1) << (32 + m.shift)) + d - 1) / d);
  return m;
}

Reg emit_vdiv(Kernel& k, Reg n, uint32_t d, const char* name, const SConst& magic) {
  if (d == 0) throw Error(fmt::format("emit_vdiv {}: division by 0", name));
  Reg q = k.vgpr(name);
  if (d == 1) {
    k.v_mov_b32(q, n);
  } else if (std::has_single_bit(d)) {
    k.v_lshrrev_b32(q, int(std::countr_zero(d)), n);
  } else {
    DivisionMagic m = division_magic(d);
    k.v_mul_hi_u32(q, n, magic(m.multiplier));
    if (m.shift) k.v_lshrrev_b32(q, m.shift, q);
  }
  return q;
}

Reg emit_vmul(Kernel& k, Reg x, uint32_t c, const char* name, const SConst& sconst) {
  Reg r = k.vgpr(name);
  if (c == 1) k.v_mov_b32(r, x);
  else if (std::has_single_bit(c)) k.v_lshlrev_b32(r, int(std::countr_zero(c)), x);
  else k.v_mul_lo_u32(r, x, sconst(c));
  return r;
}

Reg emit_vrem(Kernel& k, Reg n, Reg q, uint32_t d, const char* name, const SConst& sconst, bool small) {
  Reg t;
  if (small && division_needs_magic(d) && d < (1u << 24)) {
    t = k.vgpr("q_times_d");
    k.v_mul_u32_u24(t, int64_t(d), q);
  } else {
    t = emit_vmul(k, q, d, "q_times_d", sconst);
  }
  Reg r = k.vgpr(name);
  k.v_sub_u32(r, n, t);
  return r;
}

}  // namespace cdnajit::codegen
