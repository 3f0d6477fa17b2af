#include "jit/codeobject/kernel_descriptor_emit.hpp"

#include <algorithm>
#include <cctype>

#include "jit/codeobject/target_id.hpp"
#include "jit/isa/error.hpp"
#include "jit/isa/target.hpp"

namespace cdnajit {
namespace {

uint32_t align_up(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }

std::string num(uint64_t v) { return std::to_string(v); }

std::string kernel_ref(const KernelDescriptorSpec& k) {
  return "kernel '" + k.name + "' (" + std::string(mcpu_name(k.arch)) + ")";
}

void require(bool ok, const KernelDescriptorSpec& k, const std::string& what) {
  if (!ok) throw Error(kernel_ref(k) + ": " + what);
}

bool is_symbol_name(std::string_view s) {
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
  return std::all_of(s.begin(), s.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '$';
  });
}

// YAML single-quoted scalar: only the quote itself needs escaping.
std::string yaml_quote(std::string_view s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("''") : std::string(1, c);
  return out + "'";
}


}  // namespace

uint32_t user_sgpr_count(const KernelDescriptorSpec& k) {
  return 2u * (uint32_t(k.user_sgpr_dispatch_ptr) + uint32_t(k.user_sgpr_queue_ptr) +
               uint32_t(k.user_sgpr_kernarg_segment_ptr) + uint32_t(k.user_sgpr_dispatch_id));
}

// gfx90a+ unified register file: AGPRs start at a 4-aligned offset after the
// arch VGPRs (at least 4, as the descriptor field requires).
uint32_t accum_offset(const KernelDescriptorSpec& k) {
  return align_up(std::max<uint32_t>(1, k.vgpr_count), 4);
}

uint32_t total_vgpr_count(const KernelDescriptorSpec& k) {
  if (k.agpr_count == 0) return k.vgpr_count;
  return accum_offset(k) + k.agpr_count;
}

// On gfx94x/gfx950 (architected flat scratch) LLVM always reserves VCC,
// FLAT_SCRATCH and XNACK_MASK at the top of the SGPR allocation.
uint32_t extra_sgpr_count(const KernelDescriptorSpec&) { return isa::target::kReservedSgprs; }

uint32_t lds_limit_bytes(Arch arch) { return lds_bytes_per_cu(arch); }

void validate(const KernelDescriptorSpec& k) {
  require(k.arch == Arch::gfx942 || k.arch == Arch::gfx950, k, "arch must be gfx942 or gfx950");
  require(is_symbol_name(k.name), k,
          "name must be a non-empty symbol name of letters, digits, '_', '.', '$' not starting with a digit");
  require(k.vgpr_count <= 256, k, "vgpr_count " + num(k.vgpr_count) + " exceeds 256");
  require(k.agpr_count <= 256, k, "agpr_count " + num(k.agpr_count) + " exceeds 256");
  require(total_vgpr_count(k) <= 512, k,
          "unified VGPR+AGPR allocation " + num(total_vgpr_count(k)) + " exceeds 512");
  require(k.sgpr_count + extra_sgpr_count(k) <= uint32_t(isa::target::kAddressableSgprs), k,
          "sgpr_count " + num(k.sgpr_count) + " + " + num(extra_sgpr_count(k)) +
              " reserved (vcc, flat_scratch, xnack_mask) exceeds the " + num(isa::target::kAddressableSgprs) +
              " addressable SGPRs");
  require(k.sgpr_count >= user_sgpr_count(k) + k.workgroup_id_x + k.workgroup_id_y + k.workgroup_id_z, k,
          "sgpr_count " + num(k.sgpr_count) + " is below the " +
              num(user_sgpr_count(k) + k.workgroup_id_x + k.workgroup_id_y + k.workgroup_id_z) +
              " SGPRs the hardware preloads (user SGPRs + workgroup ids)");
  require(k.lds_bytes <= lds_limit_bytes(k.arch), k,
          "lds_bytes " + num(k.lds_bytes) + " exceeds the " + num(lds_limit_bytes(k.arch)) +
              " bytes of LDS per workgroup");
  require(k.workitem_id_vgprs <= 2, k,
          "workitem_id_vgprs " + num(k.workitem_id_vgprs) + " must be 0 (x), 1 (x,y) or 2 (x,y,z)");
  require(k.max_flat_workgroup_size >= 1 && k.max_flat_workgroup_size <= 1024, k,
          "max_flat_workgroup_size " + num(k.max_flat_workgroup_size) + " must be in 1..1024");
  if (k.reqd_workgroup_size) {
    const auto& w = *k.reqd_workgroup_size;
    uint64_t flat = uint64_t(w[0]) * w[1] * w[2];
    require(w[0] >= 1 && w[1] >= 1 && w[2] >= 1 && flat <= k.max_flat_workgroup_size, k,
            "reqd_workgroup_size " + num(w[0]) + "x" + num(w[1]) + "x" + num(w[2]) +
                " must have every dimension >= 1 and a product <= max_flat_workgroup_size " +
                num(k.max_flat_workgroup_size));
  }
  require(k.kernarg_align >= 4 && (k.kernarg_align & (k.kernarg_align - 1)) == 0, k,
          "kernarg_align " + num(k.kernarg_align) + " must be a power of two >= 4");
  for (const auto& a : k.args) {
    std::string arg = "argument '" + a.name + "'";
    require(a.size >= 1, k, arg + " has size 0");
    require(uint64_t(a.offset) + a.size <= k.kernarg_size, k,
            arg + " at offset " + num(a.offset) + " size " + num(a.size) +
                " lies outside kernarg_size " + num(k.kernarg_size));
    if (a.value_kind == ArgValueKind::GlobalBuffer) {
      require(a.size == 8, k, arg + " is a global_buffer (pointer) and must be 8 bytes, not " + num(a.size));
      require(a.address_space == "global" || a.address_space == "constant", k,
              arg + " address_space '" + a.address_space + "' must be 'global' or 'constant'");
      require(a.offset % 8 == 0, k, arg + " pointer offset " + num(a.offset) + " must be 8-byte aligned");
    }
  }
}

