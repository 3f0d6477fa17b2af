// Device enumeration and properties: one device, the simulator of the chosen
// product (CDNAJIT_HIP_DEVICE, CDNAJIT_HIP_MODEL). Product figures come from the
// timing model's description (runtime/model/hardware.hpp), target figures from
// jit/isa/target.hpp; what neither describes is stated where it is set.
#include <unistd.h>

#include <algorithm>
#include <climits>
#include <cstring>

#include "jit/isa/target.hpp"
#include "runtime/hip_sim/runtime.hpp"

namespace cdnajit::hip_sim {
namespace {

namespace target = isa::target;

// HBM interface width of both products: 8 stacks of 1024 bits (AMD's MI300X and MI355X data
// sheets). Only used to state memoryClockRate so that 2 x clock x width / 8 is the model's
// peak HBM bandwidth, which is how HIP programs compute a peak from these two fields.
constexpr int kHbmBusBits = 8192;

size_t host_memory_bytes() { return size_t(sysconf(_SC_PHYS_PAGES)) * size_t(sysconf(_SC_PAGE_SIZE)); }

// The product whose figures the device shows: the model's, else (model off) the arch's default.

hipDeviceProp_t properties(const Config& c) {
  const model::Hardware& hw = c.shown_product();
  hipDeviceProp_t p;
  std::memset(&p, 0, sizeof p);
  std::snprintf(p.name, sizeof p.name, "%s (cdnajit simulator)", hw.product.c_str());
  std::snprintf(p.gcnArchName, sizeof p.gcnArchName, "%s:sramecc+:xnack-", std::string(arch_name(c.arch)).c_str());
  p.gcnArch = c.arch == Arch::gfx950 ? 950 : 942;
  p.major = 9;
  p.minor = c.arch == Arch::gfx950 ? 5 : 4;
  // Simulated memory lives in host memory: that is what the device can hold.
  p.totalGlobalMem = host_memory_bytes();
  p.sharedMemPerBlock = target::lds_bytes(c.arch);
  p.maxSharedMemoryPerMultiProcessor = target::lds_bytes(c.arch);
  p.regsPerBlock = target::kUnifiedVectorRegs * target::kWaveSize * target::kSimdsPerCu;
  p.warpSize = target::kWaveSize;
  p.maxThreadsPerBlock = int(target::kMaxWorkgroupSize);
  for (int& d : p.maxThreadsDim) d = int(target::kMaxWorkgroupSize);
  for (int& d : p.maxGridSize) d = INT_MAX;
  p.clockRate = int(hw.peak_clock_ghz * 1e6);  // kHz
  // The simulator's s_memtime counts shader cycles (runtime/sim/README.md, Clock).
  p.clockInstructionRate = p.clockRate;
  p.memoryBusWidth = kHbmBusBits;
  p.memoryClockRate = int(hw.hbm_tbps * 1e12 / (2.0 * kHbmBusBits / 8) / 1e3);  // kHz
  p.multiProcessorCount = hw.cus;
  p.maxThreadsPerMultiProcessor = target::kMaxWavesPerSimd * target::kSimdsPerCu * target::kWaveSize;
  p.l2CacheSize = int(hw.l2_bytes);  // one XCD's L2, from the product description
  p.concurrentKernels = 0;    // kernels run one after another
  p.canMapHostMemory = 1;     // hipHostMalloc memory is visible to kernels
  p.managedMemory = 1;        // hipMallocManaged is host memory visible to kernels
  p.directManagedMemAccessFromHost = 1;
  p.arch.hasGlobalInt32Atomics = p.arch.hasGlobalFloatAtomicExch = p.arch.hasSharedInt32Atomics = 1;
  p.arch.hasSharedFloatAtomicExch = p.arch.hasFloatAtomicAdd = p.arch.hasGlobalInt64Atomics = 1;
  p.arch.hasSharedInt64Atomics = p.arch.hasDoubles = p.arch.hasWarpVote = p.arch.hasWarpBallot = 1;
  p.arch.hasWarpShuffle = p.arch.hasFunnelShift = p.arch.hasThreadFenceSystem = p.arch.hasSyncThreadsExt = 1;
  p.arch.has3dGrid = 1;
  p.cooperativeLaunch = 1;  // hipLaunchCooperativeKernel: grids whose workgroups are all resident at once
  // __constant__ variables live in global memory (the code object's image), as on the GPU.
  p.totalConstMem = p.totalGlobalMem;
  p.memPitch = INT_MAX;  // hipMallocPitch: any row length
  // The simulator runs no image or texture instruction (the texture API is not implemented): the
  // image limits stay 0 and hipDeviceAttributeImageSupport is 0.
  return p;
}

hipError_t check_device(Runtime& rt, int id, const char* api) {
  if (id != 0) return rt.fail(hipErrorInvalidDevice, api, "device " + std::to_string(id) + "; the only device is 0");
  return hipSuccess;
}

// The head every device query shares: its output pointers are given (else `missing` says which
// is not), then the device exists.
hipError_t check_query(Runtime& rt, bool outputs_given, int id, const char* api, const char* missing = "null pointer") {
  if (!outputs_given) return rt.fail(hipErrorInvalidValue, api, missing);
  return check_device(rt, id, api);
}

}  // namespace
}  // namespace cdnajit::hip_sim

