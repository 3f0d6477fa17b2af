// MFMA pass count given the operand formats an instruction is issued with.
#pragma once
#include <cstdint>

#include "jit/isa/isa.hpp"

namespace cdnajit::isa {

// Pass count (4 cycles each) of one MFMA as issued, 0 when `info` is not an MFMA on `arch`.
// `cbsz` / `blgp` are the instruction's format fields. They matter only for the gfx950 f8f6f4
// MFMAs (plain and v_mfma_scale_*), where they select A's and B's element format: 0 fp8, 1 bf8,
// 2 fp6, 3 bf6, 4 fp4. The table lists those with the pass count of an 8-bit operand; with no
// 8-bit operand (both formats fp6/bf6/fp4) they take half as many passes.
//
// Evidence: LLVM's gfx950 MFMA co-execution rules (llvm/lib/Target/AMDGPU/AMDGPUCoExecInfo.h,
// getMFMACoExecInfo, llvm-project PR #214682) put the f8f6f4 forms whose sources are f4/f6 only
// (V_MFMA_F32_16X16X128_F8F6F4_{f4,f6}_{f4,f6}) in one timing group with
// v_mfma_f32_16x16x32_{bf16,f16} (4 passes here) and the forms with an f8 source in another;
// AMD's published MI355X dense peaks agree (MXFP6 and MXFP4 twice MXFP8). LLVM 22's scheduling
// model (llvm-mca-22) does not depend on the formats, so this is the one departure from it.
// `format_rates` false keeps the table count for every format (the conservative choice).
int mfma_passes(const InstrInfo& info, Arch arch, uint8_t cbsz, uint8_t blgp, bool format_rates = true);

}  // namespace cdnajit::isa
