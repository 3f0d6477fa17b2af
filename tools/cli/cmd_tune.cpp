// tune: kernel-configuration search with the persistent performance database
// (runtime/tune; the command's body is tools/tune_command.cpp).
#include <fmt/format.h>

#include "tools/cli/commands.hpp"
#include "tools/cli/values.hpp"
#include "runtime/tune/strategy.hpp"
#include "tools/tune_command.hpp"

namespace cdnajit::cli {

void add_tune_command(CommandLine& cl) {
  auto o = std::make_shared<TuneCommand>();
  CLI::App* c = cl.add("tune",
                       "search a kernel family's configurations for a problem: build in parallel, check against the "
                       "reference, time (hipEvents on hip:N, the timing model on sim:ARCH), keep the winner in the "
                       "performance database",
                       [o] { return run_tune_command(*o); });
  c->add_option("--family", o->family, "kernel family (see --list)");
  c->add_option("--problem", o->problem,
                "the family's problem text (default: the family's tuning problem, 'seed' for the conv families, else "
                "its example problem; see 'cdnajit list')");
  c->add_option("--device", o->device, "sim:gfx950 (default), sim:gfx942, hip:N")->check(check_device_spec);
  c->add_option("--model", o->model, "timing model for simulator devices: a product or product file FILE.json (default mi350x on gfx950, mi300x on gfx942)");
  add_typed_option(c, "--strategy", o->strategy,
                   [](std::string_view t, std::string_view) { return std::string(tune::strategy_name(tune::parse_strategy(t))); },
                   "early stop: original, warm1x1.1, min2x1.2, two-level (default), short-kernel");
  add_typed_option(c, "--samples", o->samples,
                   [](std::string_view t, std::string_view w) { return int(parse_uint(t, w, 2, 1000)); },
                   "samples per surviving configuration (default 10)");
  add_typed_option(c, "--patience", o->patience,
                   [](std::string_view t, std::string_view w) { return int(parse_uint(t, w, 0, 1000000)); },
                   "stop after N configurations in a row that do not beat the best (0 = off)");
  add_typed_option(c, "--budget", o->budget_s,
                   [](std::string_view t, std::string_view w) { return parse_real(t, w, 0, 1e7); },
                   fmt::format("wall-clock budget in seconds from the start of the tune, building and checking "
                               "included (default {:g}; 0 = none: search every configuration)",
                               kDefaultTuneBudgetS));
  add_typed_option(c, "--jobs", o->jobs,
                   [](std::string_view t, std::string_view w) { return int(parse_uint(t, w, 0, 1024)); },
                   "build threads, and simulator workers that check and model ahead of the search (0 = one per core)");
  add_typed_option(c, "--shuffle", o->shuffle_seed,
                   [](std::string_view t, std::string_view w) { return parse_uint(t, w, 0, ~uint64_t(0)); },
                   "search the configurations in an order shuffled with this seed (0 = declared order), so a "
                   "--budget or --patience cut samples the whole space");
  add_typed_option(c, "--cus", o->cus,
                   [](std::string_view t, std::string_view w) { return int(parse_uint(t, w, 0, 100000)); },
                   "compute units the result is keyed by (0 = the arch's flagship: 304 gfx942, 256 gfx950)");
  add_typed_option(c, "--db", o->db,
                   [](std::string_view t, std::string_view w) {
                     if (t.empty()) throw Error(std::string(w) + ": empty path (give a database file, or --no-db for none)");
                     return std::string(t);
                   },
                   "performance database (default $CDNAJIT_PERFDB, else ~/.cache/cdnajit/perf.db); its directory "
                   "must exist");
  c->add_flag("--no-db", o->no_db, "neither read nor write the database");
  c->add_flag("--force", o->force, "search again even when the database has a winner");
  c->add_flag("--check-only", o->check_only, "build and check every configuration; time nothing");
  c->add_flag("--lookup", o->lookup, "print the stored winner for the problem (what families use at build time)");
  c->add_flag("--quiet", o->quiet, "no line per search decision");
  c->add_flag("--list", o->list, "list families, their spaces, the strategies and replay scenarios");
  c->add_option("--export", o->export_path, "write the database as JSON to FILE ('-' = stdout)");
  c->add_option("--import", o->import_path, "add the records of a JSON export");
  c->add_flag("--overwrite", o->overwrite, "with --import: replace existing records");
  c->add_option("--replay", o->replay, "one search on a replay scenario (times from the noise model; never stored)");
  add_typed_option(c, "--seed", o->seed,
                   [](std::string_view t, std::string_view w) { return (unsigned long long)parse_uint(t, w, 0, ~0ull); },
                   "seed of --replay");
  c->callback([o] { check_tune_command(*o); });  // while parsing: a bad value is status 2 before any work
}

}  // namespace cdnajit::cli
