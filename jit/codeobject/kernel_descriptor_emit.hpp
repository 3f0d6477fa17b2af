// Renders the assembler text that turns a code block into an HSA kernel: the
// file header (.amdgcn_target, code object v5), the kernel symbol framing,
// the `.amdhsa_kernel` descriptor block and the `.amdgpu_metadata` YAML that
// the ROCm runtime (and our simulator's loader) read. The builder fills a
// KernelDescriptorSpec; the assembler then checks and encodes everything.
#pragma once
#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "jit/isa/isa.hpp"

namespace cdnajit {

enum class ArgValueKind : uint8_t { GlobalBuffer, ByValue };
// Rendered as `.actual_access`; Default omits the key.
enum class ArgAccess : uint8_t { Default, ReadOnly, WriteOnly, ReadWrite };
// The metadata word of an access ("read_only", ...); "" for Default (the key is left out).
std::string_view arg_access_name(ArgAccess a);
// MODE.FP_DENORM values (AMDGPU ABI): which denormals are flushed.
enum class FloatDenormMode : uint8_t { FlushSrcDst = 0, FlushDst = 1, FlushSrc = 2, FlushNone = 3 };

struct DescriptorArg {
  std::string name;                 // e.g. "input"
  uint32_t size = 8;                // bytes in the kernarg segment
  uint32_t offset = 0;              // byte offset in the kernarg segment
  ArgValueKind value_kind = ArgValueKind::GlobalBuffer;
  std::string address_space = "global";  // for GlobalBuffer: global / constant
  bool is_const = false;            // pointee is const (GlobalBuffer only)
  ArgAccess access = ArgAccess::Default;
  std::string type_name;            // e.g. "bf16*"; empty omits the key
};

struct KernelDescriptorSpec {
  std::string name;                 // kernel symbol; descriptor symbol is name + ".kd"
  Arch arch = Arch::gfx942;
  // Registers used: highest index + 1 of each file (SGPRs: numbered s0..sN
  // only; VCC / flat_scratch / xnack_mask are added by the assembler).
  uint32_t vgpr_count = 1;
  uint32_t agpr_count = 0;
  uint32_t sgpr_count = 0;
  uint32_t lds_bytes = 0;               // group_segment_fixed_size
  uint32_t private_segment_bytes = 0;   // scratch per work-item
  uint32_t kernarg_size = 0;            // kernarg segment bytes
  uint32_t kernarg_align = 8;
  uint32_t max_flat_workgroup_size = 256;
  std::optional<std::array<uint32_t, 3>> reqd_workgroup_size;  // .reqd_workgroup_size if set
  // User SGPRs, in hardware order from s0: dispatch ptr, queue ptr, kernarg
  // segment ptr, dispatch id (2 SGPRs each when enabled).
  bool user_sgpr_dispatch_ptr = false;
  bool user_sgpr_queue_ptr = false;
  bool user_sgpr_kernarg_segment_ptr = true;
  bool user_sgpr_dispatch_id = false;
  // System SGPRs that follow the user SGPRs.
  bool workgroup_id_x = true;
  bool workgroup_id_y = false;
  bool workgroup_id_z = false;
  // Work-item ids enabled: 0 = x; 1 = x,y; 2 = x,y,z. On gfx90a+ all arrive
  // packed in v0 (x bits 0-9, y bits 10-19, z bits 20-29).
  uint8_t workitem_id_vgprs = 0;
  FloatDenormMode denorm_mode_32 = FloatDenormMode::FlushNone;
  FloatDenormMode denorm_mode_16_64 = FloatDenormMode::FlushNone;
  bool ieee_mode = true;
  bool dx10_clamp = true;
  bool reserve_vcc = true;
  std::vector<DescriptorArg> args;
};

// Derived numbers, exposed so the builder, stats and tests agree with the text.
uint32_t user_sgpr_count(const KernelDescriptorSpec& k);        // SGPRs preloaded with user data
uint32_t accum_offset(const KernelDescriptorSpec& k);           // first AGPR in the unified file
uint32_t total_vgpr_count(const KernelDescriptorSpec& k);       // unified VGPR+AGPR allocation
uint32_t extra_sgpr_count(const KernelDescriptorSpec& k);       // VCC, flat_scratch, xnack_mask
uint32_t lds_limit_bytes(Arch arch);                            // 64 KiB gfx942, 160 KiB gfx950

// Throws cdnajit::Error naming the field, its value and the valid range.
void validate(const KernelDescriptorSpec& k);

// `.amdgcn_target "amdgcn-amd-amdhsa--gfx942"` and `.amdhsa_code_object_version 5`.
std::string render_file_header(Arch arch);
// `.text`, alignment, `.globl`/`.type` and the label that starts the code.
std::string render_code_begin(const KernelDescriptorSpec& k);
// `.size` of the code symbol; call after the last instruction.
std::string render_code_end(const KernelDescriptorSpec& k);
// The `.amdhsa_kernel` ... `.end_amdhsa_kernel` block (in .rodata, 64-byte aligned).
std::string render_amdhsa_kernel(const KernelDescriptorSpec& k);
// `.amdgpu_metadata` ... `.end_amdgpu_metadata` for all kernels of one file
// (all must share one arch).
std::string render_amdgpu_metadata(std::span<const KernelDescriptorSpec> kernels);

// A complete single-kernel file: header, code framing around `body` (one
// instruction per line, already in final syntax), descriptor and metadata.
std::string render_kernel_file(const KernelDescriptorSpec& k, std::string_view body);
// The same file written into `out` (replacing its text), the body appended in place by
// `write_body(out)` (a large body is then not built elsewhere and copied in); `body_bytes` is
// an estimate of its size, reserved with the rest. Returns where the body starts in `out`.
size_t render_kernel_file_to(std::string& out, const KernelDescriptorSpec& k, size_t body_bytes,
                             const std::function<void(std::string&)>& write_body);

}  // namespace cdnajit
