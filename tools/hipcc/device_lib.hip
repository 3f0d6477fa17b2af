// cdnajit-hipcc's device library: the ockl and irif functions ROCm's device
// libraries would supply to a HIP program compiled against Debian's ROCm 5.2
// headers, which declare them. The math functions (ocml) come from ROCm's own
// ocml.bc (Debian's rocm-device-libs), which cdnajit-hipcc links as well; that
// package's ockl.bc is not linked (the functions below are all the headers
// call, and this project's tests check them). cdnajit-hipcc compiles this file to bitcode for
// each target and links it into every device compile (-mlink-builtin-bitcode),
// so only the functions a kernel calls are kept. A call to any other ockl
// function fails at the device link ("undefined hidden symbol: __ockl_...");
// see cdnajit-hipcc --help. Device printf and assert are not supported: they trap.
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

// Workgroup reductions (__syncthreads_count / _and / _or): a barrier with __syncthreads' fence,
// then every work-item's value added into one LDS word. The barriers around the word keep a
// second call from resetting it while a wave still reads the first result.
__device__ static int wgred_add(int x) {
  __shared__ int sum;
  const bool first = __ockl_get_local_id(0) == 0 && __ockl_get_local_id(1) == 0 && __ockl_get_local_id(2) == 0;
  __syncthreads();
  if (first) sum = 0;
  __syncthreads();
  __hip_atomic_fetch_add(&sum, x, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_WORKGROUP);
  __syncthreads();
  const int r = sum;
  __syncthreads();
  return r;
}
LIB int __ockl_wgred_add_i32(int x) { return wgred_add(x); }
LIB int __ockl_wgred_and_i32(int x) { return wgred_add(x == 0) == 0; }
LIB int __ockl_wgred_or_i32(int x) { return wgred_add(x != 0) != 0; }

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

// Device printf / assert: the simulator has no host-call buffer; the kernel traps.
LIB uint64_t __ockl_fprintf_stderr_begin() { __builtin_trap(); }
LIB uint64_t __ockl_fprintf_append_string_n(uint64_t, const char*, uint64_t, uint32_t) { __builtin_trap(); }
LIB uint64_t __ockl_fprintf_append_args(uint64_t, uint32_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t,
                                        uint64_t, uint64_t, uint32_t) {
  __builtin_trap();
}
