// MFMA pass count given the operand formats (mfma_rate.hpp).
#include "jit/isa/mfma_rate.hpp"

namespace cdnajit::isa {

namespace {
// f8f6f4 format codes (CDNA4 ISA guide, MFMA CBSZ/BLGP): 2 fp6, 3 bf6, 4 fp4 are narrower than 8 bits.
bool narrower_than_8_bits(uint8_t format) { return format >= 2 && format <= 4; }
}  // namespace

int mfma_passes(const InstrInfo& info, Arch arch, uint8_t cbsz, uint8_t blgp, bool format_rates) {
  const int passes = mfma_passes(info, arch);
  // The table marks exactly the f8f6f4 MFMAs (whose operand widths follow the formats) with
  // srcc_may_overlap; no other MFMA reads cbsz/blgp as element formats.
  const bool format_selected = info.srcc_may_overlap && arch == Arch::gfx950;
  if (!format_rates || !format_selected || passes <= 1) return passes;
  if (narrower_than_8_bits(cbsz) && narrower_than_8_bits(blgp)) return passes / 2;
  return passes;
}

}  // namespace cdnajit::isa
