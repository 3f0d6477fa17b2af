#include "runtime/tune/tuner.hpp"

#include <fmt/format.h>

#include <atomic>
#include <fstream>
#include <mutex>
#include <nlohmann/json.hpp>
#include <thread>

#include "jit/isa/error.hpp"

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
      } catch (const std::exception& e) {
        out[i].error = e.what();
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

// Adds `r` to the export-format file at `path` (created if absent), so a
// winner the database could not take survives for a later --import.
std::string append_pending(const std::string& path, const PerfRecord& r) {
  nlohmann::json doc = {{"format", "cdnajit-perfdb"}, {"version", 1}, {"records", nlohmann::json::array()}};
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
  out.kind = dev->is_simulator() ? TimeKind::modelled : TimeKind::gpu_measured;
  out.key = PerfKey{std::string(arch_name(arch)), req.cus > 0 ? req.cus : default_cus(arch), family.name(), problem,
                    toolchain_version(), project_version()};
  say(fmt::format("tune {} [{}] on {}; key {}", family.name(), problem, dev->name(), out.key.str()));

  std::unique_ptr<PerfDb> db;
  if (!req.db_path.empty() && !req.check_only) {
    db = std::make_unique<PerfDb>(req.db_path, req.db_busy_timeout_ms);
    if (!req.force) {
      if (auto r = db->find(out.key, out.kind)) {
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
  if (out.kind == TimeKind::modelled && !req.check_only) model = req.open_model(req.model);

  Enumeration e = enumerate(family, problem, arch);
  out.invalid = e.invalid;
  for (const std::string& s : e.invalid) say("invalid: " + s);
  say(fmt::format("{} valid configurations; building on {} threads", e.valid.size(),
                  req.jobs > 0 ? req.jobs : int(std::max(1u, std::thread::hardware_concurrency()))));
  std::vector<Built> built = build_all(family, e.valid, problem, arch, req.jobs);

  std::vector<LaunchSpec> launches;
  std::vector<std::string> labels;
  std::vector<Config> timed;
  for (Built& b : built) {
    std::string name = config_str(b.config);
    if (!b.error.empty()) {
      out.failed.push_back(name + ": build failed: " + b.error);
      say("build failed: " + out.failed.back());
      continue;
    }
    std::string why;
    try {
      why = b.candidate->check(*dev);
    } catch (const std::exception& ex) {
      why = std::string("check failed to run: ") + ex.what();
    }
    if (!why.empty()) {
      out.failed.push_back(name + ": wrong result " + why);
      say("check failed, excluded: " + out.failed.back());
      continue;
    }
    say(fmt::format("checked: {} matches the reference; {}", name, b.candidate->summary()));
    out.passed.push_back(name);
    if (req.check_only) continue;
    launches.push_back(b.candidate->bind(*dev));
    labels.push_back(name);
    timed.push_back(b.config);
  }
  if (req.check_only) return out;
  if (launches.empty()) throw Error(fmt::format("tune {} [{}]: no configuration built and passed the check", family.name(), problem));

  std::unique_ptr<TimeSource> src;
  if (out.kind == TimeKind::gpu_measured) {
    std::vector<Launch> calls;
    for (const LaunchSpec& l : launches) calls.push_back(l.as_launch());
    src = gpu_event_source(*dev, std::move(calls));
  } else {
    src = modelled_source(std::move(model), std::move(launches));
  }
  SearchOptions so = req.search;
  // A model is deterministic: more samples would only repeat the same number.
  if (out.kind == TimeKind::modelled) so.full_samples = 2;
  say(fmt::format("timing {} configurations with {}; strategy {}", timed.size(), src->label(),
                  strategy_name(so.strategy)));
  out.search = search(*src, so, labels);
  if (!out.search.best) throw Error("tune: the search ended before any configuration was timed");
  PerfRecord r;
  r.key = out.key;
  r.source = out.kind;
  r.source_label = src->label();
  r.config = labels[*out.search.best];
  r.time_ms = out.search.best_ms;
  r.samples = out.search.best_samples;
  r.strategy = std::string(strategy_name(so.strategy));
  r.candidates = int(timed.size());
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
                        const std::string& db_path) {
  std::string problem = family.canonical_problem(problem_text);
  Enumeration e = enumerate(family, problem, arch);
  if (e.valid.empty()) throw Error(fmt::format("{} [{}] on {}: no valid configuration", family.name(), problem, arch_name(arch)));
  BuildChoice c{e.valid.front(), std::nullopt, "untuned (no database record)"};
  if (db_path.empty()) return c;
  PerfDb db(db_path);
  PerfKey key{std::string(arch_name(arch)), cus > 0 ? cus : default_cus(arch), family.name(), problem,
              toolchain_version(), project_version()};
  auto r = db.best_for_build(key);
  if (!r) return c;
  Config stored;
  try {
    stored = parse_config(family.space(), r->config);
  } catch (const Error& ex) {
    c.source = fmt::format("untuned (the stored '{}' no longer parses: {})", r->config, ex.what());
    return c;
  }
  if (std::string why = family.invalid_reason(stored, problem, arch); !why.empty()) {
    c.source = fmt::format("untuned (the stored '{}' is no longer valid: {})", r->config, why);
    return c;
  }
  c.config = stored;
  c.source = fmt::format("{}: {} = {:.4f} ms ({})", time_kind_name(r->source), r->config, r->time_ms, r->source_label);
  c.record = r;
  return c;
}

}  // namespace cdnajit::tune
