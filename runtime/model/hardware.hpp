// One hardware description per product for the timing model: the figures the
// CU model and the kernel-time arithmetic use, each with its public source in
// hardware.cpp (and the same table in runtime/model/README.md). A figure chosen
// to fit measured data is marked "fitted"; one taken as a plausible value
// without a product-specific source is marked "assumed". No per-kernel factors.
#pragma once
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "jit/isa/isa.hpp"

namespace cdnajit::model {

struct Hardware {
  std::string name;     // "mi355x"
  std::string product;  // "AMD Instinct MI355X"
  Arch arch = Arch::gfx950;
  int cus = 0;                   // compute units
  double peak_clock_ghz = 0;     // peak engine clock (data sheet): the peak FLOP/s figures
  double clock_ghz = 0;          // clock the modelled cycles are converted to time at (sustained under load)
  // In-kernel clocks under the model (clock_reads.hpp): s_memtime (clock64()) counts modelled cycles
  // of the clock above; s_memrealtime (wall_clock64()) a constant-rate counter of this frequency.
  double realtime_counter_mhz = 100;
  // Issue (per CU): each of the 4 SIMDs gets an issue turn every `issue_period` cycles and may
  // issue one instruction per unit type from different waves in that turn.
  int simds = 4;
  int issue_period = 4;
  int valu_cycles = 4;           // wave64 on a 16-lane SIMD
  int trans_cycles = 16;         // transcendental VALU (quarter rate)
  int mfma_cycles_per_pass = 4;  // MFMA pass count comes from the ISA table
  int salu_latency = 2;
  int branch_taken_cycles = 4;   // refetch after a taken branch
  int barrier_release_cycles = 4;
  int sleep_cycles_per_unit = 64;  // s_sleep N waits 64*N cycles
  // Dispatch: a wave's registers and slot are released when the wave ends, the workgroup's LDS
  // when its last wave ends, so a new workgroup may start in the slots of a workgroup's early
  // finishers (false: only when the whole workgroup has ended, the earlier model).
  bool free_wave_slots_at_wave_end = true;
  int max_workgroups_per_cu = 16;  // workgroups resident per CU (barrier resources)
  // SIMD of a workgroup's first wave: true = the SIMD after the previous workgroup's first one
  // (then round-robin among the SIMDs with the most free slots), so wave k of successive
  // workgroups lands on different SIMDs; false = one round-robin pointer over all waves, which
  // with 4-wave workgroups puts every workgroup's wave k on the same SIMD. Assumed: the
  // dispatcher's SIMD choice is not documented; [SEED] V97 ran at 1.02x its issue floor although
  // its wave 0 carries 13% more vector work than waves 1-3 (simulator counts of the same source),
  // which one SIMD holding every wave 0 could not do (>= 1.09x).
  bool rotate_first_simd_per_workgroup = true;
  // Where that rotation starts in a launch: true = on CU c at SIMD c mod simds (the CUs' starting
  // points spread evenly), false = at SIMD 0 on every CU. Assumed: no source says the dispatcher's
  // SIMD choice is reset per launch; whatever it is, there is no reason every CU holds the same
  // state. It decides whether two one-wave workgroups of a CU share an LDS half (SIMDs 0-1 or 2-3,
  // first SIMD even) or take one each (odd). Chosen against nod-ai's LDS sweeps ([LDSPH], no value
  // fitted): 28 of 28 points within 20% against 27 (README, "Validation"). The kernel-time replay is
  // CU 0's (SIMD 0 either way); in-kernel clock replays use each CU's own start (first_simd_of_cu).
  bool first_simd_by_cu = true;
  // LDS.
  uint32_t lds_bytes = 0;
  int lds_banks = 32;            // 4-byte banks
  int lds_bank_cycles = 1;       // cycles one bank needs per access
  // The LDS serves the CU in two halves, one per SIMD pair (SIMDs 0-1, 2-3), each at most
  // `lds_bytes_per_clk` per cycle: one DS instruction occupies its half for
  // max(bank passes x lds_bank_cycles, bytes / lds_bytes_per_clk) cycles.
  int lds_halves = 2;
  int lds_bytes_per_clk = 64;
  // The banks are one array for the whole CU ([ISA3]: the CU's LDS is 32 banks, and the CU's
  // 128 B/clk ([LDSMB], [ROCPROF]) is those 32 banks x 4 B once per cycle; [LDSPH] counts 64 on
  // gfx950), which both halves' bank passes share, each taking the earliest free stretch of the
  // banks at or after its own start; each half's port only moves bytes. So a conflicted access of
  // one half delays the other half's accesses; false: each half has banks of its own. nod-ai's
  // sweeps ([LDSPH]) need it: on MI350X a conflicted read costs 2.4x its single-wave passes with 4
  // waves per CU, more than two waves per half could cost with banks per half.
  bool lds_banks_shared_by_halves = true;
  // Which waiting DS instruction the LDS starts when its half (and the shared banks) are free:
  // false (default) = in issue order, each instruction taking the first free cycles from its issue
  // on, so waves reading together share the banks evenly; true = that of the wave of highest
  // priority, then the oldest ([ISA3] S_SETPRIO: a wave's priority is {SPIPrio + UserPrio,
  // WaveAge}, the order the model's issue arbiter uses), each wave's own instructions in order.
  // The LDS arbiter's order is not documented. nod-ai's sweeps ([LDSPH]) cost about (N+1)/2 x a
  // wave's own passes with N waves per CU, what oldest-first service of N waves reading together
  // gives; replayed, oldest-first staggers the waves instead and fits worse (README, "Validation"),
  // so it stays off; switchable for that comparison.
  bool lds_serves_oldest_wave_first = false;
  // How the shared bank array (lds_banks_shared_by_halves) is granted when the switch above is off:
  // true = pass by pass, each half serving its own DS instructions in issue order, and in a cycle
  // in which both halves have a bank pass waiting the pass of the higher-priority, then older wave
  // goes first (assumed: the [ISA3] S_SETPRIO {priority, age} order, stated for issue, applied to the
  // LDS's choice between the two SIMD pairs); false = each instruction's passes take the earliest
  // free stretch of the array from its issue on, in issue order. nod-ai's sweeps ([LDSPH]): per extra
  // bank pass an MI350X read (4 waves per CU) cost 2.3-2.6x a lone wave's pass; modelled 2.0-2.1x with
  // this rule, 2.7-3.1x in issue order; 28 of 28 points within 20% against 24 (27 against 23 while every
  // CU started at SIMD 0, first_simd_by_cu off; README, "Validation").
  bool lds_bank_passes_by_age = true;
  int lds_latency = 52;          // issue to data in VGPRs, conflict-free
  // A ds_read/write_b64/b128 lane address that is 4-byte but not naturally aligned: served
  // alone, one byte per pass (1: 8 passes per b64 lane), or like an aligned access (0).
  // Hardware behaviour undocumented; LLVM's AMDGPU backend ranks misaligned wide DS accesses
  // as slow, and the seed measured a kernel whose ds_read_b64s are half misaligned 4.2x slower
  // than its ds_read_b32 twin. Fitted to that one measurement (byte-serial reproduces it;
  // one pass per lane gives 0.97x).
  int lds_misaligned_passes_per_byte = 1;
  // A DS instruction holds its SIMD's vector issue for this many cycles: it reads its address
  // (and data) VGPRs through the register-file ports the VALU uses, so it cannot issue in the
  // same turn as a VALU instruction of that SIMD (4 = one turn; 0 = free co-issue as in the GCN
  // description). Undocumented; fitted to the seed's MI350X counters (GRBM cycles per wave of a
  // SIMD vs 4 x (VALU + LDS) instructions: V97 0.94, JIT-dot2 0.99), not to any kernel's time.
  int lds_valu_issue_cycles = 4;
  // Global memory: the hierarchy memory_hierarchy.cpp simulates from the real addresses
  // (vector L1 per CU, L2 per XCD, Infinity Cache / MALL shared, HBM), each level with its
  // capacity, line, associativity, latency and peak and achievable bandwidth.
  int cache_line = 128;          // bytes, every level
  int vmem_issue_cycles = 4;     // address unit: 16 lanes per cycle for a wave64 instruction
  int xcds = 8;                  // accelerator dies; workgroup i runs on XCD i mod xcds
  int cus_per_xcd = 0;           // workgroup i's CU in its XCD: (i / xcds) mod cus_per_xcd
  // Vector L1 (per CU): write-through, a store does not allocate ([CACHEMB]: a load after a store to a
  // line the L1 did not hold takes the L2 time, the next load the L1 time).
  uint32_t l1_bytes = 32768;
  int l1_ways = 16;
  double l1_bytes_per_clk = 64;  // data return per CU (hits and misses alike)
  int l1_latency = 120;          // cycles, load issue to data for an L1 hit
  // Vector L1 policy (memory_hierarchy.cpp). LLVM's AMDGPUUsage, "Memory Model GFX942" (the cache
  // control LLVM also uses for gfx950): the SC1:SC0 bits of a load or buffer_inv give its scope
  // (SC0 workgroup, SC1 agent, both system); an agent- or system-scope load must see other CUs'
  // stores; buffer_inv sc0 "will invalidate the L1 cache", and buffer_inv sc1 / sc0 sc1 end the agent
  // and system acquires so that following loads "will not see stale global data" (at those scopes
  // also non-local L2 lines, which a single-agent model does not hold). [CACHEMB] measured on MI300X: a
  // global_load ... sc1 and a ... nt take the L2 hit time (224 cycles against 112 for an L1 hit), and
  // a load after buffer_inv sc1 as well (212). Each rule switchable:
  bool l1_miss_on_sc1_load = true;          // a load with SC1 set is served from the L2 (or beyond), not kept in the L1
  bool l1_miss_on_nt_load = true;           // a load with NT set likewise ([CACHEMB] only; AMDGPUUsage: nontemporal = nt=1)
  bool l1_invalidated_by_buffer_inv = true;  // buffer_inv with SC0 or SC1 empties the issuing CU's vector L1
  // Scalar L1 (shared by `scalar_cache_cus` CUs): capacity and rate listed; scalar loads take
  // `smem_latency` (not simulated line by line).
  uint32_t scalar_cache_bytes = 16384;
  int scalar_cache_cus = 2;
  double scalar_bytes_per_clk = 64;
  int smem_latency = 100;
  // L2 (per XCD): write-back; a store allocates its line dirty without a fetch.
  uint64_t l2_bytes = 4u << 20;
  int l2_ways = 16;
  double l2_bytes_per_clk_per_xcd = 0;  // peak
  double l2_achievable_share = 1.0;     // achievable / peak
  int l2_latency = 300;                 // cycles, load issue to data for an L2 hit (also a store's acknowledgement)
  // One CU's traffic beyond its L1 per cycle (caps each level's bandwidth when few CUs are active).
  double cu_l2_bytes_per_clk = 64;
  // Infinity Cache / MALL (memory side, shared by all XCDs): write-back.
  uint64_t mall_bytes = 256ull << 20;
  int mall_ways = 16;
  double mall_tbps = 0;                 // peak
  double mall_achievable_share = 1.0;
  int mall_latency = 500;
  // HBM.
  double hbm_tbps = 0;                  // peak (data sheet)
  double hbm_achievable_share = 1.0;    // achievable / peak
  int hbm_latency = 800;                // cycles, load issue to data from HBM
  // LDS writes per half per cycle (reads: lds_bytes_per_clk); CDNA4 doubled the read rate only.
  int lds_write_bytes_per_clk = 64;
  // Clock under load: `clock_ghz` is the sustained clock of non-MFMA work; dense MFMA work runs
  // at `mfma_dense_clock_ghz`, measured at an MFMA busy share of `mfma_dense_busy`; in between
  // the clock falls linearly with the kernel's MFMA busy share (sustained_clock_ghz).
  double mfma_dense_clock_ghz = 0;
  double mfma_dense_busy = 0.94;
  // Fixed cost of one kernel launch on a stream timed with events (command processor dispatch,
  // the end-of-kernel release), added once per launch to the modelled event timeline of the
  // drop-in HIP runtime; not part of a kernel's modelled time.
  double launch_overhead_us = 0;

