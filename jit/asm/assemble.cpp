#include "jit/asm/assemble.hpp"

#include <array>
#include <memory>
#include <mutex>

#include "jit/asm/target_id.hpp"
#include "llvm/ADT/SmallString.h"
#include "llvm/MC/MCAsmBackend.h"
#include "llvm/MC/MCAsmInfo.h"
#include "llvm/MC/MCCodeEmitter.h"
#include "llvm/MC/MCContext.h"
#include "llvm/MC/MCInstrInfo.h"
#include "llvm/MC/MCObjectFileInfo.h"
#include "llvm/MC/MCObjectWriter.h"
#include "llvm/MC/MCParser/MCAsmParser.h"
#include "llvm/MC/MCParser/MCTargetAsmParser.h"
#include "llvm/MC/MCRegisterInfo.h"
#include "llvm/MC/MCStreamer.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/MCTargetOptions.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/Triple.h"

namespace cdnajit {
namespace {

// Registers the AMDGPU target with LLVM's registry exactly once per process.
void initialize_amdgpu_target() {
  static std::once_flag once;
  std::call_once(once, [] {
    LLVMInitializeAMDGPUTargetInfo();
    LLVMInitializeAMDGPUTargetMC();
    LLVMInitializeAMDGPUAsmParser();
  });
}

// The MC objects that do not depend on the input text. Built once per thread
// and arch: sharing them across threads would need a lock around every call,
// while a per-thread copy costs a few milliseconds once per thread.
struct ArchMC {
  llvm::Triple triple{std::string(kAmdgpuTriple)};
  const llvm::Target* target = nullptr;
  llvm::MCTargetOptions options;
  std::unique_ptr<llvm::MCRegisterInfo> register_info;
  std::unique_ptr<llvm::MCAsmInfo> asm_info;
  std::unique_ptr<llvm::MCInstrInfo> instr_info;
  std::unique_ptr<llvm::MCSubtargetInfo> subtarget;
  std::string setup_error;  // non-empty if the target could not be created
};

std::unique_ptr<ArchMC> make_arch_mc(Arch arch) {
  initialize_amdgpu_target();
  auto mc = std::make_unique<ArchMC>();
  std::string error;
  mc->target = llvm::TargetRegistry::lookupTarget(mc->triple, error);
  if (!mc->target) {
    mc->setup_error = "LLVM has no AMDGPU target: " + error;
    return mc;
  }
  mc->register_info.reset(mc->target->createMCRegInfo(mc->triple));
  if (mc->register_info)
    mc->asm_info.reset(mc->target->createMCAsmInfo(*mc->register_info, mc->triple, mc->options));
  mc->instr_info.reset(mc->target->createMCInstrInfo());
  mc->subtarget.reset(
      mc->target->createMCSubtargetInfo(mc->triple, std::string(mcpu_name(arch)), ""));
  if (!mc->register_info || !mc->asm_info || !mc->instr_info || !mc->subtarget)
    mc->setup_error = "LLVM could not create the MC objects for " + std::string(mcpu_name(arch));
  return mc;
}

const ArchMC& arch_mc(Arch arch) {
  thread_local std::array<std::unique_ptr<ArchMC>, 2> per_arch;
  auto& slot = per_arch[static_cast<size_t>(arch)];
  if (!slot) slot = make_arch_mc(arch);
  return *slot;
}

AsmDiagnostic to_diagnostic(const llvm::SMDiagnostic& d) {
  AsmDiagnostic out;
  out.line = d.getLineNo() > 0 ? d.getLineNo() : 0;
  out.column = d.getLineNo() > 0 ? d.getColumnNo() + 1 : 0;
  out.message = d.getMessage().str();
  out.line_text = d.getLineContents().str();
  out.is_error = d.getKind() == llvm::SourceMgr::DK_Error;
  return out;
}

void add_diagnostic(std::vector<AsmDiagnostic>& diags, const llvm::SMDiagnostic& d) {
  diags.push_back(to_diagnostic(d));
}

bool has_error(const std::vector<AsmDiagnostic>& diags) {
  for (const auto& d : diags)
    if (d.is_error) return true;
  return false;
}

AsmResult failure(std::string message) {
  AsmResult r;
  r.diagnostics.push_back({0, 0, std::move(message), "", true});
  return r;
}

}  // namespace

AsmResult assemble(std::string_view asm_text, Arch arch) {
  if (arch != Arch::gfx942 && arch != Arch::gfx950)
    return failure("assemble: unknown Arch value " + std::to_string(static_cast<int>(arch)) +
                   " (valid: gfx942, gfx950)");
  const ArchMC& mc = arch_mc(arch);
  if (!mc.setup_error.empty()) return failure(mc.setup_error);

  AsmResult result;
  llvm::SourceMgr source;
  // Copy: LLVM's lexer wants a NUL-terminated buffer, a string_view is not.
  source.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(llvm::StringRef(asm_text.data(), asm_text.size()),
                                           "<cdnajit>"),
      llvm::SMLoc());
  source.setDiagHandler(
      [](const llvm::SMDiagnostic& d, void* ctx) {
        add_diagnostic(*static_cast<std::vector<AsmDiagnostic>*>(ctx), d);
      },
      &result.diagnostics);

