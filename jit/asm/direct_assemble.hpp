// Assembles a kernel from its physical instructions without printing and
// re-parsing them: LLVM's parser reads only the framing text (file header,
// code symbol, `.amdhsa_kernel` descriptor, metadata, labels, raw lines), and
// every instruction with a verified MCInst template (mcinst_encoder.hpp) is
// handed to the same object streamer as an MCInst. Instructions without one are
// assembled from their text in place, and counted. The text path (assemble())
// stays the reference: tests require byte-identical objects from both.
#pragma once
#include <string_view>
#include <vector>

#include "jit/asm/assemble.hpp"
#include "jit/codeobject/kernel_descriptor_emit.hpp"
#include "jit/isa/machine_inst.hpp"

namespace cdnajit {

struct DirectAsmResult {
  AsmResult result;        // as assemble() returns it
  int direct_insts = 0;    // emitted as MCInsts built from templates
  int text_insts = 0;      // table instructions assembled from their text (no template for their shape)
  int raw_lines = 0;       // raw-escape lines (always text)
  bool metadata_direct = false;  // the metadata note was emitted without its YAML text
};

// `head` + the instructions of `prog` + `tail` is the text assemble() would get
// (render_kernel_file's pieces: header and code framing, then code end,
// descriptor and metadata). With `metadata` (validated), `tail` stops before
// the metadata and the kernel's metadata note follows it: emitted directly
// (metadata_note.hpp) when its strings allow, else as render_amdgpu_metadata()
// text. An instruction isa::validate rejects is an error diagnostic (line 0, the message
// and the instruction's text) and nothing is assembled. Never throws for bad input: see AsmResult.
// `validated`: the caller has run isa::validate on every instruction of `prog` already (the
// builder does, to name call sites), so it is not run twice. `first_same`
// (isa/same_instruction.hpp), if given: an instruction equal to an earlier one takes that one's
// template without looking it up again, and is emitted from that one's MCInst.
DirectAsmResult assemble_direct(std::string_view head, const std::vector<isa::MachineInst>& prog,
                                std::string_view tail, Arch arch, const KernelDescriptorSpec* metadata = nullptr,
                                bool validated = false, const std::vector<uint32_t>* first_same = nullptr);

}  // namespace cdnajit
