// gfx950 v_permlane16_swap_b32 / v_permlane32_swap_b32: exchange lanes between the two VGPR
// operands (both are written). CDNA4 ISA guide and LLVM AMDGPUUsage (llvm.amdgcn.permlane16.swap /
// permlane32.swap): permlane16 swaps the odd 16-lane rows of the first operand with the even rows
// of the second (row 1 of vdst <-> row 0 of src0, row 3 <-> row 2); permlane32 swaps rows 2-3 of
// the first operand with rows 0-1 of the second. What the swap does with lanes disabled in EXEC
// is not documented: the simulator refuses a partial EXEC with an Error. fi / bound_ctrl only
// matter for disabled lanes and are accepted.
#include <utility>

#include "runtime/sim/sim_internal.hpp"

namespace cdnajit::sim {
namespace {

template <int WIDTH>  // 16 or 32 lanes
void permlane_swap(Wave& w, const Op& op) {
  if (w.exec() != ~0ull) fail(w, op, std::string(op.info->mnemonic) + " with lanes disabled in EXEC is not modelled by the simulator");
  // Both operands are read and written (the table marks both as defs, so the decoder lists
  // them as two destinations; a decoder that reads the second as a source works too).
  const Src* second = op.nd >= 2 ? &op.d[1] : op.ns >= 1 ? &op.s[0] : nullptr;
  if (op.nd < 1 || op.d[0].k != SrcKind::V || !second || second->k != SrcKind::V)
    fail(w, op, std::string(op.info->mnemonic) + " needs two VGPR operands");
  uint32_t* a = w.vr(op.d[0].idx);
  uint32_t* b = w.vr(second->idx);
  for (int base = 0; base < 64; base += 2 * WIDTH)
    for (int x = 0; x < WIDTH; ++x) std::swap(a[base + WIDTH + x], b[base + x]);
  w.lane_ops += 64;
}

}  // namespace

void register_permlane(Registry& r) {
  r.add(O::v_permlane16_swap_b32, &permlane_swap<16>);
  r.add(O::v_permlane32_swap_b32, &permlane_swap<32>);
}

}  // namespace cdnajit::sim
