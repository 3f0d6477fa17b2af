// Kernel::Impl: the virtual-register program a Kernel builds. Private to jit/.
#pragma once
#include <source_location>
#include <string>
#include <vector>

#include "jit/digested_list.hpp"
#include "jit/kernel.hpp"

namespace cdnajit {

struct VRegDecl {
  RegClass cls;
  uint16_t dwords;
  uint16_t align;
  int pinned = -1;        // ABI registers
  bool live_in = false;   // defined by the hardware at entry
  std::string name;
  // Where it was declared: formatted ("file.cpp:42", where()) only for a message that quotes it.
  std::source_location origin;
};

struct ArgDecl {
  std::string name;
  ArgType type;
  ElemType elem = ElemType::u8;  // pointee, for pointers
  bool is_const = false;
  Arg arg;
};

// One entry of the program: an instruction, a raw line or a label.
struct IrInst {
  const isa::InstrInfo* info = nullptr;  // table entry; null for raw text and labels
  std::vector<Opnd> ops;                 // operands only (modifiers folded into mods)
  isa::Modifiers mods;
  // The defs keep some lanes' old values (a DPP control that may not write every lane: masks, or
  // out-of-range source lanes without bound_ctrl), so the allocator treats them as read too.
  bool defs_also_read = false;
  std::source_location loc;
  std::string comment;
  // raw escape
  std::string raw_text;
  std::vector<Reg> raw_regs;
  std::vector<int> raw_defs;
  // label definition
  uint32_t label = UINT32_MAX;
  bool is_label() const { return label != UINT32_MAX; }
  bool is_raw() const { return info == nullptr && !is_label(); }
};

// Digests of an entry's fields (jit/program_hash.cpp), kept beside the entries by DigestedList.
ProgramHash digest_of(const VRegDecl& v);
ProgramHash digest_of(const IrInst& in);

struct Kernel::Impl {
  std::string name;
  Arch arch;
  std::source_location created_at;
  uint32_t wg_size[3] = {256, 1, 1};
  // Entries change only through DigestedList::modify(), which keeps their digests current.
  DigestedList<VRegDecl> vregs;
  std::vector<ArgDecl> args;
  uint32_t kernarg_bytes = 0;
  DigestedList<IrInst> program;
  std::vector<std::string> label_names;
  std::vector<bool> label_bound;
  uint32_t lds_bytes = 0;
  // ABI value vregs created on first request
  int kernarg_vreg = -1;
  int wg_id_vreg[3] = {-1, -1, -1};
  int tid_vreg = -1;
  int workitem_dims = 1;  // how many workitem id dims the kernel reads (1..3)

  uint32_t new_vreg(RegClass c, int dwords, int align, std::string name, const std::source_location& loc);
  Reg reg_of(uint32_t id) const;
  std::string reg_label(const Reg& r) const;   // "acc[3]" / "x.slice(0,2)" for comments
  void append_reg_label(std::string& out, const Reg& r) const;  // reg_label(r) appended to `out`
};

}  // namespace cdnajit
