// libFuzzer target: read_code_object on arbitrary bytes. Every input must load
// or be rejected with cdnajit::Error; anything else (a crash, a sanitizer
// report, another exception escaping) is a finding.
#include <cstddef>
#include <cstdint>

#include "jit/isa/error.hpp"
#include "jit/codeobject/code_object.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    cdnajit::CodeObject co = cdnajit::read_code_object(std::span<const uint8_t>(data, size));
    (void)co;
  } catch (const cdnajit::Error&) {
  }
  return 0;
}
