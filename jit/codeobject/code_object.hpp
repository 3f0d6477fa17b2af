// Reading an AMDGPU HSA code object (ELF64, e_machine EM_AMDGPU): the .text
// bytes, each kernel's descriptor (<name>.kd) and its .amdgpu_metadata
// (msgpack, code object v4/v5). Used by the simulator and the runtime.
#pragma once
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "jit/isa/isa.hpp"
#include "jit/isa/target.hpp"

namespace cdnajit {

struct KernelArgInfo {
  std::string name;
  uint32_t offset = 0, size = 0;
  std::string value_kind;     // "global_buffer", "by_value", "hidden_block_count_x", ...
  std::string address_space;  // "global", "constant", ... (empty for by_value)
  std::string type_name;      // ".type_name" if present: "uint", "float", "bf16*", ...
  bool is_const = false;
};

struct KernelInfo {
  std::string name;
  uint64_t entry_offset = 0;  // byte offset of the first instruction within .text
  uint64_t code_size = 0;     // bytes of code (symbol size; else up to the next symbol / end of .text)
  uint32_t kernarg_size = 0, group_segment_size = 0, private_segment_size = 0, wavefront_size = 64;
  uint32_t vgpr_count = 0, agpr_count = 0, sgpr_count = 0, accum_offset = 0;
  uint32_t rsrc1 = 0, rsrc2 = 0, rsrc3 = 0;
  // rsrc3.TG_SPLIT (bit 16, gfx90a+; AMDGPUUsage, "compute_pgm_rsrc3 for GFX90A, GFX942"): the
  // waves of a workgroup may run on different CUs, so global stores reach another wave of the
  // workgroup only once complete (clang then waits vmcnt(0) before s_barrier).
  bool tg_split() const { return (rsrc3 >> 16) & 1; }
  uint16_t kernel_code_properties = 0;
  uint32_t max_flat_workgroup_size = 0;
  uint32_t kernarg_alignment = 8;
  // gfx940+/gfx950 kernarg preload (descriptor bytes 58-59): dwords of the kernarg
  // segment, starting at dword `kernarg_preload_offset`, copied into the user SGPRs
  // that follow the ABI-requested ones.
  uint32_t kernarg_preload_length = 0, kernarg_preload_offset = 0;

  // User SGPRs requested by kernel_code_properties, in ABI order.
  int user_sgpr_count = 0;  // from rsrc2.USER_SGPR_COUNT
  bool private_segment_buffer = false, dispatch_ptr = false, queue_ptr = false, kernarg_ptr = false,
       dispatch_id = false, flat_scratch_init = false, private_segment_size_sgpr = false;
  // System SGPRs / VGPRs requested by rsrc2.
  bool private_segment_wave_offset = false;
  bool wg_id_x = true, wg_id_y = false, wg_id_z = false, wg_info = false;
  int workitem_id_vgprs = 0;  // rsrc2.ENABLE_VGPR_WORKITEM_ID: 0 = x, 1 = x,y, 2 = x,y,z

  uint32_t float_denorm_mode_32 = 0, float_denorm_mode_16_64 = 3;
  uint32_t float_round_mode_32 = 0, float_round_mode_16_64 = 0;
  bool ieee_mode = false, dx10_clamp = false;

  std::vector<KernelArgInfo> args;  // from metadata (empty if the object has none)

