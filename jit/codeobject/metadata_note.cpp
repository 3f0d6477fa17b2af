#include "jit/codeobject/metadata_note.hpp"

#include <string_view>

#include "jit/codeobject/target_id.hpp"
#include "llvm/BinaryFormat/AMDGPUMetadataVerifier.h"
#include "llvm/BinaryFormat/ELF.h"
#include "llvm/BinaryFormat/MsgPackDocument.h"
#include "llvm/MC/MCContext.h"
#include "llvm/MC/MCSectionELF.h"
#include "llvm/MC/MCStreamer.h"

namespace cdnajit {
namespace {

bool plain(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.' ||
              c == '$' || c == '*';
    if (!ok) return false;
  }
  return true;
}

// A scalar typed the way LLVM's YAML reader types it: every scalar, quoted or
// not, goes through DocNode::fromString with no tag (MsgPackDocumentYAML.cpp,
// LLVM 22), so e.g. an argument named '12' becomes an integer there too.
llvm::msgpack::DocNode scalar(llvm::msgpack::Document& doc, std::string_view text) {
  llvm::msgpack::DocNode node = doc.getEmptyNode();
  node.fromString(llvm::StringRef(text.data(), text.size()), "");
  return node;
}


// The document of render_amdgpu_metadata(k) (kernel_descriptor_emit.cpp): the
// same keys and values. Key order does not matter: a msgpack map of LLVM's
// Document is sorted by key when written.
void fill(llvm::msgpack::Document& doc, const KernelDescriptorSpec& k) {
  using llvm::msgpack::DocNode;
  auto uint = [&](uint64_t v) { return doc.getNode(v); };
  llvm::msgpack::MapDocNode root = doc.getRoot().getMap(/*Convert=*/true);
  llvm::msgpack::ArrayDocNode kernels = root["amdhsa.kernels"].getArray(/*Convert=*/true);
  llvm::msgpack::MapDocNode kn = doc.getMapNode();
  kn[".agpr_count"] = uint(k.agpr_count);
  llvm::msgpack::ArrayDocNode args = kn[".args"].getArray(/*Convert=*/true);
  for (const DescriptorArg& a : k.args) {
    llvm::msgpack::MapDocNode an = doc.getMapNode();
    an[".name"] = scalar(doc, a.name);
    an[".offset"] = uint(a.offset);
    an[".size"] = uint(a.size);
    if (a.value_kind == ArgValueKind::GlobalBuffer) {
      an[".value_kind"] = scalar(doc, "global_buffer");
      an[".address_space"] = scalar(doc, a.address_space);
      if (a.is_const) an[".is_const"] = doc.getNode(true);
    } else {
      an[".value_kind"] = scalar(doc, "by_value");
    }
    if (a.access != ArgAccess::Default) an[".actual_access"] = scalar(doc, arg_access_name(a.access));
    if (!a.type_name.empty()) an[".type_name"] = scalar(doc, a.type_name);
    args.push_back(an);
  }
  kn[".group_segment_fixed_size"] = uint(k.lds_bytes);
  kn[".kernarg_segment_align"] = uint(k.kernarg_align);
  kn[".kernarg_segment_size"] = uint(k.kernarg_size);
  kn[".max_flat_workgroup_size"] = uint(k.max_flat_workgroup_size);
  kn[".name"] = scalar(doc, k.name);
  kn[".private_segment_fixed_size"] = uint(k.private_segment_bytes);
  if (k.reqd_workgroup_size) {
    llvm::msgpack::ArrayDocNode w = kn[".reqd_workgroup_size"].getArray(/*Convert=*/true);
    for (uint32_t v : *k.reqd_workgroup_size) w.push_back(uint(v));
  }
  kn[".sgpr_count"] = uint(k.sgpr_count + extra_sgpr_count(k));
  kn[".sgpr_spill_count"] = uint(0);
  kn[".symbol"] = scalar(doc, k.name + ".kd");
  kn[".uses_dynamic_stack"] = doc.getNode(false);
  kn[".vgpr_count"] = uint(total_vgpr_count(k));
  kn[".vgpr_spill_count"] = uint(0);
  kn[".wavefront_size"] = uint(64);
  kernels.push_back(kn);
  root["amdhsa.target"] = scalar(doc, amdgcn_target_id(k.arch));
  llvm::msgpack::ArrayDocNode version = root["amdhsa.version"].getArray(/*Convert=*/true);
  version.push_back(uint(1));
  version.push_back(uint(2));
}

}  // namespace

bool metadata_note_supported(const KernelDescriptorSpec& k) {
  if (!plain(k.name)) return false;
  for (const DescriptorArg& a : k.args)
    if (!plain(a.name) || (a.value_kind == ArgValueKind::GlobalBuffer && !plain(a.address_space)) ||
        (!a.type_name.empty() && !plain(a.type_name)))
      return false;
  return true;
}

bool emit_metadata_note(llvm::MCStreamer& streamer, llvm::MCContext& context, const KernelDescriptorSpec& k,
                        std::string& error) {
  llvm::msgpack::Document doc;
  fill(doc, k);
  // Not strict, as LLVM's parser calls it for `.amdgpu_metadata` (it may retype strings).
  llvm::AMDGPU::HSAMD::V3::MetadataVerifier verifier(/*Strict=*/false);
  if (!verifier.verify(doc.getRoot())) {
    error = "invalid HSA metadata for kernel '" + k.name + "'";
    return true;
  }
  std::string blob;
  doc.writeToBlob(blob);
  // The note record as AMDGPUTargetELFStreamer::EmitNote writes it (LLVM 22,
  // AMDGPUTargetStreamer.cpp): section ".note", SHT_NOTE, SHF_ALLOC for the HSA
  // ABI; namesz 7, descsz, type NT_AMDGPU_METADATA, the name "AMDGPU" without its
  // NUL (the 4-byte padding supplies it), the msgpack blob, padding to 4 bytes.
  constexpr std::string_view kNoteName = "AMDGPU";
  streamer.pushSection();
  streamer.switchSection(context.getELFSection(".note", llvm::ELF::SHT_NOTE, llvm::ELF::SHF_ALLOC));
  streamer.emitInt32(kNoteName.size() + 1);
  streamer.emitInt32(blob.size());
  streamer.emitInt32(llvm::ELF::NT_AMDGPU_METADATA);
  streamer.emitBytes(llvm::StringRef(kNoteName.data(), kNoteName.size()));
  streamer.emitValueToAlignment(llvm::Align(4), 0, 1, 0);
  streamer.emitBytes(blob);
  streamer.emitValueToAlignment(llvm::Align(4), 0, 1, 0);
  streamer.popSection();
  return false;
}

}  // namespace cdnajit
