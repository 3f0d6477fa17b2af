// report_bwd_weight: the Markdown report of the grouped conv backward-weight kernels
// (codegen/conv_bwd_weight.hpp) on RetinaNet-like shapes from the wavelet seed
// (G = 1, 3x3, C = 256, K = 36 and 256, N = 1, small spatial sizes): per variant the
// kernel's registers and occupancy, the registers and static instruction mix of each
// wave role, and the modelled time of the launch from the project's timing model
// (runtime/model: the simulator records the workgroups one CU holds, the CU model
// replays them), with the seed's measured uplift beside it. Every time in the report is
// modelled, labelled with the model's name; the seed's figures are the seed's
// measurements on gfx950, not ours.
//
//   build/tools/report_bwd_weight [--model mi350x|mi355x|mi300x|mi325x] [--quick] [--out FILE.md] [--help]
//
// Each launch also runs the HIP-free bit check of the three forms against each other
// (same MFMA order, so the dW bytes must be equal).
#include <fmt/format.h>

#include <bit>
#include <chrono>
#include <cmath>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>

#include "codegen/conv_bwd_weight.hpp"
#include "tools/jobs/conv_bwd_weight_host.hpp"
#include "jit/isa/error.hpp"
#include "runtime/model/launch_model.hpp"
#include "runtime/model/product_file.hpp"
#include "runtime/model/model_device.hpp"

using namespace cdnajit;
using namespace cdnajit::codegen;

