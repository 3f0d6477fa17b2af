// Unsigned integer arithmetic by a compile-time constant, as the generators emit it: division
// of a value below 2^31 by multiply-high and shift (Granlund & Montgomery, "Division by
// invariant integers using multiplication", PLDI 1994), the remainder from the quotient, and
// the multiply by a constant. Powers of two become shifts and 1 a move.
//
// Each generator keeps its own policy for SGPR constants (conv3d_igemm reuses one register per
// value; conv_bwd_weight materialises each where it is used), so the functions that may need
// one take `sconst`, called only when the constant is needed, right before the instruction
// that reads it.
#pragma once
#include <cstdint>
#include <functional>

#include "jit/kernel.hpp"

namespace cdnajit::codegen {

// Materialises a 32-bit constant in an SGPR.
using SConst = std::function<Reg(uint32_t value)>;

// n / d for every n < 2^31 as mulhi(n, multiplier) >> shift, for a divisor d that is neither 0,
// 1 nor a power of two: shift = ceil(log2 d) - 1 and multiplier = ceil(2^(32 + shift) / d), which
// is below 2^32, and the error n * (multiplier * d - 2^(32 + shift)) stays below 2^(32 + shift).
struct DivisionMagic {
  uint32_t multiplier = 0;
  int shift = 0;
};
// Throws cdnajit::Error for d = 0, 1 or a power of two (those need no multiply).
DivisionMagic division_magic(uint32_t d);
// True when dividing by d needs the multiply (d is neither 1 nor a power of two).
bool division_needs_magic(uint32_t d);

// A new VGPR `name` = n / d for a VGPR n < 2^31 (d >= 1). `magic` supplies the SGPR holding
// division_magic(d).multiplier when division_needs_magic(d).
Reg emit_vdiv(Kernel& k, Reg n, uint32_t d, const char* name, const SConst& magic);
// A new VGPR `name` = x * c (wrapping).
Reg emit_vmul(Kernel& k, Reg x, uint32_t c, const char* name, const SConst& sconst);
// A new VGPR `name` = n - q * d: the remainder of n / d given its quotient q. `small`: q and d
// are below 2^24, so the product is one v_mul_u32_u24 with d inline (no SGPR constant).
Reg emit_vrem(Kernel& k, Reg n, Reg q, uint32_t d, const char* name, const SConst& sconst, bool small = false);

}  // namespace cdnajit::codegen
