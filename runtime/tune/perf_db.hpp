// The persistent performance database: the winning configuration of each
// (arch, CU count, product, family, problem, toolchain, project version, build id), per kind of
// time source. A GPU-measured and a modelled winner of the same key are two
// separate rows and every read says which one it returns: they are never
// mixed silently. Replay (synthetic) results are refused.
//
// SQLite (Debian's libsqlite3): WAL journal so readers never block the writer,
// a busy timeout so concurrent tuners wait for each other instead of failing,
// and every write in one BEGIN IMMEDIATE transaction. A file that is not a
// database, is corrupt, or stays locked past the timeout gives a cdnajit::Error
// naming the file and the cause; nothing already stored is touched.
#pragma once
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/tune/time_source.hpp"

struct sqlite3;

namespace cdnajit::tune {

// The database schema and the export format's "version" (2: keys with product and build id).
inline constexpr int kPerfDbVersion = 2;

// The largest CU count a key may hold (--cus and imports are checked against it).
inline constexpr int kMaxCus = 100000;

struct PerfKey {
  std::string arch;             // "gfx950"
  int cus = 0;                  // compute units of the device (1..kMaxCus)
  // What the time is of: the timing model's product for modelled rows ("mi325x"), the device's
  // name for GPU-measured ones. Products of one arch and CU count (MI300X, MI325X) differ in
  // clocks and memory, so a winner of one is not the other's.
  std::string product;
  std::string family;           // "dwconv3d"
  std::string problem;          // the family's canonical problem text
  std::string toolchain;        // "LLVM 22.1.0"
  std::string project_version;  // "cdnajit 0.1.0"
  std::string build_id;         // the generating binary (build_id.hpp): a winner of another build is never reused
  std::string str() const;
  bool operator==(const PerfKey&) const = default;
};

struct PerfRecord {
  PerfKey key;
  TimeKind source = TimeKind::gpu_measured;
  std::string source_label;     // "hip:0 (...) hipEvents (gpu-measured)", "model mi355x (modelled)"
  std::string config;           // "variant=lds_dot2"
  double time_ms = 0;           // mean of the winner's kept samples
  std::vector<double> samples;  // the winner's full sample set
  std::string strategy;         // the early-stop strategy of the search
  int candidates = 0;           // configurations searched
  std::string created_utc;      // ISO 8601; filled by store() when empty
};

// The toolchain and project version this binary was built with (build_id() is in build_id.hpp).
std::string toolchain_version();
std::string project_version();

struct ImportReport {
  int added = 0, replaced = 0, kept_existing = 0;
};

class PerfDb {
 public:
  // Opens or creates the database. Throws Error for a file that is not a
  // SQLite database or fails SQLite's quick_check (the file is left as it
  // is), a newer schema, a schema-1 database (its keys have no product and no
  // build id, so its winners cannot be told from stale ones; the message says
  // to move it aside), or an unwritable location.
  explicit PerfDb(const std::string& path, int busy_timeout_ms = 5000);
  ~PerfDb();
  PerfDb(const PerfDb&) = delete;
  PerfDb& operator=(const PerfDb&) = delete;

  const std::string& path() const { return path_; }
  // The stored winner of `key` timed by `kind`.
  std::optional<PerfRecord> find(const PerfKey& key, TimeKind kind) const;
  // For families at build time: the GPU-measured winner if there is one, else
  // the modelled one (the record's `source` says which).
  std::optional<PerfRecord> best_for_build(const PerfKey& key) const;
  // Inserts or replaces the row of (key, source). Throws Error for a replay
  // record, or when the database stays locked past the busy timeout (nothing
  // is written then; the call can be retried).
  void store(const PerfRecord& r);
  std::vector<PerfRecord> all() const;
  size_t size() const;

  // Text exchange: {"format": "cdnajit-perfdb", "version": 2, "records": [...]}.
  std::string export_json() const;
  // Throws Error when a record is not one this project can use (checked against the family and
  // its configuration space above this library: families/registry.hpp, check_record).
  using RecordCheck = std::function<void(const PerfRecord&)>;
  // Adds the records of `json`; an existing (key, source) row is replaced only
  // when `overwrite`. All or nothing: one transaction. Throws Error naming the
  // record and field for malformed input: a known arch, integers in range (cus 1..kMaxCus,
  // candidates >= 1), finite times > 0, and whatever `check` refuses.
  ImportReport import_json(std::string_view json, bool overwrite = false, const RecordCheck& check = {});

 private:
  void exec(const char* sql, std::string_view what) const;
  [[noreturn]] void fail(std::string_view what, int rc) const;
  std::string path_;
  sqlite3* db_ = nullptr;
  int busy_timeout_ms_;
};

std::string record_to_json(const PerfRecord& r);  // one record, for side files and messages

}  // namespace cdnajit::tune
