// Scalar ALU, branches, s_waitcnt, barriers and other SOPP/SOPK instructions.
#include <bit>

#include "runtime/sim/sim_internal.hpp"

namespace cdnajit::sim {
namespace {

template <class F>
void sop2(Wave& w, const Op& op) {
  bool scc = w.scc;
  uint32_t r = F{}(read_s32(w, op.s[0]), op.ns > 1 ? read_s32(w, op.s[1]) : 0, scc);
  write_s32(w, op.d[0], r);
  w.scc = scc;
}
template <class F>
void sop2_64(Wave& w, const Op& op) {
  bool scc = w.scc;
  uint64_t r = F{}(read_s64(w, op.s[0]), op.ns > 1 ? read_s64(w, op.s[1]) : 0, scc);
  write_s64(w, op.d[0], r);
  w.scc = scc;
}
template <class F>
void sopc(Wave& w, const Op& op) { w.scc = F{}(read_s64(w, op.s[0]), read_s64(w, op.s[1])); }

// SOPK: d = op(d, simm16)
template <class F>
void sopk(Wave& w, const Op& op) {
  bool scc = w.scc;
  uint32_t r = F{}(read_s32(w, op.d[0]), op.imm, scc);
  write_s32(w, op.d[0], r);
  w.scc = scc;
}

#define S2(...) &sop2<decltype([](uint32_t a, uint32_t b, bool& scc) -> uint32_t { __VA_ARGS__; })>
#define S64(...) &sop2_64<decltype([](uint64_t a, uint64_t b, bool& scc) -> uint64_t { __VA_ARGS__; })>
#define SC(...) &sopc<decltype([](uint64_t a, uint64_t b) -> bool { return __VA_ARGS__; })>
#define SK(...) &sopk<decltype([](uint32_t a, uint32_t b, bool& scc) -> uint32_t { __VA_ARGS__; })>

template <int kind>  // saveexec family: 0 and,1 or,2 xor,3 andn2,4 orn2,5 nand,6 nor,7 xnor
void saveexec(Wave& w, const Op& op) {
  uint64_t e = w.exec(), s = read_s64(w, op.s[0]), n;
  switch (kind) {
    case 0: n = s & e; break;
    case 1: n = s | e; break;
    case 2: n = s ^ e; break;
    case 3: n = s & ~e; break;
    case 4: n = s | ~e; break;
    case 5: n = ~(s & e); break;
    case 6: n = ~(s | e); break;
    default: n = ~(s ^ e); break;
  }
  write_s64(w, op.d[0], e);
  w.set_exec(n);
  w.scc = n != 0;
}

void branch_if(Wave& w, const Op& op, bool c) {
  if (c) { w.pc = op.target; w.branched = true; }
}

void s_waitcnt(Wave& w, const Op& op) {
  int vm = isa::target::waitcnt_vmcnt(op.imm);
  int lgkm = isa::target::waitcnt_lgkmcnt(op.imm);
  do_waitcnt(w, op, vm, lgkm);
}

int64_t sext16(uint32_t x) { return int16_t(uint16_t(x)); }

const std::pair<O, Handler> kSaluOps[] = {
    {O::s_mov_b32, S2(return a)},
    {O::s_mov_b64, S64(return a)},
    {O::s_not_b32, S2(scc = ~a != 0; return ~a)},
    {O::s_not_b64, S64(scc = ~a != 0; return ~a)},
    {O::s_brev_b32, S2(uint32_t x = a; uint32_t y = 0; for (int i = 0; i < 32; ++i) y |= ((x >> i) & 1) << (31 - i); return y)},
    {O::s_bcnt1_i32_b32, S2(uint32_t c = std::popcount(a); scc = c != 0; return c)},
    {O::s_ff1_i32_b32, S2(return a ? uint32_t(std::countr_zero(a)) : ~0u)},
    {O::s_flbit_i32_b32, S2(return a ? uint32_t(std::countl_zero(a)) : ~0u)},
    {O::s_sext_i32_i8, S2(return uint32_t(int32_t(int8_t(a))))},
    {O::s_sext_i32_i16, S2(return uint32_t(int32_t(int16_t(a))))},
    {O::s_abs_i32, S2(uint32_t r = int32_t(a) < 0 ? 0u - a : a; scc = r != 0; return r)},
    {O::s_add_u32, S2(uint64_t s = uint64_t(a) + b; scc = s >> 32; return uint32_t(s))},
    {O::s_addc_u32, S2(uint64_t s = uint64_t(a) + b + scc; scc = s >> 32; return uint32_t(s))},
    {O::s_sub_u32, S2(scc = b > a; return a - b)},
    {O::s_subb_u32, S2(uint64_t s = uint64_t(a) - b - scc; scc = uint64_t(b) + scc > a; return uint32_t(s))},
    {O::s_add_i32, S2(uint32_t r = a + b; scc = ((~(a ^ b)) & (a ^ r)) >> 31; return r)},
    {O::s_sub_i32, S2(uint32_t r = a - b; scc = ((a ^ b) & (a ^ r)) >> 31; return r)},
    {O::s_mul_i32, S2(return a * b)},
    {O::s_mul_hi_u32, S2(return uint32_t((uint64_t(a) * b) >> 32))},
    {O::s_mul_hi_i32, S2(return uint32_t(uint64_t(int64_t(int32_t(a)) * int32_t(b)) >> 32))},
    {O::s_min_i32, S2(scc = int32_t(a) < int32_t(b); return scc ? a : b)},
    {O::s_min_u32, S2(scc = a < b; return scc ? a : b)},
    {O::s_max_i32, S2(scc = int32_t(a) > int32_t(b); return scc ? a : b)},
    {O::s_max_u32, S2(scc = a > b; return scc ? a : b)},
    {O::s_cselect_b32, S2(return scc ? a : b)},
    {O::s_cselect_b64, S64(return scc ? a : b)},
    {O::s_and_b32, S2(uint32_t r = a & b; scc = r != 0; return r)},
    {O::s_or_b32, S2(uint32_t r = a | b; scc = r != 0; return r)},
    {O::s_xor_b32, S2(uint32_t r = a ^ b; scc = r != 0; return r)},
    {O::s_andn2_b32, S2(uint32_t r = a & ~b; scc = r != 0; return r)},
    {O::s_orn2_b32, S2(uint32_t r = a | ~b; scc = r != 0; return r)},
    {O::s_nand_b32, S2(uint32_t r = ~(a & b); scc = r != 0; return r)},
    {O::s_nor_b32, S2(uint32_t r = ~(a | b); scc = r != 0; return r)},
    {O::s_xnor_b32, S2(uint32_t r = ~(a ^ b); scc = r != 0; return r)},
    {O::s_and_b64, S64(uint64_t r = a & b; scc = r != 0; return r)},
    {O::s_or_b64, S64(uint64_t r = a | b; scc = r != 0; return r)},
    {O::s_xor_b64, S64(uint64_t r = a ^ b; scc = r != 0; return r)},
    {O::s_andn2_b64, S64(uint64_t r = a & ~b; scc = r != 0; return r)},
    {O::s_orn2_b64, S64(uint64_t r = a | ~b; scc = r != 0; return r)},
    {O::s_nand_b64, S64(uint64_t r = ~(a & b); scc = r != 0; return r)},
    {O::s_nor_b64, S64(uint64_t r = ~(a | b); scc = r != 0; return r)},
    {O::s_xnor_b64, S64(uint64_t r = ~(a ^ b); scc = r != 0; return r)},
    {O::s_lshl_b32, S2(uint32_t r = a << (b & 31); scc = r != 0; return r)},
    {O::s_lshr_b32, S2(uint32_t r = a >> (b & 31); scc = r != 0; return r)},
    {O::s_ashr_i32, S2(uint32_t r = uint32_t(int32_t(a) >> (b & 31)); scc = r != 0; return r)},
    {O::s_lshl_b64, S64(uint64_t r = a << (b & 63); scc = r != 0; return r)},
    {O::s_lshr_b64, S64(uint64_t r = a >> (b & 63); scc = r != 0; return r)},
    {O::s_ashr_i64, S64(uint64_t r = uint64_t(int64_t(a) >> (b & 63)); scc = r != 0; return r)},
    {O::s_lshl1_add_u32, S2(uint64_t s = (uint64_t(a) << 1) + b; scc = s >> 32; return uint32_t(s))},
    {O::s_lshl2_add_u32, S2(uint64_t s = (uint64_t(a) << 2) + b; scc = s >> 32; return uint32_t(s))},
    {O::s_lshl3_add_u32, S2(uint64_t s = (uint64_t(a) << 3) + b; scc = s >> 32; return uint32_t(s))},
    {O::s_lshl4_add_u32, S2(uint64_t s = (uint64_t(a) << 4) + b; scc = s >> 32; return uint32_t(s))},
    {O::s_bfe_u32, S2(uint32_t o = b & 31, wd = (b >> 16) & 127; uint32_t r = wd == 0 ? 0 : (a >> o) & (wd >= 32 ? ~0u : (1u << wd) - 1); scc = r != 0; return r)},
    {O::s_bfe_i32, S2(uint32_t o = b & 31, wd = (b >> 16) & 127; int32_t r = 0; if (wd) { uint32_t x = a >> o; if (wd < 32) { x &= (1u << wd) - 1; r = int32_t(x << (32 - wd)) >> (32 - wd); } else r = int32_t(x); } scc = r != 0; return uint32_t(r))},
    {O::s_bfm_b32, S2(return (((b & 0) + (a & 31)) >= 32 ? ~0u : ((1u << (a & 31)) - 1)) << (b & 31))},
    {O::s_pack_ll_b32_b16, S2(return (a & 0xffff) | (b << 16))},
    {O::s_pack_lh_b32_b16, S2(return (a & 0xffff) | (b & 0xffff0000u))},
    {O::s_pack_hh_b32_b16, S2(return (a >> 16) | (b & 0xffff0000u))},
    {O::s_absdiff_i32, S2(int64_t d = int64_t(int32_t(a)) - int32_t(b); uint32_t r = uint32_t(d < 0 ? -d : d); scc = r != 0; return r)},
    {O::s_movk_i32, SK(return uint32_t(sext16(b)))},
    {O::s_cmovk_i32, SK(return scc ? uint32_t(sext16(b)) : a)},
    {O::s_addk_i32, SK(uint32_t c = uint32_t(sext16(b)); uint32_t r = a + c; scc = ((~(a ^ c)) & (a ^ r)) >> 31; return r)},
    {O::s_mulk_i32, SK(return a * uint32_t(sext16(b)))},
    {O::s_cmp_eq_i32, SC(uint32_t(a) == uint32_t(b))},
    {O::s_cmp_lg_i32, SC(uint32_t(a) != uint32_t(b))},
    {O::s_cmp_gt_i32, SC(int32_t(a) > int32_t(b))},
    {O::s_cmp_ge_i32, SC(int32_t(a) >= int32_t(b))},
    {O::s_cmp_lt_i32, SC(int32_t(a) < int32_t(b))},
    {O::s_cmp_le_i32, SC(int32_t(a) <= int32_t(b))},
    {O::s_cmp_eq_u32, SC(uint32_t(a) == uint32_t(b))},
    {O::s_cmp_lg_u32, SC(uint32_t(a) != uint32_t(b))},
    {O::s_cmp_gt_u32, SC(uint32_t(a) > uint32_t(b))},
    {O::s_cmp_ge_u32, SC(uint32_t(a) >= uint32_t(b))},
    {O::s_cmp_lt_u32, SC(uint32_t(a) < uint32_t(b))},
    {O::s_cmp_le_u32, SC(uint32_t(a) <= uint32_t(b))},
    {O::s_cmp_eq_u64, SC(a == b)},
    {O::s_cmp_lg_u64, SC(a != b)},
    {O::s_bitcmp0_b32, SC(((uint32_t(a) >> (b & 31)) & 1) == 0)},
    {O::s_bitcmp1_b32, SC(((uint32_t(a) >> (b & 31)) & 1) == 1)},
    {O::s_bitcmp0_b64, SC(((a >> (b & 63)) & 1) == 0)},
    {O::s_bitcmp1_b64, SC(((a >> (b & 63)) & 1) == 1)},
};

}  // namespace

void register_salu(Registry& r) {
  for (const auto& [n, h] : kSaluOps) r.add(n, h);
  // Compares.
  // s_cmp with 64-bit s[] operands read as 64-bit only for *_u64 (read_s64 of a 1-dword src is zero-extended).
  r.add(O::s_cmov_b32, +[](Wave& w, const Op& op) { if (w.scc) write_s32(w, op.d[0], read_s32(w, op.s[0])); });
  r.add(O::s_cmov_b64, +[](Wave& w, const Op& op) { if (w.scc) write_s64(w, op.d[0], read_s64(w, op.s[0])); });
  r.add(O::s_bcnt1_i32_b64, +[](Wave& w, const Op& op) { uint32_t c = std::popcount(read_s64(w, op.s[0])); write_s32(w, op.d[0], c); w.scc = c != 0; });
  r.add(O::s_bcnt0_i32_b64, +[](Wave& w, const Op& op) { uint32_t c = 64 - std::popcount(read_s64(w, op.s[0])); write_s32(w, op.d[0], c); w.scc = c != 0; });
  r.add(O::s_ff1_i32_b64, +[](Wave& w, const Op& op) { uint64_t a = read_s64(w, op.s[0]); write_s32(w, op.d[0], a ? uint32_t(std::countr_zero(a)) : ~0u); });
  r.add(O::s_flbit_i32_b64, +[](Wave& w, const Op& op) { uint64_t a = read_s64(w, op.s[0]); write_s32(w, op.d[0], a ? uint32_t(std::countl_zero(a)) : ~0u); });
  r.add(O::s_bfm_b64, +[](Wave& w, const Op& op) { uint32_t a = read_s32(w, op.s[0]) & 63, b = read_s32(w, op.s[1]) & 63; write_s64(w, op.d[0], (a >= 64 ? ~0ull : ((1ull << a) - 1)) << b); });
  r.add(O::s_bfm_b32, +[](Wave& w, const Op& op) { uint32_t a = read_s32(w, op.s[0]) & 31, b = read_s32(w, op.s[1]) & 31; write_s32(w, op.d[0], ((1u << a) - 1) << b); });
  r.add(O::s_mul_i32, S2(return a * b));
  // SOPK compares: s[0] against the 16-bit immediate (zero-extended for u32, sign-extended for i32).
  r.add(O::s_cmpk_eq_i32, +[](Wave& w, const Op& op) { w.scc = read_s32(w, op.s[0]) == uint32_t(sext16(op.imm)); });
  r.add(O::s_cmpk_lg_i32, +[](Wave& w, const Op& op) { w.scc = read_s32(w, op.s[0]) != uint32_t(sext16(op.imm)); });
  r.add(O::s_cmpk_gt_i32, +[](Wave& w, const Op& op) { w.scc = int32_t(read_s32(w, op.s[0])) > sext16(op.imm); });
  r.add(O::s_cmpk_ge_i32, +[](Wave& w, const Op& op) { w.scc = int32_t(read_s32(w, op.s[0])) >= sext16(op.imm); });
  r.add(O::s_cmpk_lt_i32, +[](Wave& w, const Op& op) { w.scc = int32_t(read_s32(w, op.s[0])) < sext16(op.imm); });
  r.add(O::s_cmpk_le_i32, +[](Wave& w, const Op& op) { w.scc = int32_t(read_s32(w, op.s[0])) <= sext16(op.imm); });
  r.add(O::s_cmpk_eq_u32, +[](Wave& w, const Op& op) { w.scc = read_s32(w, op.s[0]) == (op.imm & 0xffff); });
  r.add(O::s_cmpk_lg_u32, +[](Wave& w, const Op& op) { w.scc = read_s32(w, op.s[0]) != (op.imm & 0xffff); });
  r.add(O::s_cmpk_gt_u32, +[](Wave& w, const Op& op) { w.scc = read_s32(w, op.s[0]) > (op.imm & 0xffff); });
  r.add(O::s_cmpk_ge_u32, +[](Wave& w, const Op& op) { w.scc = read_s32(w, op.s[0]) >= (op.imm & 0xffff); });
  r.add(O::s_cmpk_lt_u32, +[](Wave& w, const Op& op) { w.scc = read_s32(w, op.s[0]) < (op.imm & 0xffff); });
  r.add(O::s_cmpk_le_u32, +[](Wave& w, const Op& op) { w.scc = read_s32(w, op.s[0]) <= (op.imm & 0xffff); });
  r.add(O::s_bitset0_b32, +[](Wave& w, const Op& op) { w.s[op.d[0].idx] &= ~(1u << (read_s32(w, op.s[0]) & 31)); });
  r.add(O::s_bitset1_b32, +[](Wave& w, const Op& op) { w.s[op.d[0].idx] |= 1u << (read_s32(w, op.s[0]) & 31); });
  r.add(O::s_bfe_u64, +[](Wave& w, const Op& op) {
    uint64_t a = read_s64(w, op.s[0]); uint32_t b = read_s32(w, op.s[1]), o = b & 63, wd = (b >> 16) & 127;
    uint64_t r = wd == 0 ? 0 : (a >> o) & (wd >= 64 ? ~0ull : ((1ull << wd) - 1));
    write_s64(w, op.d[0], r); w.scc = r != 0; });
  r.add(O::s_bfe_i64, +[](Wave& w, const Op& op) {
    uint64_t a = read_s64(w, op.s[0]); uint32_t b = read_s32(w, op.s[1]), o = b & 63, wd = (b >> 16) & 127;
    int64_t r = 0;
    if (wd) { uint64_t x = a >> o; if (wd < 64) { x &= (1ull << wd) - 1; r = int64_t(x << (64 - wd)) >> (64 - wd); } else r = int64_t(x); }
    write_s64(w, op.d[0], uint64_t(r)); w.scc = r != 0; });
  r.add(O::s_and_saveexec_b64, &saveexec<0>);
  r.add(O::s_or_saveexec_b64, &saveexec<1>);
  r.add(O::s_xor_saveexec_b64, &saveexec<2>);
  r.add(O::s_andn2_saveexec_b64, &saveexec<3>);
  r.add(O::s_orn2_saveexec_b64, &saveexec<4>);
  r.add(O::s_nand_saveexec_b64, &saveexec<5>);
  r.add(O::s_nor_saveexec_b64, &saveexec<6>);
  r.add(O::s_xnor_saveexec_b64, &saveexec<7>);
  r.add(O::s_getpc_b64, +[](Wave& w, const Op& op) { write_s64(w, op.d[0], w.L->pc_base + w.L->dk->code_base + op.pc + 4); });
  // Program control.
  r.add(O::s_branch, +[](Wave& w, const Op& op) { branch_if(w, op, true); });
  r.add(O::s_cbranch_scc0, +[](Wave& w, const Op& op) { branch_if(w, op, !w.scc); });
  r.add(O::s_cbranch_scc1, +[](Wave& w, const Op& op) { branch_if(w, op, w.scc); });
  r.add(O::s_cbranch_vccz, +[](Wave& w, const Op& op) { branch_if(w, op, w.vcc() == 0); });
  r.add(O::s_cbranch_vccnz, +[](Wave& w, const Op& op) { branch_if(w, op, w.vcc() != 0); });
  r.add(O::s_cbranch_execz, +[](Wave& w, const Op& op) { branch_if(w, op, w.exec() == 0); });
  r.add(O::s_cbranch_execnz, +[](Wave& w, const Op& op) { branch_if(w, op, w.exec() != 0); });
  r.add(O::s_endpgm, +[](Wave& w, const Op& op) {
    drain_pending(w);  // s_endpgm drains outstanding memory operations
    w.status = Wave::Done;
    w.branched = true;
  });
  // s_memtime / s_memrealtime: the timing model's cycle under a clock feed, else a deterministic
  // per-wave count (4 x wave-instructions executed so far) (clock_feed.cpp); delivered through
  // lgkmcnt like SMEM.
  r.add(O::s_memtime, +[](Wave& w, const Op& op) {
    write_s64(w, op.d[0], clock_value(w, ClockKind::ShaderCycles));
    pend_add(w, op, 3, 0, op.d[0].idx, op.d[0].n);
  });
  r.add(O::s_memrealtime, +[](Wave& w, const Op& op) {
    write_s64(w, op.d[0], clock_value(w, ClockKind::RealTime));
    pend_add(w, op, 3, 0, op.d[0].idx, op.d[0].n);
  });
  r.add(O::s_barrier, +[](Wave& w, const Op& op) {
    barrier_passed(w, op);  // names the barrier in a store-visibility Error
    w.status = Wave::AtBarrier;
  });
  // s_trap N: the wave enters the trap handler; no handler is modelled, so the launch stops with
  // an Error naming the trap id and where it was raised. LLVM's AMDGPUUsage (trap handler ABI):
  // 2 = llvm.trap (__builtin_trap, abort, a failed device assert), 3 = llvm.debugtrap.
  r.add(O::s_trap, +[](Wave& w, const Op& op) {
    uint32_t id = op.imm & 0xff;  // SOPP simm16 from the encoding (decode.cpp)
    const char* why = id == 2 ? " (llvm.trap: __builtin_trap, abort or a failed assert)" : id == 3 ? " (llvm.debugtrap)" : "";
    fail(w, op, "trap raised: s_trap " + std::to_string(id) + why + " with EXEC " + hex(w.exec()));
  });
  r.add(O::s_waitcnt, &s_waitcnt);
  auto nop = +[](Wave&, const Op&) {};
  r.add(O::s_nop, nop);
  // s_sleep: the wave waits; it yields to the other waves (the scheduler in simulator.cpp counts it as waiting).
  r.add(O::s_sleep, +[](Wave& w, const Op&) { w.slept = true; w.status = Wave::Yielded; });
  // s_dcache_wb / s_dcache_inv are SMEM rows counted on lgkmcnt (ops_mem.cpp).
  for (O n : {O::s_setprio, O::s_icache_inv, O::s_ttracedata}) r.add(n, nop);
}

}  // namespace cdnajit::sim
