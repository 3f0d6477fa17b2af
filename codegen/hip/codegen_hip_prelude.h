// Prepended to the codegen HIP sources (replacing their #include line) after
// the runtime's device header. Provides the bf16 output conversion.

// fp32 -> bf16 bits, round to nearest even (clang lowers the __bf16 conversion to
// v_cvt_pk_bf16_f32 on gfx950 and to the integer rounding sequence on gfx942).
__device__ inline unsigned short to_bf16_bits(float f) { return __builtin_bit_cast(unsigned short, (__bf16)f); }

// Hides a value's range from the optimiser (no instruction is emitted). The
// references pass thread-derived indices through it so clang keeps their
// integer math in 32-bit instructions instead of narrowing it to 16-bit ones
// (v_cmp_*_u16, v_bitop3_b16, ...), which the simulator does not model yet.
// Only integer index math is affected, never the floating-point arithmetic.
template <class T>
__device__ inline T opaque(T v) {
  asm volatile("" : "+v"(v));
  return v;
}
