// Helpers shared by the regalloc source files (not part of the public API).
#pragma once
#include <cstdint>
#include <string>

#include "jit/regalloc/regalloc.hpp"

namespace cdnajit::regalloc::detail {

constexpr int kMaxTupleDwords = 32;   // widest operand: 32x32 MFMA f32 results (32 dwords)
constexpr int kMaxAlign = 32;

// Throws cdnajit::Error on vreg/block ids out of range, bad widths, bad
// alignment, or a pin that is misaligned or outside the architectural range.
void check_function(const Function& f);

// "v5", "v[4:7]", "s[0:1]", "a3".
std::string reg_text(RegClass c, int base, int dwords);

// "'name' (v, 4 dwords, file.cpp:42)"; unnamed registers are shown as %<id>.
std::string describe(const Function& f, uint32_t vreg);

// "instruction 17 (file.cpp:30) in block 2", or "kernel entry" for position -1.
std::string where_text(const Function& f, int block, int index_in_block, int position);

}  // namespace cdnajit::regalloc::detail
