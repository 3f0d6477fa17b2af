// Streams and events. Work runs when it is called, so every stream is in order
// and idle between calls. An event records the point it was recorded at on the
// modelled timeline (the sum of the modelled times of the kernels run so far, each with the
// product's launch overhead, plus CDNAJIT_HIP_HOST_SYNC_US per host synchronize that waited for one)
// when a model is set, else the host wall clock; hipEventElapsedTime returns the
// difference and says once on stderr which of the two it is.
#include <cstdio>

#include "runtime/hip_sim/runtime.hpp"

namespace cdnajit::hip_sim {
namespace {

bool known_event(Runtime& rt, hipEvent_t e) { return rt.known_event(e); }

hipError_t create_stream(Runtime& rt, hipStream_t* s, unsigned flags, const char* api) {
  if (!s) return rt.fail(hipErrorInvalidValue, api, "null pointer");
  rt.streams.push_back(std::make_unique<ihipStream_t>(ihipStream_t{flags}));
  *s = rt.streams.back().get();
  return hipSuccess;
}

hipError_t create_event(Runtime& rt, hipEvent_t* e, const char* api) {
  if (!e) return rt.fail(hipErrorInvalidValue, api, "null pointer");
  rt.events.push_back(std::make_unique<ihipEvent_t>());
  *e = rt.events.back().get();
  return hipSuccess;
}

// Work on a stream completes when it is launched, so waiting for a stream and asking about it
// both answer at once: an unknown stream, or the runtime's sticky error.
hipError_t stream_status(Runtime& rt, hipStream_t s, const char* api) {
  if (!valid_stream(rt, s)) return rt.fail(hipErrorInvalidHandle, api, "unknown stream");
  return rt.sticky_error;
}

}  // namespace
}  // namespace cdnajit::hip_sim

using namespace cdnajit::hip_sim;

