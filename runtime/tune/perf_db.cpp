#include "runtime/tune/perf_db.hpp"

#include <fmt/format.h>
#include <sqlite3.h>

#include <cmath>
#include <nlohmann/json.hpp>

#include "jit/isa/error.hpp"
#include "runtime/utc_time.hpp"

namespace cdnajit::tune {

using nlohmann::json;

std::string toolchain_version() { return "LLVM " CDNAJIT_LLVM_VERSION; }
std::string project_version() { return "cdnajit " CDNAJIT_VERSION; }

std::string PerfKey::str() const {
  return fmt::format("{} {}CU {} [{}] {} {} {} {}", arch, cus, family, problem, product, toolchain, project_version,
                     build_id);
}

namespace {

// 2: the key gained the product and the build id. A schema-1 file is refused, not migrated: its
// rows have neither, so nothing tells a current winner from one of an older build or another
// product of the same arch and CU count.
constexpr int kSchemaVersion = kPerfDbVersion;

const char* kSchema = R"(
CREATE TABLE IF NOT EXISTS winners (
  arch TEXT NOT NULL, cus INTEGER NOT NULL, product TEXT NOT NULL, family TEXT NOT NULL, problem TEXT NOT NULL,
  toolchain TEXT NOT NULL, project_version TEXT NOT NULL, build_id TEXT NOT NULL,
  source TEXT NOT NULL CHECK (source IN ('gpu-measured', 'modelled')),
  source_label TEXT NOT NULL, config TEXT NOT NULL, time_ms REAL NOT NULL, samples TEXT NOT NULL,
  strategy TEXT NOT NULL, candidates INTEGER NOT NULL, created_utc TEXT NOT NULL,
  PRIMARY KEY (arch, cus, product, family, problem, toolchain, project_version, build_id, source));
)";

// A prepared statement that finalizes itself.
struct Stmt {
  sqlite3_stmt* s = nullptr;
  ~Stmt() { sqlite3_finalize(s); }
};

std::string col_text(sqlite3_stmt* s, int i) {
  const unsigned char* t = sqlite3_column_text(s, i);
  return t ? reinterpret_cast<const char*>(t) : "";
}

json record_json(const PerfRecord& r) {
  return json{{"arch", r.key.arch},
              {"cus", r.key.cus},
              {"product", r.key.product},
              {"family", r.key.family},
              {"problem", r.key.problem},
              {"toolchain", r.key.toolchain},
              {"project_version", r.key.project_version},
              {"build_id", r.key.build_id},
              {"source", std::string(time_kind_name(r.source))},
              {"source_label", r.source_label},
              {"config", r.config},
              {"time_ms", r.time_ms},
              {"samples", r.samples},
              {"strategy", r.strategy},
              {"candidates", r.candidates},
              {"created_utc", r.created_utc}};
}

// A JSON integer in [lo, hi]. nlohmann's get<int>() converts 1e30 or 2^40 without a word
// (1e30 was stored as -2147483648); a float, a string or an integer out of range is refused here
// with the value as written.
int json_int(const json& v, const char* name, int64_t lo, int64_t hi) {
  const std::string range = fmt::format("(valid: an integer {}..{})", lo, hi);
  if (!v.is_number_integer()) throw Error(fmt::format("field '{}' is {}, not an integer {}", name, v.dump(), range));
  const bool fits = v.is_number_unsigned() ? v.get<uint64_t>() <= uint64_t(hi) : v.get<int64_t>() >= lo && v.get<int64_t>() <= hi;
  if (!fits || v.get<int64_t>() < lo) throw Error(fmt::format("field '{}' is {}, out of range {}", name, v.dump(), range));
  return int(v.get<int64_t>());
}

// A JSON number that is finite and > 0 (a time in ms).
double json_time(const json& v, const char* name) {
  if (!v.is_number() || !std::isfinite(v.get<double>()) || !(v.get<double>() > 0))
    throw Error(fmt::format("field '{}' is {} (valid: a finite number of milliseconds > 0)", name, v.dump()));
  return v.get<double>();
}

PerfRecord record_from_json(const json& j, size_t index) {
  auto field = [&](const char* name) -> const json& {
    if (!j.is_object() || !j.contains(name))
      throw Error(fmt::format("perf db import: record {} has no field '{}'", index, name));
    return j.at(name);
  };
  try {
    PerfRecord r;
    r.key.arch = field("arch").get<std::string>();
    if (!parse_arch(r.key.arch)) throw Error(fmt::format("unknown arch '{}' (valid: gfx942, gfx950)", r.key.arch));
    r.key.cus = json_int(field("cus"), "cus", 1, kMaxCus);
    r.key.product = field("product").get<std::string>();
    r.key.family = field("family").get<std::string>();
    r.key.problem = field("problem").get<std::string>();
    r.key.toolchain = field("toolchain").get<std::string>();
    r.key.project_version = field("project_version").get<std::string>();
    r.key.build_id = field("build_id").get<std::string>();
    r.source = parse_time_kind(field("source").get<std::string>());
    r.source_label = field("source_label").get<std::string>();
    r.config = field("config").get<std::string>();
    r.time_ms = json_time(field("time_ms"), "time_ms");
    const json& samples = field("samples");
    if (!samples.is_array()) throw Error(fmt::format("field 'samples' is {}, not an array of times", samples.dump()));
    for (const json& x : samples) r.samples.push_back(json_time(x, "samples"));
    r.strategy = field("strategy").get<std::string>();
    r.candidates = json_int(field("candidates"), "candidates", 1, INT32_MAX);
    r.created_utc = field("created_utc").get<std::string>();
    return r;
  } catch (const json::exception& e) {
    throw Error(fmt::format("perf db import: record {}: {}", index, e.what()));
  } catch (const Error& e) {
    throw Error(fmt::format("perf db import: record {}: {}", index, e.what()));
  }
}

}  // namespace

