// fuzz: mutation-fuzz the code-object reader and the simulator's decoder
// (in a forked child each), or with --through-cli the `run` and `check`
// commands themselves (tools/fuzz_cli.hpp).
#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <optional>
#include <random>

#include "tools/builtin_kernels.hpp"
#include "tools/cli/commands.hpp"
#include "tools/cli/values.hpp"
#include "tools/cli/files.hpp"
#include "tools/fuzz_cli.hpp"
#include "tools/fuzz_code_object.hpp"

namespace cdnajit::cli {

namespace {

struct FuzzCommandOptions {
  std::vector<std::string> kernels;       // built-in kernels (default vector_add)
  std::vector<std::string> code_objects;  // seed files (--through-cli)
  Arch arch = Arch::gfx950;
  std::optional<uint32_t> seed;
  FuzzOptions fuzz;
  bool through_cli = false;
  int jobs = 1;
};

int count_kind(const std::vector<CliFuzzFinding>& f, const char* kind) {
  return int(std::count_if(f.begin(), f.end(), [&](auto& x) { return x.kind == kind; }));
}

int fuzz_through_cli_command(const FuzzCommandOptions& o) {
  std::vector<CliFuzzSeed> seeds;
  for (const std::string& k : o.kernels.empty() ? std::vector<std::string>{"vector_add"} : o.kernels) {
    BuildResult r = build_builtin_kernel(k, o.arch, {});
    seeds.push_back(make_cli_fuzz_seed(r.name + "." + std::string(arch_name(o.arch)), r.code_object));
  }
  for (const std::string& f : o.code_objects)
    seeds.push_back(make_cli_fuzz_seed(f, read_regular_file(f, "--code-object", kMaxCodeObjectBytes, true)));
  CliFuzzOptions c;
  std::error_code ec;
  c.cdnajit = std::filesystem::read_symlink("/proc/self/exe", ec).string();  // this very program
  if (ec) throw Error("fuzz: cannot find this program's path (/proc/self/exe): " + ec.message());
  c.iterations = o.fuzz.max_iterations;
  c.seconds = o.fuzz.seconds;
  c.rng_seed = o.seed ? *o.seed : std::random_device{}();
  c.per_input_seconds = o.fuzz.per_input_seconds;
  c.jobs = o.jobs;
  c.crash_dir = o.fuzz.crash_dir;
  c.work_dir = o.fuzz.crash_dir + "/work";
  c.progress_every = 500;
  c.progress = [](const CliFuzzReport& r) {
    fmt::print("  {} mutants so far, {} finding(s)\n", r.iterations, r.findings.size());
    std::fflush(stdout);
  };
  fmt::print("fuzz seed {} (repeat with --seed {}); each mutant goes to its own `cdnajit run` or `cdnajit check` "
             "process ({} seed code object{})\n",
             c.rng_seed, c.rng_seed, seeds.size(), seeds.size() == 1 ? "" : "s");
  std::fflush(stdout);
  CliFuzzReport f = fuzz_through_cli(seeds, c);
  std::filesystem::remove(c.work_dir, ec);
  fmt::print("fuzzed {} mutants through the command line: run {} ok / {} named error; check {} clean / {} findings "
             "or named error; {} crash(es), {} hang(s), {} bad exit status(es)\n",
             f.iterations, f.run_ok, f.run_error, f.check_ok, f.check_nonzero, count_kind(f.findings, "crash"),
             count_kind(f.findings, "hang"), count_kind(f.findings, "bad-exit"));
  if (!f.example_error.empty()) fmt::print("example error: {}\n", f.example_error.substr(0, 200));
  for (const CliFuzzFinding& x : f.findings) fmt::print("{}: {}\n  reproduce with: {}\n", x.kind, x.what, x.command);
  return f.findings.empty() ? 0 : 1;
}

int fuzz(FuzzCommandOptions o) {
  if (o.through_cli) return fuzz_through_cli_command(o);
  BuildResult r = build_builtin_kernel(o.kernels.empty() ? "vector_add" : o.kernels.front(), o.arch, {});
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
  if (f.findings.empty()) return 0;
  // The `cdnajit run` options that fit the seed (its kernel, a buffer or value per argument), as
  // --through-cli gives its children.
  const CliFuzzSeed seed = make_cli_fuzz_seed(r.name, r.code_object);
  for (const FuzzFinding& x : f.findings)
    fmt::print("{}: {}; reproduce with: {}\n", x.kind, x.what, cli_run_command(seed, x.reproducer));
  return f.findings.empty() ? 0 : 1;
}

}  // namespace

void add_fuzz_command(CommandLine& cl) {
  auto o = std::make_shared<FuzzCommandOptions>();
  CLI::App* c = cl.add("fuzz",
                       "mutation-fuzz the code-object reader, decoder and simulator with a built-in kernel as the seed; "
                       "each mutant runs in a child process; exit status 1 when a crash, hang or stray exception was seen",
                       [o] { return fuzz(*o); });
  c->add_option("--kernel", o->kernels, "built-in kernel whose code object is mutated (default vector_add; "
                "repeatable with --through-cli)")
      ->allow_extra_args(false)
      ->check(check_builtin_kernel_name);
  c->add_option("--code-object", o->code_objects, "with --through-cli: a code object file to mutate too (repeatable)")
      ->allow_extra_args(false);
  c->add_flag("--through-cli", o->through_cli,
              "give each mutant to a separate `cdnajit run` (odd mutants) or `cdnajit check` (even) process; a "
              "signal, an exit status other than 0/1 or a timeout is a finding");
  add_typed_option(c, "--jobs", o->jobs,
                   [](std::string_view t, std::string_view w) { return int(parse_uint(t, w, 1, 64)); },
                   "with --through-cli: processes running at once (default 1)");
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
  c->callback([o] {  // while parsing: a bad combination is a usage error before anything runs
    if (!o->through_cli && (!o->code_objects.empty() || o->kernels.size() > 1 || o->jobs != 1))
      throw Error("fuzz: --code-object, --jobs and more than one --kernel need --through-cli");
    for (const std::string& f : o->code_objects) read_regular_file(f, "--code-object", kMaxCodeObjectBytes, true);
  });
}

}  // namespace cdnajit::cli
