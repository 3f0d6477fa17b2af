// Kernel attributes and occupancy, from the code object's descriptor and the
// project's occupancy arithmetic (jit/regalloc: registers, LDS, workgroup slots).
#include <algorithm>

#include "jit/isa/error.hpp"
#include "jit/isa/target.hpp"
#include "jit/regalloc/regalloc.hpp"
#include "runtime/hip_sim/runtime.hpp"

namespace cdnajit::hip_sim {
namespace {

namespace target = isa::target;

// Workgroups of `block` work-items resident per CU, as the timing model counts them
// (runtime/model/launch_model.cpp, plan_launch: workgroup_slots). 0 when it cannot run.
int blocks_per_cu(Arch arch, const KernelInfo& k, int block, size_t dynamic_lds) {
  if (block <= 0 || block > int(target::kMaxWorkgroupSize)) return 0;
  // The descriptor's SGPR count includes the 6 that regalloc::occupancy adds itself.
  const int sgprs = std::max(0, int(k.sgpr_count) - target::kReservedSgprs);
  try {
    const auto occ = regalloc::occupancy(arch, int(architectural_vgprs(k)), int(k.agpr_count), sgprs,
                                         uint32_t(k.group_segment_size + dynamic_lds), uint32_t(block));
    const int waves = (block + target::kWaveSize - 1) / target::kWaveSize;
    return std::min(occ.waves_per_simd * target::kSimdsPerCu / waves, occ.workgroups_per_cu_lds);
  } catch (const Error&) {
    return 0;  // the LDS does not fit
  }
}

// What hipFuncGetAttributes / hipFuncGetAttribute report, from the descriptor.
hipFuncAttributes attributes_of(Arch arch, const KernelInfo& k) {
  hipFuncAttributes a{};
  a.localSizeBytes = k.private_segment_size;
  a.sharedSizeBytes = k.group_segment_size;
  a.maxDynamicSharedSizeBytes = int(target::lds_bytes(arch) - k.group_segment_size);
  a.maxThreadsPerBlock = int(k.max_flat_workgroup_size ? k.max_flat_workgroup_size : target::kMaxWorkgroupSize);
  a.numRegs = int(architectural_vgprs(k));
  return a;
}

hipError_t kernel_of(Runtime& rt, const void* f, const KernelInfo** k, const char* api) {
  const ihipModuleSymbol_t* s = nullptr;
  if (hipError_t e = rt.host_function(f, &s, api); e != hipSuccess) return e;
  *k = s->kernel;
  return hipSuccess;
}

hipError_t max_active(Runtime& rt, int* n, const KernelInfo& k, int block, size_t lds, const char* api) {
  if (!n) return rt.fail(hipErrorInvalidValue, api, "null pointer");
  if (block <= 0) return rt.fail(hipErrorInvalidValue, api, "block size " + std::to_string(block));
  *n = blocks_per_cu(rt.config().arch, k, block, lds);
  return hipSuccess;
}

// The block size (a multiple of 64 up to the kernel's limit) with the most resident
// work-items per CU, the largest such on ties; grid = that many blocks on every CU.
hipError_t potential(Runtime& rt, int* grid, int* block, const KernelInfo& k, size_t lds, int limit, const char* api) {
  if (!grid || !block) return rt.fail(hipErrorInvalidValue, api, "null pointer");
  int max_block = int(k.max_flat_workgroup_size ? k.max_flat_workgroup_size : target::kMaxWorkgroupSize);
  if (limit > 0) max_block = std::min(max_block, limit);
  int best = 0, best_blocks = 0;
  for (int b = target::kWaveSize; b <= max_block; b += target::kWaveSize) {
    const int n = blocks_per_cu(rt.config().arch, k, b, lds);
    if (n > 0 && n * b >= best * best_blocks) best = b, best_blocks = n;
  }
  if (best == 0) return rt.fail(hipErrorInvalidValue, api, "no block size lets kernel '" + k.name + "' run");
  const auto& hw = rt.config().hw ? *rt.config().hw : model::default_product(rt.config().arch);
  *block = best;
  *grid = best_blocks * hw.cus;
  return hipSuccess;
}

}  // namespace
}  // namespace cdnajit::hip_sim

using namespace cdnajit::hip_sim;