extern "C" {

hipError_t hipStreamCreate(hipStream_t* s) {
  HIP_SIM_ENTER();
  return create_stream(rt, s, 0, "hipStreamCreate");
}
hipError_t hipStreamCreateWithFlags(hipStream_t* s, unsigned int flags) {
  HIP_SIM_ENTER();
  return create_stream(rt, s, flags, "hipStreamCreateWithFlags");
}
hipError_t hipStreamCreateWithPriority(hipStream_t* s, unsigned int flags, int) {
  HIP_SIM_ENTER();
  return create_stream(rt, s, flags, "hipStreamCreateWithPriority");
}
hipError_t hipStreamDestroy(hipStream_t s) {
  HIP_SIM_ENTER();
  if (!s || s == hipStreamPerThread || !valid_stream(rt, s))
    return rt.fail(hipErrorInvalidHandle, "hipStreamDestroy", "not a stream from hipStreamCreate");
  std::erase_if(rt.streams, [&](const auto& p) { return p.get() == s; });
  return hipSuccess;
}
hipError_t hipStreamSynchronize(hipStream_t s) {
  HIP_SIM_ENTER();
  if (valid_stream(rt, s)) rt.host_synchronize();  // one device queue: a stream's wait is the device's
  return stream_status(rt, s, "hipStreamSynchronize");
}
hipError_t hipStreamQuery(hipStream_t s) {
  HIP_SIM_ENTER();
  return stream_status(rt, s, "hipStreamQuery");
}
hipError_t hipStreamWaitEvent(hipStream_t s, hipEvent_t e, unsigned int) {
  HIP_SIM_ENTER();
  if (!valid_stream(rt, s)) return rt.fail(hipErrorInvalidHandle, "hipStreamWaitEvent", "unknown stream");
  if (!known_event(rt, e)) return rt.fail(hipErrorInvalidHandle, "hipStreamWaitEvent", "unknown event");
  return hipSuccess;  // the event's work has completed already
}
// The stream's work has completed when this is called: the callback runs now, in this thread
// (without the runtime's lock, so it may call HIP), with the stream's status.
hipError_t hipStreamAddCallback(hipStream_t s, hipStreamCallback_t callback, void* user_data, unsigned int flags) {
  hipError_t status;
  {
    HIP_SIM_ENTER();
    if (!valid_stream(rt, s)) return rt.fail(hipErrorInvalidHandle, "hipStreamAddCallback", "unknown stream");
    if (!callback || flags != 0) return rt.fail(hipErrorInvalidValue, "hipStreamAddCallback", "null callback or flags != 0");
    status = rt.sticky_error;
  }
  callback(s, status, user_data);
  return hipSuccess;
}
// One priority: streams run one after another here.
hipError_t hipDeviceGetStreamPriorityRange(int* least, int* greatest) {
  HIP_SIM_ENTER();
  if (least) *least = 0;
  if (greatest) *greatest = 0;
  return hipSuccess;
}
hipError_t hipStreamGetPriority(hipStream_t s, int* priority) {
  HIP_SIM_ENTER();
  if (!priority || !valid_stream(rt, s)) return rt.fail(hipErrorInvalidHandle, "hipStreamGetPriority", "unknown stream or null pointer");
  *priority = 0;
  return hipSuccess;
}
hipError_t hipStreamGetFlags(hipStream_t s, unsigned int* flags) {
  HIP_SIM_ENTER();
  if (!flags || !valid_stream(rt, s)) return rt.fail(hipErrorInvalidHandle, "hipStreamGetFlags", "unknown stream");
  *flags = s && s != hipStreamPerThread ? s->flags : 0;
  return hipSuccess;
}

hipError_t hipEventCreate(hipEvent_t* e) {
  HIP_SIM_ENTER();
  return create_event(rt, e, "hipEventCreate");
}
hipError_t hipEventCreateWithFlags(hipEvent_t* e, unsigned) {
  HIP_SIM_ENTER();
  return create_event(rt, e, "hipEventCreateWithFlags");
}
hipError_t hipEventDestroy(hipEvent_t e) {
  HIP_SIM_ENTER();
  if (!known_event(rt, e)) return rt.fail(hipErrorInvalidHandle, "hipEventDestroy", "unknown event");
  std::erase_if(rt.events, [&](const auto& p) { return p.get() == e; });
  return hipSuccess;
}
hipError_t hipEventRecord(hipEvent_t e, hipStream_t s) {
  HIP_SIM_ENTER();
  if (!known_event(rt, e)) return rt.fail(hipErrorInvalidHandle, "hipEventRecord", "unknown event");
  if (!valid_stream(rt, s)) return rt.fail(hipErrorInvalidHandle, "hipEventRecord", "unknown stream");
  rt.record(*e);
  return hipSuccess;
}
hipError_t hipEventSynchronize(hipEvent_t e) {
  HIP_SIM_ENTER();
  if (!known_event(rt, e)) return rt.fail(hipErrorInvalidHandle, "hipEventSynchronize", "unknown event");
  rt.host_synchronize();
  return rt.sticky_error;
}
hipError_t hipEventQuery(hipEvent_t e) {
  HIP_SIM_ENTER();
  if (!known_event(rt, e)) return rt.fail(hipErrorInvalidHandle, "hipEventQuery", "unknown event");
  return hipSuccess;
}

hipError_t hipEventElapsedTime(float* ms, hipEvent_t start, hipEvent_t stop) {
  HIP_SIM_ENTER();
  const char* api = "hipEventElapsedTime";
  if (!ms) return rt.fail(hipErrorInvalidValue, api, "null pointer");
  if (!known_event(rt, start) || !known_event(rt, stop)) return rt.fail(hipErrorInvalidHandle, api, "unknown event");
  if (!start->recorded || !stop->recorded) return rt.fail(hipErrorNotReady, api, "an event was not recorded");
  const auto& c = rt.config();
  if (!rt.said_event_timing) {
    rt.said_event_timing = true;
    if (c.hw)
      std::fprintf(stderr,
                   "cdnajit HIP: event times are modelled (model %s): the modelled times of the kernels between the "
                   "events, each with the product's launch overhead (%.2f us, fitted), %s, and %.2f us per host "
                   "synchronize that waited for a kernel (CDNAJIT_HIP_HOST_SYNC_US); copies count 0\n",
                   c.hw->name.c_str(), c.hw->launch_overhead_us,
                   c.host_work ? "the program's host work between HIP calls the device waited for, at its CPU time "
                                 "measured on this machine (CDNAJIT_HIP_HOST_WORK=0: 0)"
                               : "host work counted 0 (CDNAJIT_HIP_HOST_WORK=0)",
                   c.host_sync_us);
    else
      std::fprintf(stderr,
                   "cdnajit HIP: event times are host wall time of the simulator (CDNAJIT_HIP_MODEL=off), not a GPU "
                   "time\n");
  }
  if (c.hw) {
    if (stop->unmodelled_launches != start->unmodelled_launches)
      return rt.fail(hipErrorNotSupported, api, "a kernel between the events has no modelled time: " + rt.model_error);
    *ms = float(stop->modelled_ms - start->modelled_ms);
  } else {
    *ms = float(std::chrono::duration<double, std::milli>(stop->wall - start->wall).count());
  }
  return hipSuccess;
}

// Not a HIP API: how this runtime makes event times, for cdnajit's own hip:N back end
// (runtime/hip_backend.cpp), which labels them with it and never files them as measured.
const char* hipCdnajitEventTimeSource() {
  auto& rt = Runtime::get();
  std::lock_guard<std::mutex> lock(rt.mutex);
  static std::string text;
  const auto& c = rt.config();
  text = c.hw ? "modelled (model " + c.hw->name + ")" : "host wall time of the simulator (CDNAJIT_HIP_MODEL=off)";
  return text.c_str();
}

}  // extern "C"