  // Derived peaks (per whole GPU) for the physical-limit checks and the report.
  double peak_valu_flops_f32() const;                 // 2 FLOP x 64 lanes per VALU FMA instruction (non-packed)
  double peak_mfma_flops(int flops_per_instruction, int passes) const;
  double hbm_bytes_per_cycle_per_cu(int active_cus) const;  // at clock_ghz (achievable HBM / active CUs)
  // Achievable bandwidth of each level for `active_cus` CUs at `clock` GHz (bytes/s): the level's
  // achievable figure, or the active CUs' own rate beyond their L1s when that is lower.
  double hbm_achievable_bytes_per_s(int active_cus, double clock) const;
  double mall_achievable_bytes_per_s(int active_cus, double clock) const;
  double l2_achievable_bytes_per_s(int active_cus, double clock) const;
  int active_xcds(int active_cus) const;
  int active_cus_per_xcd(int active_cus) const;
  // The modelled clock of a kernel whose MFMA pipes are busy `mfma_busy` (0..1) of the time.
  double sustained_clock_ghz(double mfma_busy) const;
  // The SIMD of CU `cu`'s first workgroup in a launch (first_simd_by_cu).
  int first_simd_of_cu(uint64_t cu) const;
};

// Every product the model knows; names are lower case ("mi300x", "mi325x", "mi350x", "mi355x").
std::span<const Hardware> products();
// Throws cdnajit::Error listing the valid names.
const Hardware& product(std::string_view name);
// The one default product of each arch (gfx950: mi350x, the product of the seed's measurements;
// gfx942: mi300x): every command that models a kernel without being given a product uses it.
const Hardware& default_product(Arch a);

// The parameter table with sources (Markdown), as in runtime/model/README.md.
struct Parameter {
  std::string name, value, source;
};
std::vector<Parameter> parameter_table(const Hardware& hw);
std::string parameter_table_markdown();

}  // namespace cdnajit::model
