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
//          power states and of the core clock.
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
//          cycles, all 64 lanes in one bank per 64 cycles; it cites ROCm Compute Profiler's LDS
//          description: the LDS bandwidth (128 B/clk per CU) is divided between SIMDs 0-1 and 2-3.
//  [LLVM]  LLVM AMDGPU backend: SIISelLowering allowsMisalignedMemoryAccessesImpl ranks an LDS access
//          wider than a dword that is not naturally aligned as "slow" (test ds-vectorization-alignment.ll:
//          "does not create slow misaligned loads").
//  fitted  chosen to fit the measured data named beside it (never per kernel).
//  assumed plausible value without a product-specific public measurement; switchable here.
#include "runtime/model/hardware.hpp"

#include <algorithm>
#include <cstdio>

#include "jit/isa/error.hpp"

namespace cdnajit::model {
namespace {

// Sustained engine clock as a share of the peak: [SEED] GRBM_COUNT / measured time on MI350X
// (2.01 and 1.96 GHz of 2.2; mean 1.985 GHz). Fitted on one product and assumed for the others.
constexpr double kSustainedShare = 1.985 / 2.2;

Hardware cdna3(std::string name, std::string product, double hbm_tbps) {
  Hardware h;
  h.name = std::move(name);
  h.product = std::move(product);
  h.arch = Arch::gfx942;
  h.cus = 304;
  h.peak_clock_ghz = 2.1;
  h.clock_ghz = 2.1 * kSustainedShare;
  h.lds_bytes = lds_bytes_per_cu(Arch::gfx942);
  h.l2_bytes_per_clk_per_cu = 16.0 * 128.0 / 38.0;  // [CDNA3] 2 KiB/clk per XCD over 38 CUs [SPECS]
  h.hbm_tbps = hbm_tbps;
  h.mall_tbps = 17.2;
  return h;
}

Hardware cdna4(std::string name, std::string product, double clock_ghz) {
  Hardware h;
  h.name = std::move(name);
  h.product = std::move(product);
  h.arch = Arch::gfx950;
  h.cus = 256;
  h.peak_clock_ghz = clock_ghz;
  h.clock_ghz = clock_ghz * kSustainedShare;
  h.lds_bytes = lds_bytes_per_cu(Arch::gfx950);
  h.l2_bytes_per_clk_per_cu = 16.0 * 128.0 / 32.0;  // [CDNA3] L2 organisation kept in CDNA4 (assumed), 32 CUs per XCD [SPECS]
  h.hbm_tbps = 8.0;
  h.mall_tbps = 17.2;  // assumed: the CDNA3 figure
  return h;
}

const std::vector<Hardware>& all() {
  static const std::vector<Hardware> v = {
      cdna3("mi300x", "AMD Instinct MI300X", 5.3),
      cdna3("mi325x", "AMD Instinct MI325X", 6.0),
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

}  // namespace

double Hardware::peak_valu_flops_f32() const { return double(cus) * simds * (2.0 * 64 / valu_cycles) * peak_clock_ghz * 1e9; }
double Hardware::peak_mfma_flops(int flops_per_instruction, int passes) const {
  return double(cus) * simds * double(flops_per_instruction) / double(passes * mfma_cycles_per_pass) * peak_clock_ghz * 1e9;
}
double Hardware::hbm_bytes_per_cycle_per_cu(int active_cus) const {
  return hbm_tbps * 1e12 / (double(std::clamp(active_cus, 1, cus)) * clock_ghz * 1e9);
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
      {"modelled (sustained) clock (GHz)", num(h.clock_ghz),
       c4 && h.name == "mi350x" ? "fitted: [SEED] GRBM_COUNT / measured time (1.96-2.01 GHz)"
                                : "assumed: peak x the MI350X sustained share (fitted there from [SEED])"},
      {"s_memrealtime (wall_clock64()) counter (MHz)", num(h.realtime_counter_mhz), "[ISA3] S_MEMREALTIME, [LIBC] (every GFX9 ISA)"},
      {"s_memtime (clock64()) counts", "modelled cycles",
       "assumed: the engine clock the model counts ([ISA3] names no rate; HIP reports it per device)"},
      {"SIMDs per CU / issue turn (cycles)", std::to_string(h.simds) + " / " + std::to_string(h.issue_period), "[GCN], [CDNA3]"},
      {"VALU cycles per wave64 instruction", std::to_string(h.valu_cycles), "[CDNA3] 16-lane SIMD"},
      {"transcendental cycles", std::to_string(h.trans_cycles), "[GCN] quarter rate"},
      {"MFMA cycles per pass", std::to_string(h.mfma_cycles_per_pass), "[ISA3]; passes from jit/isa/instructions.def"},
      {"SALU latency (cycles)", std::to_string(h.salu_latency), "assumed"},
      {"taken-branch refetch (cycles)", std::to_string(h.branch_taken_cycles), "assumed"},
      {"barrier release (cycles)", std::to_string(h.barrier_release_cycles), "assumed"},
      {"s_sleep unit (cycles)", std::to_string(h.sleep_cycles_per_unit), "[ISA3]"},
      {"wave slot released when the wave ends (LDS when the workgroup ends)", h.free_wave_slots_at_wave_end ? "yes" : "no",
       "[GCN] (resources of a wavefront are freed at its end; LDS belongs to the workgroup)"},
      {"a workgroup's first wave on the SIMD after the previous workgroup's first", h.rotate_first_simd_per_workgroup ? "yes" : "no",
       "assumed (the dispatcher's SIMD choice is undocumented); [SEED] V97 at 1.02x its issue floor with a 13% heavier wave 0 excludes one SIMD holding every wave 0"},
      {"workgroups resident per CU at most", std::to_string(h.max_workgroups_per_cu), "assumed ([GCN] 16 barrier resources per CU)"},
      {"LDS bytes per CU", std::to_string(h.lds_bytes), "[SPECS]"},
      {"LDS banks (4 bytes)", std::to_string(h.lds_banks), c4 ? "[ISA3] (CDNA3 figure; assumed unchanged in CDNA4)" : "[ISA3]"},
      {"LDS cycles per bank access", std::to_string(h.lds_bank_cycles), "[LDSMB] 64 lanes in one bank: 64 cycles"},
      {"LDS halves (SIMD pairs) x bytes/clk each", std::to_string(h.lds_halves) + " x " + std::to_string(h.lds_bytes_per_clk),
       c4 ? "[LDSMB] on MI308X (assumed unchanged in CDNA4)" : "[LDSMB] on MI308X"},
      {"misaligned b64/b128 LDS lane: served alone, passes per byte", std::to_string(h.lds_misaligned_passes_per_byte),
       "fitted (switchable; one measurement): [LLVM] ranks misaligned wide DS access slow; [SEED] JIT-b64 4.2x slower on MI350X"},
      {"DS instruction holds its SIMD's vector issue (cycles)", std::to_string(h.lds_valu_issue_cycles),
       "fitted (switchable; [GCN] describes free co-issue = 0): [SEED] MI350X counters, GRBM cycles per SIMD-wave / 4 x (VALU + LDS) = 0.94 (V97), 0.99 (JIT-dot2)"},
      {"LDS latency (cycles)", std::to_string(h.lds_latency), c4 ? "[SEED] MI308X microbenchmark (assumed equal on CDNA4)" : "[SEED] MI308X microbenchmark"},
      {"cache line (bytes)", std::to_string(h.cache_line), "[CDNA3]"},
      {"VMEM address cycles per instruction", std::to_string(h.vmem_issue_cycles), "assumed (16 lanes per cycle)"},
      {"vector L1 bytes/clk per CU", num(h.l1_bytes_per_clk), "assumed ([GCN] 64 B/clk)"},
      {"L2 bytes/clk per CU", num(h.l2_bytes_per_clk_per_cu), c4 ? "[CDNA3] 2 KiB/clk per XCD (assumed in CDNA4) / 32 CUs per XCD [SPECS]" : "[CDNA3] 2 KiB/clk per XCD / 38 CUs per XCD [SPECS]"},
      {"HBM bandwidth (TB/s)", num(h.hbm_tbps), "[DS]"},
      {"Infinity Cache bandwidth (TB/s, reported only)", num(h.mall_tbps), c4 ? "assumed (CDNA3 figure)" : "[CDNA3]"},
      {"L2 hit latency (cycles)", std::to_string(h.l2_latency), "assumed"},
      {"first-touch (Infinity Cache/HBM) latency (cycles)", std::to_string(h.hbm_latency), "assumed"},
      {"scalar load latency (cycles)", std::to_string(h.smem_latency), "assumed"},
      {"vmcnt / lgkmcnt limits", std::to_string(h.vmcnt_max) + " / " + std::to_string(h.lgkmcnt_max), "[ISA3]"},
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
