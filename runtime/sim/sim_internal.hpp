// Internal structures of the simulator: the pre-decoded instruction form, the
// wave state and the per-host-thread workgroup context. Not a public API.
#pragma once
#include <array>
#include <bitset>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <deque>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "jit/isa/error.hpp"
#include "jit/isa/opcode.hpp"
#include "jit/isa/isa.hpp"
#include "jit/isa/target.hpp"
#include "runtime/sim/simulator.hpp"

namespace cdnajit::sim {

// Scalar register file indices follow the hardware operand encoding.
enum : uint16_t {
  kSgprCount = isa::target::kAddressableSgprs, kFlatScrLo = isa::target::kFlatScratchLo,
  kXnackLo = isa::target::kXnackMaskLo, kVccLo = isa::target::kVccLo, kVccHi = isa::target::kVccHi,
  kTtmp0 = isa::target::kTtmp0, kM0 = isa::target::kM0, kExecLo = isa::target::kExecLo,
  kExecHi = isa::target::kExecHi, kSFileSize = isa::target::kScalarOperandRegs,
};
constexpr int kVFile = 512;  // unified register file: VGPR i at i, AGPR i at 256 + i
constexpr int kDppScratch = 512;  // two extra rows per wave: the DPP-permuted src0 (two dwords: a 64-bit src0)
constexpr int kSdwaScratch = 514;  // three rows: SDWA-selected src0, src1 and the unmerged result (sdwa.hpp)
constexpr int kExactScratch = 517;  // six rows: flushed copies of up to three sources of 1 or 2 dwords (ops_mode_exact.cpp)
constexpr int kVRows = 523;
// High dword of the flat-address aperture of LDS (src_shared_base) and scratch
// (src_private_base); far above every Memory allocation.
constexpr uint32_t kSharedApertureHi = 0x10000, kPrivateApertureHi = 0x20000;

enum class SrcKind : uint8_t { None, S, V, Const, Scc, Execz, Vccz };
struct Src {
  SrcKind k = SrcKind::None;
  uint8_t n = 1;  // dwords
  bool neg = false, abs = false;
  uint8_t sign = 0;  // the bit neg/abs act on (15, 31, 63) from the source's table type; 0: the instruction's FType
  uint16_t idx = 0;  // S: sgpr-file index, V: unified vfile index
  uint64_t val = 0;  // Const: value (already in the operand's type)
  bool is_reg() const { return k == SrcKind::S || k == SrcKind::V; }
};

struct Wave;
struct Op;
using Handler = void (*)(Wave&, const Op&);

// Float type of an instruction's operands, for inline constants / denormals.
enum class FType : uint8_t { Int, F32, F16, F64, BF16 };

struct Op {
  Handler fn = nullptr;
  isa::Unit unit = isa::Unit::Misc;
  const isa::InstrInfo* info = nullptr;  // ISA table entry when isa::parse knew the instruction
  FType ft = FType::Int;
  uint8_t nd = 0, ns = 0;
  Src d[2];
  Src s[5];  // five: v_mfma_scale_* (src0, src1, src2, scale0, scale1)
  // Modifiers.
  int32_t offset = 0, offset0 = 0, offset1 = 0;
  bool clamp = false, lds = false, offen = false, idxen = false, e64 = false, sdwa = false;
  bool sc0 = false;  // sc0 / glc (SMEM atomics: return the pre-op value in sdata)
  bool sc1 = false, nt = false;  // gfx94x/gfx950 cache policy (scope, non-temporal): read by the timing model only
  uint8_t omod = 0, op_sel = 0, op_sel_hi = 7, neg_lo = 0, neg_hi = 0, cbsz = 0, abid = 0, blgp = 0;
  bool op_sel_hi_set = false;  // op_sel_hi was written (absent means 7 for packed ops, 0 for v_fma_mix*)
  uint8_t sdwa_dst_sel = 6, sdwa_dst_unused = 0, sdwa_src_sel[2] = {6, 6};
  uint8_t sdwa_sext = 0;     // bit i: SDWA source i is written sext(...) (sign-extend its byte/word select)
  uint32_t imm = 0;          // SOPP/SOPK immediate, waitcnt fields
  uint32_t target = 0;       // branch target (instruction index)
  uint32_t pc = 0;           // byte offset from kernel entry
  uint32_t index = 0;        // instruction index
  uint32_t aux = 0;          // handler-specific (e.g. data size in bytes)
  uint8_t counter = 0;       // the row's counter_code: 0 none, 1 vm, 2 lgkm, 3 lgkm-smem, 4 vm+lgkm (flat)
  bool private_parse = false;
  Handler moded = nullptr;  // the handler honouring MODE round/denorm modes (null: none)
  bool mode_free = false;   // the result does not depend on MODE's round/denorm modes
  uint64_t vmask = 0, smask = 0;  // bit (r % 64) for every register the operands name (wait-count prefilter)
  // DPP (VOP1/VOP2 _dpp): the handler runs on a permuted copy of src0.
  Handler inner = nullptr;
  uint16_t dpp_src = 0, dpp_ctrl = 0;  // dpp_ctrl in the hardware DPP_CTRL encoding
  uint8_t row_mask = 15, bank_mask = 15;
  bool bound_ctrl = false;
  bool private_parse_unused = false;  // operands came from the simulator's fallback parser, not isa::parse
  std::string text;          // disassembly text
};

// A kernel's code, and the code object's other functions (CodeObject::functions) that its calls
// may reach: ops[0] is the kernel's first instruction; an Op's pc is its byte offset from
// code_base, the offset within .text of the lowest decoded address (the kernel's entry when the
// code object has no other function), so every address is pc_base + code_base + pc.
struct DecodedKernel {
  KernelInfo info;
  std::vector<Op> ops;
  std::map<uint32_t, uint32_t> pc_to_index;
  uint64_t code_base = 0;
  uint32_t kernel_ops = 0;  // ops[0, kernel_ops) are the kernel's own; the functions' follow
  struct Function {
    std::string name;
    uint32_t first_op = 0;       // its ops run to the next function's first, or to the end
    std::string register_error;  // what it uses beyond the kernel's registers (empty: nothing); said when a call enters it
  };
  std::vector<Function> functions;  // by first_op
};

// Why an instruction without semantics has none: the registry's reason for its row, or the generic
// "not implemented by the simulator (or not decodable)".
std::string unbound_reason(const Op& op);

// Decode (LLVM-C disassembler + operand resolution). Throws Error.
std::unique_ptr<DecodedKernel> decode_kernel(const CodeObject& co, const KernelInfo& k);

struct Registry;
void register_salu(Registry& r);
void register_valu(Registry& r);
void register_mem(Registry& r);
void register_mfma(Registry& r);
void register_div(Registry& r);
void register_atomic(Registry& r);   // ops_atomic.cpp
void register_f64(Registry& r);      // ops_f64.cpp
void register_dot_int(Registry& r);  // ops_dot_int.cpp
void register_vcmp_ext(Registry& r); // ops_vcmp_ext.cpp
void register_fp8(Registry& r);      // ops_fp8.cpp
void register_mode(Registry& r);     // ops_mode.cpp
void register_rounding(Registry& r); // ops_rounding.cpp
void register_mode_convert(Registry& r); // ops_mode_convert.cpp
void register_mode_exact(Registry& r); // ops_mode_exact.cpp
void register_mode_f16(Registry& r); // ops_mode_f16.cpp
void register_permlane(Registry& r); // ops_permlane.cpp
// s_getreg / s_setreg: the hwreg field of op.imm read (or written) with an Error naming why for the
// registers and bits the simulator cannot know (ops_hwreg.cpp).
uint32_t hwreg_read(Wave& w, const Op& op);
void hwreg_write(Wave& w, const Op& op, uint32_t value);
// Run `op` while the wave's MODE is not the default (ops_mode.cpp).
void run_in_mode(Wave& w, const Op& op);
void register_salu_ext(Registry& r); // ops_salu_ext.cpp
void register_valu_bytes(Registry& r); // ops_valu_bytes.cpp
void register_valu_legacy(Registry& r); // ops_valu_legacy.cpp
void register_lds_ext(Registry& r);  // ops_lds_ext.cpp
void register_smfmac(Registry& r);   // ops_smfmac.cpp
void register_buffer_format(Registry& r);  // ops_buffer_format.cpp
void register_gpr_idx(Registry& r);  // ops_gpr_idx.cpp
void register_sendmsg(Registry& r);  // ops_sendmsg.cpp
void register_ds_transpose(Registry& r);  // ops_ds_transpose.cpp

// Short name for the registrations in the handler files: O::v_add_f32 is isa::Opcode::v_add_f32.
using O = isa::Opcode;

struct OpDef {
  Handler fn = nullptr;
  FType ft = FType::Int;
  uint32_t aux = 0;  // handler-specific (e.g. a memory access's bytes per lane and data form, from the row)
};
// The simulator's semantics, keyed by opcode (jit/isa/opcode.hpp): the handler files register each
// row by its enumerator (isa::Opcode::v_add_f32, which the compiler checks against the table), and
// families as loops over the table rows a table property selects. A row's unit and wait counter are
// not restated here: decoding reads them from the row (counter_code).
struct Registry {
  std::array<OpDef, isa::kOpcodeCount> by_opcode{};  // fn == nullptr: no semantics
  // MODE (ops_mode.cpp, ops_rounding.cpp): handlers that honour the wave's round and denormal
  // modes, used instead of `by_opcode` while MODE is not the default, and the float instructions
  // whose results do not depend on those modes. Any other float instruction fails under a
  // non-default MODE.
  std::array<Handler, isa::kOpcodeCount> moded{};
  std::bitset<isa::kOpcodeCount> mode_free;
  // Handlers that read their lanes directly and so do not apply SDWA selects themselves (set in
  // registry() for the files written that way); the decoder runs an _sdwa form of these through
  // sdwa_direct_exec (sdwa.hpp), which applies the selects around the handler.
  std::bitset<isa::kOpcodeCount> sdwa_direct;
  // Rows deliberately left without semantics, with the reason (what is undocumented): the run-time
  // Error and `cdnajit check` quote it instead of a bare "not implemented".
  std::array<std::string_view, isa::kOpcodeCount> refused{};