std::string record_to_json(const PerfRecord& r) { return record_json(r).dump(2); }

[[noreturn]] void PerfDb::fail(std::string_view what, int rc) const {
  std::string msg = db_ ? sqlite3_errmsg(db_) : sqlite3_errstr(rc);
  int primary = rc & 0xff;
  if (primary == SQLITE_BUSY || primary == SQLITE_LOCKED)
    throw Error(fmt::format("performance database {}: {} failed: the database is locked by another process "
                            "(waited {} ms); nothing was written, retry when the other tuner is done",
                            path_, what, busy_timeout_ms_));
  if (primary == SQLITE_NOTADB || primary == SQLITE_CORRUPT)
    throw Error(fmt::format("performance database {}: {} failed: the file is not a SQLite database or is "
                            "corrupt (sqlite: {}); it was left untouched: move it aside (or restore an export "
                            "with --import) and tune again",
                            path_, what, msg));
  throw Error(fmt::format("performance database {}: {} failed (sqlite: {})", path_, what, msg));
}

void PerfDb::exec(const char* sql, std::string_view what) const {
  char* err = nullptr;
  int rc = sqlite3_exec(db_, sql, nullptr, nullptr, &err);
  sqlite3_free(err);
  if (rc != SQLITE_OK) fail(what, rc);
}

PerfDb::PerfDb(const std::string& path, int busy_timeout_ms) : path_(path), busy_timeout_ms_(busy_timeout_ms) {
  int rc = sqlite3_open_v2(path.c_str(), &db_, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX,
                           nullptr);
  try {
    if (rc != SQLITE_OK) fail("open", rc);
    sqlite3_busy_timeout(db_, busy_timeout_ms);
    // Reading the header first: a non-database file fails here, before any write.
    exec("PRAGMA schema_version", "reading the header");
    {
      Stmt check;  // finalized at the end of the block: an open statement would hold a read transaction
      rc = sqlite3_prepare_v2(db_, "PRAGMA quick_check", -1, &check.s, nullptr);
      if (rc != SQLITE_OK) fail("quick_check", rc);
      rc = sqlite3_step(check.s);
      if (rc != SQLITE_ROW) fail("quick_check", rc);
      if (std::string ok = col_text(check.s, 0); ok != "ok")
        throw Error(fmt::format("performance database {}: SQLite's quick_check reports damage ({}); the file was "
                                "left untouched: move it aside (or restore an export with --import) and tune again",
                                path_, ok));
    }
    int version = 0;
    {
      Stmt ver;
      sqlite3_prepare_v2(db_, "PRAGMA user_version", -1, &ver.s, nullptr);
      version = sqlite3_step(ver.s) == SQLITE_ROW ? sqlite3_column_int(ver.s, 0) : 0;
    }
    if (version == 1)
      throw Error(fmt::format("performance database {} has schema version 1, whose keys hold no product and no build "
                              "id: its winners cannot be told from those of an older build or of another product "
                              "with the same arch and CU count. It was left untouched: move it aside and tune again",
                              path_));
    if (version > kSchemaVersion)
      throw Error(fmt::format("performance database {} has schema version {}; this cdnajit reads up to {}", path_,
                              version, kSchemaVersion));
    exec("PRAGMA journal_mode=WAL", "switching to WAL");
    // WAL + NORMAL: a crash can lose the last commits on power loss, never corrupt the file.
    exec("PRAGMA synchronous=NORMAL", "setting synchronous=NORMAL");
    // A new file gets its table; an existing one is only read here, so opening
    // never waits for another tuner's write lock.
    if (version < kSchemaVersion) {
      exec("BEGIN IMMEDIATE", "creating the schema");
      try {
        exec(kSchema, "creating the schema");
        exec(fmt::format("PRAGMA user_version = {}", kSchemaVersion).c_str(), "creating the schema");
        exec("COMMIT", "creating the schema");
      } catch (...) {
        sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
        throw;
      }
    }
  } catch (...) {
    sqlite3_close(db_);
    db_ = nullptr;
    throw;
  }
}