std::string render_file_header(Arch arch) {
  return "\t.amdgcn_target \"" + amdgcn_target_id(arch) + "\"\n\t.amdhsa_code_object_version 5\n";
}

std::string render_code_begin(const KernelDescriptorSpec& k) {
  return "\t.text\n\t.globl\t" + k.name + "\n\t.p2align\t8\n\t.type\t" + k.name + ",@function\n" +
         k.name + ":\n";
}

std::string render_code_end(const KernelDescriptorSpec& k) {
  return ".L" + k.name + "_end:\n\t.size\t" + k.name + ", .L" + k.name + "_end-" + k.name + "\n";
}

std::string render_amdhsa_kernel(const KernelDescriptorSpec& k) {
  validate(k);
  std::string s = "\t.section\t.rodata,\"a\",@progbits\n\t.p2align\t6, 0x0\n\t.amdhsa_kernel " + k.name + "\n";
  auto field = [&](std::string_view key, uint64_t value) {
    s += "\t\t.amdhsa_" + std::string(key) + " " + num(value) + "\n";
  };
  field("group_segment_fixed_size", k.lds_bytes);
  field("private_segment_fixed_size", k.private_segment_bytes);
  field("kernarg_size", k.kernarg_size);
  field("user_sgpr_count", user_sgpr_count(k));
  field("user_sgpr_dispatch_ptr", k.user_sgpr_dispatch_ptr);
  field("user_sgpr_queue_ptr", k.user_sgpr_queue_ptr);
  field("user_sgpr_kernarg_segment_ptr", k.user_sgpr_kernarg_segment_ptr);
  field("user_sgpr_dispatch_id", k.user_sgpr_dispatch_id);
  field("user_sgpr_private_segment_size", 0);
  field("uses_dynamic_stack", 0);
  field("enable_private_segment", k.private_segment_bytes > 0);
  field("system_sgpr_workgroup_id_x", k.workgroup_id_x);
  field("system_sgpr_workgroup_id_y", k.workgroup_id_y);
  field("system_sgpr_workgroup_id_z", k.workgroup_id_z);
  field("system_sgpr_workgroup_info", 0);
  field("system_vgpr_workitem_id", k.workitem_id_vgprs);
  field("next_free_vgpr", total_vgpr_count(k));
  field("next_free_sgpr", k.sgpr_count);
  field("accum_offset", accum_offset(k));
  field("reserve_vcc", k.reserve_vcc);
  field("float_round_mode_32", 0);
  field("float_round_mode_16_64", 0);
  field("float_denorm_mode_32", static_cast<uint32_t>(k.denorm_mode_32));
  field("float_denorm_mode_16_64", static_cast<uint32_t>(k.denorm_mode_16_64));
  field("dx10_clamp", k.dx10_clamp);
  field("ieee_mode", k.ieee_mode);
  field("fp16_overflow", 0);
  field("tg_split", 0);
  s += "\t.end_amdhsa_kernel\n\t.text\n";
  return s;
}

