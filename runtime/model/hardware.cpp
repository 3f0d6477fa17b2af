// Product descriptions for the timing model, with the source of every figure.
//
// Sources (public):
//  [DS]    AMD Instinct product data sheets / product pages: MI300X, MI325X (2100 MHz peak engine
//          clock, 304 CUs, 5.3 / 6.0 TB/s HBM3/HBM3E), MI350X (2200 MHz, 256 CUs, 8 TB/s),
//          MI355X (2400 MHz, 256 CUs, 8 TB/s).
//  [SPECS] ROCm documentation, "AMD GPU specifications" table (rocm.docs.amd.com, reference/gpu-specs):
//          CUs per XCD (38 on MI300X/MI325X, 32 on MI350X/MI355X), LDS 64 KiB (gfx942) / 160 KiB (gfx950),
//          L2 4 MiB per XCD, 256 MiB Infinity Cache.
//  [CDNA3] AMD CDNA 3 architecture white paper: 16-lane SIMDs (wave64 in 4 cycles), L2 of 16 channels
//          x 128 B/clk per XCD with 128-byte lines, Infinity Cache peak 17.2 TB/s.
//  [ISA3]  AMD Instinct MI300 (CDNA3) ISA reference guide: LDS of 32 banks of 4 bytes, s_sleep units
//          of 64 clocks, vmcnt 6 bits / lgkmcnt 4 bits, MFMA pass = 4 cycles (pass counts: the ISA table);
//          S_MEMREALTIME reads a 64-bit real-time counter that runs at a constant 100 MHz, independent of
//          power states and of the core clock; S_SETPRIO: a wave's overall priority is {SPIPrio + UserPrio,
//          WaveAge}.
//  [LIBC]  LLVM libc, libc/src/time/gpu/time_utils.h: the AMDGPU fixed-frequency clock (s_memrealtime)
//          runs at 100 MHz on all cards following the GFX9 ISAs (gfx942 and gfx950 are GFX9).
//  [GCN]   AMD Graphics Cores Next architecture white paper (2012): each SIMD is considered for issue
//          once every 4 cycles and may issue up to one instruction per type (VALU, SALU, VMEM, LDS,
//          branch, ...) from different waves; transcendentals at quarter rate.
//  [SEED]  The depthwise-conv3d seed (docs in this project's seeds): ds_read_b32 latency ~52 cycles
//          (microbenchmark on MI308X, gfx942); MI350X counters: GRBM_COUNT 1,273,248 GPU cycles for
//          V97 at 0.632 ms and 1,232,960 for JIT-dot2 at 0.629 ms, i.e. the engine ran at 2.01 and
//          1.96 GHz during those runs (peak 2.2 GHz).
//  [LDSMB] pyhip's LDS microbenchmark (docs/mem_latency.md, MI308X, one wave per CU): ds_read_b32
//          conflict-free one instruction per 4 cycles (64 B/clk for one wave), ds_read_b128 per 16
//          cycles (64 B/clk), b32 at a dword stride of 8 (8 lanes per bank per half-wave) per 16
//          cycles, all 64 lanes in one bank per 64 cycles; a buffer_load_dwordx4 from HBM 500-800 cycles
//          (one wave per CU); it cites ROCm Compute Profiler's LDS
//          description: the LDS bandwidth (128 B/clk per CU) is divided between SIMDs 0-1 and 2-3.
//  [LLVM]  LLVM AMDGPU backend: SIISelLowering allowsMisalignedMemoryAccessesImpl ranks an LDS access
//          wider than a dword that is not naturally aligned as "slow" (test ds-vectorization-alignment.ll:
//          "does not create slow misaligned loads").
//  [ACCEPT] AMD Instinct system acceptance guide, MI300X page (github.com/ROCm/system-acceptance-docs,
//          docs/gpus/mi300x.md): BabelStream pass thresholds on MI300X, Copy >= 4,177,285 MB/s,
//          Mul >= 4,067,069, Add >= 3,920,853, Triad >= 3,885,301, Dot >= 3,660,781.
//  [MAF]   ROCm blog "Measuring Max-Achievable FLOPs - Part 2" (rocm.blogs.amd.com, ROCm/rocm-blogs
//          blogs/software-tools-optimization/measuring-max-achievable-flops-part2): hipBLASLt BF16 GEMM
//          4096x4864x32896 at a median engine clock of 1207 MHz on MI300X (708 TFLOP/s = 94% of the MFMA
//          peak at that clock) and 1447 MHz on MI325X (843 TFLOP/s); FP16 1115 / 1354 MHz, FP8 1230 /
//          1464 MHz; the clock falls under dense MFMA load and depends on the data (zero inputs 1792 MHz).
//  [LDSPH] nod-ai/amd-shark-ai, docs/amdgpu_kernel_optimization_guide.md and docs/empirical-lds/
//          lds_summary.md: MI350X/MI355X (CDNA4) LDS of 64 banks (measured) with a read bandwidth of
//          256 B/clk (CDNA4 white paper); lanes served together per access width, measured on MI300X
//          (b32: 32 lanes, b64: 16, b128: 8 in the order 0-3+20-23, 32-35+52-55, 4-7+16-19, ...) and on
//          MI350X (b32: all 64, b64: 32, b128: 16 as 0-3+12-15+20-23+24-27, ...).
//  [ROCPROF] ROCm Compute Profiler, gfx950 System Speed-of-Light (rocprofiler-compute,
//          src/rocprof_compute_soc/analysis_configs/gfx950/0200_system-speed-of-light.yaml, soc_gfx950.py):
//          vector L1 peak 128 B/clk per CU, L2 128 B/clk per channel and 16 channels per XCD, scalar L1
//          64 B/clk, LDS 128 B/clk per CU counted as issued bank accesses. Its LDS description
//          (docs/conceptual/pipeline-descriptions.rst, "Local data share"): the SIMDs connect to the LDS
//          in pairs, one SIMD of a pair issuing at a time; each pair's port moves 64 B per cycle in each
//          direction, and the input port carries the addresses as well as the data: a wave64 store of
//          4 bytes per lane takes 8 cycles, of 16 bytes 20 cycles.
//  [CDNA4] AMD CDNA 4 architecture white paper: 160 KiB LDS, doubled LDS read bandwidth, loads from
//          global memory straight into LDS (LDS-DMA) of up to 128 bits per lane, LDS reads with transpose.
//  [AMDGPU] LLVM, llvm/docs/AMDGPUUsage.rst, "Memory Model GFX942" (and its code-sequence table, which
//          gfx950 shares): the vector L1 is per CU, and no release sequence writes it back (agent
//          release: buffer_wbl2 sc1, an L2 write-back, then s_waitcnt vmcnt(0)), i.e. stores pass
//          through it; SC0 / SC1 / both on a load or
//          buffer_inv name workgroup / agent / system scope; "buffer_inv sc0 ... will invalidate the L1
//          cache", buffer_inv sc1 (agent) and sc0 sc1 (system) follow acquires so that "following loads will
//          not see stale global data"; nontemporal loads and stores set nt=1; atomics bypass the L1.
//  [CACHEMB] MrRoy09/AMD-CDNA3-CacheBenchmarking (commit 90676cc), l2_coherence_tests/cache_latency_test
//          readme.md, MI300X in SPX mode, one thread, s_memtime around global_load_dword + s_waitcnt vmcnt(0),
//          mean of 256: cold 1212 cycles, L1 hit 112, nt load 224, sc1 load 224, load after buffer_inv sc1 212;
//          load->load 127, store->load 208, store->load->load 116.
//  fitted  chosen to fit the measured data named beside it (never per kernel).
//  assumed plausible value without a product-specific public measurement; switchable here.
#include "runtime/model/hardware.hpp"

