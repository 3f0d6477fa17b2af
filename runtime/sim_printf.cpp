#include "runtime/sim_printf.hpp"

#include <cstdio>
#include <cstring>

#include "jit/isa/error.hpp"
#include "runtime/device_printf.hpp"
#include "runtime/sim/simulator.hpp"

namespace cdnajit {

SimPrintfScope::SimPrintfScope(sim::Memory& memory, uint64_t& buffer, const KernelInfo& kernel, std::span<uint8_t> kernarg,
                               const std::vector<std::string>& formats)
    : memory_(memory), formats_(formats) {
  const KernelArgInfo* arg = kernel.find_arg_kind("hidden_printf_buffer");
  if (!arg || arg->size != 8 || uint64_t(arg->offset) + 8 > kernarg.size()) return;
  try {
    if (!buffer) buffer = memory.alloc(kPrintfHeaderBytes + kPrintfBufferBytes, "device printf buffer");
  } catch (const Error& e) {
    throw Error(std::string("no memory for the device printf buffer: ") + e.what());
  }
  const std::vector<uint8_t> header = printf_buffer_header(kPrintfBufferBytes);
  memory.write(buffer, header.data(), header.size());
  std::memcpy(kernarg.data() + arg->offset, &buffer, 8);
  buffer_ = buffer;
  active_ = true;
}

SimPrintfScope::~SimPrintfScope() {
  if (!active_) return;
  try {
    std::vector<uint8_t> bytes(kPrintfHeaderBytes);
    memory_.read(buffer_, bytes.data(), bytes.size());
    bytes.resize(printf_buffer_used(bytes));
    memory_.read(buffer_, bytes.data(), bytes.size());
    const PrintedText text = format_printf_buffer(bytes, formats_);
    std::fwrite(text.out.data(), 1, text.out.size(), stdout);
    std::fflush(stdout);
    std::fwrite(text.err.data(), 1, text.err.size(), stderr);
  } catch (const Error& e) {
    std::fprintf(stderr, "cdnajit: device printf: %s\n", e.what());
  }
}

}  // namespace cdnajit
