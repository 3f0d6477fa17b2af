// Scalar ALU instructions beyond ops_salu.cpp: whole-quad-mode and quad masks,
// 64-bit bit reverse / bit set, find-first-zero, signed find-last-bit, bit count
// of zeros, the n1 saveexec and wrexec forms, bit replicate, M0-relative moves
// and the performance-level / wakeup hints; s_setpc_b64, s_swappc_b64 and s_call_b64. Semantics from AMD's "AMD Instinct
// MI300 (CDNA3) Instruction Set Architecture" reference, chapter "Scalar ALU
// operations" (SOP1 opcode descriptions). SCC follows each description: the
// bit-manipulation ops that say "SCC = (D != 0)" set it, the others keep it.
#include <bit>
#include <cstdint>
#include <string>

#include "runtime/sim/sim_internal.hpp"

namespace cdnajit::sim {
namespace {

// One bit per 4-bit quad of x: set when any bit of the quad is set.
uint64_t quad_any(uint64_t x, int quads) {
  uint64_t r = 0;
  for (int q = 0; q < quads; ++q)
    if ((x >> (4 * q)) & 15) r |= 1ull << q;
  return r;
}
// Every quad of x with any bit set becomes all ones.
uint64_t whole_quads(uint64_t x, int quads) {
  uint64_t r = 0;
  for (int q = 0; q < quads; ++q)
    if ((x >> (4 * q)) & 15) r |= 15ull << (4 * q);
  return r;
}

template <int bits>
void s_wqm(Wave& w, const Op& op) {
  uint64_t r = whole_quads(read_s64(w, op.s[0]) & (bits == 32 ? 0xffffffffull : ~0ull), bits / 4);
  write_s64(w, op.d[0], r);
  w.scc = r != 0;
}
template <int bits>
void s_quadmask(Wave& w, const Op& op) {
  uint64_t r = quad_any(read_s64(w, op.s[0]) & (bits == 32 ? 0xffffffffull : ~0ull), bits / 4);
  write_s64(w, op.d[0], r);
  w.scc = r != 0;
}

void s_brev_b64(Wave& w, const Op& op) {
  uint64_t x = read_s64(w, op.s[0]), y = 0;
  for (int i = 0; i < 64; ++i) y |= ((x >> i) & 1) << (63 - i);
  write_s64(w, op.d[0], y);
}

// s_bitset{0,1}_b64 sdst, ssrc: D[S0[5:0]] = 0 / 1; the other bits of D are kept.
template <bool one>
void s_bitset_b64(Wave& w, const Op& op) {
  uint64_t d = read_s64(w, op.d[0]);
  uint64_t bit = 1ull << (read_s32(w, op.s[0]) & 63);
  write_s64(w, op.d[0], one ? d | bit : d & ~bit);
}

// s_ff0_i32_b{32,64}: index of the first zero bit from the LSB, -1 when there is none.
template <int bits>
void s_ff0(Wave& w, const Op& op) {
  uint64_t x = read_s64(w, op.s[0]);
  if (bits == 32) x |= 0xffffffff00000000ull;
  write_s32(w, op.d[0], ~x ? uint32_t(std::countr_zero(~x)) : ~0u);
}

// s_flbit_i32 / s_flbit_i32_i64: how many bits from the MSB (the sign bit included) equal the
// sign bit; -1 for 0 and for all ones (the reference's examples: 0x40000000 -> 1, 0x0fffffff -> 4,
// 0xfffffffe -> 31).
template <int bits>
void s_flbit_signed(Wave& w, const Op& op) {
  uint64_t x = read_s64(w, op.s[0]);
  if (bits == 32) x = uint64_t(int64_t(int32_t(uint32_t(x))));  // sign-extend: same count
  if (x == 0 || x == ~0ull) return write_s32(w, op.d[0], ~0u);
  uint64_t diff = (x >> 63) ? ~x : x;  // first bit that differs from the sign
  write_s32(w, op.d[0], uint32_t(std::countl_zero(diff) - (bits == 32 ? 32 : 0)));
}

void s_bcnt0_b32(Wave& w, const Op& op) {
  uint32_t c = 32 - uint32_t(std::popcount(read_s32(w, op.s[0])));
  write_s32(w, op.d[0], c);
  w.scc = c != 0;
}

// saveexec: D = old EXEC, EXEC = f(S0, EXEC). wrexec: EXEC = f(S0, EXEC), D = new EXEC.
// kind 0: ~S0 & EXEC (andn1), 1: ~S0 | EXEC (orn1), 2: S0 & ~EXEC (andn2).
template <int kind, bool wrexec>
void exec_op(Wave& w, const Op& op) {
  uint64_t e = w.exec(), s = read_s64(w, op.s[0]);
  uint64_t n = kind == 0 ? (~s & e) : kind == 1 ? (~s | e) : (s & ~e);
  w.set_exec(n);
  write_s64(w, op.d[0], wrexec ? n : e);
  w.scc = n != 0;
}

// s_bitreplicate_b64_b32: D[2i] = D[2i+1] = S0[i].
void s_bitreplicate(Wave& w, const Op& op) {
  uint32_t x = read_s32(w, op.s[0]);
  uint64_t r = 0;
  for (int i = 0; i < 32; ++i)
    if ((x >> i) & 1) r |= 3ull << (2 * i);
  write_s64(w, op.d[0], r);
}

// M0-relative SGPR moves. movrels: D = SGPR[S0 + M0]; movreld: SGPR[D + M0] = S0.
// The indexed register must be an SGPR of the addressable file (s0..s101).
uint16_t relative_sgpr(Wave& w, const Op& op, const Src& base, int dwords) {
  if (base.k != SrcKind::S) fail(w, op, "the M0-relative operand must be an SGPR");
  uint64_t i = uint64_t(base.idx) + w.s[kM0];
  if (base.idx >= kSgprCount || i + dwords > kSgprCount)
    fail(w, op, "M0-relative SGPR index " + std::to_string(i) + " (base s" + std::to_string(base.idx) + " + M0 " +
                    std::to_string(w.s[kM0]) + ") is outside s0..s" + std::to_string(kSgprCount - 1));
  return uint16_t(i);
}
template <int dwords>
void s_movrels(Wave& w, const Op& op) {
  uint16_t i = relative_sgpr(w, op, op.s[0], dwords);
  uint64_t v = w.s[i] | (dwords == 2 ? uint64_t(w.s[i + 1]) << 32 : 0);
  write_s64(w, op.d[0], v);
}
template <int dwords>
void s_movreld(Wave& w, const Op& op) {
  uint64_t v = read_s64(w, op.s[0]);
  uint16_t i = relative_sgpr(w, op, op.d[0], dwords);
  w.s[i] = uint32_t(v);
  if (dwords == 2) w.s[i + 1] = uint32_t(v >> 32);
}

// Program-counter writes. Addresses are the byte addresses s_getpc_b64 returns (Launch::pc_base +
// DecodedKernel::code_base + the instruction's pc): the kernel's and those of the code object's
// other functions, which calls reach; a target that is not the start of one of their instructions
// is an error, not a guess.
void jump_to_byte_address(Wave& w, const Op& op, uint64_t target) {
  const DecodedKernel& dk = *w.L->dk;
  const uint64_t base = w.L->pc_base + dk.code_base;
  uint64_t rel = target - base;
  auto it = target >= base && rel <= 0xffffffffu ? dk.pc_to_index.find(uint32_t(rel)) : dk.pc_to_index.end();
  if (it == dk.pc_to_index.end())
    fail(w, op, "jump to address " + hex(target) + ", which is not an instruction of kernel " + dk.info.name +
                    " or of a function of its code object");
  if (it->second >= dk.kernel_ops) {  // into a function of the code object: its registers must fit the kernel's
    auto f = std::upper_bound(dk.functions.begin(), dk.functions.end(), it->second,
                              [](uint32_t i, const DecodedKernel::Function& g) { return i < g.first_op; });
    if (f != dk.functions.begin() && !std::prev(f)->register_error.empty()) fail(w, op, std::prev(f)->register_error);
  }
  w.pc = it->second;
  w.branched = true;
}
uint64_t next_pc(const Wave& w, const Op& op) { return w.L->pc_base + w.L->dk->code_base + op.pc + 4; }

// s_setpc_b64 ssrc: PC = S0.
void s_setpc(Wave& w, const Op& op) { jump_to_byte_address(w, op, read_s64(w, op.s[0])); }
// s_swappc_b64 sdst, ssrc: D = address of the next instruction, PC = S0.
void s_swappc(Wave& w, const Op& op) {
  uint64_t target = read_s64(w, op.s[0]);  // read first: D may be the same pair
  write_s64(w, op.d[0], next_pc(w, op));
  jump_to_byte_address(w, op, target);
}
// s_call_b64 sdst, label: D = address of the next instruction, PC = the label (decoded into op.target).
void s_call(Wave& w, const Op& op) {
  write_s64(w, op.d[0], next_pc(w, op));
  w.pc = op.target;
  w.branched = true;
}

}  // namespace

void register_salu_ext(Registry& r) {
  auto add = [&](O n, Handler h) {
    if (!r.has(n)) r.add(n, h);
  };
  add(O::s_wqm_b32, &s_wqm<32>);
  add(O::s_wqm_b64, &s_wqm<64>);
  add(O::s_quadmask_b32, &s_quadmask<32>);
  add(O::s_quadmask_b64, &s_quadmask<64>);
  add(O::s_brev_b64, &s_brev_b64);
  add(O::s_bitset0_b64, &s_bitset_b64<false>);
  add(O::s_bitset1_b64, &s_bitset_b64<true>);
  add(O::s_ff0_i32_b32, &s_ff0<32>);
  add(O::s_ff0_i32_b64, &s_ff0<64>);
  add(O::s_flbit_i32, &s_flbit_signed<32>);
  add(O::s_flbit_i32_i64, &s_flbit_signed<64>);
  add(O::s_bcnt0_i32_b32, &s_bcnt0_b32);
  add(O::s_andn1_saveexec_b64, &exec_op<0, false>);
  add(O::s_orn1_saveexec_b64, &exec_op<1, false>);
  add(O::s_andn1_wrexec_b64, &exec_op<0, true>);
  add(O::s_andn2_wrexec_b64, &exec_op<2, true>);
  add(O::s_bitreplicate_b64_b32, &s_bitreplicate);
  add(O::s_movrels_b32, &s_movrels<1>);
  add(O::s_movrels_b64, &s_movrels<2>);
  add(O::s_movreld_b32, &s_movreld<1>);
  add(O::s_movreld_b64, &s_movreld<2>);
  add(O::s_setpc_b64, &s_setpc);
  add(O::s_swappc_b64, &s_swappc);
  add(O::s_call_b64, &s_call);
  // Hints with no architectural effect in the model (no power states, no sleeping waves).
  auto hint = +[](Wave&, const Op&) {};
  add(O::s_incperflevel, hint);
  add(O::s_decperflevel, hint);
  add(O::s_wakeup, hint);
}

}  // namespace cdnajit::sim
