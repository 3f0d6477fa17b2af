#include "jit/asm/direct_assemble.hpp"

#include "jit/asm/assemble_hook.hpp"
#include "jit/asm/mc_arch.hpp"
#include "jit/asm/mcinst_encoder.hpp"
#include "jit/codeobject/metadata_note.hpp"
#include "jit/isa/validate.hpp"
#include "llvm/MC/MCInst.h"
#include "llvm/MC/MCStreamer.h"
#include "llvm/MC/MCSubtargetInfo.h"

namespace cdnajit {

namespace {
constexpr std::string_view kRunDirective = ".cdnajit_run";
constexpr std::string_view kMetadataDirective = ".cdnajit_metadata";
}  // namespace

DirectAsmResult assemble_direct(std::string_view head, const std::vector<isa::MachineInst>& prog,
                                std::string_view tail, Arch arch, const KernelDescriptorSpec* metadata,
                                bool validated, const std::vector<uint32_t>* first_same) {
  DirectAsmResult out;
  if (arch != Arch::gfx942 && arch != Arch::gfx950) {
    out.result = assemble(head, arch);  // reports the bad arch the same way
    return out;
  }
  // The table's legality check first (isa::validate): a template is learned from probe
  // registers and immediates, so it would encode values LLVM's parser rejects (a misaligned
  // tuple, a second SGPR on the constant bus, an offset outside its field).
  std::string why;
  for (const isa::MachineInst& mi : prog)
    if (!validated && mi.info && mi.label_def.empty() && !isa::validate(mi, arch, why))
      out.result.diagnostics.push_back({0, 0, why, isa::print(mi), true});
  if (!out.result.diagnostics.empty()) return out;
  McInstEncoder& encoder = McInstEncoder::for_arch(arch);
  const std::vector<const McInstEncoder::Shape*> shapes = encoder.shapes_of(prog, first_same);

  // The framing text, with one `.cdnajit_run` line per run of consecutive
  // directly encodable instructions; runs[i] lists the instructions of run i.
  std::string text(head);
  using Item = std::pair<const McInstEncoder::Shape*, size_t>;  // the shape and the instruction's index
  std::vector<std::vector<Item>> runs;
  bool in_run = false;
  for (size_t i = 0; i < prog.size(); ++i) {
    const isa::MachineInst& mi = prog[i];
    if (!mi.label_def.empty()) {
      text += mi.label_def;
      text += ":\n";
      in_run = false;
    } else if (!mi.info && mi.raw.empty()) {
      continue;  // comment line
    } else if (!mi.info) {
      text += "  " + mi.raw + "\n";
      ++out.raw_lines;
      in_run = false;
    } else if (const McInstEncoder::Shape* shape = shapes[i]) {
      if (!in_run) {
        text += kRunDirective;
        text += '\n';
        runs.emplace_back();
        in_run = true;
      }
      runs.back().emplace_back(shape, i);
      ++out.direct_insts;
    } else {
      isa::MachineInst bare = mi;
      bare.comment.clear();
      text += "  " + isa::print(bare) + "\n";
      ++out.text_insts;
      in_run = false;
    }
  }
  text += tail;
  if (metadata && metadata_note_supported(*metadata)) {
    text += kMetadataDirective;
    text += '\n';
    out.metadata_direct = true;
  } else if (metadata) {
    text += render_amdgpu_metadata(std::span(metadata, 1));
  }

  const llvm::MCSubtargetInfo& sti = *arch_mc(arch).subtarget;
  // The MCInst of each distinct instruction, filled from its template once: an instruction equal
  // to an earlier one (first_same) is emitted from the earlier one's MCInst (equal instructions
  // fill equal MCInsts; a label operand names the same symbol of this assembly's context).
  // This thread's buffer, reused by every build; entries of an earlier build are overwritten
  // before they are read (their label expressions belong to a context that is gone).
  thread_local std::vector<llvm::MCInst> built_buffer;
  std::vector<llvm::MCInst>& built = built_buffer;
  size_t built_count = 0;
  std::vector<int32_t> built_of(prog.size(), -1);  // per instruction: its entry in `built`
  const std::vector<uint32_t>* same = first_same && first_same->size() == prog.size() ? first_same : nullptr;
  size_t next_run = 0;
  DirectiveHook hooks[2] = {{kRunDirective, [&](llvm::MCStreamer& streamer, llvm::MCContext& context, std::string& error) {
                       if (next_run >= runs.size()) {
                         error = "more instruction runs in the text than were prepared";
                         return true;
                       }
                       for (const auto& [shape, i] : runs[next_run]) {
                         const size_t f = same && (*same)[i] < i ? (*same)[i] : i;
                         if (built_of[f] < 0) {
                           if (built_count == built.size()) built.emplace_back();
                           if (!encoder.build(*shape, prog[i], context, built[built_count])) {
                             error = "a register of '" + isa::print(prog[i]) + "' has no LLVM register number";
                             return true;
                           }
                           built_of[f] = int32_t(built_count++);
                         }
                         streamer.emitInstruction(built[size_t(built_of[f])], sti);
                       }
                       ++next_run;
                       return false;
                     }},
                            {kMetadataDirective,
                             [&](llvm::MCStreamer& streamer, llvm::MCContext& context, std::string& error) {
                               return emit_metadata_note(streamer, context, *metadata, error);
                             }}};
  out.result = assemble_with_hooks(text, arch, std::span(hooks, out.metadata_direct ? 2 : 1));
  return out;
}

}  // namespace cdnajit
