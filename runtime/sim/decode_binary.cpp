// Binary instruction decoder (decode_binary.hpp). The field layouts are those of the AMD CDNA3
// ("Instinct MI300") ISA Reference Guide, chapter "Microcode Formats" (the section named next to
// each format below); gfx950 (CDNA4 guide, same chapter) uses the same layouts.
#include "runtime/sim/decode_binary.hpp"

#include <cstring>

#include "jit/isa/opcode.hpp"
#include "jit/isa/operand_fit.hpp"
#include "runtime/sim/decode_format.hpp"
#include "runtime/sim/decode_opcode_map.hpp"

namespace cdnajit::sim {
namespace {

using isa::Operand;
using isa::OperandSpec;
using isa::OpKind;
using isa::RegFile;
using isa::SpecialReg;

std::string hex(uint64_t v) {
  char b[24];
  std::snprintf(b, sizeof b, "0x%llx", (unsigned long long)v);
  return b;
}

// Why a decode stops: the bytes are not an instruction.
struct Stop {
  BinaryDecode kind;
  std::string why;
  uint64_t size = 4;  // Invalid: the bytes the error covers (the instruction's, as far as read)
  bool cut_off = false;
};

struct Reader {
  const uint8_t* p;
  uint64_t available;
  uint64_t pc;
  uint8_t size = 4;                 // bytes consumed so far
  bool has_literal = false;
  uint32_t literal = 0;
  uint32_t word(int i) const {
    uint32_t w = 0;
    std::memcpy(&w, p + 4 * i, 4);
    return w;
  }
  void need(uint8_t bytes) {
    if (bytes > available)
      throw Stop{BinaryDecode::Invalid,
                 "kernel code ends mid-instruction at pc " + hex(pc) + " (" + std::to_string(available) + " of " +
                     std::to_string(bytes) + " bytes present; the .text or symbol size ends there)",
                 available, true};
    if (bytes > size) size = bytes;
  }
  // The 32-bit literal constant that follows the instruction's fixed dwords (one per instruction).
  uint32_t take_literal() {
    if (!has_literal) {
      need(uint8_t(size + 4));
      std::memcpy(&literal, p + size - 4, 4);
      has_literal = true;
    }
    return literal;
  }
};

[[noreturn]] void invalid(const std::string& why) { throw Stop{BinaryDecode::Invalid, why}; }

// A scalar / vector source or scalar destination operand code (vector ALU formats: the source
// operand table; SSRC of the scalar ALU formats): 0-101 SGPRs, 102-127 special registers and trap temporaries, 128-208 integer
// inline constants 0..64 and -1..-16, 235-239 apertures and POPS id, 240-248 float inline
// constants, 251-254 vccz / execz / scc / lds_direct, 255 a literal, 256-511 VGPRs (AGPRs where
// the operand is an accumulator register).
Operand source(uint32_t code, int dwords, RegFile vfile, Reader& r, bool literal_ok = true, bool half = false) {
  if (code <= 101) return Operand::reg(RegFile::SGPR, uint16_t(code), uint8_t(dwords));
  if (code >= 256) return Operand::reg(vfile, uint16_t(code - 256), uint8_t(dwords));
  if (code >= 128 && code <= 192) return Operand::immediate(int64_t(code) - 128);
  if (code >= 193 && code <= 208) return Operand::immediate(192 - int64_t(code));
  if (code >= 240 && code <= 248) {
    // 0.5, -0.5, 1, -1, 2, -2, 4, -4, 1/(2*pi), as f32 bits (decode.cpp puts them in the operand's type).
    static constexpr uint32_t kF32[] = {0x3f000000, 0xbf000000, 0x3f800000, 0xbf800000, 0x40000000,
                                        0xc0000000, 0x40800000, 0xc0800000, 0x3e22f983};
    Operand o;
    o.kind = Operand::Kind::FImm;
    o.imm = kF32[code - 240];
    return o;
  }
  const bool pair = dwords == 2;
  switch (code) {
    case 102: return Operand::spec(pair ? SpecialReg::FLAT_SCRATCH : SpecialReg::FLAT_SCRATCH_LO);
    case 103: if (!pair) return Operand::spec(SpecialReg::FLAT_SCRATCH_HI); break;
    case 104: if (pair) return Operand::spec(SpecialReg::XNACK_MASK); break;
    case 106: return Operand::spec(pair ? SpecialReg::VCC : SpecialReg::VCC_LO);
    case 107: if (!pair) return Operand::spec(SpecialReg::VCC_HI); break;
    case 124: if (dwords == 1) return Operand::spec(SpecialReg::M0); break;
    case 126: return Operand::spec(pair ? SpecialReg::EXEC : SpecialReg::EXEC_LO);
    case 127: if (!pair) return Operand::spec(SpecialReg::EXEC_HI); break;
    case 235: return Operand::spec(SpecialReg::SRC_SHARED_BASE);
    case 236: return Operand::spec(SpecialReg::SRC_SHARED_LIMIT);
    case 237: return Operand::spec(SpecialReg::SRC_PRIVATE_BASE);
    case 238: return Operand::spec(SpecialReg::SRC_PRIVATE_LIMIT);
    case 239: return Operand::spec(SpecialReg::SRC_POPS_EXITING_WAVE_ID);
    case 251: return Operand::spec(SpecialReg::SRC_VCCZ);
    case 252: return Operand::spec(SpecialReg::SRC_EXECZ);
    case 253: return Operand::spec(SpecialReg::SRC_SCC);
    case 254: return Operand::spec(SpecialReg::SRC_LDS_DIRECT);
    case 255:
      if (!literal_ok) invalid("operand code 255 (a literal constant) in a field that takes no literal");
      return Operand::immediate(half ? r.take_literal() & 0xffff : r.take_literal());  // a 16-bit slot reads the low half
    default: break;
  }
  // Trap temporaries (108-123, aligned like SGPR tuples) and the halves of xnack_mask have no
  // isa::SpecialReg: they are scalar-file registers at their encoding (decode.cpp accepts them).
  const bool aligned = dwords == 1 || code % (dwords == 2 ? 2 : 4) == 0;
  if ((code >= 108 && code <= 123 && code + dwords <= 124 && aligned) || ((code == 104 || code == 105) && dwords == 1))
    return Operand::reg(RegFile::SGPR, uint16_t(code), uint8_t(dwords));
  invalid("operand code " + std::to_string(code) + " for a " + std::to_string(dwords) +
          "-dword operand (valid: SGPRs 0-101, flat_scratch 102, xnack_mask 104, vcc 106, ttmp 108-123, m0 124, "
          "exec 126, constants 128-208 and 235-254, a literal 255, VGPRs 256-511; halves and tuples aligned)");
}

RegFile vfile_of(const OperandSpec& s, bool acc) {
  if (s.kind == OpKind::AReg) return RegFile::AGPR;
  if (s.kind == OpKind::VAReg && acc) return RegFile::AGPR;
  return RegFile::VGPR;
}
Operand vgpr(uint32_t index, const OperandSpec& s, bool acc, int dwords = 0) {
  return Operand::reg(vfile_of(s, acc), uint16_t(index), uint8_t(dwords ? dwords : s.dwords));
}
bool is_scalar_reg(const OperandSpec& s) { return s.kind == OpKind::SReg; }
bool is_source(const OperandSpec& s) { return !s.is_def; }

struct Decoder {
  Arch arch;
  Reader r;
  uint64_t pc;
  const isa::InstrInfo* row = nullptr;
  BinaryInst& out;
  uint32_t w0 = 0, w1 = 0;