  void add(isa::Opcode op, Handler fn, FType ft = FType::Int, uint32_t aux = 0) { by_opcode[size_t(op)] = OpDef{fn, ft, aux}; }
  bool has(isa::Opcode op) const { return by_opcode[size_t(op)].fn != nullptr; }
  void erase(isa::Opcode op) { by_opcode[size_t(op)] = OpDef{}; }
  void refuse(isa::Opcode op, std::string_view why) { refused[size_t(op)] = why; }
  void set_moded(isa::Opcode op, Handler h) { moded[size_t(op)] = h; }
  void set_mode_free(isa::Opcode op) { mode_free.set(size_t(op)); }
};
// The wait-count code of a row (Op::counter, Pending::counter) from its table counter: 0 none,
// 1 vmcnt, 2 lgkmcnt (in order: DS, s_sendmsg), 3 lgkmcnt out of order (SMEM), 4 both (FLAT).
uint8_t counter_code(const isa::InstrInfo& row);
const Registry& registry();

// A load whose result is not yet covered by s_waitcnt.
struct Pending {
  const Op* op;
  uint8_t counter;  // 1 vm, 2 lgkm (in order), 3 lgkm smem (out of order)
  uint16_t file;    // 0 sgpr, 1 vfile
  uint16_t first, count;  // register range (count 0 = no destination registers)
  uint32_t lds_lo = 0, lds_hi = 0;  // LDS DMA: bytes [lds_lo, lds_hi) written, not yet covered by vmcnt
  // Store visibility (store_visibility.cpp): the serial of the LDS store (lgkm entry) or global
  // store (vm entry) this entry retires, 0 if none.
  uint64_t store = 0;
  const Op* released_by = nullptr;  // the first s_barrier the wave passed while this was pending
};

// A global store of one wave that the other waves of its workgroup must not access yet
// (store_visibility.cpp): its byte ranges per lane and their hull.
struct GlobalStore {
  uint64_t serial = 0;
  bool atomic = false;
  const Op* op = nullptr;
  uint64_t lo = ~0ull, hi = 0;
  std::vector<std::pair<uint64_t, uint32_t>> ranges;  // (address, bytes)
};

struct Launch;  // per-launch shared context

struct Wave {
  uint32_t s[kSFileSize];
  uint32_t* v = nullptr;  // kVFile * 64
  bool scc = false;
  uint32_t pc = 0;  // instruction index
  // Yielded: the wave gave up the host thread for now (s_sleep, or a taken backward branch once its
  // quantum is used up); the wave scheduler (simulator.cpp) runs it again later.
  enum Status : uint8_t { Running, AtBarrier, Done, Yielded } status = Running;
  bool branched = false;
  uint32_t wg[3] = {0, 0, 0};
  int wave_in_wg = 0;
  uint8_t* lds = nullptr;
  uint32_t lds_size = 0;
  uint8_t* scratch = nullptr;  // 64 lanes x scratch_size bytes of private memory
  uint32_t scratch_size = 0;   // per lane (descriptor private_segment_fixed_size)
  Launch* L = nullptr;
  struct ThreadCtx* T = nullptr;
  // Wait-count tracking.
  std::vector<Pending> pend;
  std::vector<const Op*> pend_v;  // kVFile, or empty when checking is off
  uint64_t pend_vmask = 0, pend_smask = 0;  // bit (r % 64) of outstanding registers
  // Outstanding (entry, register) pairs per bit of those masks, [0] scalar, [1] vector file: a bit
  // clears when its count reaches zero, so retiring one entry needs no rebuild of the masks.
  uint16_t pend_bits[2][64] = {};
  uint8_t pend_count[2] = {0, 0};           // entries of `pend` on vmcnt [0] and on lgkmcnt [1]
  const Op* pend_s[kSFileSize];
  uint64_t lane_ops = 0;
  uint64_t icount = 0;  // wave-instructions executed (the fake clock of s_memtime)
  // In-kernel clock reads (clock_feed.cpp): reads so far (reset at wave start), and the cycle and
  // instruction count of the latest one (the base of a read the model has no value for).
  uint32_t clock_reads = 0;
  uint64_t clock_cycle = 0, clock_icount = 0;
  // The MODE hardware register (s_getreg/s_setreg; initial value from the descriptor's
  // rsrc1 fields) and what the VALU handlers read from it (set_mode keeps them in step).
  uint32_t mode = 0;
  bool flush_in_f32 = false, flush_out_f32 = false;  // FP_DENORM[1:0] (f32)
  bool flush_in_f16_64 = false, flush_out_f16_64 = false;  // FP_DENORM[3:2] (f16, f64)
  bool dx10_clamp = true;
  uint8_t round_f32 = 0, round_f16_64 = 0;  // FP_ROUND[1:0] / [3:2]: 0 nearest-even, 1 +inf, 2 -inf, 3 zero
  bool nondefault_mode = false;  // some round mode is not nearest-even or f16/f64 denormals are flushed
  // Wave scheduler (simulator.cpp): a taken backward branch at icount >= yield_at goes to the
  // scheduler, which compares the wave's registers with the probe taken at the previous such
  // branch: unchanged means the loop iteration only re-read memory (a spin-wait).
  uint64_t yield_at = 0;
  bool slept = false;     // executed s_sleep in its current slice
  bool spinning = false;  // its current slice ended in a loop iteration that changed no register
  bool probing = false;   // probe_* hold the registers at the last loop edge
  bool probe_scc = false, probe_has_v = false;
  uint32_t probe_pc = 0;
  uint32_t probe_s[kSFileSize];
  std::vector<uint32_t> probe_v;  // the descriptor's VGPR/AGPR rows, copied once the scalar state repeats
  Wave* peers = nullptr;     // all waves of the workgroup (for LDS-DMA hazard checks)
  int npeers = 0;
  int* wg_dma_pending = nullptr;  // outstanding LDS-DMA operations in the workgroup
  // Store visibility (store_visibility.cpp, Options::store_release): this wave's LDS and global
  // stores stay invisible to the other waves until its s_waitcnt retires them. Serials count
  // the stores of a wave slot; each kind retires in issue order (lgkmcnt / vmcnt), so a store
  // is pending while its serial is above `retired`.
  uint64_t* lds_tags = nullptr;  // per LDS byte, the tag of its latest store; nullptr: not tracked
  int* wg_stores_pending = nullptr;  // [0] LDS, [1] global stores pending in the workgroup
  int stores_pending[2] = {0, 0};    // this wave's share of them
  uint64_t stores_issued[2] = {0, 0}, stores_retired[2] = {0, 0};
  bool store_open[2] = {false, false};  // the executing instruction stored: its serial is issued + 1
  bool track_global = false;            // global stores are tracked in this launch
  std::deque<GlobalStore> global_stores;  // pending global stores, oldest first
  // This wave's non-atomic LDS stores whose tags are not yet in lds_tags (oldest first, from
  // lds_deferred_head on): only the other waves read the tags, and they run only after this wave
  // leaves the host thread, so the tags are written then (lds_stores_publish), and never for a
  // store its s_waitcnt retired before that (store_visibility.cpp says why the verdicts are the same).
  struct DeferredLdsStore { uint64_t tag; uint32_t addr, bytes; };
  std::vector<DeferredLdsStore> lds_deferred;
  size_t lds_deferred_head = 0;