extern "C" {

hipError_t hipFuncGetAttributes(hipFuncAttributes* attr, const void* func) {
  HIP_SIM_ENTER();
  if (!attr) return rt.fail(hipErrorInvalidValue, "hipFuncGetAttributes", "null pointer");
  const cdnajit::KernelInfo* k = nullptr;
  if (hipError_t e = kernel_of(rt, func, &k, "hipFuncGetAttributes"); e != hipSuccess) return e;
  *attr = attributes_of(rt.config().arch, *k);
  return hipSuccess;
}

// The same for a module's kernel, one attribute at a time.
hipError_t hipFuncGetAttribute(int* value, hipFunction_attribute attrib, hipFunction_t f) {
  HIP_SIM_ENTER();
  const char* api = "hipFuncGetAttribute";
  if (!value) return rt.fail(hipErrorInvalidValue, api, "null pointer");
  if (!is_owned(rt.module_functions, f)) return rt.fail(hipErrorInvalidHandle, api, "unknown function (not from hipModuleGetFunction)");
  const hipFuncAttributes a = attributes_of(rt.config().arch, *f->kernel);
  switch (attrib) {
    case HIP_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK: *value = a.maxThreadsPerBlock; break;
    case HIP_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES: *value = int(a.sharedSizeBytes); break;
    case HIP_FUNC_ATTRIBUTE_CONST_SIZE_BYTES: *value = int(a.constSizeBytes); break;
    case HIP_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES: *value = int(a.localSizeBytes); break;
    case HIP_FUNC_ATTRIBUTE_NUM_REGS: *value = a.numRegs; break;
    case HIP_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES: *value = a.maxDynamicSharedSizeBytes; break;
    default: return rt.fail(hipErrorNotSupported, api, "attribute " + std::to_string(int(attrib)));
  }
  return hipSuccess;
}

hipError_t hipFuncSetAttribute(const void* func, hipFuncAttribute attr, int value) {
  HIP_SIM_ENTER();
  const cdnajit::KernelInfo* k = nullptr;
  if (hipError_t e = kernel_of(rt, func, &k, "hipFuncSetAttribute"); e != hipSuccess) return e;
  if (attr == hipFuncAttributeMaxDynamicSharedMemorySize) {
    const int room = int(cdnajit::isa::target::lds_bytes(rt.config().arch) - k->group_segment_size);
    if (value < 0 || value > room)
      return rt.fail(hipErrorInvalidValue, "hipFuncSetAttribute",
                     "dynamic LDS of " + std::to_string(value) + " bytes; valid is 0.." + std::to_string(room));
    return hipSuccess;  // every launch may use up to the CU's LDS anyway
  }
  if (attr == hipFuncAttributePreferredSharedMemoryCarveout) return hipSuccess;  // no carve-out on CDNA
  return rt.fail(hipErrorNotSupported, "hipFuncSetAttribute", "attribute " + std::to_string(int(attr)));
}

// Cache preferences change nothing on CDNA (ROCm accepts and ignores them too).
hipError_t hipFuncSetCacheConfig(const void* func, hipFuncCache_t) {
  HIP_SIM_ENTER();
  const cdnajit::KernelInfo* k = nullptr;
  return kernel_of(rt, func, &k, "hipFuncSetCacheConfig");
}
hipError_t hipFuncSetSharedMemConfig(const void* func, hipSharedMemConfig) {
  HIP_SIM_ENTER();
  const cdnajit::KernelInfo* k = nullptr;
  return kernel_of(rt, func, &k, "hipFuncSetSharedMemConfig");
}

hipError_t hipOccupancyMaxActiveBlocksPerMultiprocessor(int* n, const void* f, int block, size_t lds) {
  HIP_SIM_ENTER();
  const cdnajit::KernelInfo* k = nullptr;
  if (hipError_t e = kernel_of(rt, f, &k, "hipOccupancyMaxActiveBlocksPerMultiprocessor"); e != hipSuccess) return e;
  return max_active(rt, n, *k, block, lds, "hipOccupancyMaxActiveBlocksPerMultiprocessor");
}
hipError_t hipOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int* n, const void* f, int block, size_t lds,
                                                                 unsigned int) {
  HIP_SIM_ENTER();
  const cdnajit::KernelInfo* k = nullptr;
  const char* api = "hipOccupancyMaxActiveBlocksPerMultiprocessorWithFlags";
  if (hipError_t e = kernel_of(rt, f, &k, api); e != hipSuccess) return e;
  return max_active(rt, n, *k, block, lds, api);
}
hipError_t hipModuleOccupancyMaxActiveBlocksPerMultiprocessor(int* n, hipFunction_t f, int block, size_t lds) {
  HIP_SIM_ENTER();
  if (!f) return rt.fail(hipErrorInvalidHandle, "hipModuleOccupancyMaxActiveBlocksPerMultiprocessor", "null function");
  return max_active(rt, n, *f->kernel, block, lds, "hipModuleOccupancyMaxActiveBlocksPerMultiprocessor");
}
hipError_t hipOccupancyMaxPotentialBlockSize(int* grid, int* block, const void* f, size_t lds, int limit) {
  HIP_SIM_ENTER();
  const cdnajit::KernelInfo* k = nullptr;
  if (hipError_t e = kernel_of(rt, f, &k, "hipOccupancyMaxPotentialBlockSize"); e != hipSuccess) return e;
  return potential(rt, grid, block, *k, lds, limit, "hipOccupancyMaxPotentialBlockSize");
}
hipError_t hipModuleOccupancyMaxPotentialBlockSize(int* grid, int* block, hipFunction_t f, size_t lds, int limit) {
  HIP_SIM_ENTER();
  if (!f) return rt.fail(hipErrorInvalidHandle, "hipModuleOccupancyMaxPotentialBlockSize", "null function");
  return potential(rt, grid, block, *f->kernel, lds, limit, "hipModuleOccupancyMaxPotentialBlockSize");
}

}  // extern "C"