  void push(Operand o) { out.mi.operands.push_back(std::move(o)); }
  Operand label(uint32_t simm16) const {
    Operand o;
    o.kind = Operand::Kind::Label;
    o.imm = int64_t(pc) + 4 + int64_t(int16_t(uint16_t(simm16))) * 4;
    return o;
  }
  Operand simm16(const OperandSpec&, uint32_t v) const { return Operand::immediate(int64_t(v & 0xffff)); }

  // ---------------------------------------------------------------- scalar ALU and control formats
  void sop2() {
    int src = 0;
    for (const OperandSpec& s : row->operands) {
      if (s.is_def) push(source(field(w0, 22, 16), s.dwords, RegFile::VGPR, r, false));
      else push(source(src++ == 0 ? field(w0, 7, 0) : field(w0, 15, 8), s.dwords, RegFile::VGPR, r));
    }
  }
  void sop1() {
    for (const OperandSpec& s : row->operands)
      push(source(s.is_def ? field(w0, 22, 16) : field(w0, 7, 0), s.dwords, RegFile::VGPR, r, !s.is_def));
  }
  void sopc() {
    int src = 0;
    for (const OperandSpec& s : row->operands) {
      if (s.kind == OpKind::Simm16) push(simm16(s, field(w0, 15, 8)));
      else push(source(src++ == 0 ? field(w0, 7, 0) : field(w0, 15, 8), s.dwords, RegFile::VGPR, r));
    }
  }
  void sopk() {
    for (const OperandSpec& s : row->operands) {
      if (s.kind == OpKind::Label) push(label(field(w0, 15, 0)));
      else if (s.kind == OpKind::Simm16) push(simm16(s, field(w0, 15, 0)));
      else if (s.kind == OpKind::Imm) push(Operand::immediate(r.take_literal()));
      else push(source(field(w0, 22, 16), s.dwords, RegFile::VGPR, r, false));
    }
  }
  void sopp() {
    for (const OperandSpec& s : row->operands)
      push(s.kind == OpKind::Label ? label(field(w0, 15, 0)) : simm16(s, field(w0, 15, 0)));
  }
  // Scalar memory format: SDATA [12:6], SBASE [5:0] (an even SGPR / 2), GLC [16], IMM [17], SOE [14]; word 1
  // OFFSET [20:0] (an SGPR number when IMM = 0), SOFFSET [31:25] (with SOE).
  void smem() {
    r.need(8);
    // NV [15] (non-volatile, a cache hint) is ignored, as LLVM 22's disassembler does.
    const bool imm = field(w0, 17, 17), soe = field(w0, 14, 14);
    for (const OperandSpec& s : row->operands) {
      if (s.kind == OpKind::SBase) push(Operand::reg(RegFile::SGPR, uint16_t(field(w0, 5, 0) * 2), s.dwords));
      else if (s.kind == OpKind::Simm16) push(Operand::immediate(field(w0, 12, 6)));  // s_atc_probe: SDATA holds the probe bits
      else if (s.kind == OpKind::SOffset) {
        if (imm && soe) {
          push(source(field(w1, 31, 25), 1, RegFile::VGPR, r, false));
          out.mi.mods.offset = int32_t(field(w1, 20, 0));
        } else if (imm) {
          push(Operand::immediate(int64_t(int32_t(field(w1, 20, 0) << 11) >> 11)));  // 21-bit signed
        } else {
          push(source(field(w1, 20, 0) & 0xff, 1, RegFile::VGPR, r, false));
        }
      } else {
        push(source(field(w0, 12, 6), s.dwords, RegFile::VGPR, r, false));
      }
    }
    out.mi.mods.sc0 = field(w0, 16, 16);
  }

