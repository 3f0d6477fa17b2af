// conv3d: the implicit-GEMM conv3d seed job (tools/jobs/conv3d_igemm_job.hpp) for
// one or both archs and dtypes, with the tunable configuration on the command line.
#include <fmt/format.h>

#include <iostream>

#include "tools/jobs/conv3d_igemm_job.hpp"
#include "tools/cli/commands.hpp"
#include "tools/cli/values.hpp"

namespace cdnajit::cli {

namespace {

struct Conv3dOptions {
  std::vector<Arch> arches = {Arch::gfx950};
  std::vector<codegen::Conv3dDType> dtypes = {codegen::Conv3dDType::bf16, codegen::Conv3dDType::fp8};
  std::string prefix = "conv3d";
  codegen::Conv3dJobOptions job;
};

// "AxB" or "AxBxC": exactly `n` positive numbers joined by 'x'.
std::vector<int> dims(std::string_view text, std::string_view what, size_t n) {
  std::vector<int> out;
  size_t start = 0;
  while (true) {
    size_t x = text.find('x', start);
    out.push_back(int(parse_uint(text.substr(start, x == std::string_view::npos ? text.npos : x - start), what, 1, 4096)));
    if (x == std::string_view::npos) break;
    start = x + 1;
  }
  if (out.size() != n) throw Error(fmt::format("{} '{}' must be {} numbers joined by 'x'", what, text, n));
  return out;
}

}  // namespace

void add_conv3d_command(CommandLine& cl) {
  auto o = std::make_shared<Conv3dOptions>();
  o->job.hw = 40;
  CLI::App* c = cl.add("conv3d",
                       "the implicit-GEMM conv3d seed job (3x3x3, C = K = 128, D = 6, H = W = 40): build, write "
                       "PREFIX_<dtype>_<arch>.s, run, verify bit-for-bit vs the HIP-MFMA reference (clang, same "
                       "device), accuracy vs fp64, stats",
                       [o] {
                         bool ok = true;
                         for (Arch arch : o->arches)
                           for (codegen::Conv3dDType t : o->dtypes) {
                             std::string path = fmt::format("{}_{}_{}.s", o->prefix, codegen::dtype_name(t), arch_name(arch));
                             codegen::Conv3dJobResult r = codegen::run_conv3d_job(std::cout, arch, t, path, o->job);
                             ok = ok && (r.bit_exact || o->job.build_only || o->job.model_only);
                             std::cout << "\n";
                           }
                         return ok ? 0 : 1;
                       });
  add_typed_option(c, "--arch", o->arches,
                   [](std::string_view text, std::string_view what) {
                     if (text == "all") return std::vector<Arch>{Arch::gfx942, Arch::gfx950};
                     if (auto a = parse_arch(text)) return std::vector<Arch>{*a};
                     throw Error(fmt::format("{} '{}' (valid: gfx942, gfx950, all)", what, text));
                   },
                   "gfx942, gfx950 or all (default gfx950)");
  add_typed_option(c, "--dtype", o->dtypes,
                   [](std::string_view text, std::string_view) {
                     if (text == "all") return std::vector<codegen::Conv3dDType>{codegen::Conv3dDType::bf16, codegen::Conv3dDType::fp8};
                     return std::vector<codegen::Conv3dDType>{codegen::parse_dtype(std::string(text))};
                   },
                   "bf16, fp8 or all (default all)");
  add_typed_option(c, "--hw", o->job.hw,
                   [](std::string_view t, std::string_view w) { return int(parse_uint(t, w, 1, 4096)); },
                   "spatial H = W of the problem (default 40)");
  add_typed_option(c, "--asm", o->prefix,
                   [](std::string_view t, std::string_view) { return std::string(t); },
                   "prefix of the .s files written (default conv3d)");
  c->add_option("--device", o->job.device, "device spec: sim:gfx950, sim:gfx942, hip:N (default: a GPU, else the simulator)")->check(check_device_spec);
  add_typed_option(c, "--tile", o->job.cfg,
                   [o](std::string_view t, std::string_view w) {
                     auto d = dims(t, w, 3);
                     codegen::Conv3dConfig cfg = o->job.cfg;
                     cfg.tile_m = d[0], cfg.tile_n = d[1], cfg.tile_k = d[2];
                     return cfg;
                   },
                   "output tile MxN and K tile, e.g. 128x128x32");
  add_typed_option(c, "--waves", o->job.cfg,
                   [o](std::string_view t, std::string_view w) {
                     auto d = dims(t, w, 2);
                     codegen::Conv3dConfig cfg = o->job.cfg;
                     cfg.waves_m = d[0], cfg.waves_n = d[1];
                     return cfg;
                   },
                   "waves per workgroup MxN, e.g. 2x4");
  add_typed_option(c, "--stages", o->job.cfg.stages,
                   [](std::string_view t, std::string_view w) { return int(parse_uint(t, w, 1, 2)); },
                   "LDS pipeline stages, 1 or 2");
  add_typed_option(c, "--split-k", o->job.cfg.split_k,
                   [](std::string_view t, std::string_view w) { return int(parse_uint(t, w, 1, 64)); },
                   "split the reduction over this many workgroups (fp32 atomics)");
  add_typed_option(c, "--mapping", o->job.cfg.mapping,
                   [](std::string_view t, std::string_view w) {
                     if (t == "m") return codegen::Conv3dMapping::m_fastest;
                     if (t == "n") return codegen::Conv3dMapping::n_fastest;
                     throw Error(fmt::format("{} '{}' (valid: m = M tiles fastest, n = N tiles fastest)", w, t));
                   },
                   "workgroup order: m (M tiles fastest, default) or n");
  add_typed_option(c, "--mfma", o->job.cfg.mfma_m,
                   [](std::string_view t, std::string_view w) {
                     if (t == "16") return 16;
                     if (t == "32") return 32;
                     throw Error(fmt::format("{} '{}' (valid: 16 = 16x16xK MFMA blocks, 32 = 32x32xK)", w, t));
                   },
                   "MFMA block: 16 (16x16xK, default) or 32 (32x32xK)");
  add_typed_option(c, "--prefetch", o->job.cfg.prefetch,
                   [](std::string_view t, std::string_view w) { return int(parse_uint(t, w, 1, 2)); },
                   "K tiles of global loads in flight ahead of the MFMAs (register path, 2 stages): 1 or 2 "
                   "(default 2 there, else 1)");
  c->add_option("--model", o->job.model,
                "timing-model product for the modelled times (mi350x on gfx950, mi300x on gfx942 by default; "
                "none = skip)");
  add_typed_option(c, "--model-hw", o->job.model_hw,
                   [](std::string_view t, std::string_view w) {
                     std::vector<int> v;
                     size_t start = 0;
                     while (true) {
                       size_t comma = t.find(',', start);
                       v.push_back(int(parse_uint(t.substr(start, comma == t.npos ? t.npos : comma - start), w, 1, 4096)));
                       if (comma == t.npos) break;
                       start = comma + 1;
                     }
                     return v;
                   },
                   "H = W values of the modelled seed shapes, comma-separated (default 40,56,72,104,144,168)");
  c->add_flag("--model-detail", o->job.model_detail,
              "also print the timing model's full report of each modelled GEMM (busy units, stalls, instruction mix)");
  c->add_flag("--build-only", o->job.build_only, "only the JIT build times (uncached, warm median) of the GEMM kernel");
  c->add_flag("--model-only", o->job.model_only,
              "only the modelled times (no build timing, runs, bit check or accuracy)");
  add_typed_option(c, "--lds-dma", o->job.cfg.lds_dma,
                   [](std::string_view t, std::string_view w) {
                     if (t == "default") return -1;
                     if (t == "on") return 1;
                     if (t == "off") return 0;
                     throw Error(fmt::format("{} '{}' (valid: default, on, off)", w, t));
                   },
                   "global -> LDS by DMA (gfx950): default (on for fp8, as the seed), on or off");
  c->callback([o] {  // while parsing: the product and its arch are checked before the job's work
    for (Arch arch : o->arches) codegen::conv3d_job_model(arch, o->job.model);  // throws naming the product or arch
  });
}

}  // namespace cdnajit::cli
