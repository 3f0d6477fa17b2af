// hiprtc (run-time compilation), which ROCm 5.2's libamdhip64 exports: not provided by the drop-in
// runtime. Each entry point answers with a hiprtcResult (not a hipError_t, which the generic stubs
// of not_supported.c return), no program is ever created, and the program log says what to do
// instead, so a program that prints the log without checking the log calls prints that line.
#include <hip/hiprtc.h>

#include <cstdio>
#include <cstring>

namespace {

constexpr const char* kLog =
    "cdnajit HIP: run-time compilation (hiprtc) is not implemented by the cdnajit simulator runtime; compile the "
    "kernel ahead of time (cdnajit-hipcc --genco) and load it with hipModuleLoad";

hiprtcResult unavailable(const char* api, hiprtcResult result) {
  std::fprintf(stderr, "cdnajit HIP: %s: run-time compilation (hiprtc) is not implemented by the cdnajit simulator runtime\n", api);
  return result;
}

}  // namespace

extern "C" {

const char* hiprtcGetErrorString(hiprtcResult result) {
  switch (result) {
    case HIPRTC_SUCCESS: return "HIPRTC_SUCCESS";
    case HIPRTC_ERROR_OUT_OF_MEMORY: return "HIPRTC_ERROR_OUT_OF_MEMORY";
    case HIPRTC_ERROR_PROGRAM_CREATION_FAILURE: return "HIPRTC_ERROR_PROGRAM_CREATION_FAILURE";
    case HIPRTC_ERROR_INVALID_INPUT: return "HIPRTC_ERROR_INVALID_INPUT";
    case HIPRTC_ERROR_INVALID_PROGRAM: return "HIPRTC_ERROR_INVALID_PROGRAM";
    case HIPRTC_ERROR_INVALID_OPTION: return "HIPRTC_ERROR_INVALID_OPTION";
    case HIPRTC_ERROR_COMPILATION: return "HIPRTC_ERROR_COMPILATION";
    case HIPRTC_ERROR_BUILTIN_OPERATION_FAILURE: return "HIPRTC_ERROR_BUILTIN_OPERATION_FAILURE";
    case HIPRTC_ERROR_NO_NAME_EXPRESSIONS_AFTER_COMPILATION: return "HIPRTC_ERROR_NO_NAME_EXPRESSIONS_AFTER_COMPILATION";
    case HIPRTC_ERROR_NO_LOWERED_NAMES_BEFORE_COMPILATION: return "HIPRTC_ERROR_NO_LOWERED_NAMES_BEFORE_COMPILATION";
    case HIPRTC_ERROR_NAME_EXPRESSION_NOT_VALID: return "HIPRTC_ERROR_NAME_EXPRESSION_NOT_VALID";
    case HIPRTC_ERROR_INTERNAL_ERROR: return "HIPRTC_ERROR_INTERNAL_ERROR";
  }
  return "unknown hiprtcResult";
}

hiprtcResult hiprtcVersion(int*, int*) { return unavailable("hiprtcVersion", HIPRTC_ERROR_INTERNAL_ERROR); }

hiprtcResult hiprtcCreateProgram(hiprtcProgram* prog, const char*, const char*, int, const char**, const char**) {
  if (prog) *prog = nullptr;
  return unavailable("hiprtcCreateProgram", HIPRTC_ERROR_PROGRAM_CREATION_FAILURE);
}

hiprtcResult hiprtcDestroyProgram(hiprtcProgram* prog) {
  if (!prog) return HIPRTC_ERROR_INVALID_INPUT;
  return *prog ? HIPRTC_ERROR_INVALID_PROGRAM : HIPRTC_SUCCESS;  // no program exists
}

hiprtcResult hiprtcCompileProgram(hiprtcProgram, int, const char**) {
  return unavailable("hiprtcCompileProgram", HIPRTC_ERROR_INVALID_PROGRAM);
}

hiprtcResult hiprtcAddNameExpression(hiprtcProgram, const char*) { return HIPRTC_ERROR_INVALID_PROGRAM; }

hiprtcResult hiprtcGetLoweredName(hiprtcProgram, const char*, const char** lowered) {
  if (lowered) *lowered = nullptr;
  return HIPRTC_ERROR_INVALID_PROGRAM;
}

// The log is the one line above, whatever the program (the only log there is to give).
hiprtcResult hiprtcGetProgramLogSize(hiprtcProgram, size_t* size) {
  if (!size) return HIPRTC_ERROR_INVALID_INPUT;
  *size = std::strlen(kLog) + 1;
  return HIPRTC_ERROR_INVALID_PROGRAM;
}

hiprtcResult hiprtcGetProgramLog(hiprtcProgram, char* log) {
  if (!log) return HIPRTC_ERROR_INVALID_INPUT;
  std::memcpy(log, kLog, std::strlen(kLog) + 1);
  return HIPRTC_ERROR_INVALID_PROGRAM;
}

hiprtcResult hiprtcGetCodeSize(hiprtcProgram, size_t* size) {
  if (size) *size = 0;
  return HIPRTC_ERROR_INVALID_PROGRAM;
}

hiprtcResult hiprtcGetCode(hiprtcProgram, char*) { return HIPRTC_ERROR_INVALID_PROGRAM; }

}  // extern "C"
