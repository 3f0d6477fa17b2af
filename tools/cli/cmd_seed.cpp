// seed: the depthwise-conv3d seed job (build, write .s, run, verify, stats).
#include <iostream>
#include <optional>

#include <fmt/format.h>

#include "tools/jobs/seed_job.hpp"
#include "runtime/model/product_file.hpp"
#include "tools/tune_families/registry.hpp"
#include "runtime/tune/tuner.hpp"
#include "tools/tune_command.hpp"
#include "tools/cli/files.hpp"
#include "tools/cli/commands.hpp"
#include "tools/cli/values.hpp"
#include "tools/model_cli.hpp"

namespace cdnajit::cli {

namespace {

struct SeedOptions {
  Arch arch = Arch::gfx950;
  std::optional<codegen::DwVariant> variant;
  bool fastest = false;  // --variant fastest: the tuner's winner on the timing model
  std::string asm_path;
  codegen::SeedJobOptions job;
  std::string model, trace;  // timing model (tools/model_cli)
};

std::string default_asm_path(Arch arch) { return "dwconv3d_seed_" + std::string(arch_name(arch)) + ".s"; }

// --variant fastest: the dwconv3d family's winner for the seed problem on the timing model
// `product`, through the tuner and its database (a stored winner is reused; otherwise every
// variant is checked and modelled, and the winner stored).
codegen::DwVariant fastest_variant(Arch arch, const std::string& product) {
  const model::Hardware& hw = model::resolve_product_or_default(product, arch);
  tune::TuneRequest req;
  req.problem = "seed";
  req.device = fmt::format("sim:{}", arch_name(arch));
  req.model = product.empty() ? hw.name : product;  // a product file stays a path
  req.cus = hw.cus;
  req.db_path = default_perf_db_path();
  req.search.time_budget_s = kDefaultTuneBudgetS;
  req.log = [](const std::string& l) { std::cout << "  tune: " << l << "\n" << std::flush; };
  req.search.log = req.log;
  std::cout << fmt::format("--variant fastest: tuning the dwconv3d family on the seed problem, model {} "
                           "(modelled; database {})\n",
                           hw.name, req.db_path)
            << std::flush;
  tune::TuneOutcome o = tune::run_tune(tune::dwconv3d_family(), req);
  if (!o.winner) throw Error("--variant fastest: the tuner found no configuration that passed its check");
  const tune::Config c = tune::parse_config(tune::dwconv3d_family().space(), o.winner->config);
  const codegen::DwVariant v = codegen::parse_variant(tune::config_value(c, "variant"));
  std::cout << fmt::format("--variant fastest: {} = {:.4f} ms, {}{}\n", o.winner->config, o.winner->time_ms,
                           o.winner->source_label, o.reused ? " (from the database)" : "");
  return v;
}

}  // namespace

void add_seed_command(CommandLine& cl) {
  auto o = std::make_shared<SeedOptions>();
  CLI::App* c = cl.add("seed", "the seed depthwise-conv3d job: build, write .s, run, verify bit-for-bit, stats. References: "
                               "fmac kernels vs HIP V97 (clang, same device) and a host std::fma model; dot2 kernels vs a "
                               "host model whose dot2 is the exact sum rounded once (MPFR, independent of the simulator)", [o] {
    codegen::DwVariant v = o->fastest   ? fastest_variant(o->arch, o->model)
                           : o->variant ? *o->variant
                                        : codegen::default_variant(o->arch);
    std::string path = o->asm_path.empty() ? default_asm_path(o->arch) : o->asm_path;
    if (o->asm_path.empty()) check_writable(path, "--asm");
    const int rc = codegen::run_seed_job(std::cout, o->arch, v, path, o->job);
    model_cli::print_seed(std::cout, o->arch, v, o->job.mapping, o->model, o->trace);
    return rc;
  });
  add_arch_option(c, o->arch);
  add_typed_option(c, "--variant", o->variant,
                   [o](std::string_view text, std::string_view) {
                     o->fastest = text == "fastest";
                     return o->fastest ? std::nullopt : std::optional(codegen::parse_variant(text));
                   },
                   "a variant NAME of the dwconv3d_seed.NAME kernels `cdnajit list` shows, or fastest (the tuner's "
                   "winner on the --model product, through the performance database); default lds_dot2 on gfx950, "
                   "lds_fmac on gfx942");
  add_typed_option(c, "--mapping", o->job.mapping,
                   [](std::string_view text, std::string_view) { return codegen::parse_mapping(text); },
                   "work mapping of the JIT kernel: dense (default; items packed over all 256 threads, as V97) or "
                   "wave_rows (one output row per wave, lanes along W: the seed's JIT kernels)");
  add_typed_option(c, "--asm", o->asm_path,
                   [](std::string_view text, std::string_view what) {
                     check_writable(std::string(text), what);
                     return std::string(text);
                   },
                   "where to write the kernel's .s (default dwconv3d_seed_ARCH.s)");
  c->add_option("--device", o->job.device, "device spec: sim:gfx950, sim:gfx942, hip:N (default: a GPU, else the simulator)")->check(check_device_spec);
  add_typed_option(c, "--channels", o->job.channels,
                   [](std::string_view text, std::string_view what) { return int(parse_uint(text, what, 0, 512)); },
                   "run channels [0, K) only (0 = all 512; fewer is faster on the simulator)");
  c->add_option("--model", o->model, "modelled time on the full seed grid for a product or product file FILE.json "
                                     "(default: mi350x on gfx950, mi300x on gfx942; none = skip)");
  c->add_option("--trace", o->trace, "write a Chrome/Perfetto trace of the modelled CU of the JIT kernel to FILE.json");
  c->callback([o] {  // while parsing: a bad value is status 2 before the job runs
    if (o->model == "none") {
      if (!o->trace.empty()) throw Error("--trace needs the timing model (drop --model none)");
      if (o->fastest) throw Error("--variant fastest picks by the timing model (drop --model none)");
    } else {
      model_for_arch(o->model, o->arch, "the seed job");  // throws listing the products, or naming both archs
    }
    std::vector<NamedFile> outputs{{"--asm", o->asm_path.empty() ? default_asm_path(o->arch) : o->asm_path}};
    if (!o->trace.empty()) {
      check_writable(o->trace, "--trace");
      outputs.push_back({"--trace", o->trace});
    }
    check_distinct_files(outputs);
  });
}

}  // namespace cdnajit::cli