// The direct build path emits the same document without this text
// (metadata_note.cpp): a key added here goes there too (test_direct_encoding
// compares the two).
std::string render_amdgpu_metadata(std::span<const KernelDescriptorSpec> kernels) {
  if (kernels.empty()) throw Error("render_amdgpu_metadata: no kernels given (need at least one)");
  for (const auto& k : kernels) {
    validate(k);
    if (k.arch != kernels[0].arch)
      throw Error("render_amdgpu_metadata: " + kernel_ref(k) + " differs in arch from " +
                  kernel_ref(kernels[0]) + "; one code object holds one arch");
  }
  std::string s = "\t.amdgpu_metadata\n---\namdhsa.kernels:\n";
  for (const auto& k : kernels) {
    s += "  - .agpr_count: " + num(k.agpr_count) + "\n";
    if (k.args.empty()) {
      s += "    .args: []\n";
    } else {
      s += "    .args:\n";
      for (const auto& a : k.args) {
        s += "      - .name: " + yaml_quote(a.name) + "\n";
        s += "        .offset: " + num(a.offset) + "\n";
        s += "        .size: " + num(a.size) + "\n";
        if (a.value_kind == ArgValueKind::GlobalBuffer) {
          s += "        .value_kind: global_buffer\n";
          s += "        .address_space: " + a.address_space + "\n";
          if (a.is_const) s += "        .is_const: true\n";
        } else {
          s += "        .value_kind: by_value\n";
        }
        if (a.access != ArgAccess::Default)
          s += "        .actual_access: " + std::string(arg_access_name(a.access)) + "\n";
        if (!a.type_name.empty()) s += "        .type_name: " + yaml_quote(a.type_name) + "\n";
      }
    }
    s += "    .group_segment_fixed_size: " + num(k.lds_bytes) + "\n";
    s += "    .kernarg_segment_align: " + num(k.kernarg_align) + "\n";
    s += "    .kernarg_segment_size: " + num(k.kernarg_size) + "\n";
    s += "    .max_flat_workgroup_size: " + num(k.max_flat_workgroup_size) + "\n";
    s += "    .name: " + k.name + "\n";
    s += "    .private_segment_fixed_size: " + num(k.private_segment_bytes) + "\n";
    if (k.reqd_workgroup_size) {
      const auto& w = *k.reqd_workgroup_size;
      s += "    .reqd_workgroup_size: [" + num(w[0]) + ", " + num(w[1]) + ", " + num(w[2]) + "]\n";
    }
    s += "    .sgpr_count: " + num(k.sgpr_count + extra_sgpr_count(k)) + "\n";
    s += "    .sgpr_spill_count: 0\n";
    s += "    .symbol: " + k.name + ".kd\n";
    s += "    .uses_dynamic_stack: false\n";
    s += "    .vgpr_count: " + num(total_vgpr_count(k)) + "\n";
    s += "    .vgpr_spill_count: 0\n";
    s += "    .wavefront_size: 64\n";
  }
  s += "amdhsa.target: " + amdgcn_target_id(kernels[0].arch) + "\n";
  s += "amdhsa.version:\n  - 1\n  - 2\n...\n\t.end_amdgpu_metadata\n";
  return s;
}

std::string render_kernel_file(const KernelDescriptorSpec& k, std::string_view body) {
  std::string s;
  render_kernel_file_to(s, k, body.size(), [body](std::string& out) { out.append(body); });
  return s;
}

size_t render_kernel_file_to(std::string& out, const KernelDescriptorSpec& k, size_t body_bytes,
                             const std::function<void(std::string&)>& write_body) {
  // The small pieces first, then one allocation for the whole file: appending a large body
  // (hundreds of KB) and then the tail made the string grow twice, each time a fresh copy.
  const std::string head = render_file_header(k.arch) + render_code_begin(k);
  const std::string tail = render_code_end(k) + render_amdhsa_kernel(k) + render_amdgpu_metadata(std::span(&k, 1));
  out.clear();
  out.reserve(head.size() + body_bytes + 1 + tail.size());
  out.append(head);
  const size_t body_at = out.size();
  write_body(out);
  if (out.size() > body_at && out.back() != '\n') out += '\n';
  out += tail;
  return body_at;
}

std::string_view arg_access_name(ArgAccess a) {
  switch (a) {
    case ArgAccess::ReadOnly: return "read_only";
    case ArgAccess::WriteOnly: return "write_only";
    case ArgAccess::ReadWrite: return "read_write";
    case ArgAccess::Default: break;
  }
  return "";
}

}  // namespace cdnajit
