// gemm: build the MFMA GEMM kernel (tools/jobs/gemm_job.hpp) for one shape, run it and the HIP
// reference on the simulator, check the bits and the fp64 bound, print stats and the modelled time.
#include <fmt/format.h>

#include <iostream>

#include "tools/jobs/gemm_job.hpp"
#include "tools/cli/commands.hpp"
#include "tools/cli/values.hpp"

namespace cdnajit::cli {

namespace {

struct GemmOptions {
  Arch arch = Arch::gfx950;
  codegen::GemmShape shape;
  codegen::GemmConfig cfg;
  codegen::GemmJobOptions job;
};

}  // namespace

void add_gemm_command(CommandLine& cl) {
  auto o = std::make_shared<GemmOptions>();
  o->shape.M = o->shape.N = o->shape.K = 256;
  CLI::App* c = cl.add("gemm",
                       "the MFMA GEMM C = alpha*op(A)*op(B) (+ beta*C), bf16, f16 or fp8 in, fp32 accumulation: build, run on the "
                       "simulator, verify bit-for-bit vs the HIP reference (clang, same MFMA order) and against the "
                       "fp64 bound, print stats and the modelled time",
                       [o] {
                         codegen::GemmJobResult r = codegen::run_gemm_job(std::cout, o->arch, o->shape, o->cfg, o->job);
                         return r.ok() ? 0 : 1;
                       });
  auto dim = [](std::string_view t, std::string_view w) { return int(parse_uint(t, w, 1, 65536)); };
  add_typed_option(c, "--m", o->shape.M, dim, "rows of A and C (default 256)");
  add_typed_option(c, "--n", o->shape.N, dim, "columns of B and C (default 256)");
  add_typed_option(c, "--k", o->shape.K, dim, "the reduction length (default 256; a multiple of the K tile)");
  add_typed_option(c, "--layout", o->shape.layout,
                   [](std::string_view t, std::string_view) { return codegen::parse_gemm_layout(t); },
                   "NT (default), NN, TN or TT: first letter A (N: M x K row-major, T: stored K x M), second B "
                   "(N: K x N row-major, T: stored N x K)");
  add_typed_option(c, "--dtype", o->shape.dtype,
                   [](std::string_view t, std::string_view) { return codegen::parse_gemm_dtype(t); },
                   "input type of A and B: bf16 (default), f16, e4m3 (fp8) or e5m2 (bf8); the 8-bit floats are FNUZ "
                   "on gfx942 and OCP on gfx950");
  add_typed_option(c, "--out", o->shape.output,
                   [](std::string_view t, std::string_view) { return codegen::parse_gemm_output(t); },
                   "output type: bf16 (default), f16 or f32");
  add_typed_option(c, "--alpha", o->shape.alpha,
                   [](std::string_view t, std::string_view w) { return float(parse_real(t, w, -1e30, 1e30)); },
                   "scale of A*B (default 1)");
  add_typed_option(c, "--beta", o->shape.beta,
                   [](std::string_view t, std::string_view w) { return float(parse_real(t, w, -1e30, 1e30)); },
                   "scale of the input C (default 0: C is not read)");
  add_typed_option(c, "--bias", o->shape.bias,
                   [](std::string_view t, std::string_view) { return codegen::parse_gemm_bias(t); },
                   "none (default) or col: add bias[n], one fp32 value per output column (a fourth kernel "
                   "argument of N floats), after alpha and beta, in fp32");
  add_typed_option(c, "--act", o->shape.act,
                   [](std::string_view t, std::string_view) { return codegen::parse_gemm_activation(t); },
                   "activation after the bias, in fp32 before the output rounding: none (default), relu, silu "
                   "or gelu_tanh (x * rcp(1 + exp2(z)) with v_exp_f32 / v_rcp_f32, codegen/gemm_config.hpp)");
  add_typed_option(c, "--arch", o->arch,
                   [](std::string_view text, std::string_view what) {
                     if (auto a = parse_arch(text)) return *a;
                     throw Error(fmt::format("{} '{}' (valid: gfx942, gfx950)", what, text));
                   },
                   "gfx942 or gfx950 (default gfx950)");
  auto tile = [](std::string_view t, std::string_view w) { return int(parse_uint(t, w, 16, 256)); };
  add_typed_option(c, "--tile-m", o->cfg.tile_m, tile, "output tile rows (default 128)");
  add_typed_option(c, "--tile-n", o->cfg.tile_n, tile, "output tile columns (default 128)");
  add_typed_option(c, "--tile-k", o->cfg.tile_k, tile, "K tile (default 64 on gfx950, 32 on gfx942)");
  auto waves = [](std::string_view t, std::string_view w) { return int(parse_uint(t, w, 1, 16)); };
  add_typed_option(c, "--waves-m", o->cfg.waves_m, waves, "waves along M (default 2)");
  add_typed_option(c, "--waves-n", o->cfg.waves_n, waves, "waves along N (default 2)");
  add_typed_option(c, "--stages", o->cfg.stages,
                   [](std::string_view t, std::string_view w) { return int(parse_uint(t, w, 1, 4)); },
                   "LDS stages, 1 or 2 (default 2); 3 or 4 with --dma");
  add_typed_option(c, "--mfma", o->cfg.mfma_m,
                   [](std::string_view t, std::string_view w) {
                     if (t == "16") return 16;
                     if (t == "32") return 32;
                     throw Error(fmt::format("{} '{}' (valid: 16 = 16x16xK MFMA blocks, 32 = 32x32xK)", w, t));
                   },
                   "MFMA block: 16 (default) or 32");
  add_typed_option(c, "--group-m", o->cfg.group_m,
                   [](std::string_view t, std::string_view w) { return int(parse_uint(t, w, 0, 64)); },
                   "workgroup order: 0 = 2-D grid, M fastest (default); G = XCD-contiguous groups of G tile rows");
  c->add_flag("--dma", o->cfg.lds_dma,
              "gfx950, NT: A and B global -> LDS directly (global_load_lds_dwordx4) into XOR-swizzled unpadded rows");
  c->add_flag("--lds-xor", o->cfg.lds_xor,
              "gfx942, NT, no --dma: unpadded LDS rows (a multiple of 128 bytes) with XOR-swizzled 8-byte units, so "
              "256x256 tiles take tile_k 64 in one 64 KiB stage");
  add_typed_option(c, "--ra-split", o->cfg.ra_split,
                   [](std::string_view t, std::string_view w) { return int(parse_uint(t, w, 1, 2)); },
                   "with --read-ahead and no --dma: read and multiply each K tile in 1 (default) or 2 K sub-tiles "
                   "(half the fragment registers)");
  c->add_flag("--pingpong", o->cfg.pingpong,
              "with --dma, 2 stages, 8 waves: two wave groups alternate LDS-read/load and MFMA phases, one barrier apart");
  c->add_flag("--read-ahead", o->cfg.read_ahead,
              "with --dma and 2 stages, or 1 stage without --dma: quadrant MFMAs with the next fragments read "
              "between them (codegen/read_ahead_schedule.hpp)");
  add_typed_option(c, "--split-k", o->cfg.split_k,
                   [](std::string_view t, std::string_view w) { return int(parse_uint(t, w, 1, codegen::kMaxSplitK)); },
                   "split K into S slices (default 1): one workgroup per (tile, slice) into an fp32 workspace, then "
                   "a reduction kernel sums the slices in order 0..S-1 (deterministic); K must divide into S x tile_k");
  add_typed_option(c, "--stream-k", o->cfg.stream_k,
                   [](std::string_view t, std::string_view w) { return int(parse_uint(t, w, 0, 65536)); },
                   "stream-K with about G persistent workgroups (default 0 = off): each walks a contiguous range of "
                   "the tiles x K-tiles iterations; split tiles are summed in K order by a fix-up kernel "
                   "(register-staged path, 1 or 2 stages)");
  c->add_option("--device", o->job.device, "device spec: sim:gfx950, sim:gfx942, hip:N (default: the simulator)")
      ->check(check_device_spec);
  c->add_option("--model", o->job.model,
                "timing-model product or product file FILE.json (default: the arch's default product, `cdnajit model list`; "
                "none = skip)");
  add_typed_option(c, "--dump-asm", o->job.asm_path,
                   [](std::string_view t, std::string_view w) {
                     check_writable(std::string(t), w);
                     return std::string(t);
                   },
                   "write the kernel's .s to this file");
  c->add_flag("--model-only", o->job.model_only,
              "build and model only (no run, bit check or fp64 check): sizes too large to simulate whole");
  c->add_flag("--model-details", o->job.model_details,
              "print the model's full report: traffic per memory level, busy units, stalls, limiter");
  // An impossible shape/configuration or a product of the other arch is a usage error (exit 2),
  // found before any work.
  c->parse_complete_callback([o] {
    codegen::gemm_model_product(o->arch, o->job.model);
    codegen::make_gemm_plan(o->shape, o->arch, o->cfg);
  });
}

}  // namespace cdnajit::cli
