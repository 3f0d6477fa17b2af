// Prepended to the codegen HIP sources (replacing their #include line) after
// the runtime's device header. Provides the bf16 output conversion.

// fp32 -> bf16 bits, round to nearest even (clang lowers the __bf16 conversion to
// v_cvt_pk_bf16_f32 on gfx950 and to the integer rounding sequence on gfx942).
__device__ inline unsigned short to_bf16_bits(float f) { return __builtin_bit_cast(unsigned short, (__bf16)f); }
