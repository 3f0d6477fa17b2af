// The `.amdgpu_metadata` note of one kernel emitted straight into the object
// streamer, without rendering the YAML and letting LLVM's assembler parse it
// back: the same msgpack document LLVM would build from
// render_amdgpu_metadata()'s text, checked by LLVM's own metadata verifier, in
// the same `.note` record. The text (render_amdgpu_metadata) stays the
// reference: test_direct_encoding requires byte-identical objects from both.
// Used by the in-process assembler (jit/asm/direct_assemble.cpp).
#pragma once
#include <string>

#include "jit/codeobject/kernel_descriptor_emit.hpp"
#include "jit/codeobject/llvm_fwd.hpp"

namespace cdnajit {

// True if every string of `k`'s metadata (kernel name; argument names, type
// names and, for buffers, address spaces) is plain (letters, digits, `_ . $ *`),
// so that LLVM's assembler reads the rendered YAML back to exactly these
// strings (no comment character, quote or space to re-lex); other kernels keep
// the text metadata.
bool metadata_note_supported(const KernelDescriptorSpec& k);

// Emits the metadata note of `k` (validated, metadata_note_supported) as
// LLVM's AMDGPU target streamer does for `.amdgpu_metadata`. Returns true and
// fills `error` if LLVM's metadata verifier rejects the document.
bool emit_metadata_note(llvm::MCStreamer& streamer, llvm::MCContext& context, const KernelDescriptorSpec& k,
                        std::string& error);

}  // namespace cdnajit