  // ---------------------------------------------------------------- vector ALU formats
  // The e32 forms: VOP2 VDST [24:17], VSRC1 [16:9], SRC0 [8:0]; VOP1 VDST [24:17], SRC0 [8:0];
  // VOPC VSRC1 [16:9], SRC0 [8:0]. A scalar register slot of the row is the implicit VCC; a
  // constant slot (v_fmamk / v_fmaak) is the literal.
  void vop_e32(Format f) {
    const uint32_t src0 = field(w0, 8, 0);
    if (src0 == 0xf9 || src0 == 0xfa) return sdwa_dpp(f, src0 == 0xf9);
    int src = 0, def = 0;
    for (const OperandSpec& s : row->operands) {
      if (s.kind == OpKind::Imm) { push(Operand::immediate(r.take_literal())); continue; }
      if (is_scalar_reg(s) && s.dwords == 2 && f != Format::VOP1) { push(Operand::spec(SpecialReg::VCC)); continue; }
      if (s.is_def) {
        // A second VGPR result (v_swap_b32, v_permlane*_swap) is the register SRC0 names.
        const uint32_t code = def++ == 0 ? field(w0, 24, 17) : src0 - 256;
        if (def == 2 && src0 < 256) invalid("the second result of a swap is not a VGPR (SRC0 " + std::to_string(src0) + ")");
        if (is_scalar_reg(s)) push(source(code, s.dwords, RegFile::VGPR, r, false));  // v_readfirstlane
        else push(vgpr(code, s, false));
        continue;
      }
      if (src++ == 0) push(source(src0, s.dwords, vfile_of(s, false), r, true, s.half));
      else push(vgpr(field(w0, 16, 9), s, false));
    }
  }