  const KernelArgInfo* find_arg_kind(std::string_view value_kind) const;
};

// What a loader needs to place a code object in device memory (runtime/sim/code_object_load.hpp):
// its PT_LOAD segments, the dynamic relocations it applies, and the global variables it holds.
struct LoadSegment {
  uint64_t vaddr = 0, file_offset = 0, file_size = 0, mem_size = 0;  // mem_size beyond file_size is zero (.bss)
};
struct DynamicRelocation {
  uint64_t offset = 0;  // virtual address of the patched word
  uint32_t type = 0;    // R_AMDGPU_* (AMDGPUUsage, "Relocation Records")
  int64_t addend = 0;
  std::string symbol;   // "" for none (R_AMDGPU_RELATIVE64)
  bool symbol_defined = false;
  uint64_t symbol_value = 0;  // virtual address of a defined symbol
};
struct GlobalVariable {
  std::string name;  // as in the symbol table (C++ names mangled)
  uint64_t vaddr = 0, size = 0;
};

// A function of .text that is not a kernel (a device function clang did not inline): where a
// kernel's s_swappc_b64 / s_call_b64 may go.
struct DeviceFunction {
  std::string name;
  uint64_t offset = 0, size = 0;  // byte offset within .text and bytes of code (its FUNC symbol)
};

struct CodeObject {
  Arch arch = Arch::gfx942;
  std::vector<uint8_t> bytes;  // the whole ELF image
  std::vector<uint8_t> text;   // contents of .text
  uint64_t text_address = 0;   // virtual address of .text
  std::vector<KernelInfo> kernels;
  std::vector<LoadSegment> segments;
  std::vector<DynamicRelocation> relocations;
  std::vector<GlobalVariable> globals;  // OBJECT symbols other than kernel descriptors
  std::vector<DeviceFunction> functions;  // FUNC symbols in .text with a size, other than the kernels, by offset
  // amdhsa.printf: the format strings of the kernels' buffered printf calls, as the compiler lists
  // them ("0:0:<low 64 bits of the format's MD5, hex>,<format>"; runtime/device_printf.hpp).
  std::vector<std::string> printf_formats;
  // Where map_code_object placed the image in simulated memory (0: not mapped). Kernels then see
  // their program counter, and so every PC-relative address of a global, relative to it.
  uint64_t load_address = 0;

  const KernelInfo* find(std::string_view name) const;  // nullptr if absent
  const GlobalVariable* find_global(std::string_view name) const;  // nullptr if absent
  uint64_t image_size() const;  // bytes from address 0 to the end of the last segment
};

// The stretches of .text a kernel may run: its own code first, then the code object's other
// functions (what its calls may reach), in .text order, none overlapping another or the kernel's.
struct CodeRange {
  uint64_t offset = 0, size = 0;  // within .text
};
std::vector<CodeRange> kernel_code_ranges(const CodeObject& co, const KernelInfo& k);

// Limits on what a code object may state, checked by read_code_object so that
// no reader of a hostile file allocates or loops without bound. They sit far
// above any kernel this project builds; raise them here if a real one needs more.
constexpr uint32_t kMaxKernargBytes = 64 * 1024;          // descriptor kernarg_size
constexpr uint32_t kMaxPrivateSegmentBytes = 128 * 1024;  // descriptor private (scratch) bytes per work-item
constexpr uint32_t kMaxGroupSegmentBytes = isa::target::kMaxLdsBytes;  // descriptor LDS bytes (the largest LDS of a target)
constexpr size_t kMaxKernels = 4096;                      // kernel descriptors per code object
constexpr size_t kMaxSymbols = 1 << 20;                   // symbol-table entries
constexpr uint64_t kMaxImageBytes = uint64_t(1) << 32;    // loaded image (segments' extent, .bss included)

// Parses a code object (a linked ELF64 shared object, e_type ET_DYN; an
// unlinked relocatable object is rejected). Throws cdnajit::Error on any malformed or truncated
// input (never crashes, never reads out of bounds).
CodeObject read_code_object(std::span<const uint8_t> bytes);

// Architectural VGPRs of a kernel. With AGPRs (gfx90a+ unified register file) the metadata's
// .vgpr_count is the whole allocation, accum_offset + AGPRs (jit/codeobject/kernel_descriptor_emit.cpp,
// total_vgpr_count), so the architectural part is .vgpr_count - .agpr_count; without AGPRs it
// is .vgpr_count. Occupancy inputs take this and .agpr_count separately.
uint32_t architectural_vgprs(const KernelInfo& k);

}  // namespace cdnajit
