#include "tools/jobs/conv3d_igemm_job.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <thread>

#include "codegen/bf16.hpp"
#include "codegen/conv3d_igemm.hpp"
#include "tools/jobs/conv3d_igemm_host.hpp"
#include "tools/jobs/seed_run.hpp"
#include "jit/isa/error.hpp"
#include "runtime/device.hpp"
#include "runtime/hip_source.hpp"
#include "runtime/model/product_file.hpp"
#include "jit/codeobject/code_object.hpp"
#include "runtime/sim/simulator.hpp"
#include "tools/wall_clock.hpp"

namespace cdnajit::codegen {

namespace {
using wall_clock::Clock;
using wall_clock::median;
using wall_clock::ms_since;

// Parallel fp64 reference (the seed shape is ~4.2 G multiply-adds).
std::vector<double> reference_parallel(const Conv3dShape& s, const Conv3dInputs& in) {
  unsigned nt = std::max(1u, std::thread::hardware_concurrency());
  if (s.K < int(nt) || s.N != 1) return conv3d_reference_fp64(s, in);
  // Split over output channels: each part is a shape with fewer K.
  std::vector<double> y(size_t(s.output_elems()));
  const size_t per_k = size_t(s.out_pixels_per_image());
  const size_t wk = size_t(s.C) * size_t(s.taps());
  std::vector<std::thread> th;
  for (unsigned t = 0; t < nt; ++t) {
    int k0 = int(s.K * int64_t(t) / nt), k1 = int(s.K * int64_t(t + 1) / nt);
    if (k0 == k1) continue;
    th.emplace_back([&, k0, k1] {
      Conv3dShape part = s;
      part.K = k1 - k0;
      Conv3dInputs pin;
      pin.x = in.x;
      pin.w.assign(in.w.begin() + ptrdiff_t(size_t(k0) * wk), in.w.begin() + ptrdiff_t(size_t(k1) * wk));
      if (s.bias) pin.bias.assign(in.bias.begin() + k0, in.bias.begin() + k1);
      auto r = conv3d_reference_fp64(part, pin);
      std::copy(r.begin(), r.end(), y.begin() + ptrdiff_t(size_t(k0) * per_k));
    });
  }
  for (auto& t : th) t.join();
  return y;
}

Conv3dKernelStats kernel_stats(const std::vector<uint8_t>& co_bytes, const std::string& name, Arch arch,
                               uint32_t threads) {
  Conv3dKernelStats st;
  CodeObject co = read_code_object(co_bytes);
  for (const KernelInfo& k : co.kernels) {
    if (k.name != name) continue;
    st.vgprs = int(architectural_vgprs(k));
    st.agprs = int(k.agpr_count);
    st.sgprs = allocated_sgprs(k);
    st.lds_bytes = k.group_segment_size;
    st.waves_per_simd = code_object_occupancy(k, arch, threads).waves_per_simd;
  }
  return st;
}

void add_run_stats(Conv3dKernelStats& st, const Conv3dRunResult& r) {
  if (!r.gemm_stats) return;
  const sim::Stats& s = *r.gemm_stats;
  st.wave_instructions = s.wave_instructions;
  st.dyn_mfma_share = s.wave_instructions ? double(s.by_unit[int(isa::Unit::MFMA)]) / double(s.wave_instructions) : 0;
  st.sim_seconds = s.seconds;
}
}  // namespace

LoopMixes main_loop_mix(Arch arch, Conv3dDType dtype, const Conv3dConfig& cfg) {
  auto dev = open_sim_device(arch);
  struct Counts {
    double insts = 0, mfma = 0, tiles = 0;
  };
  auto run = [&](int C, bool hip) {
    Conv3dShape s = conv3d_seed_shape(8);
    s.C = C;
    s.K = cfg.tile_n;
    s.D = 2;  // M = 2 * 8 * 8 = 128 pixels: one output tile
    Conv3dPlan p = make_conv3d_plan(s, dtype, arch, cfg);
    Conv3dInputs in = conv3d_random_inputs(s, 5);
    auto px = conv3d_pack_input(p, in.x);
    auto pw = conv3d_pack_weights(p, in.w);
    Conv3dRunResult r;
    if (hip) {
      auto co = compile_hip(conv3d_igemm_hip_source(), arch, conv3d_hip_flags(p));
      r = run_conv3d_hip_mfma(*dev, p, co, conv3d_transpose_host(p, px), pw, in.bias);
    } else {
      r = run_conv3d_jit(*dev, p, build_conv3d_kernels(p), px, pw, in.bias);
    }
    Counts c;
    c.insts = double(r.gemm_stats->wave_instructions);
    c.mfma = double(r.gemm_stats->by_unit[int(isa::Unit::MFMA)]);
    c.tiles = double(p.k_tiles) * p.grid[0] * p.grid[1] * p.grid[2];
    return c;
  };
  const Conv3dPlan base = make_conv3d_plan(conv3d_seed_shape(8), dtype, arch, cfg);
  const int c0 = base.cfg.tile_k * 2;  // whole K tiles per tap (no partial tiles)
  LoopMixes m;
  for (bool hip : {false, true}) {
    Counts a = run(c0, hip), b = run(2 * c0, hip);
    LoopMix& lm = hip ? m.hip : m.jit;
    double dt = b.tiles - a.tiles;
    lm.instructions_per_tile = (b.insts - a.insts) / dt;
    lm.mfma_per_tile = (b.mfma - a.mfma) / dt;
  }
  return m;
}

const model::Hardware* conv3d_job_model(Arch arch, const std::string& name) {
  if (name == "none") return nullptr;
  const model::Hardware& hw = model::resolve_product_or_default(name, arch);
  if (hw.arch != arch)
    throw Error(fmt::format("conv3d: model {} is a {} product; the job runs {} (pick a {} product or 'none')", hw.name,
                            arch_name(hw.arch), arch_name(arch), arch_name(arch)));
  return &hw;
}

std::string format_conv3d_modelled(const std::vector<Conv3dModelled>& ms, Conv3dDType t, bool md) {
  if (ms.empty()) return "";
  const std::string name = ms.front().model;
  const bool seed_gpu = name == "mi355x";  // the seed measured on MI355X only
  std::string out;
  const char* head[] = {"H=W", "GFLOP", "config", "igemm ms", "transpose ms", "TFLOP/s GEMM", "TFLOP/s transpose+GEMM",
                        "waves/SIMD", "limiter (igemm)", "seed measured TFLOP/s", "PyTorch TFLOP/s",
                        "modelled GEMM / seed"};
  if (md) {
    out += fmt::format("| {} |\n|", fmt::join(head, " | "));
    for (size_t i = 0; i < std::size(head); ++i) out += "---|";
    out += "\n";
  } else {
    out += fmt::format("modelled (model {}): GPU times of the full grid from the CU timing model, not measured; "
                       "seed columns: MI355X measurements quoted from the seed\n",
                       name);
    out += fmt::format("  {:>4} {:>6} {:>9} {:>9} {:>8} {:>10} {:>5} {:>12} {:>8} {:>8} {:>7}\n", "H=W", "GFLOP",
                       "igemm ms", "transp ms", "TF GEMM", "TF +transp", "w/S", "limiter", "seed TF", "PyT TF",
                       "GEMM/seed");
  }
  for (const Conv3dModelled& m : ms) {
    const Conv3dSeedMeasured* sm = seed_gpu ? conv3d_seed_measured(m.shape.H) : nullptr;
    double seed = sm ? (t == Conv3dDType::bf16 ? sm->bf16_tflops : sm->fp8_tflops) : 0;
    std::string seed_s = sm ? fmt::format("{:.1f}", seed) : "-", pt_s = sm ? fmt::format("{:.1f}", sm->pytorch_tflops) : "-";
    std::string ratio = sm ? fmt::format("{:.2f}x", m.gemm_tflops() / seed) : "-";
    if (md)
      out += fmt::format("| {} | {:.2f} | {} | {:.4f} | {:.4f} | {:.1f} | {:.1f} | {} | {} | {} | {} | {} |\n", m.shape.H,
                         m.gflop, m.config, m.gemm_ms(), m.transpose.ms, m.gemm_tflops(), m.total_tflops(),
                         m.igemm.plan.waves_per_simd, m.igemm.limiter, seed_s, pt_s, ratio);
    else
      out += fmt::format("  {:>4} {:>6.2f} {:>9.4f} {:>9.4f} {:>8.1f} {:>10.1f} {:>5} {:>12} {:>8} {:>8} {:>7}   "
                         "modelled (model {})\n",
                         m.shape.H, m.gflop, m.gemm_ms(), m.transpose.ms, m.gemm_tflops(), m.total_tflops(),
                         m.igemm.plan.waves_per_simd, m.igemm.limiter, seed_s, pt_s, ratio, m.model);
  }
  return out;
}

namespace {
std::vector<Conv3dModelled> run_models(std::ostream& log, Arch arch, Conv3dDType dtype, const Conv3dJobOptions& opt) {
  std::vector<Conv3dModelled> out;
  const model::Hardware* hw = conv3d_job_model(arch, opt.model);
  if (!hw) return out;
  for (int h : opt.model_hw) {
    log << fmt::format("modelling H=W={} with model {} (simulating only the workgroups the model records)\n", h,
                       hw->name)
        << std::flush;
    out.push_back(model_conv3d(*hw, dtype, conv3d_seed_shape(h), opt.cfg));
    log << fmt::format("  host {:.1f} s (igemm: {} recorded workgroups, {:.1f} s simulated)\n", out.back().host_seconds,
                       out.back().igemm.plan.record.size(), out.back().igemm.sim_seconds)
        << std::flush;
    if (opt.model_detail) log << model::format_report(out.back().igemm) << std::flush;
  }
  return out;
}
}  // namespace

Conv3dJobResult run_conv3d_job(std::ostream& log, Arch arch, Conv3dDType dtype, const std::string& asm_path,
                               const Conv3dJobOptions& opt) {
  Conv3dJobResult res;
  Conv3dShape s = conv3d_seed_shape(opt.hw);
  Conv3dPlan p = make_conv3d_plan(s, dtype, arch, opt.cfg);
  res.shape = s.str();
  res.config = p.cfg.str();
  res.arch = std::string(arch_name(arch));
  res.dtype = std::string(dtype_name(dtype));
  res.gflop = s.gflop();
  log << fmt::format("conv3d {} on {}: {} ({:.2f} GFLOP), config {}, grid {}x{}x{} of {} threads\n", res.dtype,
                     res.arch, res.shape, res.gflop, res.config, p.grid[0], p.grid[1], p.grid[2], p.threads);
  if (opt.model_only) {
    res.modelled = run_models(log, arch, dtype, opt);
    log << "\n" << format_conv3d_modelled(res.modelled, dtype, false);
    return res;
  }

  // ---- build ----
  BuildOptions cold;
  cold.use_cache = false;
  auto t0 = Clock::now();
  Conv3dKernels k = build_conv3d_kernels(p, cold);
  res.jit_build_ms_first = ms_since(t0);
  std::vector<double> times, walls;
  for (int i = 0; i < opt.warm_builds; ++i) {
    auto tw = Clock::now();
    BuildResult b = build_conv3d_igemm(p, cold);
    walls.push_back(ms_since(tw));
    times.push_back(b.stats.ms_build);
    res.igemm_stats = b.stats;
  }
  res.jit_build_ms_warm = times.empty() ? 0 : median(times);
  res.jit_wall_ms_warm = walls.empty() ? 0 : median(walls);
  if (opt.build_only) {
    const KernelStats& ks = res.igemm_stats;
    double load[3] = {0, 0, 0};
    if (getloadavg(load, 3) < 1) load[0] = -1;
    log << fmt::format("JIT build of igemm (uncached, warm median of {}): {:.2f} ms wall ({:.2f} ms pipeline: "
                       "regalloc {:.2f}, passes {:.2f}, assemble {:.2f}, link {:.2f} in the last build; the rest is "
                       "the generator); {} instructions; first build of all kernels {:.1f} ms; host load average "
                       "{:.1f} on {} hardware threads\n",
                       opt.warm_builds, res.jit_wall_ms_warm, res.jit_build_ms_warm, ks.ms_regalloc, ks.ms_passes,
                       ks.ms_assemble, ks.ms_link, ks.instructions, res.jit_build_ms_first, load[0],
                       std::thread::hardware_concurrency());
    return res;
  }
  if (!asm_path.empty()) {
    std::ofstream f(asm_path);
    if (!f) throw Error(fmt::format("conv3d: cannot write '{}'", asm_path));
    f << k.igemm.assembly;
    log << fmt::format("wrote {} ({} instructions)\n", asm_path, k.igemm.stats.instructions);
  }
  t0 = Clock::now();
  auto ref_co = compile_hip(conv3d_igemm_hip_source(), arch, conv3d_hip_flags(p));
  res.clang_compile_ms = ms_since(t0);

  // ---- device ----
  std::unique_ptr<Device> dev;
  // Default simulator options: buffer accesses past num_records follow the hardware (zeros /
  // dropped), which the kernels rely on; every global and LDS access is still bounds-checked.
  const sim::Options hw_buffers;
  if (opt.device.rfind("sim", 0) == 0) {
    std::optional<Arch> sa = opt.device == "sim" ? Arch::gfx950 : parse_arch(opt.device.substr(opt.device.find(':') + 1));
    if (!sa) throw Error(fmt::format("conv3d: device '{}'; valid: sim, sim:gfx942, sim:gfx950, hip:N", opt.device));
    dev = open_sim_device(*sa, hw_buffers);
  } else if (!opt.device.empty()) {
    dev = open_device(opt.device);
  } else {
    HipAvailability h = hip_availability();
    if (h.device_count > 0) {
      dev = open_device("hip:0");
      if (dev->arch() != arch) dev.reset();
    }
    if (!dev) dev = open_sim_device(arch, hw_buffers);
  }
  if (dev->arch() != arch)
    throw Error(fmt::format("conv3d: device {} is {}, the job asked for {}", dev->name(), arch_name(dev->arch()),
                            arch_name(arch)));
  res.device = dev->name();
  if (dev->is_simulator()) res.device += " (buffer range checks with hardware semantics, all other accesses checked)";

  // ---- data, runs ----
  Conv3dInputs in = conv3d_random_inputs(s, opt.seed);
  auto px = conv3d_pack_input(p, in.x);
  auto pw = conv3d_pack_weights(p, in.w);
  auto xt_host = conv3d_transpose_host(p, px);
  log << "running the JIT pipeline (transpose, igemm" << (p.uses_workspace() ? ", finalize" : "") << ") on "
      << res.device << "\n" << std::flush;
  Conv3dRunResult jit = run_conv3d_jit(*dev, p, k, px, pw, in.bias);
  log << fmt::format("  GEMM launch: {:.1f} s host time\n", jit.gemm_host_ms / 1000) << std::flush;
  log << "running the HIP-MFMA reference (clang++ -O3)\n" << std::flush;
  Conv3dRunResult ref = run_conv3d_hip_mfma(*dev, p, ref_co, xt_host, pw, in.bias);
  log << fmt::format("  GEMM launch: {:.1f} s host time\n", ref.gemm_host_ms / 1000) << std::flush;
  Conv3dBitCompare cmp = conv3d_compare_bytes(jit.y, ref.y, p.out_esize());
  Conv3dBitCompare tcmp = conv3d_compare_bytes(jit.xt, xt_host, p.esize);
  res.bit_exact = cmp.equal() && tcmp.equal();
  res.compare = cmp.describe() + (tcmp.equal() ? "" : "; transpose differs from the host: " + tcmp.describe());

  log << "fp64 reference on the host\n" << std::flush;
  auto ref64 = reference_parallel(s, in);
  Conv3dAccuracy a = conv3d_accuracy(conv3d_output_values(p.output, jit.y), ref64);
  res.rel_err = a.rel_err;
  res.cosine = a.cosine;
  res.snr_db = a.snr_db;
  if (dtype == Conv3dDType::bf16) {
    std::vector<double> r16(ref64.size());
    for (size_t i = 0; i < r16.size(); ++i) r16[i] = bf16_to_f32(f32_to_bf16_rne(float(ref64[i])));
    res.snr_vs_bf16_rounded_db = conv3d_accuracy(conv3d_output_values(p.output, jit.y), r16).snr_db;
  }

  res.jit = kernel_stats(k.igemm.code_object, k.igemm.name, arch, uint32_t(p.threads));
  res.hip = kernel_stats(ref_co, "conv3d_igemm_ref", arch, uint32_t(p.threads));
  add_run_stats(res.jit, jit);
  add_run_stats(res.hip, ref);
  log << "main-loop mix: one output tile with C = 2*tile_k and 4*tile_k on the simulator (JIT and clang)\n"
      << std::flush;
  LoopMixes lm = main_loop_mix(arch, dtype, opt.cfg);
  res.jit.loop = lm.jit;
  res.hip.loop = lm.hip;

  // ---- tables ----
  log << fmt::format("\nJIT vs HIP-MFMA reference: {}\n", res.compare);
  log << fmt::format("accuracy vs fp64 (inputs as bf16 values): rel_err {:.4f}%  cosine {:.6f}  SNR {:.1f} dB\n",
                     100 * res.rel_err, res.cosine, res.snr_db);
  if (res.snr_vs_bf16_rounded_db)
    log << fmt::format("  vs fp64 rounded to bf16 (the seed's comparison with a bf16 reference): SNR {:.1f} dB\n",
                       *res.snr_vs_bf16_rounded_db);
  log << fmt::format("\n{:<22} {:>6} {:>6} {:>6} {:>7} {:>10} {:>22} {:>12} {:>9}\n", "kernel", "VGPR", "AGPR", "SGPR",
                     "LDS", "waves/SIMD", "loop MFMA/inst per tile", "dyn MFMA %", "sim s");
  for (auto [name, st] : {std::pair{"JIT (cdnajit)", &res.jit}, {"HIP-MFMA (clang -O3)", &res.hip}})
    log << fmt::format("{:<22} {:>6} {:>6} {:>6} {:>7} {:>10} {:>10.0f}/{:<11.0f} {:>11.1f}% {:>9.1f}\n", name,
                       st->vgprs, st->agprs, st->sgprs, st->lds_bytes, st->waves_per_simd, st->loop.mfma_per_tile,
                       st->loop.instructions_per_tile, 100 * st->dyn_mfma_share, st->sim_seconds);
  log << fmt::format("main-loop MFMA share: JIT {:.1f}%, clang {:.1f}%\n", 100 * res.jit.loop.mfma_share(),
                     100 * res.hip.loop.mfma_share());
  log << fmt::format("JIT build (igemm, uncached, warm median of {}): {:.2f} ms; first build of all kernels {:.1f} ms; "
                     "clang compile of the reference {:.0f} ms\n",
                     opt.warm_builds, res.jit_build_ms_warm, res.jit_build_ms_first, res.clang_compile_ms);
  const KernelStats& ks = k.igemm.stats;
  log << fmt::format("  igemm: {} instructions; last build: regalloc {:.2f} ms, passes {:.2f} ms, assemble {:.2f} ms, "
                     "link {:.2f} ms\n",
                     ks.instructions, ks.ms_regalloc, ks.ms_passes, ks.ms_assemble, ks.ms_link);
  res.modelled = run_models(log, arch, dtype, opt);
  log << "\n" << format_conv3d_modelled(res.modelled, dtype, false);
  return res;
}

}  // namespace cdnajit::codegen