PerfDb::~PerfDb() { sqlite3_close(db_); }

std::optional<PerfRecord> PerfDb::find(const PerfKey& key, TimeKind kind) const {
  Stmt st;
  const char* sql =
      "SELECT source_label, config, time_ms, samples, strategy, candidates, created_utc FROM winners WHERE "
      "arch=? AND cus=? AND product=? AND family=? AND problem=? AND toolchain=? AND project_version=? AND build_id=? "
      "AND source=?";
  int rc = sqlite3_prepare_v2(db_, sql, -1, &st.s, nullptr);
  if (rc != SQLITE_OK) fail("lookup", rc);
  std::string kname(time_kind_name(kind));
  sqlite3_bind_text(st.s, 1, key.arch.c_str(), -1, SQLITE_TRANSIENT);
  sqlite3_bind_int(st.s, 2, key.cus);
  sqlite3_bind_text(st.s, 3, key.product.c_str(), -1, SQLITE_TRANSIENT);
  sqlite3_bind_text(st.s, 4, key.family.c_str(), -1, SQLITE_TRANSIENT);
  sqlite3_bind_text(st.s, 5, key.problem.c_str(), -1, SQLITE_TRANSIENT);
  sqlite3_bind_text(st.s, 6, key.toolchain.c_str(), -1, SQLITE_TRANSIENT);
  sqlite3_bind_text(st.s, 7, key.project_version.c_str(), -1, SQLITE_TRANSIENT);
  sqlite3_bind_text(st.s, 8, key.build_id.c_str(), -1, SQLITE_TRANSIENT);
  sqlite3_bind_text(st.s, 9, kname.c_str(), -1, SQLITE_TRANSIENT);
  rc = sqlite3_step(st.s);
  if (rc == SQLITE_DONE) return std::nullopt;
  if (rc != SQLITE_ROW) fail("lookup", rc);
  PerfRecord r;
  r.key = key;
  r.source = kind;
  r.source_label = col_text(st.s, 0);
  r.config = col_text(st.s, 1);
  r.time_ms = sqlite3_column_double(st.s, 2);
  r.samples = json::parse(col_text(st.s, 3)).get<std::vector<double>>();
  r.strategy = col_text(st.s, 4);
  r.candidates = sqlite3_column_int(st.s, 5);
  r.created_utc = col_text(st.s, 6);
  return r;
}

std::optional<PerfRecord> PerfDb::best_for_build(const PerfKey& key) const {
  if (auto r = find(key, TimeKind::gpu_measured)) return r;
  return find(key, TimeKind::modelled);
}

namespace {

void insert_row(sqlite3* db, const PerfRecord& r, bool replace, int& rc_out) {
  Stmt st;
  std::string sql = std::string(replace ? "INSERT OR REPLACE" : "INSERT OR IGNORE") +
                    " INTO winners VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)";
  int rc = sqlite3_prepare_v2(db, sql.c_str(), -1, &st.s, nullptr);
  if (rc != SQLITE_OK) {
    rc_out = rc;
    return;
  }
  std::string kname(time_kind_name(r.source)), samples = json(r.samples).dump();
  std::string created = r.created_utc.empty() ? utc_now("%Y-%m-%dT%H:%M:%SZ") : r.created_utc;
  int i = 1;
  auto text = [&](const std::string& s) { sqlite3_bind_text(st.s, i++, s.c_str(), -1, SQLITE_TRANSIENT); };
  text(r.key.arch);
  sqlite3_bind_int(st.s, i++, r.key.cus);
  text(r.key.product);
  text(r.key.family);
  text(r.key.problem);
  text(r.key.toolchain);
  text(r.key.project_version);
  text(r.key.build_id);
  text(kname);
  text(r.source_label);
  text(r.config);
  sqlite3_bind_double(st.s, i++, r.time_ms);
  text(samples);
  text(r.strategy);
  sqlite3_bind_int(st.s, i++, r.candidates);
  text(created);
  rc_out = sqlite3_step(st.s);
}

void check_storable(const PerfRecord& r) {
  if (r.source == TimeKind::replay)
    throw Error(fmt::format("performance database: refusing to store a replay result for {} (replay times come "
                            "from a noise model, not from a kernel)",
                            r.key.str()));
  if (r.key.arch.empty() || r.key.product.empty() || r.key.family.empty() || r.key.problem.empty() ||
      r.key.build_id.empty() || r.config.empty())
    throw Error(fmt::format("performance database: incomplete record for {} (arch, product, family, problem, build id "
                            "and config are "
                            "required)",
                            r.key.str()));
  if (!(r.time_ms > 0)) throw Error(fmt::format("performance database: time {} ms for {} (must be > 0)", r.time_ms, r.key.str()));
}

}  // namespace

