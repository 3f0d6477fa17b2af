#include "runtime/sim/code_object_load.hpp"

#include <cstring>
#include <string>

#include "jit/isa/error.hpp"
#include "runtime/sim/sim_internal.hpp"

namespace cdnajit::sim {
namespace {

// R_AMDGPU_* types a loader applies (AMDGPUUsage, "Relocation Records": the ones marked Dynamic).
enum : uint32_t { kAbs32Lo = 1, kAbs32Hi = 2, kAbs64 = 3, kAbs32 = 6, kRelative64 = 13 };

void apply(uint8_t* image, uint64_t image_size, uint64_t base, const DynamicRelocation& r) {
  const std::string what = "relocation of type " + std::to_string(r.type) + " at " + hex(r.offset) +
                           (r.symbol.empty() ? "" : " (symbol '" + r.symbol + "')");
  if (r.type == 0) return;  // R_AMDGPU_NONE
  if (!r.symbol.empty() && !r.symbol_defined)
    throw Error("map_code_object: " + what + ": the symbol is not defined in the code object (the simulator links nothing else)");
  uint64_t value = 0;
  size_t bytes = 8;
  const uint64_t s = base + r.symbol_value + uint64_t(r.addend);  // S + A
  switch (r.type) {
    case kRelative64: value = base + uint64_t(r.addend); break;    // B + A
    case kAbs64: value = s; break;
    case kAbs32: value = s, bytes = 4; break;
    case kAbs32Lo: value = s & 0xffffffffu, bytes = 4; break;
    case kAbs32Hi: value = s >> 32, bytes = 4; break;
    default:
      throw Error("map_code_object: " + what +
                  " is not one a loader applies (valid: R_AMDGPU_ABS32_LO/HI 1/2, ABS64 3, ABS32 6, RELATIVE64 13)");
  }
  if (r.offset > image_size || image_size - r.offset < bytes)
    throw Error("map_code_object: " + what + " patches bytes outside the image of " + std::to_string(image_size) + " bytes");
  std::memcpy(image + r.offset, &value, bytes);  // little-endian, as the GPU
}

}  // namespace

uint64_t map_code_object(Memory& mem, CodeObject& co) {
  if (co.load_address) return co.load_address;
  const uint64_t size = co.image_size();
  std::string kernels;
  for (const auto& k : co.kernels) kernels += (kernels.empty() ? "" : ", ") + k.name;
  const uint64_t base = mem.alloc(size, "code object (" + (kernels.empty() ? std::string("no kernels") : kernels) + ")");
  try {
    uint8_t* image = mem.find(base, size)->data.get();
    for (const auto& s : co.segments)
      if (s.file_size) std::memcpy(image + s.vaddr, co.bytes.data() + s.file_offset, s.file_size);
    for (const auto& r : co.relocations) apply(image, size, base, r);
  } catch (...) {
    mem.free(base);
    throw;
  }
  co.load_address = base;
  return base;
}

void unmap_code_object(Memory& mem, CodeObject& co) {
  if (!co.load_address) return;
  mem.free(co.load_address);
  co.load_address = 0;
}

}  // namespace cdnajit::sim