  llvm::MCContext context(mc.triple, mc.asm_info.get(), mc.register_info.get(),
                          mc.subtarget.get(), &source, &mc.options);
  // Errors found after parsing (fixups, object writing) go through the
  // context; route them to the same list instead of stderr.
  context.setDiagnosticHandler([&result](const llvm::SMDiagnostic& d, bool, const llvm::SourceMgr&,
                                         std::vector<const llvm::MDNode*>&) {
    add_diagnostic(result.diagnostics, d);
  });
  std::unique_ptr<llvm::MCObjectFileInfo> file_info(
      mc.target->createMCObjectFileInfo(context, /*PIC=*/true));
  context.setObjectFileInfo(file_info.get());

  llvm::SmallString<0> buffer;
  llvm::raw_svector_ostream out(buffer);
  llvm::MCCodeEmitter* emitter = mc.target->createMCCodeEmitter(*mc.instr_info, context);
  llvm::MCAsmBackend* backend =
      mc.target->createMCAsmBackend(*mc.subtarget, *mc.register_info, mc.options);
  if (!emitter || !backend) {
    delete emitter;
    delete backend;
    return failure("LLVM could not create the AMDGPU code emitter / asm backend");
  }
  std::unique_ptr<llvm::MCObjectWriter> writer = backend->createObjectWriter(out);
  std::unique_ptr<llvm::MCStreamer> streamer(mc.target->createMCObjectStreamer(
      mc.triple, context, std::unique_ptr<llvm::MCAsmBackend>(backend), std::move(writer),
      std::unique_ptr<llvm::MCCodeEmitter>(emitter), *mc.subtarget));
  std::unique_ptr<llvm::MCAsmParser> parser(
      llvm::createMCAsmParser(source, context, *streamer, *mc.asm_info));
  std::unique_ptr<llvm::MCTargetAsmParser> target_parser(
      mc.target->createMCAsmParser(*mc.subtarget, *parser, *mc.instr_info, mc.options));
  if (!target_parser) return failure("LLVM could not create the AMDGPU assembly parser");
  parser->setTargetParser(*target_parser);

  bool parse_failed = parser->Run(/*NoInitialTextSection=*/false);
  if (parse_failed || context.hadError() || has_error(result.diagnostics)) {
    if (!has_error(result.diagnostics))
      result.diagnostics.push_back({0, 0, "assembly failed without a diagnostic", "", true});
    result.ok = false;
    return result;
  }
  result.ok = true;
  result.object.assign(buffer.begin(), buffer.end());
  return result;
}

std::string format_diagnostics(const std::vector<AsmDiagnostic>& diagnostics) {
  std::string s;
  for (const auto& d : diagnostics) {
    if (d.line > 0)
      s += "line " + std::to_string(d.line) + ":" + std::to_string(d.column) + ": ";
    s += d.is_error ? "error: " : "warning: ";
    s += d.message;
    s += '\n';
    if (!d.line_text.empty()) {
      s += "    " + d.line_text + '\n';
      if (d.column > 0) s += "    " + std::string(static_cast<size_t>(d.column - 1), ' ') + "^\n";
    }
  }
  return s;
}

}  // namespace cdnajit
