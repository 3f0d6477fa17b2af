// The two example kernels of the JIT core: f32 vector add and a bf16 dot-product
// micro-kernel (v_dot2_f32_bf16 on gfx950, bf16 unpacking + v_fmac_f32 on gfx942).
#pragma once
#include <cstdint>

#include "jit/kernel.hpp"

namespace cdnajit::examples {

// out[i] = a[i] + b[i] for i < n. Arguments: (const float* a, const float* b, float* out, u32 n).
// Launch: workgroups = ceil(n / 256), 256 threads.
void define_vector_add(Kernel& k);

// out[i] = Σ_j a[i*8 + j] * b[i*8 + j] (8 bf16 per thread, f32 accumulation in pair order).
// Arguments: (const bf16* a, const bf16* b, float* out, u32 n). Launch: ceil(n / 256) x 256.
// gfx950: acc = dot2(a.pair[p], b.pair[p], acc) for p = 0..3.
// gfx942: acc = fma(a.lo, b.lo, acc); acc = fma(a.hi, b.hi, acc) for p = 0..3.
void define_bf16_dot(Kernel& k);

constexpr uint32_t kDotElemsPerThread = 8;

// Names accepted by `cdnajit dump/build/stats --kernel`.
bool define_builtin(Kernel& k, std::string_view name);
inline constexpr const char* kBuiltinNames[] = {"vector_add", "bf16_dot"};

}  // namespace cdnajit::examples
