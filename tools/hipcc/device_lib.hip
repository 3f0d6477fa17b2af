// cdnajit-hipcc's device library: the functions ROCm's device libraries
// (ockl, ocml, irif) would supply to a HIP program compiled against Debian's
// ROCm 5.2 headers, which declare them; Debian's device libraries predate
// gfx942/gfx950. cdnajit-hipcc compiles this file to bitcode for each target
// and links it into every device compile (-mlink-builtin-bitcode), so only the
// functions a kernel calls are kept. A call to any other ockl/ocml function
// fails at the device link ("undefined hidden symbol: __ocml_..."); see
// cdnajit-hipcc --help.
//
// Accuracy: the f32 transcendental functions here use the hardware
// approximations (v_sin/v_cos/v_exp/v_log after scaling, as LLVM lowers the
// llvm.sin/cos/exp2/log2 intrinsics); ocml reduces large arguments first and is
// more accurate. Device printf and assert are not supported: they trap.
#include <hip/hip_runtime.h>

#define LIB extern "C" __device__

// Work-item functions (OpenCL semantics; HIP grids are uniform, so the local size is the
// workgroup size). The number of workgroups per dimension is the code object v5 hidden
// argument hidden_block_count_{x,y,z}, the first three u32 of the implicit arguments.
LIB size_t __ockl_get_local_id(uint d) {
  return d == 0 ? __builtin_amdgcn_workitem_id_x() : d == 1 ? __builtin_amdgcn_workitem_id_y()
                                                 : d == 2 ? __builtin_amdgcn_workitem_id_z() : 0;
}
LIB size_t __ockl_get_group_id(uint d) {
  return d == 0 ? __builtin_amdgcn_workgroup_id_x() : d == 1 ? __builtin_amdgcn_workgroup_id_y()
                                                  : d == 2 ? __builtin_amdgcn_workgroup_id_z() : 0;
}
LIB size_t __ockl_get_local_size(uint d) {
  return d == 0 ? __builtin_amdgcn_workgroup_size_x() : d == 1 ? __builtin_amdgcn_workgroup_size_y()
                                                    : d == 2 ? __builtin_amdgcn_workgroup_size_z() : 1;
}
LIB size_t __ockl_get_num_groups(uint d) {
  return d < 3 ? static_cast<const uint*>(__builtin_amdgcn_implicitarg_ptr())[d] : 1;
}
LIB size_t __ockl_get_global_size(uint d) { return __ockl_get_num_groups(d) * __ockl_get_local_size(d); }
LIB size_t __ockl_get_global_id(uint d) {
  return __ockl_get_group_id(d) * __ockl_get_local_size(d) + __ockl_get_local_id(d);
}

// Fences: the OpenCL memory order and scope as a fence at that scope.
LIB void __atomic_work_item_fence(__cl_mem_fence_flags, __memory_order order, __memory_scope scope) {
#define FENCE(o)                                                             \
  if (scope == __memory_scope_work_group) __builtin_amdgcn_fence(o, "workgroup"); \
  else if (scope == __memory_scope_sub_group || scope == __memory_scope_work_item) __builtin_amdgcn_fence(o, "wavefront"); \
  else if (scope == __memory_scope_device) __builtin_amdgcn_fence(o, "agent");   \
  else __builtin_amdgcn_fence(o, "");
  if (order == __memory_order_acquire) { FENCE(__ATOMIC_ACQUIRE) }
  else if (order == __memory_order_release) { FENCE(__ATOMIC_RELEASE) }
  else if (order == __memory_order_acq_rel) { FENCE(__ATOMIC_ACQ_REL) }
  else if (order == __memory_order_seq_cst) { FENCE(__ATOMIC_SEQ_CST) }
#undef FENCE
}

// Wave-level helpers.
LIB uint __ockl_lane_u32() { return __builtin_amdgcn_mbcnt_hi(~0u, __builtin_amdgcn_mbcnt_lo(~0u, 0u)); }
LIB uint __ockl_activelane_u32() {
  const uint64_t active = __builtin_amdgcn_read_exec();
  return __builtin_amdgcn_mbcnt_hi(uint(active >> 32), __builtin_amdgcn_mbcnt_lo(uint(active), 0u));
}
LIB bool __ockl_wfany_i32(int x) { return __builtin_amdgcn_ballot_w64(x != 0) != 0; }
LIB bool __ockl_wfall_i32(int x) { return __builtin_amdgcn_ballot_w64(x != 0) == __builtin_amdgcn_read_exec(); }

// Integer helpers.
LIB uint __ockl_clz_u32(uint x) { return x ? __builtin_clz(x) : 32; }
LIB uint64_t __ockl_clz_u64(uint64_t x) { return x ? __builtin_clzll(x) : 64; }
LIB uint __ockl_mul24_u32(uint a, uint b) { return (a & 0xffffffu) * (b & 0xffffffu); }
LIB int __ockl_mul24_i32(int a, int b) { return ((a << 8) >> 8) * ((b << 8) >> 8); }
LIB uint __ockl_mul_hi_u32(uint a, uint b) { return uint((uint64_t(a) * b) >> 32); }
LIB int __ockl_mul_hi_i32(int a, int b) { return int((int64_t(a) * b) >> 32); }
LIB uint __ockl_sadd_u32(uint a, uint b, uint c) {
  const uint d = a > b ? a - b : b - a;
  return d + c;
}

// f32 math.
LIB float __ocml_sin_f32(float x) { return __builtin_sinf(x); }
LIB float __ocml_cos_f32(float x) { return __builtin_cosf(x); }
LIB float __ocml_tan_f32(float x) { return __builtin_sinf(x) / __builtin_cosf(x); }
LIB float __ocml_rsqrt_f32(float x) { return __builtin_amdgcn_rsqf(x); }
LIB double __ocml_rsqrt_f64(double x) { return 1.0 / __builtin_sqrt(x); }
LIB float __ocml_exp10_f32(float x) { return __builtin_exp2f(x * 3.321928094887362f); }
LIB float __ocml_log10_f32(float x) { return __builtin_log2f(x) * 0.3010299956639812f; }
LIB float __ocml_tanh_f32(float x) {
  const float e = __builtin_expf(-2.0f * __builtin_fabsf(x));
  return __builtin_copysignf((1.0f - e) / (1.0f + e), x);
}
// x^y for x > 0, x == 0 and integral y (sign of an odd power kept); NaN for x < 0 and non-integral y.
LIB float __ocml_pow_f32(float x, float y) {
  if (y == 0.0f) return 1.0f;
  const float r = __builtin_exp2f(y * __builtin_log2f(__builtin_fabsf(x)));
  if (x >= 0.0f) return r;
  if (__builtin_truncf(y) != y) return __builtin_nanf("");
  const bool odd = __builtin_fmodf(__builtin_fabsf(y), 2.0f) == 1.0f;
  return odd ? -r : r;
}
LIB float __ocml_native_sin_f32(float x) { return __builtin_sinf(x); }
LIB float __ocml_native_cos_f32(float x) { return __builtin_cosf(x); }

// Device printf / assert: the simulator has no host-call buffer; the kernel traps.
LIB uint64_t __ockl_fprintf_stderr_begin() { __builtin_trap(); }
LIB uint64_t __ockl_fprintf_append_string_n(uint64_t, const char*, uint64_t, uint32_t) { __builtin_trap(); }
LIB uint64_t __ockl_fprintf_append_args(uint64_t, uint32_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t,
                                        uint64_t, uint64_t, uint32_t) {
  __builtin_trap();
}