namespace {

struct SeedShape {
  int K, hw, stride;
  const char* seed_uplift;  // the seed's measured uplift of wavelet over the best baseline (gfx950)
};

// From the seed's table (CK PR "Wavelet gemm pipeline for bwd_weight convolution").
const SeedShape kShapes[] = {
    {36, 7, 1, "1.91x"},   {36, 13, 1, "1.43x"}, {36, 25, 1, "1.38x"},  {256, 7, 1, "1.17x"},
    {256, 13, 1, "1.13x"}, {256, 13, 2, "1.20x"}, {256, 25, 2, "1.20x"},
};

BwdWeightShape make_shape(const SeedShape& r, int batch = 1) {
  BwdWeightShape s;
  s.N = batch, s.G = 1, s.C = 256, s.K = r.K, s.Hi = r.hw, s.Wi = r.hw, s.Y = 3, s.X = 3;
  s.stride[0] = s.stride[1] = r.stride;
  s.pad[0] = s.pad[1] = 1;
  return s;
}

struct Measured {
  BwdWeightKernel k;
  model::ModelReport report;
  std::vector<uint8_t> dw;
};

Measured model_variant(const BwdWeightShape& s, BwdWeightVariant v, const BwdWeightConfig& cfg,
                       const model::Hardware& hw, const BwdWeightInputs& in) {
  Measured m;
  m.k = build_conv_bwd_weight(s, v, hw.arch, cfg);
  auto dev = open_device(hw.arch == Arch::gfx942 ? "sim:gfx942" : "sim:gfx950");
  Module mod = dev->load(m.k.build.code_object);
  DeviceKernel kk = mod.kernel(kBwdWeightKernelName);
  Buffer x = dev->upload(in.x, "x"), dy = dev->upload(in.dy, "dy");
  Buffer dw = dev->alloc(size_t(s.dw_elems()) * 4, "dw");
  KernelArgs args;
  args.ptr(x).ptr(dy).ptr(dw);
  model::ModelOptions mo;
  mo.flops = s.flops();
  m.report = model::model_launch(*dev, kk, m.k.grid, m.k.block, 0, args, hw, mo).report;
  m.dw = dev->download<uint8_t>(dw);
  return m;
}

std::string mix(const RoleStats& r) {
  auto u = [&](isa::Unit x) { return r.by_unit[int(x)]; };
  return fmt::format("VALU {} / SALU {} / VMEM {} / DS {} / MFMA {} / barrier {}", u(isa::Unit::VALU), u(isa::Unit::SALU),
                     u(isa::Unit::VMEM), u(isa::Unit::DS), u(isa::Unit::MFMA), u(isa::Unit::Barrier));
}

constexpr const char* kUsage =
    "--model NAME|FILE.json (mi300x, mi325x, mi350x, mi355x, or a product file), --quick, --explain-only, --out FILE.md, --help";

// "VALU 38% / MFMA 4%": the named units' busy shares (0 when the report lists none).
std::string unit_busy(const model::ModelReport& r) {
  auto share = [&](const char* unit) {
    for (const auto& [name, v] : r.busy)
      if (name == unit) return v;
    return 0.0;
  };
  return fmt::format("VALU {:.0f}% / MFMA {:.0f}% / LDS {:.0f}%", 100 * share("VALU"), 100 * share("MFMA"),
                     100 * share("LDS"));
}

std::string top_stalls(const model::ModelReport& r, size_t n) {
  std::string out;
  for (size_t i = 0; i < std::min(n, r.stalls.size()); ++i)
    out += fmt::format("{}{} {:.0f}%", out.empty() ? "" : "; ", r.stalls[i].first, 100 * r.stalls[i].second);
  return out.empty() ? "-" : out;
}

double per_wave(const model::ModelReport& r, const char* kind) {
  for (const auto& [name, v] : r.per_wave)
    if (name == kind) return v;
  return 0;
}

// Item 7 of the timing-model issue: why the seed's uplift does not appear here. For the rows the
// seed measured >= 1.3x, the 64x64 baseline and wavelet_4_4 over a batch sweep (the seed does not
// give N; a longer reduction gives the pipelines a steady state), with each form's unit busy
// shares, its VALU/MFMA instructions per wave and its top stall reasons.
void explain(std::ostream& md, const model::Hardware& hw, const std::string& label, bool quick) {
  md << "\n## Why the seed's uplift does not appear (" << label << ")\n\n"
     << "Rows the seed measured >= 1.3x, 64x64 tile, no split-K, batch N swept (the seed does not give N). "
     << "Busy shares are of the replayed CU's time; instructions are dynamic per wave (waves of both roles averaged); "
     << "stalls are shares of resident wave time.\n\n"
     << "| shape | N | variant | " << label << " ms | uplift | unit busy | VALU / MFMA per wave | waves/SIMD resident "
     << "(mean) | top stalls | seed measured uplift |\n|---|---|---|---|---|---|---|---|---|---|\n";
  const std::vector<int> batches = quick ? std::vector<int>{1, 4} : std::vector<int>{1, 4, 16};
  double valu_per_mfma_lo = 1e30, valu_per_mfma_hi = 0, mfma_busy_hi = 0, valu_busy_lo = 1, best_uplift = 0;
  for (size_t si = 0; si < (quick ? 1 : 3); ++si) {
    for (int batch : batches) {
      BwdWeightShape s = make_shape(kShapes[si], batch);
      BwdWeightInputs in = bwd_weight_random_inputs(s, BwdWeightDType::bf16, 1);
      double base_ms = 0;
      std::vector<uint8_t> base_dw;
      for (BwdWeightVariant v : {BwdWeightVariant::baseline, BwdWeightVariant::wavelet_4_4}) {
        Measured m = model_variant(s, v, BwdWeightConfig{64, 64}, hw, in);
        if (v == BwdWeightVariant::baseline) base_ms = m.report.ms, base_dw = m.dw;
        else if (m.dw != base_dw)
          throw Error(fmt::format("report_bwd_weight: {} {} dW bytes differ from the baseline's", s.str(), variant_name(v)));
        std::cerr << fmt::format("explain {} N{} {}: {} {:.4f} ms\n", s.str(), batch, variant_name(v), label, m.report.ms);
        if (v == BwdWeightVariant::baseline) {
          const double ratio = per_wave(m.report, "VALU") / std::max(1.0, per_wave(m.report, "MFMA"));
          valu_per_mfma_lo = std::min(valu_per_mfma_lo, ratio);
          valu_per_mfma_hi = std::max(valu_per_mfma_hi, ratio);
          for (const auto& [unit, share] : m.report.busy) {
            if (unit == "MFMA") mfma_busy_hi = std::max(mfma_busy_hi, share);
            if (unit == "VALU") valu_busy_lo = std::min(valu_busy_lo, share);
          }
        } else {
          best_uplift = std::max(best_uplift, base_ms / m.report.ms);
        }
        md << fmt::format("| K{} {}x{} s{} | {} | {} | {:.4f} | {:.2f}x | {} | {:.0f} / {:.0f} | {:.1f} | {} | {} |\n", s.K,
                          s.Hi, s.Wi, s.stride[0], batch, variant_name(v), m.report.ms, base_ms / m.report.ms,
                          unit_busy(m.report), per_wave(m.report, "VALU"), per_wave(m.report, "MFMA"),
                          m.report.mean_resident_waves, top_stalls(m.report, 3), kShapes[si].seed_uplift);
      }
    }
  }
  md << fmt::format(
      "\n**Verdict.** The model does not reproduce the direction of the seed's uplift: over this sweep the best "
      "modelled uplift of wavelet_4_4 is {:.2f}x, where the seed measured 1.38x-1.91x. The evidence says the "
      "kernels, not the batch size, explain it:\n\n"
      "- *This project's baseline is VALU-dominated, not MFMA-dominated.* It issues {:.0f}-{:.0f} VALU instructions "
      "per MFMA; the model keeps the VALU busy at least {:.0f}% of the time and the MFMA pipe at most {:.0f}%. "
      "A baseline wave has little MFMA work for its address VALU to contend with, so moving the im2col decode to a "
      "load role removes almost nothing from the critical path: the load role inherits the same serial chain "
      "(decode, global load, wait, LDS write) and the math waves wait at the barrier (the wavelet rows' top stall). "
      "The sweep over N shows the same ratio at every reduction length, so it is not a pipeline-fill effect.\n"
      "- *CK's kernels are shaped the other way.* CK's bf16 wavelet instances (github.com/ROCm/rocm-libraries, "
      "projects/composablekernel/library/include/ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_weight/"
      "device_grouped_conv_bwd_weight_wavelet_xdl_instance.hpp, commit 8c0d1d89) and its CShuffleV3 baseline "
      "instances (device_grouped_conv_bwd_weight_v3_xdl_instance.hpp in the same folder, commit 37634a14) both use "
      "K0PerBlock 32 x K1 8 = 256 gemm-K per tile with 32x32 MFMAs (MPerXDL = NPerXDL = 32), where this project's "
      "tile is 32 gemm-K with 16x16 MFMAs: per barrier a CK math wave issues about 8x the MFMA work of ours. The "
      "PR's own motivation is that the CShuffleV3 baseline's conv-to-GEMM descriptor transforms "
      "compete with a dense MFMA stream for VALU issue slots; that contention needs an MFMA share far above the "
      "{:.0f}% modelled here.\n"
      "- *Per load, this project decodes more.* Each dword (2 elements) load recomputes (n, ho, wo) -> (hi, wi) "
      "with magic-number divisions (codegen/conv_bwd_weight.cpp, Loader::issue); CK moves a coordinate "
      "incrementally between K steps (MoveSrcSliceWindow). Both load 2-element vectors on the 64x64 tile "
      "(CK: SrcScalarPerVector = MPerBlock / 32 = 2), so the difference is the arithmetic per load, not its width.\n\n"
      "CK's kernels were not compiled or run here (current CK needs a newer ROCm than the Debian 12 HIP "
      "headers this project builds against), so their VALU per MFMA is inferred from their configuration, not "
      "counted; that is the weak link of this explanation.\n\n"
      "What would test the mechanism in the model: a baseline with CK's tile (256 gemm-K, 32x32 MFMAs) and an "
      "incremental im2col walk, so that MFMA and VALU work per wave are of the same order. Not built in this "
      "project yet; until it is, the wave-specialised rows say only that role splitting does not pay when a "
      "wave's MFMA work is small beside its address arithmetic.\n",
      best_uplift, valu_per_mfma_lo, valu_per_mfma_hi, 100 * valu_busy_lo, 100 * mfma_busy_hi, 100 * mfma_busy_hi);
}

}  // namespace

