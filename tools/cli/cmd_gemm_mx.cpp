// gemm-mx: build the MX-scaled GEMM kernel (codegen/gemm_mx.hpp) for one shape, run it and the
// HIP reference on the gfx950 simulator, check the bits and the fp64 bound, print the modelled time.
#include <fmt/format.h>

#include <cstring>
#include <fstream>
#include <iostream>

#include "tools/jobs/gemm_mx_host.hpp"
#include "jit/codeobject/code_object.hpp"
#include "jit/codeobject/kernel_occupancy.hpp"
#include "runtime/hip_source.hpp"
#include "runtime/model/product_file.hpp"
#include "tools/cli/commands.hpp"
#include "tools/cli/values.hpp"

namespace cdnajit::cli {

namespace {

struct GemmMxOptions {
  Arch arch = Arch::gfx950;
  codegen::GemmMxShape shape;
  codegen::GemmMxConfig cfg;
  std::string model;  // "": the gfx950 default product (model::default_product)
  bool model_only = false;
  bool model_details = false;
  std::string asm_path;
  uint64_t seed = 1;
};

// The product to model, or nullptr for "none"; Error when it is not a gfx950 product.
const model::Hardware* mx_product(const std::string& name) {
  if (name == "none") return nullptr;
  const model::Hardware& hw = model::resolve_product_or_default(name, Arch::gfx950);
  if (hw.arch != Arch::gfx950)
    throw Error(fmt::format("gemm-mx: model {} is a {} product; the scaled MFMAs are gfx950 only (e.g. mi355x, or 'none')",
                            hw.name, arch_name(hw.arch)));
  return &hw;
}

int run(const GemmMxOptions& o) {
  using namespace codegen;
  const GemmMxPlan p = make_gemm_mx_plan(o.shape, o.arch, o.cfg);
  std::cout << fmt::format("gemm-mx {} on {}: config {}, {} ({} threads, grid {}x{})\n", o.shape.str(),
                           arch_name(o.arch), p.cfg.str(), p.mnemonic, p.threads, p.grid[0], p.grid[1]);
  const BuildResult k = build_gemm_mx(p);
  if (const KernelInfo* ki = read_code_object(k.code_object).find(k.name))
    std::cout << fmt::format("JIT build: {} VGPRs, {} AGPRs, {} bytes LDS, {} waves/SIMD\n", architectural_vgprs(*ki),
                             ki->agpr_count, ki->group_segment_size,
                             code_object_occupancy(*ki, o.arch, uint32_t(p.threads)).waves_per_simd);
  if (!o.asm_path.empty()) {
    std::ofstream f(o.asm_path);
    if (!f) throw Error(fmt::format("gemm-mx: cannot write '{}'", o.asm_path));
    f << k.assembly;
  }
  bool ok = true;
  if (!o.model_only) {
    auto dev = open_sim_device(o.arch);
    const GemmMxInputs in = gemm_mx_random_inputs(p, o.seed);
    const GemmMxRunResult jit = run_gemm_mx_jit(*dev, p, k, in);
    const GemmMxRunResult hip =
        run_gemm_mx_hip(*dev, p, compile_hip(gemm_mx_hip_source(), o.arch, gemm_mx_hip_flags(p)), in);
    const size_t es = size_t(p.out_esize()), n = jit.c.size() / es;
    size_t diff = 0, first = 0;
    for (size_t e = 0; e < n; ++e)
      if (std::memcmp(&jit.c[e * es], &hip.c[e * es], es) != 0 && diff++ == 0) first = e;
    const GemmMxBoundCheck b = gemm_mx_check_bound(p, jit.c, gemm_mx_reference_fp64(p, in));
    std::cout << "JIT vs HIP reference (clang, same scaled MFMA order): "
              << (diff == 0 ? fmt::format("bit-exact ({} elements)", n)
                            : fmt::format("{} of {} elements differ; first at row {}, column {}", diff, n,
                                          first / size_t(o.shape.N), first % size_t(o.shape.N)))
              << "\nJIT vs fp64 reference: " << b.describe() << "\n";
    ok = diff == 0 && b.ok();
  }
  if (const model::Hardware* hw = mx_product(o.model)) {
    const GemmMxModelled m = model_gemm_mx(*hw, o.shape, o.cfg, o.seed);
    std::cout << m.describe() << "\n";
    if (o.model_details) std::cout << model::format_report(m.report);
  }
  return ok ? 0 : 1;
}

}  // namespace

void add_gemm_mx_command(CommandLine& cl) {
  auto o = std::make_shared<GemmMxOptions>();
  o->shape.M = o->shape.N = o->shape.K = 256;
  CLI::App* c = cl.add("gemm-mx",
                       "the MX-scaled GEMM C = A*B (gfx950): MXFP8/MXFP6/MXFP4 operands with E8M0 scales per 32 K "
                       "elements, fp32 accumulation: build, run on the simulator, verify bit-for-bit vs the HIP "
                       "reference and against the fp64 bound, print the modelled time",
                       [o] { return run(*o); });
  auto dim = [](std::string_view t, std::string_view w) { return int(parse_uint(t, w, 1, 65536)); };
  add_typed_option(c, "--m", o->shape.M, dim, "rows of A and C (default 256)");
  add_typed_option(c, "--n", o->shape.N, dim, "columns of C, rows of B (N x K) (default 256)");
  add_typed_option(c, "--k", o->shape.K, dim, "the reduction length (default 256; a multiple of the MFMA's K)");
  add_typed_option(c, "--mx", o->shape.format,
                   [](std::string_view t, std::string_view) { return codegen::parse_mx_format(t); },
                   "element format: fp8 (MXFP8 E4M3, default), bf8 (MXFP8 E5M2), fp6 (MXFP6 E2M3), bf6 (MXFP6 E3M2) or fp4 (MXFP4 E2M1)");
  add_typed_option(c, "--scales", o->shape.scales,
                   [](std::string_view t, std::string_view) { return codegen::parse_gemm_mx_scale_layout(t); },
                   "scale layout: mk (SA[m][k/32], default) or km (SA[k/32][m]: a K tile's scales of consecutive rows "
                   "contiguous)");
  add_typed_option(c, "--out", o->shape.output,
                   [](std::string_view t, std::string_view) { return codegen::parse_gemm_mx_output(t); },
                   "output type: f32 (default) or bf16");
  add_typed_option(c, "--arch", o->arch,
                   [](std::string_view text, std::string_view what) {
                     if (auto a = parse_arch(text)) return *a;
                     throw Error(fmt::format("{} '{}' (valid: gfx950)", what, text));
                   },
                   "gfx950 (the only arch with the scaled MFMAs)");
  auto tile = [](std::string_view t, std::string_view w) { return int(parse_uint(t, w, 16, 256)); };
  add_typed_option(c, "--tile-m", o->cfg.tile_m, tile, "output tile rows (default 128)");
  add_typed_option(c, "--tile-n", o->cfg.tile_n, tile, "output tile columns (default 128)");
  auto waves = [](std::string_view t, std::string_view w) { return int(parse_uint(t, w, 1, 16)); };
  add_typed_option(c, "--waves-m", o->cfg.waves_m, waves, "waves along M (default 2)");
  add_typed_option(c, "--waves-n", o->cfg.waves_n, waves, "waves along N (default 2)");
  add_typed_option(c, "--mfma", o->cfg.mfma_m,
                   [](std::string_view t, std::string_view w) {
                     if (t == "16") return 16;
                     if (t == "32") return 32;
                     throw Error(fmt::format("{} '{}' (valid: 16 = 16x16x128, 32 = 32x32x64)", w, t));
                   },
                   "MFMA block: 16 (default) or 32");
  add_typed_option(c, "--tile-k", o->cfg.tile_k,
                   [](std::string_view t, std::string_view w) { return int(parse_uint(t, w, 0, 1024)); },
                   "with --read-ahead: K elements per LDS tile 128 or 256 (default 0 = 128, one MFMA k-step: 128-byte fp8 rows, 64-byte fp4 rows)");
  add_typed_option(c, "--group-m", o->cfg.group_m,
                   [](std::string_view t, std::string_view w) { return int(parse_uint(t, w, 0, 64)); },
                   "workgroup order: 0 = 2-D grid (default); G = XCD-contiguous groups of G tile rows");
  c->add_flag("--read-ahead", o->cfg.read_ahead,
              "the LDS pipeline: operands and scales global -> LDS by DMA into XOR-swizzled rows, 2 stages, the "
              "read-ahead schedule of `cdnajit gemm --read-ahead` (mfma 16; fp8, bf8, fp4)");
  add_typed_option(c, "--persistent", o->cfg.persistent,
                   [](std::string_view t, std::string_view w) { return int(parse_uint(t, w, 0, 64)); },
                   "with --read-ahead and --group-m: persistent workgroups of P output tiles each (default 0 = off): "
                   "a workgroup's tiles are one K pipeline, each tile's stores draining while the next one's MFMAs run");
  c->add_option("--model", o->model, "timing-model product or product file FILE.json (gfx950; default: the gfx950 default product, `cdnajit model list`; "
                "none = skip)");
  add_typed_option(c, "--dump-asm", o->asm_path,
                   [](std::string_view t, std::string_view w) {
                     check_writable(std::string(t), w);
                     return std::string(t);
                   },
                   "write the kernel's .s to this file");
  c->add_flag("--model-details", o->model_details,
              "print the model's full report: traffic per memory level, busy units, stalls, limiter");
  c->add_flag("--model-only", o->model_only,
              "build and model only (no run, bit check or fp64 check): sizes too large to simulate whole");
  // An impossible shape/configuration, the wrong arch or a product of the other arch is a usage
  // error (exit 2), found before any work.
  c->parse_complete_callback([o] {
    mx_product(o->model);
    codegen::make_gemm_mx_plan(o->shape, o->arch, o->cfg);
  });
}

}  // namespace cdnajit::cli
