#include "tools/jobs/seed_job.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <fstream>

#include "codegen/bf16.hpp"
#include "codegen/dwconv3d.hpp"
#include "tools/jobs/dwconv3d_models.hpp"
#include "codegen/dwconv_mfma.hpp"
#include "codegen/hip_sources.hpp"
#include "tools/jobs/seed_run.hpp"
#include "jit/isa/error.hpp"
#include "runtime/device.hpp"
#include "runtime/hip_source.hpp"

namespace cdnajit::codegen {

namespace {

using Clock = std::chrono::steady_clock;
double ms_since(Clock::time_point t) { return std::chrono::duration<double, std::milli>(Clock::now() - t).count(); }

std::unique_ptr<Device> open_for(Arch arch, const std::string& spec) {
  if (!spec.empty()) return open_device(spec);
  if (hip_availability().device_count > 0) {
    auto dev = open_device("hip:0");
    if (dev->arch() == arch) return dev;
  }
  return open_device(fmt::format("sim:{}", arch_name(arch)));
}

// Compiles and runs the banded-MFMA HIP reference over the channels; returns its output.
std::vector<uint16_t> run_mfma_reference(std::ostream& log, Device& dev, Arch arch, const DwConvShape& s,
                                         const Buffer& in, const Buffer& wt, int chunk) {
  log << "  compiling and running the HIP mfma_band reference (clang)\n" << std::flush;
  std::vector<uint8_t> co = compile_hip(dwconv_mfma_hip_source(), arch, dwconv_mfma_hip_flags(s, arch));
  Module mod = dev.load(co);
  DeviceKernel k = mod.kernel(kDwconvMfmaHipKernel);
  Buffer out = dev.alloc(size_t(s.output_elems()) * 2, "output_mfma_ref");
  run_chunked(log, dev, k, s, in, wt, out, chunk, "mfma_ref");
  std::vector<uint16_t> r = dev.download<uint16_t>(out);
  dev.free(out);
  return r;
}

}  // namespace

int run_seed_job(std::ostream& log, Arch arch, DwVariant variant, const std::string& asm_out_path,
                 const SeedJobOptions& opt) {
  DwConvShape s = seed_shape();
  if (opt.channels < 0 || opt.channels > s.C)
    throw Error(fmt::format("seed job: channels = {} is out of range; valid is 0 (all) or 1..{}", opt.channels, s.C));
  if (opt.channels) s.C = opt.channels;
  if (opt.chunk_channels < 1)
    throw Error(fmt::format("seed job: chunk_channels = {} must be at least 1", opt.chunk_channels));
  log << fmt::format("seed job: depthwise conv3d {} ({:.2f} GFLOP), variant {} ({} mapping) on {}\n", s.str(),
                     s.gflop(), variant_name(variant), mapping_name(opt.mapping), arch_name(arch));

  // 1. JIT build and .s.
  log << "[1/6] building the JIT kernel...\n" << std::flush;
  auto t0 = Clock::now();
  BuildResult jit = build_dwconv3d(s, variant, arch, opt.mapping);
  double jit_ms = ms_since(t0);
  log << "  " << format_build_stats(jit) << "\n";
  if (!asm_out_path.empty()) {
    std::ofstream f(asm_out_path);
    if (!f) throw Error(fmt::format("seed job: cannot open '{}' for writing the .s", asm_out_path));
    f << jit.assembly;
    log << fmt::format("  wrote {} ({} bytes)\n", asm_out_path, jit.assembly.size());
  }

  // 2. HIP V97 reference.
  log << "[2/6] compiling the HIP V97 reference with clang...\n" << std::flush;
  t0 = Clock::now();
  size_t cached_before = hip_compile_cache_size();
  std::vector<uint8_t> ref_co = compile_hip(dwconv3d_hip_source(HipReference::v97), arch,
                                            dwconv3d_hip_flags(s, HipReference::v97));
  double clang_ms = ms_since(t0);
  bool clang_cached = hip_compile_cache_size() == cached_before;  // compile_hip's in-memory cache answered

  // 3. Device and data.
  auto dev = open_for(arch, opt.device);
  log << fmt::format("[3/6] device {}; uploading data\n", dev->name()) << std::flush;
  if (dev->arch() != arch)
    throw Error(fmt::format("seed job: device {} is {}, but the kernel was built for {}", dev->name(),
                            arch_name(dev->arch()), arch_name(arch)));
  std::vector<uint16_t> x = random_bf16(size_t(s.input_elems()), opt.seed);
  std::vector<uint16_t> w = random_bf16(size_t(s.weight_elems()), opt.seed + 1000);
  Buffer in = dev->upload(std::span<const uint16_t>(x), "input");
  Buffer wt = dev->upload(std::span<const uint16_t>(w), "weight");
  Buffer out_jit = dev->alloc(size_t(s.output_elems()) * 2, "output_jit");
  Buffer out_ref = dev->alloc(size_t(s.output_elems()) * 2, "output_v97");

  Module jit_mod = dev->load(jit.code_object);
  Module ref_mod = dev->load(ref_co);
  DeviceKernel jit_k = jit_mod.kernel(jit.name);
  DeviceKernel ref_k = ref_mod.kernel(dwconv3d_hip_kernel_name(HipReference::v97));

  log << "[4/6] running the JIT kernel\n" << std::flush;
  RunTotals rj = run_chunked(log, *dev, jit_k, s, in, wt, out_jit, opt.chunk_channels, "jit");
  log << "[5/6] running the HIP V97 reference\n" << std::flush;
  RunTotals rr = run_chunked(log, *dev, ref_k, s, in, wt, out_ref, opt.chunk_channels, "v97");
  std::vector<uint16_t> got = dev->download<uint16_t>(out_jit);
  std::vector<uint16_t> ref = dev->download<uint16_t>(out_ref);

  // 6. Checks.
  log << "[6/6] checking\n" << std::flush;
  bool ok = true;
  BitCompare vs_v97 = compare_bits(got, ref);
  if (variant_info(variant).arithmetic == DwArithmetic::mfma) {
    // The same-order reference: clang's code with the same MFMA builtin, operands and order,
    // run on the same device (codegen/hip/dwconv_mfma_band.hip).
    log << fmt::format("  JIT (MFMA arithmetic) vs HIP V97 (fmac): {} of {} elements differ (not checked: different "
                       "rounding)\n",
                       vs_v97.mismatches, vs_v97.count);
    std::vector<uint16_t> same = run_mfma_reference(log, *dev, arch, s, in, wt, opt.chunk_channels);
    BitCompare vs_same = compare_bits(got, same);
    log << "  JIT vs HIP mfma_band reference (clang, same MFMA builtin, operands and order, run on the same device; "
           "must be bit-exact): "
        << describe_mismatch(vs_same, s) << "\n";
    ok &= vs_same.equal();
  } else if (!uses_dot2(variant, arch)) {
    // Two references: clang's code for the same arithmetic (run by the same device, so it
    // shares the device's v_fmac_f32), and a host model built on std::fma (independent of
    // the simulator).
    log << "  JIT vs HIP V97 (clang-compiled, same fp32 fma order, run on the same device; must be bit-exact): "
        << describe_mismatch(vs_v97, s) << "\n";
    BitCompare vs_model = compare_bits(got, dwconv3d_model_fmac(s, x, w));
    log << "  JIT vs CPU fmac model (host std::fma in tap order, independent of the simulator; must be bit-exact): "
        << describe_mismatch(vs_model, s) << "\n";
    ok &= vs_v97.equal() && vs_model.equal();
  } else {
    log << fmt::format("  JIT (dot2 arithmetic) vs HIP V97 (fmac): {} of {} elements differ (not checked: different "
                       "rounding)\n",
                       vs_v97.mismatches, vs_v97.count);
    std::vector<uint16_t> model = dwconv3d_model(s, variant, arch, x, w);
    BitCompare vs_model = compare_bits(got, model);
    log << "  JIT vs CPU dot2 model (v_dot2_f32_bf16 = exact a.lo*b.lo + a.hi*b.hi + c rounded once, the simulator's "
           "default; computed by the MPFR reference in codegen/reference, independent of the simulator's dot2 code): "
        << describe_mismatch(vs_model, s) << "\n";
    // A GPU's dot2 rounding is not modelled: only the simulator must match bit for bit.
    if (dev->is_simulator()) ok &= vs_model.equal();
    else log << "  (on a GPU the dot2 model comparison is reported, not enforced: hardware dot2 rounding is not documented)\n";
  }
  std::vector<double> ref64 = dwconv3d_reference_fp64(s, x, w);
  double cd = calc_diff(got, ref64), mae = max_abs_error(got, ref64);
  double cd_ref = calc_diff(ref, ref64), mae_ref = max_abs_error(ref, ref64);
  log << fmt::format("  vs fp64: JIT calc_diff {:.3g}, max abs error {:.4g}; V97 calc_diff {:.3g}, max abs error {:.4g}"
                     " (required calc_diff < 1e-5)\n",
                     cd, mae, cd_ref, mae_ref);
  ok &= cd < 1e-5;

  // Stats table.
  const KernelInfo& ri = ref_k.info();
  auto row = [&](const char* name, auto jv, auto rv) {
    log << fmt::format("  {:<34} {:>14} {:>14}\n", name, fmt::format("{}", jv), fmt::format("{}", rv));
  };
  log << fmt::format("\n  {:<34} {:>14} {:>14}\n", "", dwconv3d_kernel_name(variant, opt.mapping), "HIP V97 (clang)");
  row("VGPRs", jit.stats.vgprs, ri.vgpr_count);
  row("AGPRs", jit.stats.agprs, ri.agpr_count);
  row("SGPRs (allocated, without VCC etc.)", jit.stats.sgprs, allocated_sgprs(ri));
  row("LDS bytes", jit.stats.lds_bytes, ri.group_segment_size);
  row("occupancy (waves/SIMD, regs & LDS)", jit.stats.occupancy.waves_per_simd,
      code_object_occupancy(ri, arch, DwConvGeometry::kThreads).waves_per_simd);
  row("build / compile ms", fmt::format("{:.1f}{}", jit_ms, jit.stats.cache_hit ? " (cache hit)" : ""),
      clang_cached ? std::string("cached") : fmt::format("{:.1f}", clang_ms));
  if (rj.has_sim && rr.has_sim) {
    for (isa::Unit u : {isa::Unit::VALU, isa::Unit::DS, isa::Unit::VMEM, isa::Unit::SALU, isa::Unit::SMEM,
                        isa::Unit::Branch, isa::Unit::Waitcnt, isa::Unit::Nop, isa::Unit::Barrier}) {
      std::string name = fmt::format("{} per output (dynamic)", isa::unit_name(u));
      row(name.c_str(), fmt::format("{:.2f}", per_output(rj.stats.by_unit[int(u)], s)),
          fmt::format("{:.2f}", per_output(rr.stats.by_unit[int(u)], s)));
    }
    row("all instructions per output", fmt::format("{:.2f}", per_output(rj.stats.wave_instructions, s)),
        fmt::format("{:.2f}", per_output(rr.stats.wave_instructions, s)));
    row("simulator wall time s", fmt::format("{:.2f}", rj.stats.seconds), fmt::format("{:.2f}", rr.stats.seconds));
  }
  if (rj.has_gpu && rr.has_gpu)
    row("GPU kernel time ms", fmt::format("{:.3f}", rj.gpu_ms), fmt::format("{:.3f}", rr.gpu_ms));
  log << "  (per output = wave instructions x 64 lanes / output elements)\n";
  log << (ok ? "PASS\n" : "FAIL\n");
  return ok ? 0 : 1;
}

}  // namespace cdnajit::codegen
