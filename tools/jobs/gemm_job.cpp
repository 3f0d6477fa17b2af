#include "tools/jobs/gemm_job.hpp"

#include <fmt/format.h>

#include <chrono>
#include <cstring>
#include <fstream>

#include "codegen/gemm.hpp"
#include "codegen/gemm_split_k.hpp"
#include "tools/jobs/seed_run.hpp"
#include "jit/isa/error.hpp"
#include "runtime/device.hpp"
#include "runtime/hip_source.hpp"
#include "jit/codeobject/code_object.hpp"
#include "runtime/sim/simulator.hpp"

namespace cdnajit::codegen {

std::string format_gemm_modelled(const GemmModelled& m) {
  std::string split;
  if (m.reduce)
    split = fmt::format(" (GEMM kernel); GEMM kernel {:.4f} ms + {} kernel {:.4f} ms (limiter {}), summed",
                        m.report.ms, m.config.find("streamk") != std::string::npos ? "stream-K fix-up" : "split-K reduction",
                        m.reduce->ms, m.reduce->limiter);
  return fmt::format(
      "modelled (model {}): {} [{}]: {:.4f} ms, {:.1f} TFLOP/s = {:.1f}% of the {} peak {:.1f} TFLOP/s ({} at the "
      "{:.2f} GHz peak clock); modelled clock {:.3f} GHz at MFMA busy {:.0f}% (Hardware::sustained_clock_ghz; {:.2f} "
      "GHz without MFMA load); limiter {}; {} of {} workgroups replayed{}, host {:.1f} s\n",
      m.model, m.shape.str(), m.config, m.ms(), m.tflops(), 100 * m.peak_share(), m.model, m.peak_tflops, m.mfma,
      m.peak_clock_ghz, m.report.clock_ghz, 100 * m.report.mfma_busy, m.model_clock_ghz, m.report.limiter, m.report.replayed_workgroups, m.report.plan.workgroups,
      split, m.host_seconds);
}

GemmJobResult run_gemm_job(std::ostream& log, Arch arch, const GemmShape& s, const GemmConfig& cfg,
                           const GemmJobOptions& opt) {
  const model::Hardware* hw = gemm_model_product(arch, opt.model);  // errors before any work
  const GemmPlan p = make_gemm_plan(s, arch, cfg);
  GemmJobResult r;
  r.shape = s.str();
  r.config = p.cfg.str();
  r.mfma = std::string(p.mfma.mnemonic);
  log << fmt::format("gemm {} on {}: config {}, {} ({} threads, grid {}x{}x{})\n", r.shape, arch_name(arch), r.config,
                     r.mfma, p.threads, p.grid[0], p.grid[1], p.grid[2]);
  if (p.split())
    log << fmt::format("split-K {}: {} K tiles per slice, fp32 workspace {} bytes, then the reduction kernel ({} "
                       "workgroups of {} threads) sums the slices in order 0..{}\n",
                       p.cfg.split_k, p.k_tiles, p.workspace_bytes(), gemm_reduce_grid(p), kGemmReduceThreads,
                       p.cfg.split_k - 1);
  if (p.stream())
    log << fmt::format("stream-K: {} workgroups of {} MAC iterations (of {} = {} tiles x {} K tiles), fp32 "
                       "workspace {} bytes, then the fix-up kernel ({} workgroups) sums split tiles in K order\n",
                       p.sk_groups, p.sk_per, p.sk_iterations, p.tiles_m * p.tiles_n, p.k_tiles,
                       p.sk_workspace_bytes(), gemm_fixup_grid(p));
  auto t0 = std::chrono::steady_clock::now();
  const BuildResult k = build_gemm(p);
  r.build_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  CodeObject co = read_code_object(k.code_object);
  if (const KernelInfo* ki = co.find(k.name)) {
    r.vgprs = int(architectural_vgprs(*ki));
    r.agprs = int(ki->agpr_count);
    r.sgprs = allocated_sgprs(*ki);
    r.lds_bytes = ki->group_segment_size;
    r.waves_per_simd = code_object_occupancy(*ki, arch, uint32_t(p.threads)).waves_per_simd;
  }
  log << fmt::format("JIT build {:.1f} ms: {} VGPRs, {} AGPRs, {} SGPRs, {} bytes LDS, {} waves/SIMD\n", r.build_ms,
                     r.vgprs, r.agprs, r.sgprs, r.lds_bytes, r.waves_per_simd);
  if (!opt.asm_path.empty()) {
    std::ofstream f(opt.asm_path);
    if (!f) throw Error(fmt::format("gemm: cannot write '{}'", opt.asm_path));
    f << k.assembly;
    log << "wrote " << opt.asm_path << "\n";
  }
  if (!opt.model_only) {
    auto dev = open_device(opt.device.empty() ? "sim:" + std::string(arch_name(arch)) : opt.device);
    r.device = dev->name();
    const GemmInputs in = gemm_random_inputs(p, opt.seed);
    const GemmRunResult jit = run_gemm_jit(*dev, p, k, in);
    const auto hip_co = compile_hip(gemm_hip_source(), arch, gemm_hip_flags(p));
    const GemmRunResult hip = run_gemm_hip(*dev, p, hip_co, in);
    r.ran = true;
    size_t mismatches = 0, first = 0;
    const size_t es = size_t(p.out_esize()), n = jit.c.size() / es;
    for (size_t e = 0; e < n; ++e)
      if (std::memcmp(&jit.c[e * es], &hip.c[e * es], es) != 0 && mismatches++ == 0) first = e;
    r.bit_exact = mismatches == 0 && jit.c.size() == hip.c.size();
    r.compare = r.bit_exact ? fmt::format("bit-exact ({} elements)", n)
                            : fmt::format("{} of {} elements differ; first at row {}, column {}", mismatches, n,
                                          first / size_t(s.N), first % size_t(s.N));
    r.bound = gemm_check_bound(p, jit.c, gemm_reference_fp64(p, in));
    if (jit.stats) {
      r.sim_seconds = jit.stats->seconds;
      r.wave_instructions = jit.stats->wave_instructions;
      r.mfma_share = r.wave_instructions ? double(jit.stats->by_unit[int(isa::Unit::MFMA)]) / double(r.wave_instructions)
                                         : 0;
    }
    log << fmt::format("device {}: JIT vs HIP reference (clang, same MFMA order): {}\n", r.device, r.compare);
    log << fmt::format("JIT vs fp64 reference: {}\n", r.bound.describe());
    if (jit.stats)
      log << fmt::format("simulator: {} wave-instructions, MFMA share {:.1f}%, {:.2f} s\n", r.wave_instructions,
                         100 * r.mfma_share, r.sim_seconds);
  }
  if (hw) {
    r.modelled = model_gemm(*hw, s, cfg, opt.seed);
    log << format_gemm_modelled(*r.modelled);
    if (opt.model_details) log << model::format_report(r.modelled->report);
  }
  return r;
}

}  // namespace cdnajit::codegen
