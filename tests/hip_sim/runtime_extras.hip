// The runtime calls benchmark programs use beside the basics: pitched memory (hipMallocPitch,
// hipMemcpy2D, hipMemset2D), hipExtLaunchKernelGGL between two events, stream callbacks and
// priorities, hipPointerGetAttributes, managed-memory hints, hipMallocAsync / hipFreeAsync, device attributes, hiprtc's clear
// refusal, and hipErrorNotSupported (with its one line) for a cooperative launch over several
// devices.
#include <hip/hip_ext.h>
#include <hip/hiprtc.h>

#include <algorithm>
#include <climits>
#include <cstring>
#include <vector>

#include "check.hpp"

__global__ void add_row_index(float* m, size_t pitch, int width) {
  // One workgroup per row: element (row, col) += row.
  float* row = reinterpret_cast<float*>(reinterpret_cast<char*>(m) + blockIdx.x * pitch);
  for (int c = threadIdx.x; c < width; c += blockDim.x) row[c] += float(blockIdx.x);
}

static int bad = 0;
#define EXPECT(cond)                                                          \
  do {                                                                        \
    if (!(cond)) {                                                            \
      std::fprintf(stderr, "%s:%d: failed: %s\n", __FILE__, __LINE__, #cond); \
      ++bad;                                                                  \
    }                                                                         \
  } while (0)

static void on_stream_done(hipStream_t, hipError_t status, void* user) {
  *static_cast<int*>(user) = status == hipSuccess ? 1 : -1;
}

int main() {
  // A 37 x 5 float matrix in pitched memory.
  const int width = 37, height = 5;
  float* m;
  size_t pitch = 0;
  CHECK(hipMallocPitch(reinterpret_cast<void**>(&m), &pitch, width * sizeof(float), height));
  EXPECT(pitch >= width * sizeof(float) && pitch % 4 == 0);
  std::vector<float> host(width * height);
  for (int i = 0; i < width * height; ++i) host[i] = float(i);
  CHECK(hipMemset2D(m, pitch, 0xff, width * sizeof(float), height));
  CHECK(hipMemcpy2D(m, pitch, host.data(), width * sizeof(float), width * sizeof(float), height, hipMemcpyHostToDevice));

  hipStream_t stream;
  CHECK(hipStreamCreate(&stream));
  hipEvent_t start, stop;
  CHECK(hipEventCreate(&start));
  CHECK(hipEventCreate(&stop));
  hipExtLaunchKernelGGL(add_row_index, dim3(height), dim3(64), 0, stream, start, stop, 0, m, pitch, width);
  CHECK(hipGetLastError());
  int called = 0;
  CHECK(hipStreamAddCallback(stream, on_stream_done, &called, 0));
  EXPECT(called == 1);
  float ms = -1;
  CHECK(hipEventElapsedTime(&ms, start, stop));
  EXPECT(ms >= 0);

  std::vector<float> back(width * height, -1.f);
  CHECK(hipMemcpy2D(back.data(), width * sizeof(float), m, pitch, width * sizeof(float), height, hipMemcpyDeviceToHost));
  for (int r = 0; r < height; ++r)
    for (int c = 0; c < width; ++c) EXPECT(back[r * width + c] == float(r * width + c) + float(r));
  // The padding of each row is what hipMemset2D left there only if the pitch leaves padding.
  EXPECT(hipMemcpy2D(back.data(), width * sizeof(float), m, width * sizeof(float) - 4, width * sizeof(float), height,
                     hipMemcpyDeviceToHost) == hipErrorInvalidValue);  // width > spitch

  int least = 1, greatest = 1, priority = 1;
  CHECK(hipDeviceGetStreamPriorityRange(&least, &greatest));
  CHECK(hipStreamGetPriority(stream, &priority));
  EXPECT(least == 0 && greatest == 0 && priority == 0);

  hipPointerAttribute_t attr;
  CHECK(hipPointerGetAttributes(&attr, m));
  EXPECT(attr.memoryType == hipMemoryTypeDevice && attr.devicePointer == m);
  float* managed;
  CHECK(hipMallocManaged(reinterpret_cast<void**>(&managed), 256));
  CHECK(hipPointerGetAttributes(&attr, managed + 3));
  EXPECT(attr.memoryType == hipMemoryTypeHost && attr.hostPointer == managed + 3);
  CHECK(hipMemPrefetchAsync(managed, 256, 0, stream));
  CHECK(hipMemAdvise(managed, 256, hipMemAdviseSetReadMostly, 0));
  EXPECT(hipMemPrefetchAsync(m, 4, 0, stream) == hipErrorInvalidValue);  // not managed memory

  // Device attributes programs query before choosing a path: sizes of what the device has, 0 for
  // what the simulator does not do (images, a copy engine beside the kernels), so that a program
  // that checks takes its other path; an attribute not implemented fails.
  int v = -1;
  CHECK(hipDeviceGetAttribute(&v, hipDeviceAttributeImageSupport, 0));
  EXPECT(v == 0);
  CHECK(hipDeviceGetAttribute(&v, hipDeviceAttributeAsyncEngineCount, 0));
  EXPECT(v == 0);
  CHECK(hipDeviceGetAttribute(&v, hipDeviceAttributeMaxBlocksPerMultiProcessor, 0));
  EXPECT(v == 32);
  hipDeviceProp_t prop;
  CHECK(hipGetDeviceProperties(&prop, 0));
  EXPECT(prop.totalConstMem == prop.totalGlobalMem && prop.totalGlobalMem > 0);
  CHECK(hipDeviceGetAttribute(&v, hipDeviceAttributeTotalGlobalMem, 0));
  EXPECT(size_t(v) == std::min<size_t>(prop.totalGlobalMem, INT_MAX));
  CHECK(hipDeviceGetAttribute(&v, hipDeviceAttributeTotalConstantMemory, 0));
  EXPECT(size_t(v) == std::min<size_t>(prop.totalConstMem, INT_MAX));
  EXPECT(hipDeviceGetAttribute(&v, hipDeviceAttributeHdpMemFlushCntl, 0) == hipErrorNotSupported);
  CHECK(hipGetLastError() == hipErrorNotSupported ? hipSuccess : hipErrorUnknown);

  // Stream-ordered allocation: usable at once on the stream, freed in order.
  float* async_buf = nullptr;
  CHECK(hipMallocAsync(reinterpret_cast<void**>(&async_buf), 64 * sizeof(float), stream));
  CHECK(hipMemsetAsync(async_buf, 0, 64 * sizeof(float), stream));
  add_row_index<<<2, 64, 0, stream>>>(async_buf, 32 * sizeof(float), 32);  // two rows of 32: row 1 gets 1
  float async_back[64];
  CHECK(hipMemcpyAsync(async_back, async_buf, sizeof async_back, hipMemcpyDeviceToHost, stream));
  CHECK(hipStreamSynchronize(stream));
  EXPECT(async_back[0] == 0.f && async_back[31] == 0.f && async_back[32] == 1.f && async_back[63] == 1.f);
  CHECK(hipFreeAsync(async_buf, stream));
  EXPECT(hipFreeAsync(async_buf, stream) == hipErrorInvalidValue);  // freed already
  (void)hipGetLastError();

  // Run-time compilation is not provided: hiprtc answers with hiprtcResult codes (not hipError_t
  // values), creates no program, and its log says what to do instead.
  hiprtcProgram prog = reinterpret_cast<hiprtcProgram>(&v);
  EXPECT(hiprtcCreateProgram(&prog, "__global__ void k() {}", "k.hip", 0, nullptr, nullptr) ==
         HIPRTC_ERROR_PROGRAM_CREATION_FAILURE);
  EXPECT(prog == nullptr);
  size_t log_size = 0;
  hiprtcGetProgramLogSize(prog, &log_size);
  std::vector<char> log(log_size + 1, 0);
  if (log_size) hiprtcGetProgramLog(prog, log.data());
  EXPECT(log_size > 1 && std::strstr(log.data(), "cdnajit-hipcc --genco") != nullptr);
  EXPECT(std::strcmp(hiprtcGetErrorString(HIPRTC_ERROR_COMPILATION), "HIPRTC_ERROR_COMPILATION") == 0);
  EXPECT(hiprtcDestroyProgram(&prog) == HIPRTC_SUCCESS);

  // Not implemented: fails, never succeeds silently.
  hipLaunchParams params{};
  params.func = reinterpret_cast<void*>(add_row_index);
  EXPECT(hipLaunchCooperativeKernelMultiDevice(&params, 1, 0) == hipErrorNotSupported);
  CHECK(hipGetLastError() == hipErrorNotSupported ? hipSuccess : hipErrorUnknown);

  CHECK(hipFree(m));
  CHECK(hipFree(managed));
  CHECK(hipStreamDestroy(stream));
  if (bad) return 1;
  std::printf("PASS\n");
  return 0;
}
