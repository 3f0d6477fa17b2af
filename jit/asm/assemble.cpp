#include "jit/asm/assemble.hpp"

#include <algorithm>
#include <array>
#include <memory>
#include <optional>

#include "jit/asm/assemble_hook.hpp"
#include "jit/asm/mc_arch.hpp"
#include "jit/asm/memo_code_emitter.hpp"
#include "jit/codeobject/target_id.hpp"
#include "llvm/ADT/SmallString.h"
#include "llvm/MC/MCAsmBackend.h"
#include "llvm/MC/MCAsmInfo.h"
#include "llvm/MC/MCCodeEmitter.h"
#include "llvm/MC/MCContext.h"
#include "llvm/MC/MCInstrInfo.h"
#include "llvm/MC/MCObjectFileInfo.h"
#include "llvm/MC/MCObjectWriter.h"
#include "llvm/MC/MCParser/MCAsmParser.h"
#include "llvm/MC/MCParser/MCAsmParserExtension.h"
#include "llvm/MC/MCParser/MCTargetAsmParser.h"
#include "llvm/MC/MCRegisterInfo.h"
#include "llvm/MC/MCStreamer.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/MCTargetOptions.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/YAMLParser.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/Triple.h"

namespace cdnajit {
namespace {

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

// Finds `.amdgpu_metadata` ... `.end_amdgpu_metadata` and checks that the
// YAML between them parses. The AMDGPU parser reads that YAML with an LLVM
// YAML reader that prints syntax errors straight to stderr; checking first
// keeps those messages in our diagnostics (with lines of the whole text) and
// stderr quiet. Schema problems are left to the target parser, which
// reports them through the normal diagnostic path.
bool metadata_yaml_parses(std::string_view text, std::vector<AsmDiagnostic>& diags) {
  auto directive_line_end = [&](size_t from, std::string_view directive) -> size_t {
    for (size_t pos = text.find(directive, from); pos != std::string_view::npos;
         pos = text.find(directive, pos + 1)) {
      size_t line_start = text.rfind('\n', pos);
      line_start = line_start == std::string_view::npos ? 0 : line_start + 1;
      bool only_space_before = text.substr(line_start, pos - line_start).find_first_not_of(" \t") ==
                               std::string_view::npos;
      size_t after = pos + directive.size();
      bool ends_word = after == text.size() || text[after] == '\n' || text[after] == ' ' ||
                       text[after] == '\t' || text[after] == '\r' || text[after] == ';';
      if (only_space_before && ends_word) return after;
    }
    return std::string_view::npos;
  };
  size_t from = 0;
  while (true) {
    size_t begin = directive_line_end(from, ".amdgpu_metadata");
    if (begin == std::string_view::npos) return true;
    begin = text.find('\n', begin);
    if (begin == std::string_view::npos) return true;
    ++begin;
    size_t end = directive_line_end(begin, ".end_amdgpu_metadata");
    if (end == std::string_view::npos) return true;  // the target parser reports the missing end
    size_t block_end = text.rfind('\n', end);
    std::string_view block = text.substr(begin, block_end > begin ? block_end - begin : 0);
    int first_line = 1 + static_cast<int>(std::count(text.begin(), text.begin() + begin, '\n'));

    llvm::SourceMgr yaml_source;
    struct Ctx {
      std::vector<AsmDiagnostic>* diags;
      int line_offset;
      bool failed;
    } ctx{&diags, first_line - 1, false};
    yaml_source.setDiagHandler(
        [](const llvm::SMDiagnostic& d, void* p) {
          auto* c = static_cast<Ctx*>(p);
          AsmDiagnostic out = to_diagnostic(d);
          if (out.line > 0) out.line += c->line_offset;
          out.message = "in .amdgpu_metadata YAML: " + out.message;
          c->failed |= out.is_error;
          c->diags->push_back(std::move(out));
        },
        &ctx);
    llvm::yaml::Stream stream(llvm::StringRef(block.data(), block.size()), yaml_source, false);
    bool valid = stream.validate();
    if (!valid || ctx.failed) {
      if (!ctx.failed) diags.push_back({first_line, 1, "in .amdgpu_metadata YAML: invalid YAML", "", true});
      return false;
    }
    from = end;
  }
}

AsmResult failure(std::string message) {
  AsmResult r;
  r.diagnostics.push_back({0, 0, std::move(message), "", true});
  return r;
}

// Hands every `hook.name` statement to the caller, who emits straight into
// the streamer the rest of the text goes to (direct_assemble.cpp).
class HookExtension : public llvm::MCAsmParserExtension {
 public:
  explicit HookExtension(const DirectiveHook& hook) : hook_(hook) {}
  void Initialize(llvm::MCAsmParser& parser) override {
    MCAsmParserExtension::Initialize(parser);
    parser.addDirectiveHandler(llvm::StringRef(hook_.name.data(), hook_.name.size()),
                               std::make_pair(this, &HookExtension::handle));
  }