int main(int argc, char** argv) try {
  std::string model_name = "mi350x", out_path;
  bool quick = false, explain_only = false;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) throw Error(a + " needs a value");
      return argv[++i];
    };
    if (a == "--model") model_name = value();
    else if (a == "--out") out_path = value();
    else if (a == "--quick") quick = true;
    else if (a == "--explain-only") explain_only = true;
    else if (a == "--help" || a == "-h") {
      std::cout << "report_bwd_weight: regenerate the conv backward-weight report (modelled times)\nOptions: " << kUsage
                << "\n";
      return 0;
    } else throw Error("unknown argument '" + a + "'; valid: " + kUsage);
  }
  const model::Hardware& hw = model::resolve_product(model_name);
  const std::string label = fmt::format("modelled (model {})", hw.name);
  std::ostringstream md;
  md << "# Conv backward-weight: wave-specialised vs baseline\n\n"
     << "Generated by `build/tools/report_bwd_weight --model " << hw.name << (quick ? " --quick" : "") << "`. "
     << "Kernels: `codegen/conv_bwd_weight.hpp` (2D NHWGC, bf16 in, fp32 dW, 64x64x32 tile, " << arch_name(hw.arch)
     << " MFMA). Shapes: the seed's RetinaNet rows with G = 1, 3x3, pad 1, C = 256, batch N = 1 "
     << "(the seed does not give N). **Every time here is " << label
     << "**: the simulator runs the whole grid and records the workgroups one CU holds; the CU model replays them. "
     << "No GPU was used. The seed column is the seed's *measured* uplift on gfx950 of CK's wavelet kernel over CK's "
     << "best other instance (split-K and tuned tiles included), not a figure of these kernels.\n\n"
     << "Notes: without split-K a launch has only ceil(YXC/64) x ceil(K/64) workgroups (36 or 144 at 64x64) and most "
     << "CUs idle; the split-K rows split the reduction so the grid covers about two workgroups per CU (fp32 atomics; "
     << "with more than two splits the forms' dW are compared by value, not bytes). Instruction mixes are static "
     << "counts of each role's code (a loop body counts once).\n\n";
  md << "The baseline is CK's conventional pipeline in this project's terms: one role of 4 waves that both load "
     << "(the next tile's global loads in flight during the MFMAs) and multiply, two LDS stages, one barrier per tile. "
     << "The wavelet forms move the loads, the im2col decode and the LDS writes to a separate 4-wave load role. "
     << "`limiter` and `busiest unit` are the CU model's verdict on the replayed workgroups.\n\n";
  md << "| shape | tile | variant | VGPRs (kernel) | waves/SIMD | role: peak VGPRs, static mix | " << label
     << " ms | uplift vs baseline (" << label << ") | limiter / busiest unit (" << label
     << ") | seed measured uplift |\n|---|---|---|---|---|---|---|---|---|---|\n";
  size_t n = explain_only ? 0 : quick ? 2 : std::size(kShapes);
  std::map<std::string, std::pair<double, double>> uplift;  // "variant tile" -> (min, max) modelled uplift
  for (size_t si = 0; si < n; ++si) {
    BwdWeightShape s = make_shape(kShapes[si]);
    BwdWeightInputs in = bwd_weight_random_inputs(s, BwdWeightDType::bf16, 1);
    // Split-K so the 64x64 grid covers about two workgroups per CU (power of two, <= 64).
    const int64_t wgs = ((s.gemm_n() + 63) / 64) * ((s.K + 63) / 64) * s.G;
    const int want = int(std::min<int64_t>(64, std::max<int64_t>(1, 2 * hw.cus / wgs)));
    BwdWeightConfig split_cfg{64, 64};
    split_cfg.splits = int(std::bit_floor(unsigned(want)));
    split_cfg.splits = split_cfg.effective_splits(s);
    std::vector<BwdWeightConfig> cfgs{BwdWeightConfig{64, 64}, BwdWeightConfig{128, 128}};
    if (split_cfg.splits > 1) cfgs.insert(cfgs.begin() + 1, split_cfg);
    for (const BwdWeightConfig& cfg : cfgs) {
      double base_ms = 0;
      std::vector<uint8_t> base_dw;
      for (BwdWeightVariant v : kBwdWeightVariants) {
        if (v == BwdWeightVariant::wavelet_4_2 && cfg.tile_m == 128 && cfg.tile_n == 128) continue;  // not offered
        auto t0 = std::chrono::steady_clock::now();
        Measured m = model_variant(s, v, cfg, hw, in);
        double host_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        std::cerr << fmt::format("{} {} {}: {} {:.4f} ms ({:.1f} s host)\n", s.str(), cfg.str(), variant_name(v), label,
                                 m.report.ms, host_s);
        if (v == BwdWeightVariant::baseline) {
          base_ms = m.report.ms;
          base_dw = m.dw;
        } else if (cfg.splits <= 2 && m.dw != base_dw) {
          throw Error(fmt::format("report_bwd_weight: {} {} dW bytes differ from the baseline's", s.str(), variant_name(v)));
        } else if (cfg.splits > 2) {
          // The atomics' order varies with more than two splits: compare values instead.
          double worst = 0;
          std::vector<double> a = bwd_weight_values(m.dw, 4, cfg.dtype), b = bwd_weight_values(base_dw, 4, cfg.dtype);
          for (size_t i = 0; i < a.size(); ++i) worst = std::max(worst, std::abs(a[i] - b[i]) / (std::abs(b[i]) + 1e-3));
          if (!(worst < 1e-4))
            throw Error(fmt::format("report_bwd_weight: {} {} split-K dW differs from the baseline's by {}", s.str(),
                                    variant_name(v), worst));
        }
        if (v != BwdWeightVariant::baseline) {
          auto [it, fresh] = uplift.try_emplace(fmt::format("{} {}x{}{}", variant_name(v), cfg.tile_m, cfg.tile_n,
                                                            cfg.splits > 1 ? " split-K" : ""),
                                                base_ms / m.report.ms, base_ms / m.report.ms);
          it->second.first = std::min(it->second.first, base_ms / m.report.ms);
          it->second.second = std::max(it->second.second, base_ms / m.report.ms);
        }
        std::string roles;
        for (const RoleStats& r : m.k.roles.roles)
          roles += fmt::format("{}{} x{}: {} VGPRs, {}", roles.empty() ? "" : "<br>", r.name, r.waves, r.peak_vgprs, mix(r));
        roles += fmt::format("<br>live across roles: {} VGPRs", m.k.roles.shared_vgprs);
        std::string busy = m.report.busy.empty()
                               ? std::string("-")
                               : fmt::format("{} {:.0f}%", m.report.busy.front().first, 100 * m.report.busy.front().second);
        md << fmt::format("| K{} {}x{} s{} | {}x{}{} | {} | {} | {} | {} | {:.4f} | {} | {} / {} | {} |\n", s.K, s.Hi, s.Wi,
                          s.stride[0], cfg.tile_m, cfg.tile_n,
                          cfg.splits > 1 ? fmt::format(" split-K {} ({} workgroups)", cfg.splits,
                                                       uint64_t(m.k.grid.x) * m.k.grid.y * m.k.grid.z)
                                         : std::string(),
                          variant_name(v), m.k.build.stats.vgprs,
                          m.k.build.stats.occupancy.waves_per_simd, roles, m.report.ms,
                          v == BwdWeightVariant::baseline ? std::string("1.00x")
                                                          : fmt::format("{:.2f}x", base_ms / m.report.ms),
                          m.report.limiter, busy, kShapes[si].seed_uplift);
      }
    }
  }
  md << "\n**Summary** (" << label << ", over the rows above): ";
  for (const auto& [name, mm] : uplift)
    md << fmt::format("{} vs baseline {:.2f}x..{:.2f}x; ", name, mm.first, mm.second);
  md << "the seed measured 1.13x..1.91x for CK's wavelet kernel on these rows (gfx950).\n";
  md << "\nThe forms' dW bytes were compared with each other for every shape and tile (equal: same MFMA order). "
        "(4,2) is not built with the 128x128 tile (as in CK).\n";
  explain(md, hw, label, quick);
  if (out_path.empty()) std::cout << md.str();
  else {
    std::ofstream f(out_path);
    if (!f) throw Error("report_bwd_weight: cannot write " + out_path);
    f << md.str();
  }
  return 0;
} catch (const std::exception& e) {
  std::cerr << "report_bwd_weight: " << e.what() << "\n";
  return 1;
}