void PerfDb::store(const PerfRecord& r) {
  check_storable(r);
  exec("BEGIN IMMEDIATE", "storing " + r.key.str());
  int rc = SQLITE_OK;
  insert_row(db_, r, true, rc);
  if (rc != SQLITE_DONE) {
    sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
    fail("storing " + r.key.str(), rc);
  }
  exec("COMMIT", "storing " + r.key.str());
}

std::vector<PerfRecord> PerfDb::all() const {
  Stmt st;
  int rc = sqlite3_prepare_v2(db_,
                              "SELECT arch, cus, product, family, problem, toolchain, project_version, build_id, source "
                              "FROM winners ORDER BY family, problem, arch, cus, product, toolchain, project_version, "
                              "build_id, source",
                              -1, &st.s, nullptr);
  if (rc != SQLITE_OK) fail("listing", rc);
  std::vector<std::pair<PerfKey, TimeKind>> keys;
  while ((rc = sqlite3_step(st.s)) == SQLITE_ROW)
    keys.push_back({PerfKey{.arch = col_text(st.s, 0),
                            .cus = sqlite3_column_int(st.s, 1),
                            .product = col_text(st.s, 2),
                            .family = col_text(st.s, 3),
                            .problem = col_text(st.s, 4),
                            .toolchain = col_text(st.s, 5),
                            .project_version = col_text(st.s, 6),
                            .build_id = col_text(st.s, 7)},
                    parse_time_kind(col_text(st.s, 8))});
  if (rc != SQLITE_DONE) fail("listing", rc);
  std::vector<PerfRecord> out;
  for (auto& [k, kind] : keys)
    if (auto r = find(k, kind)) out.push_back(*r);
  return out;
}

size_t PerfDb::size() const {
  Stmt st;
  sqlite3_prepare_v2(db_, "SELECT COUNT(*) FROM winners", -1, &st.s, nullptr);
  int rc = sqlite3_step(st.s);
  if (rc != SQLITE_ROW) fail("counting", rc);
  return size_t(sqlite3_column_int64(st.s, 0));
}

std::string PerfDb::export_json() const {
  json recs = json::array();
  for (const PerfRecord& r : all()) recs.push_back(record_json(r));
  return json{{"format", "cdnajit-perfdb"}, {"version", kSchemaVersion}, {"records", recs}}.dump(2) + "\n";
}

ImportReport PerfDb::import_json(std::string_view text, bool overwrite, const RecordCheck& check) {
  json doc;
  try {
    doc = json::parse(text);
  } catch (const json::parse_error& e) {
    throw Error(fmt::format("perf db import: not valid JSON ({})", e.what()));
  }
  if (!doc.is_object() || doc.value("format", "") != "cdnajit-perfdb")
    throw Error("perf db import: not a cdnajit performance database export (expected \"format\": \"cdnajit-perfdb\")");
  if (doc.value("version", 0) != kSchemaVersion)
    throw Error(fmt::format("perf db import: export version {} (this cdnajit reads version {})", doc.value("version", 0),
                            kSchemaVersion));
  if (!doc.contains("records") || !doc["records"].is_array()) throw Error("perf db import: no \"records\" array");
  std::vector<PerfRecord> recs;
  for (size_t i = 0; i < doc["records"].size(); ++i) {
    recs.push_back(record_from_json(doc["records"][i], i));
    check_storable(recs.back());
    if (check) {
      try {
        check(recs.back());
      } catch (const Error& e) {
        throw Error(fmt::format("perf db import: record {} ({}): {}; nothing was imported", i, recs.back().key.str(), e.what()));
      }
    }
  }
  ImportReport rep;
  exec("BEGIN IMMEDIATE", "importing");
  try {
    for (const PerfRecord& r : recs) {
      bool existed = find(r.key, r.source).has_value();
      int rc = SQLITE_OK;
      insert_row(db_, r, overwrite, rc);
      if (rc != SQLITE_DONE) fail("importing " + r.key.str(), rc);
      if (!existed) ++rep.added;
      else if (overwrite) ++rep.replaced;
      else ++rep.kept_existing;
    }
    exec("COMMIT", "importing");
  } catch (...) {
    sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
    throw;
  }
  return rep;
}

}  // namespace cdnajit::tune