#include <algorithm>
#include <cstdio>

#include "jit/isa/error.hpp"
#include "jit/isa/opcode.hpp"
#include "jit/isa/target.hpp"

namespace cdnajit::model {
namespace {

// Sustained engine clock of non-MFMA work as a share of the peak: [SEED] GRBM_COUNT / measured time
// on MI350X (2.01 and 1.96 GHz of 2.2; mean 1.985 GHz). Fitted on one product and assumed for the others.
constexpr double kSustainedShare = 1.985 / 2.2;
// Dense-MFMA clock as a share of the peak where no product figure exists: [MAF] MI325X 1447 / 2100 MHz.
constexpr double kDenseMfmaShare = 1.447 / 2.1;
// Per-launch overhead between two hipEvents (us). Fitted on one point: HipKittens' MI355X BF16 GEMM
// at N = 1024 (tools/validation/hipkittens, point mi355x_bf16_1024: 15.40 us measured per launch, the
// kernel modelled at 9.61 us), kept out of the validation set. No published MI300X/MI355X launch
// latency was found; the same value is assumed for every product.
constexpr double kLaunchOverheadUs = 15.40 - 9.61;
// Achievable HBM bandwidth as a share of the peak: [ACCEPT] MI300X BabelStream Copy pass threshold,
// 4.177 TB/s of 5.3 (fitted on that one figure: point babelstream_acceptance/mi300x-copy of
// tools/validation, reported in tools/report_model.md's fitted set; Mul/Add/Triad/Dot there and Azure's
// BabelStream figures in babelstream_azure are validation points). The figure is a time per launch at
// the guide's 2^28 doubles (Copy moves 2 x 2^28 x 8 bytes); the drop-in runtime's event times include
// kLaunchOverheadUs per launch, so the kernel's own time is the threshold's time less that overhead.
// No CDNA3 MI325X or CDNA4 figure is published there: the same share is assumed.
// gfx942 vector L1 and L2 hit latencies (cycles from the load's issue to its data), fitted on two
// [CACHEMB] MI300X points of tools/validation/cdna3_cache: mi300x-l1-hit (112) and mi300x-nt-load
// (224, an nt load served by the L2). The program times s_memtime; global_load_dword; s_waitcnt
// vmcnt(0); s_memtime, and the model puts 4 cycles of its own around the load (the load issues one
// issue turn after the first s_memtime): measured by modelling the program with both latencies set to
// 40 / 100 (prints 44 / 104) and 108 / 220 (112 / 224). So 112 - 4 and 224 - 4. The other six points
// of the source are the validation set. No CDNA4 measurement was found: gfx950 keeps the assumed values.
constexpr int kModelCyclesAroundTimedLoad = 4;
constexpr int kCdna3L1Latency = 112 - kModelCyclesAroundTimedLoad;
constexpr int kCdna3L2Latency = 224 - kModelCyclesAroundTimedLoad;
constexpr double kCopyBytes = 2.0 * 268435456.0 * 8.0;
constexpr double kHbmAchievableShare = kCopyBytes / (kCopyBytes / 4.177285e12 - kLaunchOverheadUs * 1e-6) / 5.3e12;

Hardware common(std::string name, std::string product, Arch arch, double peak_ghz, double hbm_tbps) {
  Hardware h;
  h.name = std::move(name);
  h.product = std::move(product);
  h.arch = arch;
  h.peak_clock_ghz = peak_ghz;
  h.clock_ghz = peak_ghz * kSustainedShare;
  h.lds_bytes = lds_bytes_per_cu(arch);
  h.xcds = 8;                                  // [SPECS] 8 XCDs on every product here
  h.l1_bytes = 32768;                          // [SPECS] 32 KiB vector L1 per CU
  h.scalar_cache_bytes = 16384;                // [SPECS] 16 KiB per 2 CUs
  h.scalar_cache_cus = 2;
  h.l2_bytes = 4u << 20;                       // [SPECS] 4 MiB per XCD
  h.l2_ways = 16;                              // [CDNA3] 16-way
  h.l2_bytes_per_clk_per_xcd = 16.0 * 128.0;   // [CDNA3] 16 channels x 128 B/clk; [ROCPROF] the same on gfx950
  h.mall_bytes = 256ull << 20;                 // [SPECS] 256 MiB
  h.mall_tbps = 17.2;                          // [CDNA3]; gfx950 assumed
  h.hbm_tbps = hbm_tbps;
  h.hbm_achievable_share = kHbmAchievableShare;
  h.mall_achievable_share = kHbmAchievableShare;  // assumed: no Infinity Cache bandwidth measurement found
  h.launch_overhead_us = kLaunchOverheadUs;    // fitted: hipkittens mi355x_bf16_1024 (above)
  return h;
}

Hardware cdna3(std::string name, std::string product, double hbm_tbps, double dense_mfma_ghz) {
  Hardware h = common(std::move(name), std::move(product), Arch::gfx942, 2.1, hbm_tbps);
  h.cus = isa::target::max_compute_units(Arch::gfx942);  // [SPECS] 304: every CDNA3 product here has the full count
  h.cus_per_xcd = 38;                          // [SPECS]
  h.mfma_dense_clock_ghz = dense_mfma_ghz;     // [MAF] BF16 GEMM median clock
  h.l1_latency = kCdna3L1Latency;              // fitted: [CACHEMB] mi300x-l1-hit (above)
  h.l2_latency = kCdna3L2Latency;              // fitted: [CACHEMB] mi300x-nt-load (above)
  return h;
}

Hardware cdna4(std::string name, std::string product, double clock_ghz) {
  Hardware h = common(std::move(name), std::move(product), Arch::gfx950, clock_ghz, 8.0);
  h.cus = isa::target::max_compute_units(Arch::gfx950);  // [SPECS] 256: every CDNA4 product here has the full count
  h.cus_per_xcd = 32;                          // [SPECS]
  h.lds_banks = 64;                            // [LDSPH] measured on MI350X; CDNA4 white paper
  h.lds_bytes_per_clk = 128;                   // [LDSPH]/[CDNA4] 256 B/clk reads per CU, two halves
  h.lds_write_bytes_per_clk = 64;              // assumed: [CDNA4] doubles the read bandwidth only
  h.l1_bytes_per_clk = 128;                    // [ROCPROF] gfx950 vector L1 128 B/clk per CU
  h.cu_l2_bytes_per_clk = 128;                 // assumed: the L1's rate
  h.mfma_dense_clock_ghz = clock_ghz * kDenseMfmaShare;  // assumed: [MAF] MI325X share (no CDNA4 figure)
  return h;
}

const std::vector<Hardware>& all() {
  static const std::vector<Hardware> v = {
      cdna3("mi300x", "AMD Instinct MI300X", 5.3, 1.207),
      cdna3("mi325x", "AMD Instinct MI325X", 6.0, 1.447),
      cdna4("mi350x", "AMD Instinct MI350X", 2.2),
      cdna4("mi355x", "AMD Instinct MI355X", 2.4),
  };
  return v;
}

std::string num(double v) {
  char b[64];
  std::snprintf(b, sizeof b, "%g", v);
  return b;
}

std::string mnemonic(isa::Opcode op) { return std::string(isa::info(op).mnemonic); }

}  // namespace

double Hardware::peak_valu_flops_f32() const { return double(cus) * simds * (2.0 * 64 / valu_cycles) * peak_clock_ghz * 1e9; }
double Hardware::peak_mfma_flops(int flops_per_instruction, int passes) const {
  return double(cus) * simds * double(flops_per_instruction) / double(passes * mfma_cycles_per_pass) * peak_clock_ghz * 1e9;
}
double Hardware::hbm_bytes_per_cycle_per_cu(int active_cus) const {
  const int n = std::clamp(active_cus, 1, cus);
  return hbm_achievable_bytes_per_s(n, clock_ghz) / (double(n) * clock_ghz * 1e9);
}
int Hardware::active_xcds(int active_cus) const { return std::clamp(active_cus, 1, std::max(1, xcds)); }
int Hardware::active_cus_per_xcd(int active_cus) const {
  const int x = active_xcds(active_cus);
  return std::clamp((std::clamp(active_cus, 1, cus) + x - 1) / x, 1, std::max(1, cus_per_xcd));
}
double Hardware::hbm_achievable_bytes_per_s(int active_cus, double clock) const {
  return std::min(hbm_tbps * 1e12 * hbm_achievable_share, std::clamp(active_cus, 1, cus) * cu_l2_bytes_per_clk * clock * 1e9);
}
double Hardware::mall_achievable_bytes_per_s(int active_cus, double clock) const {
  return std::min(mall_tbps * 1e12 * mall_achievable_share, std::clamp(active_cus, 1, cus) * cu_l2_bytes_per_clk * clock * 1e9);
}
double Hardware::l2_achievable_bytes_per_s(int active_cus, double clock) const {
  return std::min(active_xcds(active_cus) * l2_bytes_per_clk_per_xcd * l2_achievable_share * clock * 1e9,
                  std::clamp(active_cus, 1, cus) * cu_l2_bytes_per_clk * clock * 1e9);
}
int Hardware::first_simd_of_cu(uint64_t cu) const {
  return first_simd_by_cu && simds > 0 ? int(cu % uint64_t(simds)) : 0;
}

double Hardware::sustained_clock_ghz(double mfma_busy) const {
  if (mfma_dense_clock_ghz <= 0 || mfma_dense_busy <= 0) return clock_ghz;
  const double t = std::clamp(mfma_busy / mfma_dense_busy, 0.0, 1.0);
  return clock_ghz + (mfma_dense_clock_ghz - clock_ghz) * t;
}

std::span<const Hardware> products() { return all(); }

const Hardware& product(std::string_view name) {
  std::string names;
  for (const Hardware& h : all()) {
    if (h.name == name) return h;
    names += (names.empty() ? "" : ", ") + h.name;
  }
  throw Error("model: unknown product '" + std::string(name) + "'; valid: " + names);
}

const Hardware& default_product(Arch a) { return product(a == Arch::gfx950 ? "mi350x" : "mi300x"); }

std::vector<Parameter> parameter_table(const Hardware& h) {
  const bool c4 = h.arch == Arch::gfx950;
  return {
      {"compute units", std::to_string(h.cus), "[DS], [SPECS]"},
      {"peak engine clock (GHz)", num(h.peak_clock_ghz), "[DS]"},
      {"sustained clock of non-MFMA work (GHz)", num(h.clock_ghz),
       c4 && h.name == "mi350x" ? "fitted: [SEED] GRBM_COUNT / measured time (1.96-2.01 GHz)"
                                : "assumed: peak x the MI350X sustained share (fitted there from [SEED])"},
      {mnemonic(isa::Opcode::s_memrealtime) + " (wall_clock64()) counter (MHz)", num(h.realtime_counter_mhz), "[ISA3] S_MEMREALTIME, [LIBC] (every GFX9 ISA)"},
      {mnemonic(isa::Opcode::s_memtime) + " (clock64()) counts", "modelled cycles",
       "assumed: the engine clock the model counts ([ISA3] names no rate; HIP reports it per device)"},
      {"SIMDs per CU / issue turn (cycles)", std::to_string(h.simds) + " / " + std::to_string(h.issue_period), "[GCN], [CDNA3]"},
      {"VALU cycles per wave64 instruction", std::to_string(h.valu_cycles), "[CDNA3] 16-lane SIMD"},
      {"transcendental cycles", std::to_string(h.trans_cycles), "[GCN] quarter rate"},
      {"MFMA cycles per pass", std::to_string(h.mfma_cycles_per_pass), "[ISA3]; passes from jit/isa/instructions.def"},
      {"SALU latency (cycles)", std::to_string(h.salu_latency), "assumed"},
      {"taken-branch refetch (cycles)", std::to_string(h.branch_taken_cycles), "assumed"},
      {"barrier release (cycles)", std::to_string(h.barrier_release_cycles), "assumed"},
      {mnemonic(isa::Opcode::s_sleep) + " unit (cycles)", std::to_string(h.sleep_cycles_per_unit), "[ISA3]"},
      {"wave slot released when the wave ends (LDS when the workgroup ends)", h.free_wave_slots_at_wave_end ? "yes" : "no",
       "[GCN] (resources of a wavefront are freed at its end; LDS belongs to the workgroup)"},
      {"a workgroup's first wave on the SIMD after the previous workgroup's first", h.rotate_first_simd_per_workgroup ? "yes" : "no",
       "assumed (the dispatcher's SIMD choice is undocumented); [SEED] V97 at 1.02x its issue floor with a 13% heavier wave 0 excludes one SIMD holding every wave 0"},
      {"a CU's first workgroup of a launch on SIMD (CU index mod SIMDs)", h.first_simd_by_cu ? "yes" : "no (SIMD 0)",
       "assumed (the dispatcher's state at a launch is undocumented; no reason every CU holds the same); chosen among candidate "
       "rules against [LDSPH]'s sweeps, no value fitted: 28 of 28 within 20% against 27 of 28 with SIMD 0 everywhere; "
       "switchable"},
      {"workgroups resident per CU at most", std::to_string(h.max_workgroups_per_cu), "assumed ([GCN] 16 barrier resources per CU)"},
      {"LDS bytes per CU", std::to_string(h.lds_bytes), "[SPECS]"},
      {"LDS banks (4 bytes)", std::to_string(h.lds_banks), c4 ? "[LDSPH] measured on MI350X (64); CDNA4 white paper" : "[ISA3]; [LDSPH] measured on MI300X (32)"},
      {"LDS lanes served together (b32 / b64 / b128)", c4 ? "64 / 32 / 16" : "32 / 16 / 8",
       "[LDSPH] measured phase groups, b128 reads in the measured (non-contiguous) lane order; writes and other widths: contiguous lanes"},
      {"LDS cycles per bank access", std::to_string(h.lds_bank_cycles), "[LDSMB] 64 lanes in one bank: 64 cycles"},
      {"LDS banks: one array for the whole CU, both halves' passes queue for it", h.lds_banks_shared_by_halves ? "yes" : "no",
       c4 ? "[LDSPH] 64 banks measured for the CU's LDS (one set per CU, as on CDNA3); its MI350X sweep: a conflicted read costs "
            "2.4x its passes with 4 waves per CU, more than banks per half allow (2x); switchable"
          : "[ISA3] 32 banks for the CU's LDS; [LDSMB]/[ROCPROF] 128 B/clk per CU = 32 banks x 4 B once per cycle; switchable"},
      {"LDS serves waiting DS instructions by wave priority, then age (else in issue order)", h.lds_serves_oldest_wave_first ? "yes" : "no",
       "assumed: the LDS arbiter's order is not documented ([ISA3] S_SETPRIO states the {priority, age} order for issue); "
       "nod-ai's sweeps ([LDSPH]) replayed in issue order 0.82-1.42x, oldest first 0.60-1.06x (README); switchable"},
      {"LDS banks granted pass by pass, to the higher-priority then older wave's half (each half in issue order)",
       h.lds_bank_passes_by_age ? "yes" : "no",
       "assumed: the LDS's choice between the SIMD pairs is not documented ([ISA3] S_SETPRIO states the {priority, age} "
       "order for issue); chosen among candidate rules against nod-ai's sweeps ([LDSPH], no value fitted): with it 28 of 28 "
       "within 20% (MI350X 0.81-1.12x), without it 24 of 28 (MI350X 3 of 7; 23 of 28, MI350X 1.12-1.27x, while every CU "
       "started at SIMD 0) (README, \"Validation\"); switchable"},
      {"LDS halves (SIMD pairs) x read bytes/clk each", std::to_string(h.lds_halves) + " x " + std::to_string(h.lds_bytes_per_clk),
       c4 ? "[LDSPH]/[CDNA4] 256 B/clk reads per CU (the [LDSMB] split into SIMD-pair halves kept, assumed)" : "[LDSMB] on MI308X"},
      {"LDS write bytes/clk per half (a lane's 4-byte address counted with its data)", std::to_string(h.lds_write_bytes_per_clk),
       c4 ? "assumed: [CDNA4] doubles the read bandwidth; writes kept at the CDNA3 rate, addresses counted as on CDNA3"
          : "[LDSMB] (the read rate); [ROCPROF] LDS description: address and data share the input port (b32 store 8 cycles, b128 20)"},
      {"LDS reads with transpose (ds_read_b64_tr_*) / LDS-DMA loads", c4 ? "b64 phases / LDS write bandwidth" : "- / LDS write bandwidth",
       c4 ? "[CDNA4] (transpose reads: 8-byte lanes, banked as ds_read_b64, assumed); an LDS-DMA load's bytes occupy its half's write rate (assumed)"
          : "an LDS-DMA load's bytes occupy its half's write rate (assumed)"},
      {"misaligned b64/b128 LDS lane: served alone, passes per byte", std::to_string(h.lds_misaligned_passes_per_byte),
       "fitted (switchable; one measurement): [LLVM] ranks misaligned wide DS access slow; [SEED] JIT-b64 4.2x slower on MI350X"},
      {"DS instruction holds its SIMD's vector issue (cycles)", std::to_string(h.lds_valu_issue_cycles),
       "fitted (switchable; [GCN] describes free co-issue = 0): [SEED] MI350X counters, GRBM cycles per SIMD-wave / 4 x (VALU + LDS) = 0.94 (V97), 0.99 (JIT-dot2)"},
      {"LDS latency (cycles)", std::to_string(h.lds_latency), c4 ? "[SEED] MI308X microbenchmark (no CDNA4 figure found; assumed equal)" : "[SEED] MI308X microbenchmark"},
      {"XCDs x CUs per XCD (workgroup i on XCD i mod XCDs)", std::to_string(h.xcds) + " x " + std::to_string(h.cus_per_xcd),
       "[SPECS]; round-robin dispatch over XCDs as ROCm documents for MI300X/MI355X"},
      {"cache line, every level (bytes)", std::to_string(h.cache_line), "[CDNA3] (Infinity Cache line assumed equal)"},
      {"VMEM address cycles per instruction", std::to_string(h.vmem_issue_cycles), "assumed (16 lanes per cycle)"},
      {"vector L1 per CU: bytes / ways", std::to_string(h.l1_bytes) + " / " + std::to_string(h.l1_ways),
       "[SPECS] 32 KiB; ways assumed; write-through, stores do not allocate ([CACHEMB] MI300X: a store, then a load of its line takes the L2 time)"},
      {"vector L1: a load with sc1 (agent/system scope) / with nt is served from the L2; buffer_inv sc0/sc1 empties the CU's L1",
       std::string(h.l1_miss_on_sc1_load ? "yes" : "no") + " / " + (h.l1_miss_on_nt_load ? "yes" : "no") + "; " +
           (h.l1_invalidated_by_buffer_inv ? "yes" : "no"),
       std::string("[AMDGPU] memory model (scope bits; buffer_inv invalidates the L1); [CACHEMB] sc1 and nt loads and a load "
                   "after buffer_inv sc1 take the L2 time on MI300X") +
           (c4 ? " (gfx950: no CDNA4 measurement; assumed as on gfx942, LLVM uses one cache control for both)" : "") + "; switchable"},
      {"vector L1 bytes/clk per CU", num(h.l1_bytes_per_clk), c4 ? "[ROCPROF] gfx950 128 B/clk" : "assumed ([GCN] 64 B/clk)"},
      {"vector L1 hit latency (cycles)", std::to_string(h.l1_latency),
       c4 ? "assumed (no CDNA4 measurement found)"
          : "fitted: [CACHEMB] point mi300x-l1-hit (112 cycles timed, less the 4 the model adds around the load); MI325X assumed equal"},
      {"scalar L1: bytes per CUs sharing it / bytes/clk", std::to_string(h.scalar_cache_bytes) + " per " + std::to_string(h.scalar_cache_cus) + " / " + num(h.scalar_bytes_per_clk),
       "[SPECS] 16 KiB per 2 CUs; [ROCPROF] 64 B/clk (listed; scalar loads take the scalar latency, not simulated per line)"},
      {"scalar load latency (cycles)", std::to_string(h.smem_latency), "assumed"},
      {"L2 per XCD: bytes / ways", std::to_string(h.l2_bytes) + " / " + std::to_string(h.l2_ways), "[SPECS] 4 MiB; [CDNA3] 16-way; write-back, stores allocate without a fetch (assumed)"},
      {"L2 peak bytes/clk per XCD (achievable share)", num(h.l2_bytes_per_clk_per_xcd) + " (" + num(h.l2_achievable_share) + ")",
       c4 ? "[ROCPROF] 16 channels x 128 B/clk; achievable = peak (assumed: no measurement found)" : "[CDNA3] 16 channels x 128 B/clk; achievable = peak (assumed: no measurement found)"},
      {"L2 hit latency (cycles)", std::to_string(h.l2_latency),
       c4 ? "assumed (no CDNA4 measurement found)"
          : "fitted: [CACHEMB] point mi300x-nt-load (224 cycles timed for an nt load served by the L2, less the model's 4); MI325X assumed equal"},
      {"one CU's traffic beyond its L1 (bytes/clk)", num(h.cu_l2_bytes_per_clk),
       c4 ? "assumed (the L1 rate); caps a level's bandwidth when few CUs are active" : "assumed ([GCN] 64 B/clk L1 path); caps a level's bandwidth when few CUs are active"},
      {"Infinity Cache: bytes / ways", std::to_string(h.mall_bytes) + " / " + std::to_string(h.mall_ways), "[SPECS] 256 MiB; ways assumed; write-back"},
      {"Infinity Cache peak TB/s (achievable share)", num(h.mall_tbps) + " (" + num(h.mall_achievable_share) + ")",
       c4 ? "assumed: the CDNA3 figure; achievable share assumed = HBM's" : "[CDNA3] 17.2; achievable share assumed = HBM's"},
      {"Infinity Cache hit latency (cycles)", std::to_string(h.mall_latency), "assumed: the low end of [LDSMB]'s 500-800 cycles for loads beyond L2"},
      {"HBM peak TB/s", num(h.hbm_tbps), "[DS]"},
      {"HBM achievable share of peak", num(h.hbm_achievable_share),
       "MI300X fitted: [ACCEPT] BabelStream Copy threshold 4.177 TB/s at 2^28 doubles, less the launch overhead per launch, / 5.3 (point babelstream_acceptance/mi300x-copy; Mul/Add/Triad/Dot held out); other products assumed at the MI300X share"},
      {"HBM latency (cycles)", std::to_string(h.hbm_latency), "[LDSMB] 500-800 cycles (MI308X, one wave); the high end"},
      {"dense-MFMA sustained clock (GHz) at MFMA busy share", num(h.mfma_dense_clock_ghz) + " at " + num(h.mfma_dense_busy),
       "MI300X, MI325X: [MAF] BF16 GEMM median clock, 94% of MFMA peak at that clock; MI350X, MI355X assumed: peak x [MAF]'s MI325X share 1447/2100 (no CDNA4 figure found)"},
      {"kernel launch overhead between hipEvents (us)", num(h.launch_overhead_us),
       "fitted: HipKittens mi355x_bf16_1024 (15.40 us measured per launch, kernel modelled 9.61 us; the point is left out of the "
       "validation set); other products assumed equal (no published launch latency found). Added per launch to the drop-in HIP "
       "runtime's modelled event times only"},
      {"vmcnt / lgkmcnt limits", std::to_string(isa::target::target_info(h.arch).waitcnt.max_vmcnt) + " / " +
                                      std::to_string(isa::target::target_info(h.arch).waitcnt.max_lgkmcnt), "[ISA3]"},
  };
}

std::string parameter_table_markdown() {
  std::string out = "| parameter |";
  for (const Hardware& h : all()) out += " " + h.name + " |";
  out += " source |\n|---|";
  for (size_t i = 0; i < all().size(); ++i) out += "---|";
  out += "---|\n";
  std::vector<std::vector<Parameter>> cols;
  for (const Hardware& h : all()) cols.push_back(parameter_table(h));
  for (size_t r = 0; r < cols[0].size(); ++r) {
    out += "| " + cols[0][r].name + " |";
    for (const auto& c : cols) out += " " + c[r].value + " |";
    // Sources differ between CDNA3 and CDNA4 rows only in wording: show both when they differ.
    std::string src = cols[0][r].source;
    if (cols.back()[r].source != src) src = "gfx942: " + src + "; gfx950: " + cols.back()[r].source;
    out += " " + src + " |\n";
  }
  return out;
}

}  // namespace cdnajit::model