  // SDWA, word 1: SRC0 [7:0], DST_SEL [10:8], DST_U [12:11], CLAMP [13], OMOD [15:14]
  // (VOPC: SDST [14:8], SD [15]), SRC0_SEL [18:16], SRC0_SEXT [19], SRC0_NEG [20], SRC0_ABS [21],
  // S0 [23], SRC1_SEL [26:24], SRC1_SEXT [27], SRC1_NEG [28], SRC1_ABS [29], S1 [31].
  // DPP, word 1: SRC0 [7:0], DPP_CTRL [16:8], BOUND_CTRL [19], SRC0_NEG [20], SRC0_ABS [21],
  // SRC1_NEG [22], SRC1_ABS [23], BANK_MASK [27:24], ROW_MASK [31:28].
  void sdwa_dpp(Format f, bool sdwa) {
    r.need(8);
    out.sdwa = sdwa;
    out.dpp = !sdwa;
    if (sdwa) {
      for (uint32_t sel : {field(w1, 10, 8), field(w1, 18, 16), field(w1, 26, 24)})
        if (sel == 7) invalid("SDWA operand select 7 (valid: 0..6, BYTE_0..DWORD)");
      if (f != Format::VOPC) {
        out.dst_sel = uint8_t(field(w1, 10, 8));
        out.dst_unused = uint8_t(field(w1, 12, 11));
        if (out.dst_unused == 3) invalid("SDWA dst_unused 3 (valid: 0..2, UNUSED_PAD / SEXT / PRESERVE)");
        out.mi.mods.clamp = field(w1, 13, 13);
        out.mi.mods.omod = uint8_t(field(w1, 15, 14));
      }
      out.src_sel[0] = uint8_t(field(w1, 18, 16));
      if (f != Format::VOP1) out.src_sel[1] = uint8_t(field(w1, 26, 24));
    } else {
      out.dpp_ctrl = uint16_t(field(w1, 16, 8));
      out.bound_ctrl = field(w1, 19, 19);
      out.bank_mask = uint8_t(field(w1, 27, 24));
      out.row_mask = uint8_t(field(w1, 31, 28));
      const uint16_t c = out.dpp_ctrl;
      // Valid DPP_CTRL (the DPP format's DPP_CTRL table): quad_perm 0x00-0xff, row_shl / row_shr / row_ror 0x101-0x10f /
      // 0x111-0x11f / 0x121-0x12f, wave_shl / rol / shr / ror 0x130 / 0x134 / 0x138 / 0x13c,
      // row_mirror 0x140, row_half_mirror 0x141, row_bcast:15 / :31 0x142 / 0x143, and gfx90a+
      // row_newbcast 0x150-0x15f.
      const bool valid = c <= 0xff || (c >= 0x101 && c <= 0x12f && (c & 0xf) != 0) || c == 0x130 || c == 0x134 ||
                         c == 0x138 || c == 0x13c || (c >= 0x140 && c <= 0x143) || (c >= 0x150 && c <= 0x15f);
      if (!valid) invalid("DPP_CTRL " + hex(c) + " is reserved (valid: quad_perm 0x0-0xff, row_shl/shr/ror 0x101-0x12f, "
                          "wave_shl/rol/shr/ror 0x130/0x134/0x138/0x13c, row_mirror 0x140, row_half_mirror 0x141, "
                          "row_bcast 0x142/0x143, row_newbcast 0x150-0x15f)");
      // The DP ALU (an instruction with a 64-bit operand) takes DPP only as row_newbcast on
      // gfx90a+ (LLVM 22 disassembles other controls with "DP ALU dpp only supports row_newbcast").
      bool dp_alu = false;
      for (const OperandSpec& s : row->operands) dp_alu |= s.dwords == 2;
      if (dp_alu && !(c >= 0x150 && c <= 0x15f))
        invalid("DP ALU dpp only supports row_newbcast: " + std::string(row->mnemonic) + " has 64-bit operands and DPP_CTRL " +
                hex(c) + " (valid: row_newbcast 0x150-0x15f)");
    }
    int src = 0;
    for (const OperandSpec& s : row->operands) {
      if (s.kind == OpKind::Imm) invalid(std::string(row->mnemonic) + " has no SDWA / DPP form (it takes a constant operand)");
      if (s.is_def) {
        if (is_scalar_reg(s)) {
          if (f == Format::VOPC && sdwa && field(w1, 15, 15)) push(source(field(w1, 14, 8), 2, RegFile::VGPR, r, false));
          else push(Operand::spec(SpecialReg::VCC));
        } else {
          push(vgpr(field(w0, 24, 17), s, false));
        }
        continue;
      }
      if (is_scalar_reg(s) && s.dwords == 2) { push(Operand::spec(SpecialReg::VCC)); continue; }
      const int i = src++;
      Operand o;
      if (i == 0) {
        const bool sgpr = sdwa && field(w1, 23, 23);
        o = sgpr ? source(field(w1, 7, 0), s.dwords, RegFile::VGPR, r, false) : vgpr(field(w1, 7, 0), s, false);
      } else {
        const bool sgpr = sdwa && field(w1, 31, 31);
        o = sgpr ? source(field(w0, 16, 9), s.dwords, RegFile::VGPR, r, false) : vgpr(field(w0, 16, 9), s, false);
      }
      if (i < 2) {
        o.neg = field(w1, sdwa ? 20 + 8 * i : 20 + 2 * i, sdwa ? 20 + 8 * i : 20 + 2 * i);
        o.abs = field(w1, sdwa ? 21 + 8 * i : 21 + 2 * i, sdwa ? 21 + 8 * i : 21 + 2 * i);
        if (sdwa && field(w1, 19 + 8 * i, 19 + 8 * i)) out.sext |= uint8_t(1u << i);
      }
      push(o);
    }
  }

  // VOP3A / VOP3B: VDST [7:0], ABS [10:8] (VOP3B: SDST [14:8]), OP_SEL [14:11], CLAMP [15];
  // word 1: SRC0 [8:0], SRC1 [17:9], SRC2 [26:18], OMOD [28:27], NEG [31:29]. GFX9 VOP3 has no
  // literal: code 255 is invalid (LLVM 22's disassembler crashes on it).
  void vop3(bool promoted) {
    r.need(8);
    out.e64 = promoted && !row->operands.empty();  // LLVM prints v_nop / v_clrexcp without _e64
    // VOP3B: a VGPR result and a scalar carry / condition (SDST) after it.
    bool vop3b = false;
    for (size_t i = 1; i < row->operands.size(); ++i) vop3b |= row->operands[i].is_def && is_scalar_reg(row->operands[i]);
    // gfx950 v_bitop3_*: the 8-bit truth table sits in the NEG [2:0], ABS [5:3] and OMOD [7:6]
    // fields (LLVM 22's VOP3 bitop3 encoding); the sources have no modifiers.
    const bool bitop3 = isa::is(*row, isa::Opcode::v_bitop3_b16) || isa::is(*row, isa::Opcode::v_bitop3_b32);
    int src = 0, def = 0;
    for (const OperandSpec& s : row->operands) {
      if (s.is_def) {
        if (def++ == 0) {
          if (is_scalar_reg(s)) push(source(field(w0, 7, 0), s.dwords, RegFile::VGPR, r, false));
          else push(vgpr(field(w0, 7, 0), s, false));
        } else if (is_scalar_reg(s)) {
          push(source(field(w0, 14, 8), s.dwords, RegFile::VGPR, r, false));
        } else {  // a second VGPR result (v_permlane*_swap) is the register SRC0 names
          if (field(w1, 8, 0) < 256) invalid("the second result of a swap is not a VGPR (SRC0 " + std::to_string(field(w1, 8, 0)) + ")");
          push(vgpr(field(w1, 8, 0) - 256, s, false));
        }
        continue;
      }
      const int i = src++;
      if (i > 2) invalid(std::string(row->mnemonic) + ": a VOP3 encoding has three source fields");
      Operand o = source(field(w1, 8 + 9 * i, 9 * i), s.dwords, vfile_of(s, false), r, false);
      if (!bitop3) o.neg = field(w1, 29 + i, 29 + i);
      if (!vop3b && !bitop3) o.abs = field(w0, 8 + i, 8 + i);
      push(o);
    }
    if (!vop3b) {
      // OP_SEL bit 3 is the destination's. LLVM lists op_sel per source operand of its own
      // definition plus the destination, so for rows whose definition has fewer than three
      // sources the destination's entry comes right after theirs (learned per row, see
      // OpcodeMap::op_sel_dst_follows_sources); the simulator reads op_sel in that listing order.
      uint32_t sel = field(w0, 14, 11);
      if (src < 3 && opcode_map(arch).op_sel_dst_follows_sources.test(size_t(isa::opcode_of(*row))))
        sel = (sel & ((1u << src) - 1)) | ((sel >> 3) & 1) << src;
      out.mi.mods.op_sel = uint8_t(sel);
    }
    out.mi.mods.clamp = field(w0, 15, 15);
    if (bitop3) {
      out.has_bitop3 = true;
      out.bitop3 = uint8_t(field(w1, 31, 29) | field(w0, 10, 8) << 3 | field(w1, 28, 27) << 6);
    } else {
      out.mi.mods.omod = uint8_t(field(w1, 28, 27));
    }
  }

