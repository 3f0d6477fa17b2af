// Test-side reader of linked code objects through LLVM's object library:
// ELF header fields, symbols, raw kernel descriptors and the msgpack
// metadata note, so tests check what the loader would actually see.
#pragma once
#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <vector>

namespace cdnajit::test {

// The 64-byte amdhsa kernel descriptor, decoded field by field.
struct KernelDescriptorFields {
  uint32_t group_segment_fixed_size = 0;
  uint32_t private_segment_fixed_size = 0;
  uint32_t kernarg_size = 0;
  int64_t kernel_code_entry_byte_offset = 0;
  uint32_t compute_pgm_rsrc3 = 0;
  uint32_t compute_pgm_rsrc1 = 0;
  uint32_t compute_pgm_rsrc2 = 0;
  uint16_t kernel_code_properties = 0;
  uint64_t address = 0;  // where the descriptor sits in the code object
};

struct KernelMetadata {
  std::map<std::string, std::string> fields;  // scalar keys (".name", ".vgpr_count", ...)
  std::vector<std::map<std::string, std::string>> args;
};

struct CodeObjectInfo {
  uint16_t e_type = 0;
  uint16_t e_machine = 0;
  uint32_t e_flags = 0;
  uint8_t abi_version = 0;
  std::map<std::string, uint64_t> symbols;  // name -> st_value
  std::map<std::string, KernelDescriptorFields> descriptors;  // by "<kernel>.kd" symbol
  std::map<std::string, std::string> metadata_top;  // amdhsa.target etc. (scalars; arrays joined by ',')
  std::vector<KernelMetadata> kernels;
};

// Throws std::runtime_error if the bytes are not a readable AMDGPU ELF.
CodeObjectInfo read_code_object(std::span<const uint8_t> bytes);

}  // namespace cdnajit::test
