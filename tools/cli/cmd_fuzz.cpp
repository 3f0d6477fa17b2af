// fuzz: mutation-fuzz the code-object reader and the simulator's decoder.
#include <fmt/format.h>

#include <random>

#include "tools/builtin_kernels.hpp"
#include "tools/cli/commands.hpp"
#include "tools/cli/values.hpp"
#include "tools/fuzz_code_object.hpp"

namespace cdnajit::cli {

namespace {

struct FuzzOptions {
  std::string kernel = "vector_add";
  Arch arch = Arch::gfx950;
  double seconds = 10;
  uint64_t iterations = 1000000;
  std::optional<uint32_t> seed;
};

int fuzz(const FuzzOptions& o) {
  BuildResult r = build_builtin_kernel(o.kernel, o.arch, {});
  uint32_t seed = o.seed ? *o.seed : std::random_device{}();
  fmt::print("fuzz seed {} (repeat with --seed {})\n", seed, seed);
  FuzzReport f = fuzz_code_object(r.code_object, o.seconds, o.iterations, seed);
  fmt::print("fuzzed {} mutations of {} ({} bytes): {} loaded and decoded, {} rejected with an error\n", f.iterations,
             r.name, r.code_object.size(), f.accepted, f.rejected);
  if (!f.first_rejection.empty()) fmt::print("example rejection: {}\n", f.first_rejection.substr(0, 200));
  return 0;
}

}  // namespace

void add_fuzz_command(CommandLine& cl) {
  auto o = std::make_shared<FuzzOptions>();
  CLI::App* c = cl.add("fuzz", "mutation-fuzz the code-object reader and decoder with a built-in kernel as the seed",
                       [o] { return fuzz(*o); });
  c->add_option("--kernel", o->kernel, "built-in kernel whose code object is mutated (default vector_add)");
  add_arch_option(c, o->arch);
  add_typed_option(c, "--seconds", o->seconds,
                   [](std::string_view t, std::string_view w) { return parse_real(t, w, 0, 86400); },
                   "stop after this many seconds (default 10)");
  add_typed_option(c, "--iterations", o->iterations,
                   [](std::string_view t, std::string_view w) { return parse_uint(t, w, 1, 1ull << 40); },
                   "stop after this many mutants (default 1000000)");
  add_typed_option(c, "--seed", o->seed,
                   [](std::string_view t, std::string_view w) { return std::optional(uint32_t(parse_uint(t, w, 0, UINT32_MAX))); },
                   "random seed of the mutations (default: a random one, printed)");
}

}  // namespace cdnajit::cli
