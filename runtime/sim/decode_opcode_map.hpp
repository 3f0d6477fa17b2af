// Opcode numbers of the instruction table's rows per microcode format and arch, learned from
// LLVM instead of being typed per instruction (decode_opcode_learn.hpp). The build learns them
// (gen_opcode_map, run whenever jit/isa/instructions.def or the learner changes) into a generated
// table, decode_opcode_map.inc, which opcode_map() turns into lookup maps at first use.
#pragma once
#include <array>
#include <bitset>
#include <string>
#include <unordered_map>

#include "jit/isa/opcode.hpp"
#include "runtime/sim/decode_format.hpp"

namespace cdnajit::sim {

struct OpcodeEntry {
  isa::Opcode opcode = isa::Opcode::Count;
  bool promoted = false;  // a VOP1 / VOP2 / VOPC row in the VOP3 encoding (printed with _e64)
};

struct OpcodeMap {
  std::array<std::unordered_map<uint32_t, OpcodeEntry>, kFormatCount> by_format;
  std::bitset<isa::kOpcodeCount> has_vop3_form;  // VOP1 / VOP2 / VOPC rows LLVM also encodes as VOP3 (_e64)
  // VOP3 rows with op_sel and fewer than three sources whose op_sel list, as LLVM spells it, has
  // the destination's entry right after the sources' (op_sel:[s0,s1,dst]): learned by assembling
  // the row with that last entry set and finding the destination's bit (OP_SEL[3]) set.
  std::bitset<isa::kOpcodeCount> op_sel_dst_follows_sources;
  // What learning found and cost (tests and the decoder's error messages read these).
  int rows = 0;            // rows of the table on this arch
  int forms_learned = 0;   // (row, form) pairs whose opcode is known
  int forms_refused = 0;   // samples LLVM does not accept (the _e64 forms of rows without a VOP3 form)
  int forms_prefixed = 0;  // gfx950 scaled MFMAs (VOP3PX: a v_mfma_ld_scale_b32 word pair, then the MFMA)
  // The scaled MFMA rows by the opcode of their second word pair (after the v_mfma_ld_scale_b32 pair).
  std::unordered_map<uint32_t, isa::Opcode> scaled_mfma;
  double build_ms = 0;     // wall time of learning, assembling included (at build time for opcode_map())
  std::string collisions;  // (format, opcode) pairs two rows claimed: empty unless the table has aliases

  const OpcodeEntry* find(Format f, uint32_t opcode) const {
    const auto& m = by_format[size_t(f)];
    auto it = m.find(opcode);
    return it == m.end() ? nullptr : &it->second;
  }
};

// The map of `arch` from the generated table, built on first use (thread-safe) and kept for the
// process.
const OpcodeMap& opcode_map(Arch arch);

// One learned fact, as the generated table lists them.
struct LearnedOpcode {
  enum Kind : uint8_t {
    Plain,           // `field` of `format` is `opcode`
    Promoted,        // the same, for a VOP1 / VOP2 / VOPC row's VOP3 (_e64) form
    ScaledMfma,      // VOP3PX: `field` is the opcode of the MFMA pair after v_mfma_ld_scale_b32
    OpSelDstFollows, // `opcode` is in op_sel_dst_follows_sources (format and field unused)
  };
  Arch arch;
  Kind kind;
  Format format;
  uint32_t field;
  isa::Opcode opcode;
};
struct LearnedCounts {  // per arch: what the learner reported
  Arch arch;
  int forms_refused;
  double build_ms;
};

}  // namespace cdnajit::sim
