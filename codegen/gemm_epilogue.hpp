// The activation step of the MFMA GEMM's epilogue (GemmActivation, constants in gemm_config.hpp),
// shared by the GEMM kernel (gemm.cpp) and the split-K reduction / stream-K fix-up kernels
// (gemm_split_k.cpp), so all three apply the same instructions in the same order as the HIP
// reference's act() (codegen/hip/gemm_mfma.hip).
#pragma once
#include <bit>
#include <cstdint>

#include "codegen/dsl_emitter.hpp"
#include "codegen/gemm_config.hpp"
#include "jit/kernel.hpp"

namespace cdnajit::codegen {

// Constants of the smooth activations: SGPRs, and gelu_tanh's A in a VGPR (a VOP3 reads one SGPR
// on gfx9).
struct GemmActivationConsts {
  Reg scale, gelu_a, gelu_b;
};

inline GemmActivationConsts gemm_activation_consts(Kernel& k, DslEmitter& e, GemmActivation act) {
  GemmActivationConsts c;
  if (act == GemmActivation::silu) c.scale = e.sconst(std::bit_cast<uint32_t>(kSiluScale), "silu_scale");
  if (act == GemmActivation::gelu_tanh) {
    c.gelu_b = e.sconst(std::bit_cast<uint32_t>(kGeluTanhB), "gelu_b");
    c.gelu_a = k.vgpr("gelu_a");
    k.v_mov_b32(c.gelu_a, int64_t(std::bit_cast<uint32_t>(kGeluTanhA)));
  }
  return c;
}

// The activation of fp32 `v`, in place: relu = max(v, 0); silu and gelu_tanh = x * rcp(1 + exp2(z)).
inline void gemm_activation(Kernel& k, GemmActivation act, Reg v, const GemmActivationConsts& c) {
  if (act == GemmActivation::none) return;
  if (act == GemmActivation::relu) return k.v_max_f32(v, 0.0f, v);
  Reg z = k.vgpr("act_z");
  if (act == GemmActivation::silu) {
    k.v_mul_f32(z, c.scale, v);  // z = x * -log2(e)
  } else {
    k.v_mul_f32(z, v, v);                  // x^2
    k.v_fma_f32(z, z, c.gelu_b, c.gelu_a);  // s = x^2 * B + A
    k.v_mul_f32(z, v, z);                  // z = x * s
  }
  k.v_exp_f32(z, z);        // exp2(z)
  k.v_add_f32(z, 1.0f, z);  // 1 + exp2(z)
  k.v_rcp_f32(z, z);
  k.v_mul_f32(v, v, z);  // x * sigmoid
}

}  // namespace cdnajit::codegen
