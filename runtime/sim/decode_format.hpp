// The GFX9 microcode formats gfx942 / gfx950 use: which format an instruction word is in, and
// where its opcode field lies. Source: AMD "Instinct MI300" ISA Reference Guide (CDNA3), chapter
// "Microcode Formats": its sections on the scalar ALU and control formats (SOP2, SOPK, SOP1, SOPC,
// SOPP), the scalar memory format (SMEM), the vector ALU formats (VOP2, VOP1, VOPC, VOP3A/VOP3B,
// VOP3P incl. the MAI form used by the MFMAs, SDWA, DPP), the LDS format (DS), the vector memory
// buffer formats (MUBUF, MTBUF) and the flat formats (FLAT, GLOBAL, SCRATCH); the CDNA4 guide's
// same chapter for gfx950 (same layouts, plus VOP3PX). The opcode numbers themselves are not
// written here: decode_opcode_map.cpp learns them from LLVM.
#pragma once
#include <cstdint>

namespace cdnajit::sim {

enum class Format : uint8_t {
  SOP2, SOPK, SOP1, SOPC, SOPP, SMEM,
  VOP2, VOP1, VOPC, VOP3, VOP3P,
  DS, FLAT, GLOBAL, SCRATCH, MUBUF, MTBUF,
  Unknown,
};
constexpr int kFormatCount = int(Format::Unknown);

constexpr uint32_t field(uint32_t word, int hi, int lo) { return (word >> lo) & ((hi - lo == 31) ? ~0u : ((1u << (hi - lo + 1)) - 1)); }

// The format of an instruction from its first dword: the fixed "encoding" bits at the top of
// each layout (the longer patterns are tested first, as they are carved out of the shorter ones).
constexpr Format format_of(uint32_t w) {
  switch (field(w, 31, 23)) {
    case 0x17d: return Format::SOP1;   // 10_1111101
    case 0x17e: return Format::SOPC;   // 10_1111110
    case 0x17f: return Format::SOPP;   // 10_1111111
    case 0x1a7: return Format::VOP3P;  // 110100_111
    default: break;
  }
  if (field(w, 31, 28) == 0xb) return Format::SOPK;  // 1011
  if (field(w, 31, 30) == 0x2) return Format::SOP2;  // 10
  if (field(w, 31, 25) == 0x3f) return Format::VOP1;  // 0_111111
  if (field(w, 31, 25) == 0x3e) return Format::VOPC;  // 0_111110
  if (field(w, 31, 31) == 0) return Format::VOP2;     // 0
  switch (field(w, 31, 26)) {
    case 0x30: return Format::SMEM;   // 110000
    case 0x34: return Format::VOP3;   // 110100
    case 0x36: return Format::DS;     // 110110
    case 0x37:                        // 110111: FLAT, told apart by SEG (bits 15:14)
      switch (field(w, 15, 14)) {
        case 0: return Format::FLAT;
        case 1: return Format::SCRATCH;
        case 2: return Format::GLOBAL;
        default: return Format::Unknown;
      }
    case 0x38: return Format::MUBUF;  // 111000
    case 0x3a: return Format::MTBUF;  // 111010
    default: return Format::Unknown;
  }
}

// The opcode field of a format.
constexpr uint32_t opcode_field(Format f, uint32_t w) {
  switch (f) {
    case Format::SOP2: return field(w, 29, 23);
    case Format::SOPK: return field(w, 27, 23);
    case Format::SOP1: return field(w, 15, 8);
    case Format::SOPC: return field(w, 22, 16);
    case Format::SOPP: return field(w, 22, 16);
    case Format::SMEM: return field(w, 25, 18);
    case Format::VOP2: return field(w, 30, 25);
    case Format::VOP1: return field(w, 16, 9);
    case Format::VOPC: return field(w, 24, 17);
    case Format::VOP3: return field(w, 25, 16);
    case Format::VOP3P: return field(w, 22, 16);
    case Format::DS: return field(w, 24, 17);
    case Format::FLAT: case Format::GLOBAL: case Format::SCRATCH: return field(w, 24, 18);
    case Format::MUBUF: return field(w, 24, 18);
    case Format::MTBUF: return field(w, 18, 15);
    case Format::Unknown: break;
  }
  return 0;
}

constexpr const char* format_name(Format f) {
  constexpr const char* names[] = {"SOP2", "SOPK", "SOP1", "SOPC", "SOPP", "SMEM", "VOP2", "VOP1", "VOPC",
                                   "VOP3", "VOP3P", "DS", "FLAT", "GLOBAL", "SCRATCH", "MUBUF", "MTBUF", "unknown"};
  return names[int(f)];
}

}  // namespace cdnajit::sim