  // VOP3P: VDST [7:0], NEG_HI [10:8], OP_SEL [13:11], OP_SEL_HI[2] [14], CLAMP [15];
  // word 1: SRC0..SRC2, OP_SEL_HI[1:0] [28:27], NEG [31:29]. The MAI form of the MFMAs: ACC_CD [15]
  // (vdst and srcC are AGPRs), ABID [14:11], CBSZ [10:8]; word 1 ACC [28:27] (srcA / srcB are
  // AGPRs), BLGP [31:29] (the f64 MFMAs: NEG).
  void vop3p() {
    r.need(8);
    const bool mfma = row->family == isa::Family::MFMA;
    auto& m = out.mi.mods;
    int nsrc = 0;
    for (const OperandSpec& s : row->operands) nsrc += !s.is_def;
    // VOP3PX (gfx950 scaled MFMA): a v_mfma_ld_scale_b32 word pair followed by the MFMA, decoded as one.
    // The MFMA pair of a VOP3PX has ABID = 1 (the CDNA4 guide's VOP3PX layout; LLVM 22 fuses exactly
    // those): with another ABID the two are separate instructions.
    if (isa::is(*row, isa::Opcode::v_mfma_ld_scale_b32) && r.available >= 16 && format_of(r.word(2)) == Format::VOP3P &&
        field(r.word(2), 14, 11) == 1) {
      const auto& scaled = opcode_map(arch).scaled_mfma;
      auto it = scaled.find(opcode_field(Format::VOP3P, r.word(2)));
      if (it != scaled.end()) return vop3px(it->second);
    }
    if (nsrc > 3) invalid("a scaled MFMA without its v_mfma_ld_scale_b32 prefix");
    if (mfma) {
      m.cbsz = uint8_t(field(w0, 10, 8));
      m.abid = uint8_t(field(w0, 14, 11));
      if (isa::is(*row, isa::kClassDgemm)) m.neg_lo = uint8_t(field(w1, 31, 29));
      else m.blgp = uint8_t(field(w1, 31, 29));
    }
    const bool acc_cd = mfma && field(w0, 15, 15);
    int src = 0;
    for (const OperandSpec& s : row->operands) {
      const int dwords = mfma ? isa::slot_dwords(*row, s, m) : s.dwords;
      if (s.is_def) {
        push(vgpr(field(w0, 7, 0), s, acc_cd, dwords));
        continue;
      }
      const int i = src++;
      const bool acc = mfma && (i == 2 ? acc_cd : field(w1, 27 + i, 27 + i) != 0);
      push(source(field(w1, 8 + 9 * i, 9 * i), dwords, vfile_of(s, acc), r, false));
    }
    if (mfma) return;
    const bool mix = isa::is(*row, isa::Opcode::v_fma_mix_f32) || isa::is(*row, isa::Opcode::v_fma_mixlo_f16) ||
                     isa::is(*row, isa::Opcode::v_fma_mixhi_f16);
    const uint8_t all = uint8_t((1u << nsrc) - 1);
    const uint8_t hi = uint8_t((field(w1, 28, 27) | field(w0, 14, 14) << 2) & all);
    m.op_sel = uint8_t(field(w0, 13, 11) & all);
    m.clamp = field(w0, 15, 15);
    // LLVM prints op_sel_hi only when it is not the default: all ones, or for v_fma_mix* zero.
    if (hi != (mix ? 0 : all)) { m.op_sel_hi = hi; m.op_sel_hi_set = true; }
    if (mix) {  // per-source -|x| as in VOP3
      for (int i = 0; i < nsrc; ++i) {
        Operand& o = out.mi.operands[out.mi.operands.size() - size_t(nsrc) + size_t(i)];
        o.neg = field(w1, 29 + i, 29 + i);
        o.abs = field(w0, 8 + i, 8 + i);
      }
    } else {
      m.neg_lo = uint8_t(field(w1, 31, 29) & all);
      m.neg_hi = uint8_t(field(w0, 10, 8) & all);
    }
  }

