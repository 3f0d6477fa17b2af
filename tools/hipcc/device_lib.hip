// cdnajit-hipcc's device library: the ockl and irif functions ROCm's device
// libraries would supply to a HIP program compiled against Debian's ROCm 5.2
// headers, which declare them. The math functions (ocml) come from ROCm's own
// ocml.bc (Debian's rocm-device-libs), which cdnajit-hipcc links as well; that
// package's ockl.bc is not linked (the functions below are all the headers
// call, and this project's tests check them). cdnajit-hipcc compiles this file to bitcode for
// each target and links it into every device compile (-mlink-builtin-bitcode),
// so only the functions a kernel calls are kept. A call to any other ockl
// function fails at the device link ("undefined hidden symbol: __ockl_...");
// see cdnajit-hipcc --help. Device printf is buffered and assert() prints through it (below).
// ROCm 5.2's header defines a weak __assert_fail that prints through the hostcall functions
// (__ockl_fprintf_*), which need a host thread serving the GPU's calls; renamed out of the way
// here (as cdnajit-hipcc's compat header renames it in every program, which then links this
// library's own, below).
#define __assert_fail __cdnajit_hipcc_rocm52_assert_fail
#include <hip/hip_runtime.h>
#undef __assert_fail

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

// Cooperative groups' grid.sync() and grid.is_valid() (hip_cooperative_groups_helper.h). A
// cooperative launch (hipLaunchCooperativeKernel) gives the kernel a zeroed grid-sync word pair in
// the code object v5 hidden argument hidden_multigrid_sync_arg, 88 bytes into the implicit
// arguments (LLVM AMDGPUUsage, "Code Object V5 Metadata"); any other launch gives 0 there. The
// layout is this library's and the drop-in runtime's (runtime/hip_sim/runtime.cpp): {arrived,
// generation}. The last workgroup to arrive resets `arrived` and advances `generation`, which the
// others wait for, so the pair serves every sync of the launch. The runtime admits a cooperative
// grid only when all its workgroups can be resident at once, so the waiting ones never hold a CU
// a missing one needs.
__device__ static uint* grid_sync_words() {
  return static_cast<uint* const*>(__builtin_amdgcn_implicitarg_ptr())[11];
}
LIB int __ockl_grid_is_valid() { return grid_sync_words() != nullptr; }
LIB void __ockl_grid_sync() {
  uint* const words = grid_sync_words();
  if (!words) __builtin_trap();  // grid.sync() in a kernel not launched cooperatively
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "agent");  // this workgroup's writes before its arrival
  __syncthreads();
  if (__ockl_get_local_id(0) == 0 && __ockl_get_local_id(1) == 0 && __ockl_get_local_id(2) == 0) {
    const uint groups = uint(__ockl_get_num_groups(0) * __ockl_get_num_groups(1) * __ockl_get_num_groups(2));
    const uint generation = __hip_atomic_load(words + 1, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT);
    if (__hip_atomic_fetch_add(words, 1u, __ATOMIC_ACQ_REL, __HIP_MEMORY_SCOPE_AGENT) == groups - 1) {
      __hip_atomic_store(words, 0u, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT);
      __hip_atomic_fetch_add(words + 1, 1u, __ATOMIC_RELEASE, __HIP_MEMORY_SCOPE_AGENT);
    } else {
      while (__hip_atomic_load(words + 1, __ATOMIC_ACQUIRE, __HIP_MEMORY_SCOPE_AGENT) == generation)
        __builtin_amdgcn_s_sleep(1);
    }
  }
  __syncthreads();
  __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "agent");  // the other workgroups' writes after the sync
}

// Device printf, buffered (cdnajit-hipcc compiles with -mprintf-kind=buffered): clang lowers each
// printf to a frame of `bytes` from here, in the launch's printf buffer, whose layout
// runtime/device_printf.hpp states (a 16-byte header: used, capacity, dropped; then the frames).
// Null when the buffer is full (the call is counted as dropped) or the launch gave none. The
// buffer's address is the code object v5 hidden argument hidden_printf_buffer, 72 bytes into the
// implicit arguments (LLVM AMDGPUUsage, "Code Object V5 Metadata").
typedef __attribute__((address_space(1))) char global_char;
LIB global_char* __printf_alloc(uint bytes) {
  global_char* const base = static_cast<global_char* const*>(__builtin_amdgcn_implicitarg_ptr())[9];
  if (!base) return nullptr;
  uint* const header = (uint*)(char*)base;  // used, capacity, dropped
  const uint capacity = header[1];
  uint used = __hip_atomic_load(header, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT);
  for (;;) {
    if (bytes > capacity || used > capacity - bytes) {
      __hip_atomic_fetch_add(header + 2, 1u, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT);
      return nullptr;
    }
    if (__hip_atomic_compare_exchange_weak(header, &used, used + bytes, __ATOMIC_RELAXED, __ATOMIC_RELAXED,
                                           __HIP_MEMORY_SCOPE_AGENT))
      return base + 16 + used;
  }
}

// assert(): ROCm's message, printed through the printf buffer, then the trap that ends the launch
// (the runtime prints the buffer, then reports the launch failure).
extern "C" __device__ __attribute__((always_inline)) void __assert_fail(const char* assertion, const char* file,
                                                                    unsigned int line, const char* function) {
  printf("%s:%u: %s: Device-side assertion `%s' failed.\n", file, line, function, assertion);
  __builtin_trap();
}

// The hostcall printf functions: not served (no host thread answers the GPU's calls); nothing in
// ROCm 5.2's headers calls them once __assert_fail is this library's; a kernel that does traps.
LIB uint64_t __ockl_fprintf_stderr_begin() { __builtin_trap(); }
LIB uint64_t __ockl_fprintf_append_string_n(uint64_t, const char*, uint64_t, uint32_t) { __builtin_trap(); }
LIB uint64_t __ockl_fprintf_append_args(uint64_t, uint32_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t,
                                        uint64_t, uint64_t, uint32_t) {
  __builtin_trap();
}