using namespace cdnajit::hip_sim;

extern "C" {

hipError_t hipInit(unsigned int) {
  HIP_SIM_ENTER();
  return hipSuccess;
}

hipError_t hipGetDeviceCount(int* count) {
  auto& rt = Runtime::get();
  std::lock_guard<std::mutex> lock(rt.mutex);
  if (!count) return rt.fail(hipErrorInvalidValue, "hipGetDeviceCount", "null count");
  *count = 0;
  if (hipError_t e = rt.require_device(); e != hipSuccess) return e;
  *count = 1;
  return hipSuccess;
}

hipError_t hipGetDevice(int* id) {
  HIP_SIM_ENTER();
  if (!id) return rt.fail(hipErrorInvalidValue, "hipGetDevice", "null pointer");
  *id = 0;
  return hipSuccess;
}

hipError_t hipSetDevice(int id) {
  HIP_SIM_ENTER();
  return check_device(rt, id, "hipSetDevice");
}

hipError_t hipDeviceGet(hipDevice_t* device, int ordinal) {
  HIP_SIM_ENTER();
  if (hipError_t e = check_query(rt, device != nullptr, ordinal, "hipDeviceGet"); e != hipSuccess) return e;
  *device = 0;
  return hipSuccess;
}

hipError_t hipGetDeviceProperties(hipDeviceProp_t* prop, int id) {
  HIP_SIM_ENTER();
  if (hipError_t e = check_query(rt, prop != nullptr, id, "hipGetDeviceProperties"); e != hipSuccess) return e;
  *prop = properties(rt.config());
  return hipSuccess;
}

hipError_t hipDeviceGetName(char* name, int len, hipDevice_t device) {
  HIP_SIM_ENTER();
  const char* api = "hipDeviceGetName";
  if (hipError_t e = check_query(rt, name && len > 0, device, api, "null name or length <= 0"); e != hipSuccess) return e;
  std::snprintf(name, size_t(len), "%s", properties(rt.config()).name);
  return hipSuccess;
}

hipError_t hipDeviceTotalMem(size_t* bytes, hipDevice_t device) {
  HIP_SIM_ENTER();
  if (hipError_t e = check_query(rt, bytes != nullptr, device, "hipDeviceTotalMem"); e != hipSuccess) return e;
  *bytes = host_memory_bytes();
  return hipSuccess;
}

hipError_t hipDeviceComputeCapability(int* major, int* minor, hipDevice_t device) {
  HIP_SIM_ENTER();
  if (hipError_t e = check_query(rt, major && minor, device, "hipDeviceComputeCapability"); e != hipSuccess) return e;
  hipDeviceProp_t p = properties(rt.config());
  *major = p.major;
  *minor = p.minor;
  return hipSuccess;
}

hipError_t hipMemGetInfo(size_t* free_bytes, size_t* total) {
  HIP_SIM_ENTER();
  if (!free_bytes || !total) return rt.fail(hipErrorInvalidValue, "hipMemGetInfo", "null pointer");
  *total = host_memory_bytes();
  *free_bytes = size_t(sysconf(_SC_AVPHYS_PAGES)) * size_t(sysconf(_SC_PAGE_SIZE));
  return hipSuccess;
}

hipError_t hipDeviceGetAttribute(int* value, hipDeviceAttribute_t attr, int id) {
  HIP_SIM_ENTER();
  if (hipError_t e = check_query(rt, value != nullptr, id, "hipDeviceGetAttribute"); e != hipSuccess) return e;
  const hipDeviceProp_t p = properties(rt.config());
  switch (attr) {
    case hipDeviceAttributeMaxThreadsPerBlock: *value = p.maxThreadsPerBlock; break;
    case hipDeviceAttributeMaxBlockDimX: *value = p.maxThreadsDim[0]; break;
    case hipDeviceAttributeMaxBlockDimY: *value = p.maxThreadsDim[1]; break;
    case hipDeviceAttributeMaxBlockDimZ: *value = p.maxThreadsDim[2]; break;
    case hipDeviceAttributeMaxGridDimX: *value = p.maxGridSize[0]; break;
    case hipDeviceAttributeMaxGridDimY: *value = p.maxGridSize[1]; break;
    case hipDeviceAttributeMaxGridDimZ: *value = p.maxGridSize[2]; break;
    case hipDeviceAttributeMaxSharedMemoryPerBlock: *value = int(p.sharedMemPerBlock); break;
    case hipDeviceAttributeSharedMemPerBlockOptin: *value = int(p.sharedMemPerBlock); break;
    case hipDeviceAttributeMaxSharedMemoryPerMultiprocessor: *value = int(p.maxSharedMemoryPerMultiProcessor); break;
    case hipDeviceAttributeSharedMemPerMultiprocessor: *value = int(p.maxSharedMemoryPerMultiProcessor); break;
    case hipDeviceAttributeWarpSize: *value = p.warpSize; break;
    case hipDeviceAttributeMaxRegistersPerBlock: *value = p.regsPerBlock; break;
    case hipDeviceAttributeClockRate: *value = p.clockRate; break;
    case hipDeviceAttributeClockInstructionRate: *value = p.clockInstructionRate; break;
    case hipDeviceAttributeMemoryClockRate: *value = p.memoryClockRate; break;
    case hipDeviceAttributeMemoryBusWidth: *value = p.memoryBusWidth; break;
    case hipDeviceAttributeMultiprocessorCount: *value = p.multiProcessorCount; break;
    case hipDeviceAttributePhysicalMultiProcessorCount: *value = p.multiProcessorCount; break;
    case hipDeviceAttributeMaxThreadsPerMultiProcessor: *value = p.maxThreadsPerMultiProcessor; break;
    case hipDeviceAttributeComputeCapabilityMajor: *value = p.major; break;
    case hipDeviceAttributeComputeCapabilityMinor: *value = p.minor; break;
    case hipDeviceAttributeL2CacheSize: *value = p.l2CacheSize; break;
    case hipDeviceAttributeConcurrentKernels: *value = p.concurrentKernels; break;
    case hipDeviceAttributeCanMapHostMemory: *value = p.canMapHostMemory; break;
    case hipDeviceAttributeManagedMemory: *value = p.managedMemory; break;
    case hipDeviceAttributeDirectManagedMemAccessFromHost: *value = p.directManagedMemAccessFromHost; break;
    case hipDeviceAttributeIntegrated: *value = p.integrated; break;
    case hipDeviceAttributeCooperativeLaunch: *value = p.cooperativeLaunch; break;
    case hipDeviceAttributeEccEnabled: *value = p.ECCEnabled; break;
    case hipDeviceAttributeComputeMode: *value = p.computeMode; break;
    case hipDeviceAttributeGcnArch: *value = p.gcnArch; break;
    case hipDeviceAttributeIsMultiGpuBoard: *value = p.isMultiGpuBoard; break;
    case hipDeviceAttributePciBusId: *value = p.pciBusID; break;
    case hipDeviceAttributePciDeviceId: *value = p.pciDeviceID; break;
    case hipDeviceAttributePciDomainID: *value = p.pciDomainID; break;
    // Sizes beyond an int (the attribute's type) read as INT_MAX.
    case hipDeviceAttributeTotalGlobalMem: *value = int(std::min<size_t>(p.totalGlobalMem, INT_MAX)); break;
    case hipDeviceAttributeTotalConstantMemory: *value = int(std::min<size_t>(p.totalConstMem, INT_MAX)); break;
    case hipDeviceAttributeMaxPitch: *value = int(std::min<size_t>(p.memPitch, INT_MAX)); break;
    case hipDeviceAttributeMaxRegistersPerMultiprocessor: *value = p.regsPerBlock; break;  // one block may use the CU's file
    case hipDeviceAttributeMaxBlocksPerMultiProcessor:  // one-wave blocks, one per wave slot
      *value = target::kMaxWavesPerSimd * target::kSimdsPerCu;
      break;
    case hipDeviceAttributeCanUseHostPointerForRegisteredMem:  // hipHostRegister: one address for both sides
    case hipDeviceAttributeGlobalL1CacheSupported:
    case hipDeviceAttributeLocalL1CacheSupported:
    case hipDeviceAttributeFineGrainSupport:  // kernels and the host see one coherent memory
      *value = 1;
      break;
    // What this runtime does not do reads as 0: images and textures, concurrent copies and kernels
    // (launches and copies run one after another), cooperative launches, stream wait values, memory
    // pools, stream priorities (one level), pageable host memory in kernels.
    case hipDeviceAttributeImageSupport:
    case hipDeviceAttributeMaxTexture1DWidth:
    case hipDeviceAttributeMaxTexture1DLinear:
    case hipDeviceAttributeMaxTexture1DLayered:
    case hipDeviceAttributeMaxTexture1DMipmap:
    case hipDeviceAttributeMaxTexture2DWidth:
    case hipDeviceAttributeMaxTexture2DHeight:
    case hipDeviceAttributeMaxTexture2DGather:
    case hipDeviceAttributeMaxTexture2DLayered:
    case hipDeviceAttributeMaxTexture2DLinear:
    case hipDeviceAttributeMaxTexture2DMipmap:
    case hipDeviceAttributeMaxTexture3DWidth:
    case hipDeviceAttributeMaxTexture3DHeight:
    case hipDeviceAttributeMaxTexture3DDepth:
    case hipDeviceAttributeMaxTexture3DAlt:
    case hipDeviceAttributeMaxTextureCubemap:
    case hipDeviceAttributeMaxTextureCubemapLayered:
    case hipDeviceAttributeMaxSurface1D:
    case hipDeviceAttributeMaxSurface1DLayered:
    case hipDeviceAttributeMaxSurface2D:
    case hipDeviceAttributeMaxSurface2DLayered:
    case hipDeviceAttributeMaxSurface3D:
    case hipDeviceAttributeMaxSurfaceCubemap:
    case hipDeviceAttributeMaxSurfaceCubemapLayered:
    case hipDeviceAttributeTextureAlignment:
    case hipDeviceAttributeTexturePitchAlignment:
    case hipDeviceAttributeSurfaceAlignment:
    case hipDeviceAttributeAsyncEngineCount:
    case hipDeviceAttributeDeviceOverlap:
    case hipDeviceAttributeCooperativeMultiDeviceLaunch:
    case hipDeviceAttributeCooperativeMultiDeviceUnmatchedFunc:
    case hipDeviceAttributeCooperativeMultiDeviceUnmatchedGridDim:
    case hipDeviceAttributeCooperativeMultiDeviceUnmatchedBlockDim:
    case hipDeviceAttributeCooperativeMultiDeviceUnmatchedSharedMem:
    case hipDeviceAttributeCanUseStreamWaitValue:
    case hipDeviceAttributeMemoryPoolsSupported:
    case hipDeviceAttributeStreamPrioritiesSupported:
    case hipDeviceAttributePageableMemoryAccess:
    case hipDeviceAttributePageableMemoryAccessUsesHostPageTables:
    case hipDeviceAttributeConcurrentManagedAccess:
    case hipDeviceAttributeComputePreemptionSupported:
    case hipDeviceAttributeKernelExecTimeout:
    case hipDeviceAttributeHostNativeAtomicSupported:
    case hipDeviceAttributeAccessPolicyMaxWindowSize:
    case hipDeviceAttributePersistingL2CacheMaxSize:
    case hipDeviceAttributeReservedSharedMemPerBlock:
    case hipDeviceAttributeIsLargeBar:
    case hipDeviceAttributeAsicRevision:
    case hipDeviceAttributeTccDriver:
    case hipDeviceAttributeMultiGpuBoardGroupID:
      *value = 0;
      break;
    default:
      return rt.fail(hipErrorNotSupported, "hipDeviceGetAttribute",
                     "attribute " + std::to_string(int(attr)) + " is not implemented by the cdnajit simulator runtime");
  }
  return hipSuccess;
}

hipError_t hipDriverGetVersion(int* v) {
  HIP_SIM_ENTER();
  if (!v) return rt.fail(hipErrorInvalidValue, "hipDriverGetVersion", "null pointer");
  *v = HIP_VERSION;  // the HIP API version this library implements (the headers it is built with)
  return hipSuccess;
}

hipError_t hipRuntimeGetVersion(int* v) {
  HIP_SIM_ENTER();
  if (!v) return rt.fail(hipErrorInvalidValue, "hipRuntimeGetVersion", "null pointer");
  *v = HIP_VERSION;
  return hipSuccess;
}

hipError_t hipChooseDevice(int* device, const hipDeviceProp_t*) {
  HIP_SIM_ENTER();
  if (!device) return rt.fail(hipErrorInvalidValue, "hipChooseDevice", "null pointer");
  *device = 0;
  return hipSuccess;
}

hipError_t hipDeviceCanAccessPeer(int* can, int id, int peer) {
  HIP_SIM_ENTER();
  if (hipError_t e = check_query(rt, can != nullptr, id, "hipDeviceCanAccessPeer"); e != hipSuccess) return e;
  if (hipError_t e = check_device(rt, peer, "hipDeviceCanAccessPeer"); e != hipSuccess) return e;
  *can = 0;
  return hipSuccess;
}

// Flags and cache preferences change nothing on this device; ROCm's runtime also accepts
// and ignores the cache and shared-memory configuration calls on AMD GPUs.
hipError_t hipSetDeviceFlags(unsigned) {
  HIP_SIM_ENTER();
  return hipSuccess;
}
hipError_t hipGetDeviceFlags(unsigned int* flags) {
  HIP_SIM_ENTER();
  if (!flags) return rt.fail(hipErrorInvalidValue, "hipGetDeviceFlags", "null pointer");
  *flags = 0;
  return hipSuccess;
}
hipError_t hipDeviceSetCacheConfig(hipFuncCache_t) {
  HIP_SIM_ENTER();
  return hipSuccess;
}
hipError_t hipDeviceGetCacheConfig(hipFuncCache_t* c) {
  HIP_SIM_ENTER();
  if (!c) return rt.fail(hipErrorInvalidValue, "hipDeviceGetCacheConfig", "null pointer");
  *c = hipFuncCachePreferNone;
  return hipSuccess;
}
hipError_t hipDeviceSetSharedMemConfig(hipSharedMemConfig) {
  HIP_SIM_ENTER();
  return hipSuccess;
}

hipError_t hipDeviceSynchronize() {
  HIP_SIM_ENTER();
  rt.host_synchronize();
  return rt.sticky_error;
}

// Frees every allocation and forgets a failed kernel, as a device reset does.
hipError_t hipDeviceReset() {
  HIP_SIM_ENTER();
  for (const auto& [base, host] : rt.allocations) rt.sim().memory().free(base);
  rt.allocations.clear();
  for (uint64_t base : rt.registered) rt.sim().memory().free(base);  // the bytes stay the program's
  rt.registered.clear();
  rt.sticky_error = hipSuccess;
  rt.last_error = hipSuccess;
  return hipSuccess;
}

}  // extern "C"
