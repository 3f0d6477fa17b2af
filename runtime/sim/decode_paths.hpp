// The two ways the simulator can decode a kernel (decode.cpp): the binary decoder
// (decode_binary.hpp), which decode_kernel() uses, and the LLVM text path, kept as an independent
// test oracle.
#pragma once
#include <memory>
#include <string>

#include "runtime/sim/sim_internal.hpp"

namespace cdnajit::sim {

// Deliberate independent re-implementation used as a test oracle, do not merge away: the whole
// kernel through LLVM-C's disassembler, its text and isa::parse (tests/sim/test_decode_oracle.cpp
// requires the same Ops as decode_kernel()).
std::unique_ptr<DecodedKernel> decode_kernel_llvm_text(const CodeObject& co, const KernelInfo& k);

// Every field of every Op that differs between two decodings of a kernel, one line per
// instruction ("" when they agree). The disassembly text (Op::text, for messages) is not compared,
// and bytes both decodings refuse to run (no handler on either side, a "<...>" placeholder on one)
// agree.
std::string decoded_difference(const DecodedKernel& a, const DecodedKernel& b);

}  // namespace cdnajit::sim