 private:
  static bool handle(llvm::MCAsmParserExtension* self, llvm::StringRef, llvm::SMLoc loc) {
    auto* ext = static_cast<HookExtension*>(self);
    if (ext->getParser().parseEOL()) return true;
    std::string error;
    if (ext->hook_.emit(ext->getStreamer(), ext->getContext(), error)) return ext->Error(loc, error);
    return false;
  }
  const DirectiveHook& hook_;
};

}  // namespace

AsmResult assemble(std::string_view asm_text, Arch arch) { return assemble_with_hooks(asm_text, arch, {}); }

AsmResult assemble_with_hooks(std::string_view asm_text, Arch arch, std::span<const DirectiveHook> hooks) {
  if (arch != Arch::gfx942 && arch != Arch::gfx950)
    return failure("assemble: unknown Arch value " + std::to_string(static_cast<int>(arch)) +
                   " (valid: gfx942, gfx950)");
  const ArchMC& mc = arch_mc(arch);
  if (!mc.setup_error.empty()) return failure(mc.setup_error);

  AsmResult result;
  if (!metadata_yaml_parses(asm_text, result.diagnostics)) return result;

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

  llvm::MCContext context(*mc.triple, mc.asm_info.get(), mc.register_info.get(),
                          mc.subtarget.get(), &source, mc.options.get());
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
      mc.target->createMCAsmBackend(*mc.subtarget, *mc.register_info, *mc.options);
  if (!emitter || !backend) {
    delete emitter;
    delete backend;
    return failure("LLVM could not create the AMDGPU code emitter / asm backend");
  }
  std::unique_ptr<llvm::MCObjectWriter> writer = backend->createObjectWriter(out);
  // The emitter answers an instruction it has encoded before from its bytes (same bytes).
  std::unique_ptr<llvm::MCStreamer> streamer(mc.target->createMCObjectStreamer(
      *mc.triple, context, std::unique_ptr<llvm::MCAsmBackend>(backend), std::move(writer),
      memo_code_emitter(std::unique_ptr<llvm::MCCodeEmitter>(emitter)), *mc.subtarget));
  std::unique_ptr<llvm::MCAsmParser> parser(
      llvm::createMCAsmParser(source, context, *streamer, *mc.asm_info));
  std::unique_ptr<llvm::MCTargetAsmParser> target_parser(
      mc.target->createMCAsmParser(*mc.subtarget, *parser, *mc.instr_info, *mc.options));
  if (!target_parser) return failure("LLVM could not create the AMDGPU assembly parser");
  parser->setTargetParser(*target_parser);
  std::vector<std::unique_ptr<HookExtension>> extensions;
  for (const DirectiveHook& hook : hooks) {
    extensions.push_back(std::make_unique<HookExtension>(hook));
    extensions.back()->Initialize(*parser);
  }

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
      if (d.column > 0) {
        // Keep tabs so the caret lines up under the same column as the text.
        std::string pad;
        for (size_t i = 0; i + 1 < static_cast<size_t>(d.column) && i < d.line_text.size(); ++i)
          pad += d.line_text[i] == '\t' ? '\t' : ' ';
        s += "    " + pad + "^\n";
      }
    }
  }
  return s;
}

}  // namespace cdnajit