  // VOP3PX (CDNA4 guide, VOP3PX): the scale pair (v_mfma_ld_scale_b32's VOP3P layout: SRC0 / SRC1
  // are scale0 / scale1, OP_SEL / OP_SEL_HI select their bytes) and then the MFMA in the MAI layout.
  // LLVM prints op_sel_hi of these always, op_sel when not zero.
  void vop3px(isa::Opcode scaled) {
    r.need(16);
    const uint32_t s0 = w0, s1 = w1;
    w0 = r.word(2);
    w1 = r.word(3);
    row = &isa::info(scaled);
    out.mi.info = row;
    auto& m = out.mi.mods;
    m.cbsz = uint8_t(field(w0, 10, 8));  // ABID [14:11] is 1 here (it marks the scaled form), not a broadcast
    m.blgp = uint8_t(field(w1, 31, 29));
    m.op_sel = uint8_t(field(s0, 13, 11));
    m.op_sel_hi = uint8_t(field(s1, 28, 27));  // LLVM 22 reads no third bit (word 0 bit 14) here
    m.op_sel_hi_set = true;
    const bool acc_cd = field(w0, 15, 15);
    int src = 0;
    for (const OperandSpec& s : row->operands) {
      const int dwords = isa::slot_dwords(*row, s, m);
      if (s.is_def) { push(vgpr(field(w0, 7, 0), s, acc_cd, dwords)); continue; }
      const int i = src++;
      if (i < 3) {
        const bool acc = i == 2 ? acc_cd : field(w1, 27 + i, 27 + i) != 0;
        push(source(field(w1, 8 + 9 * i, 9 * i), dwords, vfile_of(s, acc), r, false));
      } else {
        push(source(field(s1, 8 + 9 * (i - 3), 9 * (i - 3)), dwords, RegFile::VGPR, r, false));
      }
    }
  }

  // ---------------------------------------------------------------- LDS, buffer and flat formats
  // DS (LDS format): OFFSET0 [7:0], OFFSET1 [15:8], GDS [16], ACC [25]; word 1 ADDR [7:0], DATA0 [15:8],
  // DATA1 [23:16], VDST [31:24].
  void ds() {
    r.need(8);
    // gfx942 / gfx950 have no global data share (llvm-mc-22: "gds modifier is not supported on this
    // GPU"). LLVM's disassembler drops the bit and shows an LDS access; here it is an error instead.
    if (field(w0, 16, 16)) invalid("DS with GDS set (bit 16): there is no global data share on this arch");
    const bool acc = field(w0, 25, 25);
    for (const OperandSpec& s : row->operands) {
      if (s.is_def) push(vgpr(field(w1, 31, 24), s, acc));
      else if (s.name == "addr") push(vgpr(field(w1, 7, 0), s, false));
      else if (s.name == "data0") push(vgpr(field(w1, 15, 8), s, acc));
      else if (s.name == "data1") push(vgpr(field(w1, 23, 16), s, acc));
      else invalid("DS operand '" + std::string(s.name) + "' of the table has no field (DS fields: vdst, addr, data0, data1)");
    }
    if (row->mods & isa::kModOffset01) {
      out.mi.mods.offset0 = int32_t(field(w0, 7, 0));
      out.mi.mods.offset1 = int32_t(field(w0, 15, 8));
    } else {
      out.mi.mods.offset = int32_t(field(w0, 15, 0));
    }
  }

  // FLAT / GLOBAL / SCRATCH (flat formats): OFFSET [12:0] (FLAT: [11:0] unsigned; GLOBAL / SCRATCH: 13-bit
  // signed), SVE [13] (SCRATCH: VADDR present), SEG [15:14], SC0 [16], NT [17], SC1 [25]; word 1
  // ADDR [7:0], DATA [15:8], SADDR [22:16] (0x7f: off), ACC [23], VDST [31:24].
  void flat(Format f) {
    r.need(8);
    const bool acc = field(w1, 23, 23);
    const uint32_t saddr = field(w1, 22, 16);
    const bool saddr_off = saddr == 0x7f || f == Format::FLAT;  // FLAT has no SADDR (the field holds 0)
    auto& m = out.mi.mods;
    m.sc0 = field(w0, 16, 16);
    m.nt = field(w0, 17, 17);
    m.sc1 = field(w0, 25, 25);
    m.offset = f == Format::FLAT ? int32_t(field(w0, 11, 0)) : int32_t(field(w0, 12, 0) << 19) >> 19;
    if (row->is_atomic && m.sc0)  // the returning form writes the old value to VDST
      push(Operand::reg(acc ? RegFile::AGPR : RegFile::VGPR, uint16_t(field(w1, 31, 24)), row->atomic_result_dwords));
    for (const OperandSpec& s : row->operands) {
      if (s.kind == OpKind::VAddr) {
        if (f == Format::SCRATCH) push(field(w0, 13, 13) ? Operand::reg(RegFile::VGPR, uint16_t(field(w1, 7, 0)), 1) : Operand::off());
        else push(Operand::reg(RegFile::VGPR, uint16_t(field(w1, 7, 0)), uint8_t(f == Format::GLOBAL && !saddr_off ? 1 : s.dwords)));
      } else if (s.kind == OpKind::SAddrOrOff) {
        push(saddr_off ? Operand::off() : Operand::reg(RegFile::SGPR, uint16_t(saddr), f == Format::SCRATCH ? 1 : 2));
      } else if (s.is_def) {
        push(vgpr(field(w1, 31, 24), s, acc));
      } else {
        push(vgpr(field(w1, 15, 8), s, acc));
      }
    }
  }

