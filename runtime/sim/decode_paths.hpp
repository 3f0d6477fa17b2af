// The two ways the simulator can decode a kernel (decode.cpp): the binary decoder
// (decode_binary.hpp; what decode_kernel() uses, with the LLVM text path for the instructions it
// does not cover yet) and the LLVM text path alone, kept as an independent test oracle.
#pragma once
#include <map>
#include <memory>
#include <string>

#include "runtime/sim/sim_internal.hpp"

namespace cdnajit::sim {

// How decode_kernel_counted() decoded a kernel's instructions.
struct DecodeCoverage {
  int binary = 0;  // by the binary decoder (valid or invalid encodings)
  int text = 0;    // through the LLVM text path (not covered by the binary decoder yet)
  std::map<std::string, int> fallback_reasons;  // why, for the latter
};

// decode_kernel() that also counts how each instruction was decoded.
std::unique_ptr<DecodedKernel> decode_kernel_counted(const CodeObject& co, const KernelInfo& k, DecodeCoverage& coverage);

// Deliberate independent re-implementation used as a test oracle, do not merge away: the whole
// kernel through LLVM-C's disassembler, its text and isa::parse (tests/sim/test_decode_oracle.cpp
// requires the same Ops as decode_kernel()).
std::unique_ptr<DecodedKernel> decode_kernel_llvm_text(const CodeObject& co, const KernelInfo& k);

// Every field of every Op that differs between two decodings of a kernel, one line per
// instruction ("" when they agree). The disassembly text (Op::text, for messages) is not compared.
std::string decoded_difference(const DecodedKernel& a, const DecodedKernel& b);

}  // namespace cdnajit::sim
