#include "runtime/tune/tuner.hpp"

#include <fmt/format.h>

#include <atomic>
#include <fstream>
#include <mutex>
#include <nlohmann/json.hpp>
#include <random>
#include <thread>

#include "jit/isa/error.hpp"
#include "runtime/backends.hpp"
#include "runtime/model/hardware.hpp"
#include "runtime/tune/build_id.hpp"
#include "runtime/tune/parallel_source.hpp"

namespace cdnajit::tune {

int default_cus(Arch arch) { return arch == Arch::gfx942 ? 304 : 256; }

namespace {

struct Built {
  Config config;
  std::unique_ptr<Candidate> candidate;
  std::string error;
};

// Builds every configuration on `jobs` threads. The JIT is thread-safe: MC
// assembly keeps per-thread state and lld links are serialised inside
// jit/asm/link (lld is not re-entrant), so links queue while the rest overlaps.
std::vector<Built> build_all(const Family& f, const std::vector<Config>& configs, const std::string& problem, Arch arch,
                             int jobs) {
  std::vector<Built> out(configs.size());
  std::atomic<size_t> next{0};
  auto worker = [&] {
    for (size_t i; (i = next++) < configs.size();) {
      out[i].config = configs[i];
      try {
        out[i].candidate = f.build(configs[i], problem, arch);
        if (!out[i].candidate) out[i].error = "the family returned no candidate";
      } catch (const std::exception& e) {
        out[i].error = e.what();
      } catch (...) {
        out[i].error = "an exception that is not a std::exception";
      }
    }
  };
  int n = jobs > 0 ? jobs : int(std::max(1u, std::thread::hardware_concurrency()));
  n = std::min<int>(n, int(configs.size()));
  std::vector<std::thread> threads;
  for (int t = 1; t < n; ++t) threads.emplace_back(worker);
  worker();
  for (auto& t : threads) t.join();
  return out;
}

// "" when the candidate's small-problem run matches the family's reference, else why not
// (a mismatch, or the check itself throwing).
std::string check_reason(Candidate& c, Device& dev) {
  try {
    std::string why = c.check(dev);
    return why.empty() ? "" : "wrong result " + why;
  } catch (const std::exception& e) {
    return std::string("check failed to run: ") + e.what();
  } catch (...) {
    return "check failed to run: an exception that is not a std::exception";
  }
}

// A built candidate as the search reaches it: checked, then bound for timing, once. A
// candidate that fails either step throws Error with the reason every time it is asked for,
// which the search records as a failure before it moves on.
struct Prepared {
  Built built;
  bool done = false;    // checked
  bool passed = false;  // the check matched the reference
  std::string failure;
};

// Adds `r` to the export-format file at `path` (created if absent), so a
// winner the database could not take survives for a later --import.
std::string append_pending(const std::string& path, const PerfRecord& r) {
  nlohmann::json doc = {{"format", "cdnajit-perfdb"}, {"version", kPerfDbVersion}, {"records", nlohmann::json::array()}};
  if (std::ifstream in(path); in) {
    try {
      doc = nlohmann::json::parse(in);
    } catch (const nlohmann::json::exception& e) {
      throw Error(fmt::format("{} exists but is not a pending-records file ({}); the winner was {}", path, e.what(),
                              record_to_json(r)));
    }
  }
  doc["records"].push_back(nlohmann::json::parse(record_to_json(r)));
  std::ofstream f(path, std::ios::trunc);
  f << doc.dump(2) << "\n";
  if (!f) throw Error(fmt::format("cannot write {}; the winner was {}", path, record_to_json(r)));
  return path;
}

}  // namespace

TuneOutcome run_tune(const Family& family, const TuneRequest& req) {
  auto say = [&](const std::string& s) {
    if (req.log) req.log(s);
  };
  TuneOutcome out;
  std::string problem = family.canonical_problem(req.problem);
  auto dev = open_device(req.device);
  Arch arch = dev->arch();
  // Times come from the timing model on a simulator, from hipEvents on hip:N. The hipEvents of
  // cdnajit's drop-in HIP runtime (runtime/hip_sim) are modelled too, and filed as such.
  const bool on_sim = dev->is_simulator();
  out.kind = on_sim || !detail::hip_event_time_source(*dev).empty() ? TimeKind::modelled : TimeKind::gpu_measured;
  // The timing model's product (a name, or a product file's path) as the request gave it, or the
  // arch's default: one key per product, so a winner modelled on one is never reused for another.
  const std::string model_name = req.model.empty() ? model::default_product(arch).name : req.model;
  out.key = PerfKey{.arch = std::string(arch_name(arch)),
                    .cus = req.cus > 0 ? req.cus : default_cus(arch),
                    .product = on_sim ? model_name : dev->name(),
                    .family = family.name(),
                    .problem = problem,
                    .toolchain = toolchain_version(),
                    .project_version = project_version(),
                    .build_id = build_id()};
  say(fmt::format("tune {} [{}] on {}; key {}", family.name(), problem, dev->name(), out.key.str()));

  std::unique_ptr<PerfDb> db;
  if (!req.db_path.empty() && !req.check_only) {
    db = std::make_unique<PerfDb>(req.db_path, req.db_busy_timeout_ms);
    if (!req.force) {
      auto r = db->find(out.key, out.kind);
      // A stored winner this build cannot use (an unknown value, a rule it breaks) is never the
      // answer: say why and search again; the new winner replaces it.
      if (r)
        if (std::string why = unusable_config_reason(family, r->config, problem, arch); !why.empty()) {
          say(fmt::format("database {}: the stored '{}' cannot be used ({}); searching again", db->path(), r->config, why));
          r.reset();
        }
      if (r) {
        say(fmt::format("database {}: stored winner {} = {:.4f} ms ({}), searched {}; reusing it (--force re-tunes)",
                        db->path(), r->config, r->time_ms, r->source_label, r->created_utc));
        out.reused = true;
        out.winner = r;
        return out;
      }
    }
  }
  // Modelled times need the model before anything is built: fail early and say why.
  std::unique_ptr<TimingModel> model;
  if (on_sim && !req.check_only) model = req.open_model(model_name);

  // The budget counts from here: building, checking and timing all spend it.
  const double started_s = req.search.now_s();
  Enumeration e = enumerate(family, problem, arch);
  out.invalid = e.invalid;
  for (const std::string& s : e.invalid) say("invalid: " + s);
  if (req.shuffle_seed) {
    // Fisher-Yates with the generator's own draws (std::shuffle's use of them is unspecified).
    std::mt19937_64 rng(req.shuffle_seed);
    for (size_t i = e.valid.size(); i > 1; --i) std::swap(e.valid[i - 1], e.valid[rng() % i]);
    say(fmt::format("search order shuffled with seed {}", req.shuffle_seed));
  }
  say(fmt::format("{} valid configurations; building on {} threads", e.valid.size(),
                  req.jobs > 0 ? req.jobs : int(std::max(1u, std::thread::hardware_concurrency()))));
  std::vector<Built> built = build_all(family, e.valid, problem, arch, req.jobs);

  // Build failures are known now; the rest are checked and bound when the search reaches them
  // (check_only: all of them, here).
  std::vector<Prepared> slots;
  std::vector<std::string> labels;
  for (Built& b : built) {
    std::string name = config_str(b.config);
    if (!b.error.empty()) {
      out.failed.push_back(name + ": build failed: " + b.error);
      say("build failed, excluded: " + out.failed.back());
      continue;
    }
    slots.emplace_back().built = std::move(b);
    labels.push_back(name);
  }
  std::mutex log_mutex;  // workers log too
  auto say_locked = [&](const std::string& line) {
    std::lock_guard<std::mutex> lock(log_mutex);
    say(line);
  };
  const int workers = std::max(1, std::min<int>(req.jobs > 0 ? req.jobs : int(std::max(1u, std::thread::hardware_concurrency())),
                                                 int(std::max<size_t>(1, slots.size()))));
  // Checks candidate i on `d` and, unless check_only, binds its full problem there. Throws
  // Error with the reason for a candidate that cannot be timed. Each slot is touched by one
  // thread at a time.
  auto prepare = [&](size_t i, Device& d) -> LaunchSpec {
    Prepared& p = slots[i];
    if (!p.done) {
      p.done = true;
      p.failure = check_reason(*p.built.candidate, d);
      if (p.failure.empty()) {
        p.passed = true;
        say_locked(fmt::format("checked: {} matches the reference; {}", labels[i], p.built.candidate->summary()));
      }
    }
    if (!p.failure.empty()) throw Error(p.failure);
    if (req.check_only) return {};
    try {
      return p.built.candidate->bind(d);
    } catch (const std::exception& ex) {
      p.failure = std::string("binding the full problem failed: ") + ex.what();
    } catch (...) {
      p.failure = "binding the full problem failed: an exception that is not a std::exception";
    }
    throw Error(p.failure);
  };
  auto collect = [&] {  // passed and failed, in enumeration order
    for (size_t i = 0; i < slots.size(); ++i)
      if (slots[i].passed) out.passed.push_back(labels[i]);
  };
  if (req.check_only) {
    for (size_t i = 0; i < slots.size(); ++i) {
      try {
        prepare(i, *dev);
      } catch (const Error&) {
        out.failed.push_back(labels[i] + ": " + slots[i].failure);
        say("check failed, excluded: " + out.failed.back());
      }
    }
    collect();
    return out;
  }
  if (slots.empty())
    throw Error(fmt::format("tune {} [{}]: no configuration built ({} build failures)", family.name(), problem,
                            out.failed.size()));

  std::vector<std::unique_ptr<Device>> worker_devs;
  std::vector<std::unique_ptr<TimingModel>> worker_models;
  std::vector<std::optional<LaunchSpec>> gpu_launches(slots.size());
  std::unique_ptr<TimeSource> src;  // declared last: destroyed (workers joined) before what they use
  if (!on_sim) {
    // One GPU, one launch at a time: candidates are prepared when the search reaches them.
    src = gpu_event_source(*dev, slots.size(), [&](size_t i) -> const LaunchSpec& {
      if (!gpu_launches[i]) gpu_launches[i] = prepare(i, *dev);
      return *gpu_launches[i];
    });
  } else {
    // Modelled times are deterministic: `workers` simulator devices (each with its own model)
    // check and model candidates ahead of the search; a candidate's buffers are freed once it
    // is modelled.
    std::string label = "model " + model->name() + " (modelled)";
    worker_models.push_back(std::move(model));
    worker_devs.push_back(std::move(dev));
    for (int w = 1; w < workers; ++w) {
      worker_devs.push_back(open_device(req.device));
      worker_models.push_back(req.open_model(model_name));
    }
    src = parallel_deterministic_source(TimeKind::modelled, label, slots.size(), workers, [&](size_t i, int w) {
      LaunchSpec l = prepare(i, *worker_devs[size_t(w)]);
      return worker_models[size_t(w)]->modelled_ms(l);
    });
  }
  SearchOptions so = req.search;
  // A model is deterministic: more samples would only repeat the same number.
  if (out.kind == TimeKind::modelled) so.full_samples = 2;
  so.budget_start_s = started_s;
  say(fmt::format("checking and timing {} configurations with {} ({} {}); strategy {}; {}", slots.size(), src->label(),
                  on_sim ? workers : 1, on_sim ? "simulator workers" : "device", strategy_name(so.strategy),
                  so.time_budget_s > 0 ? fmt::format("time budget {:g} s from the start of the tune", so.time_budget_s)
                                       : std::string("no time budget")));
  if (req.search.log)
    so.log = [&](const std::string& l) {
      std::lock_guard<std::mutex> lock(log_mutex);
      req.search.log(l);
    };
  out.search = search(*src, so, labels);
  const std::string src_label = src->label();
  src.reset();  // joins the workers: the slots are final
  collect();
  for (const CandidateRecord& rec : out.search.records)
    if (rec.outcome == Outcome::failed) out.failed.push_back(labels[rec.index] + ": " + rec.reason);
  out.not_searched = slots.size() - out.search.records.size();
  say(fmt::format("search ended ({}): {} of {} configurations searched, {} failed, {} not reached",
                  out.search.ended, out.search.records.size(), slots.size(), out.failed.size(), out.not_searched));
  if (!out.search.best)
    throw Error(fmt::format("tune {} [{}]: no configuration passed its check and was timed ({} failed, {} not reached: {})",
                            family.name(), problem, out.failed.size(), out.not_searched, out.search.ended));
  PerfRecord r;
  r.key = out.key;
  r.source = out.kind;
  r.source_label = src_label;
  r.config = labels[*out.search.best];
  r.time_ms = out.search.best_ms;
  r.samples = out.search.best_samples;
  r.strategy = std::string(strategy_name(so.strategy));
  r.candidates = int(out.search.records.size());
  out.winner = r;
  if (db) {
    try {
      db->store(r);
      say(fmt::format("stored in {}", db->path()));
    } catch (const Error& ex) {
      // Nothing is lost: the record goes to a side file that --import takes.
      out.pending_file = append_pending(req.db_path + ".pending.json", r);
      say(fmt::format("could not store the winner ({}); wrote it to {} (import it with --import)", ex.what(),
                      out.pending_file));
    }
  }
  return out;
}

BuildChoice best_config(const Family& family, const std::string& problem_text, Arch arch, int cus,
                        const std::string& product, const std::string& db_path) {
  std::string problem = family.canonical_problem(problem_text);
  Enumeration e = enumerate(family, problem, arch);
  if (e.valid.empty()) throw Error(fmt::format("{} [{}] on {}: no valid configuration", family.name(), problem, arch_name(arch)));
  BuildChoice c{e.valid.front(), std::nullopt, "untuned (no database record)"};
  if (db_path.empty()) return c;
  PerfDb db(db_path);
  PerfKey key{.arch = std::string(arch_name(arch)),
              .cus = cus > 0 ? cus : default_cus(arch),
              .product = product.empty() ? model::default_product(arch).name : product,  // as run_tune keys it
              .family = family.name(),
              .problem = problem,
              .toolchain = toolchain_version(),
              .project_version = project_version(),
              .build_id = build_id()};
  auto r = db.best_for_build(key);
  if (!r) return c;
  if (std::string why = unusable_config_reason(family, r->config, problem, arch); !why.empty()) {
    c.source = fmt::format("untuned (the stored '{}' is no longer valid: {})", r->config, why);
    return c;
  }
  c.config = parse_config(family.space(), r->config);
  c.source = fmt::format("{}: {} = {:.4f} ms ({})", time_kind_name(r->source), r->config, r->time_ms, r->source_label);
  c.record = r;
  return c;
}

}  // namespace cdnajit::tune