  // MUBUF (vector memory buffer formats): OFFSET [11:0], OFFEN [12], IDXEN [13], SC0 [14], SC1 [15], LDS [16], NT [17];
  // word 1 VADDR [7:0], VDATA [15:8], SRSRC [20:16] (an SGPR quad / 4), ACC [23], SOFFSET [31:24].
  // MTBUF: the same but DFMT [22:19] / NFMT [25:23] in word 0 (decode.cpp reads them), and
  // SC1 [21], NT [22] in word 1.
  void buffer(bool mtbuf) {
    r.need(8);
    auto& m = out.mi.mods;
    m.offset = int32_t(field(w0, 11, 0));
    m.offen = field(w0, 12, 12);
    m.idxen = field(w0, 13, 13);
    m.sc0 = field(w0, 14, 14);
    m.sc1 = mtbuf ? field(w1, 21, 21) : field(w0, 15, 15);
    m.lds = !mtbuf && field(w0, 16, 16);
    m.nt = mtbuf ? field(w1, 22, 22) : field(w0, 17, 17);
    const bool acc = field(w1, 23, 23);
    for (const OperandSpec& s : row->operands) {
      if (s.kind == OpKind::VAddr) {
        const int n = int(m.offen) + int(m.idxen);
        push(n ? Operand::reg(RegFile::VGPR, uint16_t(field(w1, 7, 0)), uint8_t(n)) : Operand::off());
      } else if (s.kind == OpKind::SRsrc) {
        push(Operand::reg(RegFile::SGPR, uint16_t(field(w1, 20, 16) * 4), 4));
      } else if (s.kind == OpKind::SOffset) {
        push(source(field(w1, 31, 24), 1, RegFile::VGPR, r, false));
      } else if (m.lds && s.is_def) {
        // LDS DMA: the data goes to LDS, no VGPR is written or printed.
      } else {
        push(vgpr(field(w1, 15, 8), s, acc));
      }
    }
  }
};

// The mnemonic LLVM prints: the table's, with the encoding suffix of VOP1 / VOP2 / VOPC rows.
std::string printed_mnemonic(Arch arch, const isa::InstrInfo& row, Format f, const BinaryInst& out) {
  std::string m(row.mnemonic);
  const bool short_family = row.family == isa::Family::VOP1 || row.family == isa::Family::VOP2 || row.family == isa::Family::VOPC;
  if (out.sdwa) return m + "_sdwa";
  if (out.dpp) return m + "_dpp";
  if (out.e64) return m + "_e64";
  if (short_family && (f == Format::VOP1 || f == Format::VOP2 || f == Format::VOPC) && !row.operands.empty() &&
      opcode_map(arch).has_vop3_form.test(size_t(isa::opcode_of(row))))
    return m + "_e32";
  return m;
}

const char* const kSdwaSel[] = {"BYTE_0", "BYTE_1", "BYTE_2", "BYTE_3", "WORD_0", "WORD_1", "DWORD"};

}  // namespace

std::string listing(const BinaryInst& b) {
  isa::MachineInst shown = b.mi;
  const isa::InstrInfo* row = shown.info;
  // Where LLVM's spelling differs from isa::print's, the operand is shown as preformatted text
  // (a named Label operand prints verbatim).
  int defs = 0;
  if (row) for (const OperandSpec& s : row->operands) defs += s.is_def;
  for (size_t i = 0; row && i < shown.operands.size() && i < row->operands.size(); ++i) {
    Operand& o = shown.operands[i];
    const OperandSpec& s = row->operands[i];
    if (o.kind != Operand::Kind::Imm) continue;
    const bool smem_offset = row->family == isa::Family::SMEM && s.kind == OpKind::SOffset;
    const bool sopk_imm = row->family == isa::Family::SOPK && s.kind == OpKind::Simm16 && s.name != "hwreg";
    if (smem_offset || sopk_imm) o = Operand::target(o.imm < 0 ? "-" + hex(uint64_t(-o.imm)) : hex(uint64_t(o.imm)));
  }
  if (b.sdwa) {
    for (int i = 0; i < 2; ++i)
      if ((b.sext >> i) & 1 && size_t(defs + i) < shown.operands.size()) {
        Operand& o = shown.operands[size_t(defs + i)];
        o = Operand::target("sext(" + isa::print_operand(o) + ")");
      }
    std::string& x = shown.mods.extra;
    if (row && row->family != isa::Family::VOPC)
      x += std::string("dst_sel:") + kSdwaSel[b.dst_sel] + " dst_unused:" +
           (b.dst_unused == 0 ? "UNUSED_PAD" : b.dst_unused == 1 ? "UNUSED_SEXT" : "UNUSED_PRESERVE") + " ";
    x += std::string("src0_sel:") + kSdwaSel[b.src_sel[0]];
    if (row && row->family != isa::Family::VOP1) x += std::string(" src1_sel:") + kSdwaSel[b.src_sel[1]];
  }
  if (b.dpp) {
    const uint16_t c = b.dpp_ctrl;
    std::string ctrl;
    if (c <= 0xff) ctrl = "quad_perm:[" + std::to_string(c & 3) + "," + std::to_string((c >> 2) & 3) + "," +
                          std::to_string((c >> 4) & 3) + "," + std::to_string((c >> 6) & 3) + "]";
    else if (c <= 0x10f) ctrl = "row_shl:" + std::to_string(c & 15);
    else if (c <= 0x11f) ctrl = "row_shr:" + std::to_string(c & 15);
    else if (c <= 0x12f) ctrl = "row_ror:" + std::to_string(c & 15);
    else if (c == 0x130) ctrl = "wave_shl:1";
    else if (c == 0x134) ctrl = "wave_rol:1";
    else if (c == 0x138) ctrl = "wave_shr:1";
    else if (c == 0x13c) ctrl = "wave_ror:1";
    else if (c == 0x140) ctrl = "row_mirror";
    else if (c == 0x141) ctrl = "row_half_mirror";
    else if (c == 0x142) ctrl = "row_bcast:15";
    else if (c == 0x143) ctrl = "row_bcast:31";
    else ctrl = "row_newbcast:" + std::to_string(c & 15);
    shown.mods.extra += ctrl + " row_mask:" + hex(b.row_mask) + " bank_mask:" + hex(b.bank_mask) + (b.bound_ctrl ? " bound_ctrl:1" : "");
  }
  for (Operand& o : shown.operands)  // trap temporaries and xnack_mask halves (see source())
    if (o.kind == Operand::Kind::Reg && o.file == RegFile::SGPR && o.index >= 104 && o.index < 124 && o.index != 106 && o.index != 107) {
      const int first = o.index - 108, last = first + o.dwords - 1;
      o = Operand::target(o.index == 104 ? "xnack_mask_lo" : o.index == 105 ? "xnack_mask_hi"
                          : o.dwords == 1 ? "ttmp" + std::to_string(first)
                                          : "ttmp[" + std::to_string(first) + ":" + std::to_string(last) + "]");
    }
  if (b.has_bitop3 && b.bitop3) shown.mods.extra += (shown.mods.extra.empty() ? "" : " ") + std::string("bitop3:") + hex(b.bitop3);
  return isa::print(shown);
}

BinaryDecode decode_binary(Arch arch, const uint8_t* p, uint64_t available, uint64_t pc, BinaryInst& out, std::string& why) {
  out = BinaryInst{};
  out.mi.address = pc;
  Decoder d{arch, Reader{p, available, pc}, pc, nullptr, out};
  try {
    d.r.need(4);
    d.w0 = d.r.word(0);
    const Format f = format_of(d.w0);
    if (f == Format::Unknown) {
      // EXP (110001) and VINTRP (110010) are graphics formats: no compute instruction, not in the table.
      const uint32_t top = field(d.w0, 31, 26);
      if (top == 0x31 || top == 0x32)
        invalid("word " + hex(d.w0) + " is an " + (top == 0x31 ? "EXP" : "VINTRP") +
                " (graphics) instruction, which the instruction table does not list");
      invalid("word " + hex(d.w0) + " is in no GFX9 microcode format (CDNA3 ISA guide, chapter Microcode Formats)");
    }
    if (available >= 8) d.w1 = d.r.word(1);
    const OpcodeMap& map = opcode_map(arch);
    const uint32_t opcode = opcode_field(f, d.w0);
    const OpcodeEntry* e = map.find(f, opcode);
    if (!e)
      invalid(std::string(format_name(f)) + " opcode " + std::to_string(opcode) + " is not an instruction of " +
              std::string(arch_name(arch)) + " (valid: the " + std::to_string(map.by_format[size_t(f)].size()) + " " +
              format_name(f) + " opcodes of the instruction table's rows for this arch)");
    d.row = &isa::info(e->opcode);
    out.mi.info = d.row;
    switch (f) {
      case Format::SOP2: d.sop2(); break;
      case Format::SOPK: d.sopk(); break;
      case Format::SOP1: d.sop1(); break;
      case Format::SOPC: d.sopc(); break;
      case Format::SOPP: d.sopp(); break;
      case Format::SMEM: d.smem(); break;
      case Format::VOP2: case Format::VOP1: case Format::VOPC: d.vop_e32(f); break;
      case Format::VOP3: d.vop3(e->promoted); break;
      case Format::VOP3P: d.vop3p(); break;
      case Format::DS: d.ds(); break;
      case Format::FLAT: case Format::GLOBAL: case Format::SCRATCH: d.flat(f); break;
      case Format::MUBUF: d.buffer(false); break;
      case Format::MTBUF: d.buffer(true); break;
      case Format::Unknown: break;
    }
    out.mi.mnemonic = printed_mnemonic(arch, *d.row, f, out);
    out.size = d.r.size;
    out.mi.size_bytes = out.size;
    return BinaryDecode::Decoded;
  } catch (const Stop& s) {
    why = s.why;
    out.cut_off = s.cut_off;
    // The error covers the instruction as far as its format says (at least its first dword).
    out.size = uint8_t(std::min<uint64_t>(s.cut_off ? s.size : d.r.size, available));
    return s.kind;
  }
}

}  // namespace cdnajit::sim