  uint64_t exec() const { return uint64_t(s[kExecLo]) | uint64_t(s[kExecHi]) << 32; }
  void set_exec(uint64_t e) { s[kExecLo] = uint32_t(e); s[kExecHi] = uint32_t(e >> 32); }
  uint64_t vcc() const { return uint64_t(s[kVccLo]) | uint64_t(s[kVccHi]) << 32; }
  uint32_t* vr(uint16_t idx) { return v + size_t(idx) * 64; }
};

struct alignas(128) ThreadCtx {  // aligned: per-thread counters must not share cache lines
  Stats stats;
  // Per instruction (pc): how often this thread executed it. The dispatch loop keeps this one count;
  // the per-unit totals and a turn's memory writes are per-pc constants times it, derived once.
  std::vector<uint64_t> executed;
  const Memory::Block* last_block = nullptr;
};

struct Launch {
  const DecodedKernel* dk = nullptr;
  Memory* mem = nullptr;
  Options opt;
  Arch arch;
  uint32_t initial_mode = 0;  // MODE at wave start, from the descriptor (see set_mode)
  uint64_t kernarg_addr = 0;
  // The address of .text's first byte that s_getpc_b64 and branches through registers see: where
  // map_code_object placed it, or 0 for a code object that is not mapped (PCs are .text offsets).
  uint64_t pc_base = 0;
  std::vector<uint32_t> preload;  // kernarg dwords preloaded into user SGPRs
  Recording* rec = nullptr;       // Options::recording
  // With a recording: a number no other recorded launch of the process has (begin_recording), so a
  // host thread's caches of per-instruction facts know when they belong to another launch.
  uint64_t rec_serial = 0;
  std::vector<std::pair<uint64_t, uint32_t>> rec_index;  // (workgroup id, position in rec->workgroups), sorted
  // Options::time_limit_seconds as a point in time (time_point::max() = none).
  std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::time_point::max();
};

// --- helpers shared by the handler files -----------------------------------
[[noreturn]] void fail(const Wave& w, const Op& op, const std::string& what, int lane = -1,
                       LaunchError::Kind kind = LaunchError::Kind::Other);

inline uint64_t read_s64(const Wave& w, const Src& x) {
  switch (x.k) {
    case SrcKind::S: return x.n >= 2 ? (uint64_t(w.s[x.idx]) | uint64_t(w.s[x.idx + 1]) << 32) : w.s[x.idx];
    case SrcKind::Const: return x.val;
    case SrcKind::Scc: return w.scc;
    case SrcKind::Execz: return w.exec() == 0;
    case SrcKind::Vccz: return w.vcc() == 0;
    default: return 0;
  }
}
inline uint32_t read_s32(const Wave& w, const Src& x) { return uint32_t(read_s64(w, x)); }
inline void write_s32(Wave& w, const Src& d, uint32_t v) { if (d.k == SrcKind::S) w.s[d.idx] = v; }
inline void write_s64(Wave& w, const Src& d, uint64_t v) {
  if (d.k != SrcKind::S) return;
  w.s[d.idx] = uint32_t(v);
  if (d.n >= 2) w.s[d.idx + 1] = uint32_t(v >> 32);
}
// Per-lane 32-bit value of a VALU source (dword `part` of a wide source).
inline uint32_t lane_src(Wave& w, const Src& x, int lane, int part = 0) {
  if (x.k == SrcKind::V) return w.v[(size_t(x.idx) + part) * 64 + lane];
  if (x.k == SrcKind::S) return w.s[x.idx + part];
  if (x.k == SrcKind::Const) return part ? uint32_t(x.val >> 32) : uint32_t(x.val);
  return uint32_t(read_s64(w, x) >> (32 * part));
}

// The sign bit a source's neg/abs flip or clear: the source's own float type from the ISA table
// (e.g. bit 15 for v_cvt_f32_f16's f16 input), else the instruction's.
inline uint64_t src_sign_mask(const Op& op, int i) {
  if (op.s[i].sign) return 1ull << op.s[i].sign;
  return op.ft == FType::F16 ? 0x8000u : op.ft == FType::F64 ? 1ull << 63 : 0x80000000u;
}

inline float as_f(uint32_t u) { float f; std::memcpy(&f, &u, 4); return f; }
inline uint32_t as_u(float f) { uint32_t u; std::memcpy(&u, &f, 4); return u; }
inline double as_d(uint64_t u) { double f; std::memcpy(&f, &u, 8); return f; }
inline uint64_t as_u64(double f) { uint64_t u; std::memcpy(&u, &f, 8); return u; }

// Memory access helpers (bounds-checked against allocations).
uint8_t* global_ptr(Wave& w, const Op& op, uint64_t addr, uint32_t n, int lane, bool store);
uint8_t* lds_ptr(Wave& w, const Op& op, uint64_t addr, uint32_t n, int lane);

// Wait counts.
void pend_add(Wave& w, const Op& op, uint8_t counter, uint16_t file, uint16_t first, uint16_t count);
void do_waitcnt(Wave& w, const Op& op, int vm, int lgkm);
void check_pending(Wave& w, const Op& op);
// LDS DMA bookkeeping: record the LDS bytes an LDS-DMA load wrote (after pend_add), and
// check that a DS read or write of [lo, hi) does not touch bytes of a DMA still outstanding
// (lds_ptr calls it for every non-VMEM access).
void pend_set_lds_range(Wave& w, uint32_t lo, uint32_t hi);
void check_lds_dma(Wave& w, const Op& op, uint64_t lo, uint64_t hi, int lane);
void drain_pending(Wave& w);  // s_endpgm
// Store visibility (store_visibility.cpp): a store is visible to the other waves of the workgroup
// once the writer's s_waitcnt retired it; before that, their access to its bytes is an Error.
// lds_store_access / global_store_access: one lane's access of [addr, addr + n) by `op` (marks it
// when op stores, checks it against the other waves' pending stores); store_issued / store_retired:
// from pend_add / retire; barrier_passed: s_barrier.
void lds_store_access(Wave& w, const Op& op, uint64_t addr, uint32_t n, int lane);
// lds_store_access for the active lanes of `exec`, lane l at addr[l] (the DS fast path); `unit_stride`:
// exec is full and addr[l] = addr[0] + l * n (one contiguous range).
void lds_store_lanes(Wave& w, const Op& op, const uint32_t* addr, uint64_t exec, uint32_t n, bool unit_stride);
void global_store_access(Wave& w, const Op& op, uint64_t addr, uint32_t n, int lane);
inline bool lds_stores_elsewhere(const Wave& w) { return w.wg_stores_pending[0] > w.stores_pending[0]; }
inline bool global_stores_elsewhere(const Wave& w) { return w.wg_stores_pending[1] > w.stores_pending[1]; }
// Writes the tags of the wave's deferred LDS stores that are still pending (before another wave runs).
void lds_stores_publish(Wave& w);
void store_issued(Wave& w, Pending& p);
void store_retired(Wave& w, const Pending& p);
// Every entry of w.pend retires (before it is cleared): store_retired for each, in one step.
void pending_stores_retired(Wave& w);
void barrier_passed(Wave& w, const Op& op);
// At a workgroup's start, for all `n` wave slots of its storage (tags: one per LDS byte, or empty).
void begin_store_tracking(const Launch& L, Wave* waves, size_t n, std::vector<uint64_t>& tags, size_t lds_bytes,
                          int* wg_pending);
// Memory bookkeeping shared with ops_atomic.cpp (defined in ops_mem.cpp).
void mem_track(Wave& w, const Op& op, bool has_dst);
uint64_t mem_vaddr(Wave& w, const Op& op, const Src& va, const Src* saddr, int l);
// MUBUF: one lane's byte address from vaddr (offen/idxen), the V# in `rsrc` and soffset;
// returns the in-range dword mask as buf_addr in ops_mem.cpp (0 = out of range), with swizzled
// and ADD_TID addressing.
uint32_t mem_buffer_addr(Wave& w, const Op& op, int l, const Src* vaddr, const Src& rsrc, uint32_t soff, uint32_t bytes,
                         uint64_t& addr);

std::string wave_name(const Wave& w);
// MODE register layout (the ISA guides' HW_REG_MODE): FP_ROUND [3:0] (f32 in [1:0], f16/f64 in
// [3:2]), FP_DENORM [7:4] (f32 in [5:4], f16/f64 in [7:6]; 0 flush inputs and outputs, 1 flush
// outputs, 2 flush inputs, 3 keep), DX10_CLAMP bit 8, IEEE bit 9, FP16_OVFL bit 23.
void set_mode(Wave& w, uint32_t mode);
// MODE.GPR_IDX_EN (bit 27, gfx9 MODE layout): VGPR indexing mode; while set, VALU/MFMA instructions
// go through run_gpr_indexed (ops_gpr_idx.cpp).
constexpr uint32_t kModeGprIdxEn = 1u << 27;
void run_gpr_indexed(Wave& w, const Op& op);
// Runs op under the wave's round / denormal modes (the default handler when they are the defaults).
void run_in_float_mode(Wave& w, const Op& op);
// Timing-model recording (runtime/sim/record.hpp): the per-lane addresses an LDS or
// global/flat/buffer access of `op` will touch, written to out[k * 64 + lane]
// (kNoAddress for inactive lanes); returns 0 (not a recorded access), 64 or 128.
int memory_addresses(Wave& w, const Op& op, uint64_t* out);
// The dword-aligned address of an SMEM access whose SBase operand is op.s[sbase] (the offset follows it).
uint64_t smem_address(Wave& w, const Op& op, int sbase);
// Bytes per lane and address of a memory op (0 when not one), LDS-DMA flag.
uint32_t memory_lane_bytes(const Op& op);
// record.cpp: fill the static part of a Recording and the index of recorded workgroups
// (throws Error for an id outside the grid or a duplicate); append one step.
void begin_recording(Launch& L, Recording& r, uint32_t waves_per_workgroup, uint64_t workgroups);
// With `lines` (a VMEM instruction of a workgroup whose cache lines are traced too): also its lines.
void record_step(RecordedWave& rw, Wave& w, const Op& op, LineWave* lines = nullptr);
// The global cache lines of a VMEM instruction (Recording::line_waves).
void record_lines(LineWave& lw, Wave& w, const Op& op, uint32_t line_bytes);
// A VMEM instruction's CacheBits (record.hpp); 0 for any other.
uint8_t cache_bits(const Op& op);
bool memory_is_lds_dma(const Op& op);
// scratch_* instructions (the wave's private memory, not device memory).
bool memory_is_scratch(const Op& op);
// s_memtime / s_memrealtime: the value the wave reads (runtime/sim/clock_feed.hpp).
uint64_t clock_value(Wave& w, ClockKind kind);
void dpp_exec(Wave& w, const Op& op);
void dpp_run(Wave& w, const Op& op, Handler h);
void ds_swizzle(Wave& w, const Op& op);
std::string hex(uint64_t v);

}  // namespace cdnajit::sim
