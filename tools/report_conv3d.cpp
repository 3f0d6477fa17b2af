// report_conv3d: the Markdown report of the MFMA implicit-GEMM conv3d kernels on the seed's
// shape (3x3x3, stride 1, pad 1, C = K = 128, D = 6, N = 1, H = W = 40), per arch and dtype:
// bit-for-bit check against the clang-compiled HIP-MFMA reference, accuracy against fp64,
// registers, LDS, occupancy, main-loop MFMA share (JIT vs clang), JIT build and clang
// compile times, simulator wall time.
//
//   build/tools/report_conv3d [--arch gfx942|gfx950|all] [--dtype bf16|fp8|all] [--hw 40] [--check-hw N]
//                             [--modelled-only] [--model-hw 40,56,...] [--out FILE.md]
//
// --check-hw N runs the functional part (bit check, accuracy, kernel statistics) on the seed shape
// reduced to H = W = N, and times the builds and models the seed shapes at full size: the whole
// seed shape on the simulator takes minutes per arch and dtype on a 2-core host.
//
// Progress goes to stderr; the report to stdout or --out. Everything runs on the host CPU
// (the simulator); no time in the report is a GPU time.
#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>
#include <thread>

#include "tools/jobs/conv3d_igemm_job.hpp"
#include "jit/isa/error.hpp"
#include "runtime/tune/checked_number.hpp"
#include "runtime/utc_time.hpp"

using namespace cdnajit;
using namespace cdnajit::codegen;

namespace {

struct Options {
  std::vector<Arch> arches{Arch::gfx942, Arch::gfx950};
  std::vector<Conv3dDType> dtypes{Conv3dDType::bf16, Conv3dDType::fp8};
  int hw = 40;
  bool modelled_only = false;  // modelled times and JIT build times only (no simulator run of the seed shape)
  int check_hw = 0;            // > 0: the functional checks on the seed shape reduced to H = W = check_hw
  std::vector<int> model_hw{40, 56, 72, 104, 144, 168};  // H = W of the modelled seed shapes (the seed's)
  std::string out, command;
};

Options parse(int argc, char** argv) {
  Options o;
  o.command = "build/tools/report_conv3d";
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) throw Error(fmt::format("report_conv3d: {} needs a value", a));
      return argv[++i];
    };
    if (a == "--help") {
      std::cout << "report_conv3d: the implicit-GEMM conv3d report on the seed shape (tools/report_conv3d.md)\n"
                   "Usage: build/tools/report_conv3d --check-hw 4 --out tools/report_conv3d.md\n"
                   "Options: --arch gfx942|gfx950|all, --dtype bf16|fp8|all, --hw N, --check-hw N, --modelled-only, "
                   "--model-hw H1,H2,..., --out FILE.md, --help (gfx950 is modelled on mi355x, the seed's GPU; "
                   "gfx942 on mi300x)\n";
      std::exit(0);
    }
    if (a == "--arch") {
      std::string v = value();
      if (v == "all") continue;
      std::optional<Arch> arch = parse_arch(v);
      if (!arch) throw Error(fmt::format("report_conv3d: unknown arch '{}'; valid: gfx942, gfx950, all", v));
      o.arches = {*arch};
    } else if (a == "--dtype") {
      std::string v = value();
      if (v == "all") continue;
      o.dtypes = {parse_dtype(v)};
    } else if (a == "--hw") {
      o.hw = int(parse_uint(value(), "report_conv3d: --hw", 1, 4096));
    } else if (a == "--check-hw") {
      o.check_hw = int(parse_uint(value(), "report_conv3d: --check-hw", 1, 4096));
    } else if (a == "--modelled-only") {
      o.modelled_only = true;
      o.command += " " + a;
      continue;
    } else if (a == "--model-hw") {
      std::string v = value();
      o.model_hw.clear();
      for (size_t at = 0; at <= v.size();) {
        size_t comma = std::min(v.find(',', at), v.size());
        o.model_hw.push_back(int(parse_uint(v.substr(at, comma - at), "report_conv3d: --model-hw", 1, 4096)));
        at = comma + 1;
      }
    } else if (a == "--out") {
      o.out = value();
      continue;  // not part of the regeneration command's meaning
    } else {
      throw Error(fmt::format("report_conv3d: unknown argument '{}'; valid: --arch gfx942|gfx950|all, "
                              "--dtype bf16|fp8|all, --hw N, --check-hw N, --modelled-only, --model-hw H1,H2,..., --out FILE.md",
                              a));
    }
    o.command += " " + a + " " + argv[i];
  }
  return o;
}

// The product each arch is modelled on. On gfx950 it is the seed's GPU (MI355X), not the arch's
// default product (MI350X): the report sets the modelled TFLOP/s beside the seed's MI355X
// measurements, and the job prints those columns only for the product they were measured on.
std::string report_product(Arch a) { return a == Arch::gfx950 ? "mi355x" : "mi300x"; }

}  // namespace

