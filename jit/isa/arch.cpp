// Architecture names as LLVM spells them (-mcpu=gfx942 / gfx950).
#include "jit/isa/isa.hpp"
#include "jit/isa/target.hpp"

namespace cdnajit {

std::string_view arch_name(Arch a) {
  switch (a) {
    case Arch::gfx942: return "gfx942";
    case Arch::gfx950: return "gfx950";
  }
  return "unknown";
}

std::optional<Arch> parse_arch(std::string_view name) {
  if (name == "gfx942") return Arch::gfx942;
  if (name == "gfx950") return Arch::gfx950;
  return std::nullopt;
}

uint32_t lds_bytes_per_cu(Arch a) { return isa::target::lds_bytes(a); }

}  // namespace cdnajit
