// fuzz: mutation-fuzz the code-object reader and the simulator's decoder.
#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <optional>
#include <random>

#include "tools/builtin_kernels.hpp"
#include "tools/cli/commands.hpp"
#include "tools/cli/values.hpp"
#include "tools/fuzz_code_object.hpp"

namespace cdnajit::cli {

namespace {

struct FuzzCommandOptions {
  std::string kernel = "vector_add";
  Arch arch = Arch::gfx950;
  std::optional<uint32_t> seed;
  FuzzOptions fuzz;
};

int fuzz(FuzzCommandOptions o) {
  BuildResult r = build_builtin_kernel(o.kernel, o.arch, {});
  o.fuzz.rng_seed = o.seed ? *o.seed : std::random_device{}();
  fmt::print("fuzz seed {} (repeat with --seed {}); each mutant runs in a child process\n", o.fuzz.rng_seed,
             o.fuzz.rng_seed);
  std::fflush(stdout);
  FuzzReport f = fuzz_code_object(r.code_object, o.fuzz);
  fmt::print("fuzzed {} mutations of {} ({} bytes): {} loaded{}, {} rejected with an error, {} crash(es), {} hang(s), "
             "{} other exception(s)\n",
             f.iterations, r.name, r.code_object.size(), f.accepted, o.fuzz.launch ? ", decoded and ran" : " and decoded",
             f.rejected, std::count_if(f.findings.begin(), f.findings.end(), [](auto& x) { return x.kind == "crash"; }),
             std::count_if(f.findings.begin(), f.findings.end(), [](auto& x) { return x.kind == "hang"; }),
             std::count_if(f.findings.begin(), f.findings.end(), [](auto& x) { return x.kind == "exception"; }));
  if (!f.first_rejection.empty()) fmt::print("example rejection: {}\n", f.first_rejection.substr(0, 200));
  for (const FuzzFinding& x : f.findings)
    fmt::print("{}: {}; reproduce with: cdnajit run {} --kernel NAME --grid 1 --block 64\n", x.kind, x.what,
               x.reproducer);
  return f.findings.empty() ? 0 : 1;
}

}  // namespace

void add_fuzz_command(CommandLine& cl) {
  auto o = std::make_shared<FuzzCommandOptions>();
  CLI::App* c = cl.add("fuzz",
                       "mutation-fuzz the code-object reader, decoder and simulator with a built-in kernel as the seed; "
                       "each mutant runs in a child process; exit status 1 when a crash, hang or stray exception was seen",
                       [o] { return fuzz(*o); });
  c->add_option("--kernel", o->kernel, "built-in kernel whose code object is mutated (default vector_add)");
  add_arch_option(c, o->arch);
  add_typed_option(c, "--seconds", o->fuzz.seconds,
                   [](std::string_view t, std::string_view w) { return parse_real(t, w, 0, 86400); },
                   "stop after this many seconds (default 10)");
  add_typed_option(c, "--iterations", o->fuzz.max_iterations,
                   [](std::string_view t, std::string_view w) { return parse_uint(t, w, 1, 1ull << 40); },
                   "stop after this many mutants (default 1000000)");
  add_typed_option(c, "--seed", o->seed,
                   [](std::string_view t, std::string_view w) { return std::optional(uint32_t(parse_uint(t, w, 0, UINT32_MAX))); },
                   "random seed of the mutations (default: a random one, printed)");
  add_typed_option(c, "--per-input-timeout", o->fuzz.per_input_seconds,
                   [](std::string_view t, std::string_view w) { return parse_real(t, w, 0.1, 3600); },
                   "seconds after which a mutant's child process counts as a hang and is killed (default 10)");
  c->add_flag_function("--no-launch", [o](int64_t) { o->fuzz.launch = false; }, "only read and decode (do not run the kernels)");
  c->add_option("--crash-dir", o->fuzz.crash_dir, "where reproducers are written (default fuzz-crashes)");
}

}  // namespace cdnajit::cli
