// The HIP C++ reference kernels (codegen/hip/*.hip), embedded into the library
// at build time so tests and tools can compile them at run time with
// cdnajit::compile_hip(source, arch, flags) (runtime/hip_source.hpp): each
// family's source text and the -D flags that fix a plan's shape and configuration.
// Running them on a device is the jobs' part (tools/jobs/*_host.hpp).
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "codegen/conv3d_igemm_config.hpp"
#include "codegen/conv_bwd_weight.hpp"
#include "codegen/dwconv3d_shape.hpp"
#include "codegen/gemm_config.hpp"
#include "codegen/gemm_mx.hpp"

namespace cdnajit::codegen {

enum class HipReference : uint8_t {
  v97,    // dwconv3d_v97.hip: the V97 design, same arithmetic as the JIT lds_fmac kernel
  naive,  // dwconv3d_naive.hip: one thread per output straight from global memory
  v97_sgb,  // dwconv3d_v97_sgb.hip: V97 row by row with sched_group_barrier (seed V97-sgb); V97's bits
};
// Every reference, for code that iterates them (report, tests).
inline constexpr HipReference kHipReferences[] = {HipReference::v97, HipReference::naive, HipReference::v97_sgb};
// The seed kernel a reference reproduces ("V97-origin", "naive", "V97-sgb").
const char* dwconv3d_hip_seed_kernel(HipReference r);
// True for the references with V97's structure (one workgroup per (n, c, d_out), fmac order).
bool dwconv3d_hip_is_v97_family(HipReference r);

// `source` with each codegen/hip header it includes (#include "codegen_hip_prelude.h",
// "dwconv3d_v97_common.h") replaced by the header's embedded text: the sources compile from
// memory, with no include path. Every HIP reference's source text goes through this.
std::string inline_codegen_headers(std::string_view source);

// Full source text (the codegen headers inlined in place of their #include).
std::string dwconv3d_hip_source(HipReference r);
// Extra compiler flags: the shape as -DDW_* macros, plus -fno-slp-vectorize for
// the V97 references (keeps clang's code in V97's one-v_fmac-per-tap form
// instead of packing the two outputs into v_pk_fma_f32; the bits are the same).
std::vector<std::string> dwconv3d_hip_flags(const DwConvShape& s, HipReference r);
// Kernel symbol ("dwconv3d_v97" / "dwconv3d_naive" / "dwconv3d_v97_sgb").
const char* dwconv3d_hip_kernel_name(HipReference r);
// Workgroups of 256 threads: N*C*D_out for v97 and v97_sgb, ceil(outputs / 256) for naive.
uint32_t dwconv3d_hip_grid(const DwConvShape& s, HipReference r);

// The MFMA GEMM's reference (same MFMA builtins, same K order as the JIT kernel).
std::string gemm_hip_source();  // codegen/hip/gemm_mfma.hip
std::vector<std::string> gemm_hip_flags(const GemmPlan& p);

// The MX-scaled GEMM's reference.
std::string gemm_mx_hip_source();  // codegen/hip/gemm_mx.hip
std::vector<std::string> gemm_mx_hip_flags(const GemmMxPlan& p);

// The implicit-GEMM conv3d's references: MFMA (same builtins and order as the JIT kernel) and plain direct.
std::string conv3d_igemm_hip_source();   // codegen/hip/conv3d_igemm_mfma.hip
std::string conv3d_direct_hip_source();  // codegen/hip/conv3d_direct.hip
std::vector<std::string> conv3d_hip_flags(const Conv3dPlan& p);

// HIP-source reference (codegen/hip/conv_bwd_weight_mfma.hip): one wave per 16x16 block,
// fragments straight from global memory, the same MFMA k-steps in the same order.
std::string bwd_weight_hip_source();
// With cfg.splits > 1 the MFMA reference sums per-split chains like the atomics do: 0 + s0 + s1 ...
std::vector<std::string> bwd_weight_hip_flags(const BwdWeightShape& s, Arch arch, const BwdWeightConfig& cfg = {});
inline constexpr const char* kBwdWeightHipKernelName = "conv_bwd_weight_ref";
Dim3 bwd_weight_hip_grid(const BwdWeightShape& s);  // (ceil(YXC/16), ceil(K/16), G) of 64 threads

// Plain HIP-source reference for accuracy (codegen/hip/conv_bwd_weight_plain.hip): one thread per
// dW element, fp32 fma over the pixels in order, fp32 dW; same flags as the MFMA reference.
std::string bwd_weight_plain_hip_source();
inline constexpr const char* kBwdWeightPlainKernelName = "conv_bwd_weight_plain";
Dim3 bwd_weight_plain_grid(const BwdWeightShape& s);  // ceil(dW elements / 256) of 256 threads

}  // namespace cdnajit::codegen
