// Device printf, buffered: what a kernel printed, read from the buffer its launch gave it.
//
// cdnajit-hipcc compiles device code with -mprintf-kind=buffered: clang lowers each printf into a
// call of __printf_alloc(bytes) for a frame of the launch's printf buffer and stores into that frame
// (LLVM, llvm/lib/Transforms/Utils/AMDGPUEmitPrintf.cpp), and lists the constant format strings in
// the code object's amdhsa.printf metadata. The buffer's address is the kernel's hidden argument
// hidden_printf_buffer. A frame, as LLVM writes it:
//   u32  control: frame bytes << 2 | 2 if the format is a constant | 1 for stderr (printf: stdout)
//   u64  the low 64 bits of the format's MD5 (constant format), or the format string itself
//        (NUL-terminated, padded to 8 bytes)
//   then each argument in 8 bytes (integers zero-extended, floats widened to double), a %s argument
//   of a constant format as its characters with the NUL, padded to 8 bytes.
// The buffer's header is this project's (cdnajit-hipcc's device library implements __printf_alloc
// over it, tools/hipcc/device_lib.hip):
//   u32 used      frame bytes written after the header (__printf_alloc bumps it atomically)
//   u32 capacity  frame bytes the buffer holds
//   u32 dropped   printf calls that did not fit (their printf returned -1)
//   u32 0
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace cdnajit {

constexpr uint32_t kPrintfHeaderBytes = 16;
constexpr uint32_t kPrintfBufferBytes = 1u << 20;  // frame bytes per launch (ROCm's default printf buffer is 1 MiB too)

// The header of an empty buffer of `capacity` frame bytes.
std::vector<uint8_t> printf_buffer_header(uint32_t capacity);
// How many bytes of a buffer (header included) hold frames, from its header.
uint64_t printf_buffer_used(std::span<const uint8_t> header);

struct PrintedText {
  std::string out, err;  // what the frames printed to stdout and to stderr, in buffer order
};
// The text of every frame in `buffer` (its header and frames), formatted with the code object's
// amdhsa.printf strings. A frame the buffer cuts off, a format missing from `formats` or a malformed
// frame is reported in the text (a line starting "cdnajit: device printf:"), not thrown.
PrintedText format_printf_buffer(std::span<const uint8_t> buffer, const std::vector<std::string>& formats);

}  // namespace cdnajit
