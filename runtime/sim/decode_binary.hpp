// The simulator's instruction decoder: instruction words -> table row (isa::Opcode) and operands,
// straight from the encoding (field layouts: decode_format.hpp; opcode numbers learned from LLVM:
// decode_opcode_map.hpp). Operands are matched to the row's operand specs by name and kind
// (jit/isa/instructions.def), their widths taken from the specs, and produced as the isa::MachineInst
// LLVM's disassembly parses into, so decode.cpp binds both the same way.
#pragma once
#include <cstdint>
#include <string>

#include "jit/isa/machine_inst.hpp"

namespace cdnajit::sim {

struct BinaryInst {
  isa::MachineInst mi;  // info, mnemonic as LLVM prints it (with _e32/_e64/_sdwa/_dpp), operands, mods
  uint8_t size = 0;     // bytes, literal included
  bool e64 = false, sdwa = false, dpp = false;
  // SDWA and DPP controls (CDNA3 guide, "Microcode Formats"), as the Op holds them.
  uint8_t dst_sel = 6, dst_unused = 0, src_sel[2] = {6, 6};
  uint8_t sext = 0;  // bit i: SDWA source i sign-extends its select
  uint16_t dpp_ctrl = 0;
  uint8_t row_mask = 15, bank_mask = 15;
  bool bound_ctrl = false;
  bool has_bitop3 = false;  // gfx950 v_bitop3_*: its truth table
  uint8_t bitop3 = 0;
  bool cut_off = false;     // Invalid because the code ends inside the instruction
};

enum class BinaryDecode {
  Decoded,   // `out` holds the instruction
  Invalid,   // not an instruction of the arch (why says what and what would be valid)
};

// Decodes the instruction at `p` (`available` bytes left in the kernel's code; `pc` its byte
// offset from the kernel entry, for branch targets).
BinaryDecode decode_binary(Arch arch, const uint8_t* p, uint64_t available, uint64_t pc, BinaryInst& out, std::string& why);

// The instruction's text in LLVM's spelling as far as the listings and error messages need it
// (printed, never parsed back).
std::string listing(const BinaryInst& b);

}  // namespace cdnajit::sim