int main(int argc, char** argv) {
  try {
    Options o = parse(argc, argv);
    std::vector<Conv3dJobResult> rs;
    for (Arch a : o.arches)
      for (Conv3dDType t : o.dtypes) {
        Conv3dJobOptions jo;
        jo.hw = o.hw;
        jo.model = report_product(a);
        jo.model_hw = o.model_hw;
        if (o.check_hw > 0 && !o.modelled_only) {
          // functional part on the reduced shape (no models, one warm build), then the seed shape's
          // build times and models
          jo.hw = o.check_hw;
          jo.model = "none";
          jo.warm_builds = 1;
          Conv3dJobResult r = run_conv3d_job(std::cerr, a, t, "", jo);
          Conv3dJobOptions bo;
          bo.hw = o.hw;
          bo.model = report_product(a);
          bo.model_hw = o.model_hw;
          bo.build_only = true;
          Conv3dJobResult b = run_conv3d_job(std::cerr, a, t, "", bo);
          r.jit_build_ms_warm = b.jit_build_ms_warm;
          r.jit_build_ms_first = b.jit_build_ms_first;
          r.jit_wall_ms_warm = b.jit_wall_ms_warm;
          r.igemm_stats = b.igemm_stats;
          r.clang_compile_ms = 0;  // of the reduced shape's reference: not reported
          bo.build_only = false;
          bo.model_only = true;
          r.modelled = run_conv3d_job(std::cerr, a, t, "", bo).modelled;
          rs.push_back(std::move(r));
        } else if (o.modelled_only) {
          jo.build_only = true;  // the build times, then the models
          Conv3dJobResult r = run_conv3d_job(std::cerr, a, t, "", jo);
          jo.build_only = false;
          jo.model_only = true;
          r.modelled = run_conv3d_job(std::cerr, a, t, "", jo).modelled;
          rs.push_back(std::move(r));
        } else {
          rs.push_back(run_conv3d_job(std::cerr, a, t, "", jo));
        }
      }
    std::ostringstream md;
    const std::string date = utc_now("%Y-%m-%d");
    md << "# Implicit-GEMM conv3d (MFMA) on the seed shape\n\n";
    const std::string full_shape = conv3d_seed_shape(o.hw).str();
    double load[3] = {0, 0, 0};
    if (getloadavg(load, 3) < 1) load[0] = -1;
    md << fmt::format("Generated {} by `{} --out tools/report_conv3d.md` on a {}-thread host (load average {:.1f} "
                      "at the end of the run: host times are inflated by other work). Every run is on the project's "
                      "CPU simulator; no time here is a GPU time.\n\n",
                      date, o.command, std::thread::hardware_concurrency(), load[0]);
    if (o.check_hw > 0 && !o.modelled_only)
      md << fmt::format("Functional checks (bit-for-bit against the HIP-MFMA reference, accuracy against fp64, "
                        "kernel statistics) run on the seed shape **reduced to H = W = {}**: {}; the whole seed shape "
                        "({}) takes minutes per arch and dtype on the simulator of this host (the same command "
                        "without `--check-hw` runs it). Build times are of the seed shape's kernels; modelled times "
                        "are of the seed shapes at full size.\n\n",
                        o.check_hw, rs.empty() ? "" : rs[0].shape, full_shape);
    if (!rs.empty())
      md << fmt::format("Shape: {} ({:.2f} GFLOP), default configuration per arch and dtype (the seed's structure; "
                        "`dma` = global -> LDS by DMA). Data: normal (mean 0, std 1) rounded to bf16, seed 1; fp8 runs "
                        "pack the same values to E4M3 once.\n\n",
                        o.check_hw > 0 && !o.modelled_only ? full_shape : rs[0].shape,
                        conv3d_seed_shape(o.hw).gflop());
    if (o.modelled_only)
      md << "This is the `--modelled-only` report: modelled times and JIT build times. Correctness against the "
            "HIP-MFMA reference, accuracy against fp64, registers, occupancy and the main-loop MFMA share come from "
            "the same command without `--modelled-only`, which runs the whole seed shape on the simulator for each "
            "arch and dtype (with the CDNA3 MFMA numerics model that is minutes per run on this host); "
            "`test_conv3d_igemm` checks bit-exactness against the HIP-MFMA reference on small shapes at every "
            "commit.\n\n";
    if (!o.modelled_only) {
    md << (o.check_hw > 0 ? fmt::format("## Correctness and accuracy (reduced shape, H = W = {})\n\n", o.check_hw)
                          : std::string("## Correctness and accuracy\n\n"));
    md << "| arch | dtype | config | JIT vs HIP-MFMA reference | rel_err vs fp64 | cosine | SNR vs fp64 | SNR vs fp64 "
          "rounded to bf16 |\n|---|---|---|---|---|---|---|---|\n";
    for (const auto& r : rs)
      md << fmt::format("| {} | {} | {} | {} | {:.4f}% | {:.6f} | {:.1f} dB | {} |\n", r.arch, r.dtype, r.config, r.compare,
                        100 * r.rel_err, r.cosine, r.snr_db,
                        r.snr_vs_bf16_rounded_db ? fmt::format("{:.1f} dB", *r.snr_vs_bf16_rounded_db) : "-");
    md << "\nbf16 output vs fp64 is bounded by the output rounding to bf16 (relative step 2^-8): about 55 dB. "
          "Against the fp64 result rounded to bf16 (what the seed's comparison with a PyTorch bf16 output "
          "measures) the only differences are the few outputs whose fp32 sums round to the neighbouring bf16. "
          "fp8 is at the E4M3 quantisation floor of normal data (the seed measured 28.5 dB).\n\n";
    md << (o.check_hw > 0 ? fmt::format("## Kernels (statistics of the reduced shape's run, H = W = {})\n\n", o.check_hw)
                          : std::string("## Kernels\n\n"));
    md << "Main-loop MFMA share: wave-instructions issued per K tile (all waves of a workgroup), measured on the "
          "simulator by difference between two runs of one output tile with C = 2*tile_k and C = 4*tile_k (prologue "
          "and epilogue cancel; the same method for clang's code). Dynamic MFMA share: MFMA / all wave-instructions "
          "the simulator issued for the whole GEMM kernel on the shape of the correctness run.\n\n";
    md << "| arch | dtype | kernel | VGPR | AGPR | SGPR | LDS B | waves/SIMD | main loop MFMA / instructions per K tile | "
          "dynamic MFMA share | simulator s |\n|---|---|---|---|---|---|---|---|---|---|---|\n";
    for (const auto& r : rs)
      for (auto [name, st] : {std::pair{"JIT", &r.jit}, {"HIP-MFMA (clang -O3)", &r.hip}})
        md << fmt::format("| {} | {} | {} | {} | {} | {} | {} | {} | {:.0f} / {:.0f} ({:.1f}%) | {:.1f}% | {:.1f} |\n", r.arch,
                          r.dtype, name, st->vgprs, st->agprs, st->sgprs, st->lds_bytes, st->waves_per_simd,
                          st->loop.mfma_per_tile, st->loop.instructions_per_tile, 100 * st->loop.mfma_share(),
                          100 * st->dyn_mfma_share,
                          st->sim_seconds);
    }
    md << "\n## Build times (host)\n\nUncached builds of the GEMM kernel, median of 11 after a warm-up; wall time "
          "of build_conv3d_igemm (the generator and the pipeline: register allocation, passes, LLVM MC assembly, lld "
          "link); the stage times are of the last build. Host times on a shared machine: see the load average above.\n\n"
          "| arch | dtype | JIT igemm build (wall) | of which pipeline | regalloc | passes | assemble | link | first "
          "build (transpose + igemm + finalize) | clang -O3 compile of the reference |\n|---|---|---|---|---|---|---|---|---|---|\n";
    for (const auto& r : rs)
      md << fmt::format("| {} | {} | {:.2f} ms | {:.2f} ms | {:.2f} | {:.2f} | {:.2f} | {:.2f} | {:.1f} ms | {} |\n", r.arch,
                        r.dtype, r.jit_wall_ms_warm, r.jit_build_ms_warm, r.igemm_stats.ms_regalloc,
                        r.igemm_stats.ms_passes, r.igemm_stats.ms_assemble, r.igemm_stats.ms_link, r.jit_build_ms_first,
                        r.clang_compile_ms > 0 ? fmt::format("{:.0f} ms", r.clang_compile_ms) : "-");
    md << "\n## Modelled TFLOP/s (timing model, not measured)\n\n"
          "Every time in these tables is **modelled** by the project's CU timing model (runtime/model), named per "
          "table; none is a GPU measurement. For each kernel the simulator runs only the workgroups the model records "
          "(those one CU receives first), and the model times the full grid from them. \"TFLOP/s GEMM\" is the "
          "convolution's FLOPs over the GEMM kernel's modelled time (plus split-K's finalize); \"transpose+GEMM\" "
          "adds the NCDHW -> NDHWC transpose kernel. The seed columns quote the seed's MI355X measurements "
          "(conv3d-implicit-gemm-fp8-pr: BF16 and FP8 kernels and PyTorch); \"modelled GEMM / seed\" divides the "
          "modelled GEMM TFLOP/s by the seed's measured TFLOP/s of the same dtype.\n\n";
    for (const auto& r : rs) {
      if (r.modelled.empty()) continue;
      md << fmt::format("### {} {}, model {} (modelled)\n\n", r.arch, r.dtype, r.modelled.front().model)
         << format_conv3d_modelled(r.modelled, parse_dtype(r.dtype), true) << "\n";
    }
    if (o.out.empty()) {
      std::cout << md.str();
    } else {
      std::ofstream f(o.out);
      if (!f) throw Error(fmt::format("report_conv3d: cannot write '{}'", o.out));
      f << md.str();
    }
    bool ok = true;
    for (const auto& r : rs) ok = ok && (r.bit_exact || o.modelled_only);
    return ok ? 0 : 1;
  } catch (const std::exception& e) {
    std::cerr << "report_conv3d: " << e.what() << "\n";
    return 2;
  }
}
