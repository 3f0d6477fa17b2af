// Builds LLVM MCInsts straight from physical MachineInsts, so the hot path of
// a build never prints and re-parses instruction text.
//
// What an instruction becomes (LLVM opcode number, operand list, implicit and
// tied operands, modifier immediates) is not hand-written here: it is asked of
// LLVM's own AMDGPU matcher, once per instruction *shape* (mnemonic, operand
// kinds and widths, special registers, immediate range class, modifiers), by
// assembling that shape twice with two different sets of probe registers and
// immediates. The first result is the template; each MCInst operand that
// carries a probe value becomes a slot filled from the MachineInst later. The
// second result must equal the template with the second probe set filled in,
// or the shape is not used (the caller assembles that instruction's text).
// Rows added to the ISA table later need nothing here: their shapes are learned
// the first time they are seen.
//
// Templates are cached per thread and arch for the life of the process.
// Private to jit/asm.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "jit/codeobject/llvm_fwd.hpp"
#include "jit/isa/machine_inst.hpp"

namespace cdnajit {

class McInstEncoder {
 public:
  static McInstEncoder& for_arch(Arch arch);  // this thread's encoder for `arch`
  ~McInstEncoder();

  // Learns, in one batch, the shapes of `prog` not seen before. Cheap when all are known.
  void learn(const std::vector<isa::MachineInst>& prog);
  // A learned shape with a verified template.
  struct Shape;
  // mi's verified shape, or null if it has none (never learned, LLVM rejected
  // it, or it failed the second probe): that instruction needs its text.
  const Shape* shape_of(const isa::MachineInst& mi);
  // learn(prog), then shape_of() of every instruction, with one shape key each. With
  // `first_same` (isa/same_instruction.hpp), an instruction equal to an earlier one takes its shape.
  std::vector<const Shape*> shapes_of(const std::vector<isa::MachineInst>& prog,
                                      const std::vector<uint32_t>* first_same = nullptr);
  // Fills `out` from `shape` (= shape_of(mi)) and mi's registers, immediates and
  // label; false if a register has no LLVM number. Labels become symbols of `context`.
  bool build(const Shape& shape, const isa::MachineInst& mi, llvm::MCContext& context, llvm::MCInst& out);

  struct ShapeReport {
    bool direct = false;
    std::string opcode;   // LLVM's opcode name, e.g. "V_ADD_F32_e32_vi" (empty if none)
    std::string why_not;  // for !direct: what went wrong
  };
  // Learns mi's shape if needed and says what it maps to.
  ShapeReport describe(const isa::MachineInst& mi);
  size_t shapes_known() const;

  struct Impl;
 private:
  explicit McInstEncoder(Arch arch);
  std::unique_ptr<Impl> impl_;
};

}  // namespace cdnajit
