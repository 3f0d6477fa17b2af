// The performance database: round trip, kinds never mixed, replay refused,
// export/import, concurrent writers (threads and processes), and a corrupt or
// locked file (a clear error, nothing lost).
#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <sqlite3.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <thread>

#include "jit/isa/error.hpp"
#include "runtime/tune/build_id.hpp"
#include "runtime/tune/perf_db.hpp"

using namespace cdnajit;
using namespace cdnajit::tune;
namespace fs = std::filesystem;

namespace {

std::string temp_db(const std::string& name) {
  fs::path dir = fs::temp_directory_path() / ("cdnajit-perfdb-test-" + std::to_string(getpid()));
  fs::create_directories(dir);
  fs::path p = dir / name;
  for (const char* suffix : {"", "-wal", "-shm"}) fs::remove(p.string() + suffix);
  return p.string();
}

PerfKey key(const std::string& problem = "N1 C8 D4 H6 W8 k3x5x5 pad0,2,2") {
  return PerfKey{.arch = "gfx950",
                 .cus = 256,
                 .product = "mi355x",
                 .family = "dwconv3d",
                 .problem = problem,
                 .toolchain = toolchain_version(),
                 .project_version = project_version(),
                 .build_id = build_id()};
}

PerfRecord rec(const PerfKey& k, TimeKind kind, const std::string& config, double ms) {
  PerfRecord r;
  r.key = k;
  r.source = kind;
  r.source_label = kind == TimeKind::modelled ? "model test (modelled)" : "hip:0 hipEvents (gpu-measured)";
  r.config = config;
  r.time_ms = ms;
  r.samples = std::vector<double>(10, ms);
  r.strategy = "two-level";
  r.candidates = 3;
  return r;
}

std::string read_all(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(f), {});
}

}  // namespace

TEST_CASE("perf db: store, find, kinds kept apart, replay refused", "[tune][db]") {
  std::string path = temp_db("basic.db");
  PerfDb db(path);
  CHECK(db.size() == 0);
  CHECK_FALSE(db.best_for_build(key()));
  db.store(rec(key(), TimeKind::modelled, "variant=lds_fmac", 2.0));
  auto b = db.best_for_build(key());
  REQUIRE(b);
  CHECK(b->source == TimeKind::modelled);  // the only one: returned, and labelled as such
  CHECK(b->source_label == "model test (modelled)");
  CHECK_FALSE(db.find(key(), TimeKind::gpu_measured));
  db.store(rec(key(), TimeKind::gpu_measured, "variant=lds_dot2", 0.5));
  b = db.best_for_build(key());
  REQUIRE(b);
  CHECK(b->source == TimeKind::gpu_measured);
  CHECK(b->config == "variant=lds_dot2");
  CHECK(b->samples.size() == 10);
  CHECK_FALSE(b->created_utc.empty());
  CHECK(db.find(key(), TimeKind::modelled)->config == "variant=lds_fmac");
  // Replace on the same (key, kind); another CU count is another key.
  db.store(rec(key(), TimeKind::gpu_measured, "variant=row_interleaved", 0.4));
  CHECK(db.find(key(), TimeKind::gpu_measured)->config == "variant=row_interleaved");
  PerfKey other = key();
  other.cus = 304;
  CHECK_FALSE(db.find(other, TimeKind::gpu_measured));
  CHECK(db.size() == 2);
  CHECK_THROWS_WITH(db.store(rec(key(), TimeKind::replay, "x=1", 1.0)), Catch::Contains("refusing to store a replay result"));
  CHECK_THROWS_WITH(db.store(rec(key(), TimeKind::modelled, "x=1", 0.0)), Catch::Contains("must be > 0"));
  // Persisted: a second connection sees it.
  PerfDb again(path);
  CHECK(again.size() == 2);
}

TEST_CASE("perf db: export and import as JSON", "[tune][db]") {
  PerfDb a(temp_db("export.db"));
  a.store(rec(key("p1"), TimeKind::gpu_measured, "variant=lds_dot2", 0.5));
  a.store(rec(key("p2"), TimeKind::modelled, "variant=lds_fmac", 1.5));
  std::string text = a.export_json();
  CHECK(text.find("\"format\": \"cdnajit-perfdb\"") != std::string::npos);
  PerfDb b(temp_db("import.db"));
  b.store(rec(key("p1"), TimeKind::gpu_measured, "variant=mine", 0.7));
  ImportReport r = b.import_json(text);
  CHECK(r.added == 1);
  CHECK(r.kept_existing == 1);
  CHECK(b.find(key("p1"), TimeKind::gpu_measured)->config == "variant=mine");
  r = b.import_json(text, true);
  CHECK(r.replaced == 2);
  CHECK(b.find(key("p1"), TimeKind::gpu_measured)->config == "variant=lds_dot2");
  CHECK(b.export_json() == text);
  // Malformed input: clear errors, nothing imported (all or nothing).
  PerfDb c(temp_db("bad-import.db"));
  CHECK_THROWS_WITH(c.import_json("{oops"), Catch::Contains("not valid JSON"));
  CHECK_THROWS_WITH(c.import_json("{\"format\": \"other\"}"), Catch::Contains("not a cdnajit performance database export"));
  std::string broken = text;
  broken.replace(broken.find("\"time_ms\""), 9, "\"time_xx\"");
  CHECK_THROWS_WITH(c.import_json(broken), Catch::Contains("record 0 has no field 'time_ms'"));
  std::string replay = text;
  replay.replace(replay.find("\"gpu-measured\""), 14, "\"replay\"");
  CHECK_THROWS_WITH(c.import_json(replay), Catch::Contains("refusing to store a replay result"));
  CHECK(c.size() == 0);
}

TEST_CASE("perf db: concurrent writers in threads and processes", "[tune][db]") {
  std::string path = temp_db("concurrent.db");
  { PerfDb init(path); }
  const int per_writer = 40;
  auto writer = [&](int who) {
    PerfDb db(path);
    for (int i = 0; i < per_writer; ++i) {
      db.store(rec(key(fmt::format("w{}-{}", who, i)), TimeKind::gpu_measured, "variant=lds_dot2", 1.0 + i));
      db.store(rec(key("shared"), TimeKind::gpu_measured, fmt::format("variant=w{}", who), 1.0));  // same row, racing
    }
  };
  std::thread t1(writer, 0), t2(writer, 1);
  t1.join();
  t2.join();
  // Two more writers as separate processes.
  std::vector<pid_t> kids;
  for (int who = 2; who < 4; ++who) {
    pid_t pid = fork();
    if (pid == 0) {
      try {
        writer(who);
        _exit(0);
      } catch (...) {
        _exit(1);
      }
    }
    kids.push_back(pid);
  }
  for (pid_t pid : kids) {
    int status = 0;
    waitpid(pid, &status, 0);
    CHECK(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 0);
  }
  PerfDb db(path);
  CHECK(db.size() == size_t(4 * per_writer + 1));
  for (int who = 0; who < 4; ++who)
    for (int i = 0; i < per_writer; ++i)
      CHECK(db.find(key(fmt::format("w{}-{}", who, i)), TimeKind::gpu_measured)->time_ms == 1.0 + i);
}

TEST_CASE("perf db: a file that is not a database is refused and left untouched", "[tune][db]") {
  std::string path = temp_db("garbage.db");
  { std::ofstream(path) << "this is not a database, but somebody's notes\n"; }
  std::string before = read_all(path);
  CHECK_THROWS_WITH(PerfDb(path), Catch::Contains("garbage.db") && Catch::Contains("not a SQLite database or is corrupt") &&
                                      Catch::Contains("left untouched"));
  CHECK(read_all(path) == before);
  CHECK_FALSE(fs::exists(path + "-wal"));
}

TEST_CASE("perf db: a damaged database is refused and left untouched", "[tune][db]") {
  std::string path = temp_db("damaged.db");
  {
    PerfDb db(path);
    for (int i = 0; i < 200; ++i) db.store(rec(key(fmt::format("p{}", i)), TimeKind::gpu_measured, std::string(200, 'x'), 1.0));
  }  // closing checkpoints the WAL into the file
  std::string bytes = read_all(path);
  REQUIRE(bytes.size() > 4 * 4096);
  // Overwrite a b-tree page in the middle with garbage.
  for (size_t i = 2 * 4096; i < 3 * 4096; ++i) bytes[i] = char(0xA5);
  { std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes; }
  CHECK_THROWS_WITH(PerfDb(path), Catch::Contains("damaged.db") &&
                                      (Catch::Contains("quick_check reports damage") || Catch::Contains("corrupt")));
  CHECK(read_all(path) == bytes);
}

TEST_CASE("perf db: a locked database gives a clear error and loses nothing", "[tune][db]") {
  std::string path = temp_db("locked.db");
  PerfDb db(path, /*busy_timeout_ms=*/100);
  db.store(rec(key("kept"), TimeKind::gpu_measured, "variant=lds_fmac", 1.0));
  // Another process-like connection holds the write lock.
  sqlite3* other = nullptr;
  REQUIRE(sqlite3_open(path.c_str(), &other) == SQLITE_OK);
  REQUIRE(sqlite3_exec(other, "BEGIN EXCLUSIVE", nullptr, nullptr, nullptr) == SQLITE_OK);
  PerfRecord r = rec(key("new"), TimeKind::gpu_measured, "variant=lds_dot2", 0.5);
  CHECK_THROWS_WITH(db.store(r), Catch::Contains("locked by another process (waited 100 ms)") &&
                                     Catch::Contains("nothing was written"));
  // Readers are not blocked (WAL) and see the old data.
  CHECK(db.find(key("kept"), TimeKind::gpu_measured));
  PerfDb reader(path, 100);  // opening an existing database does not need the write lock
  CHECK(reader.size() == 1);
  REQUIRE(sqlite3_exec(other, "COMMIT", nullptr, nullptr, nullptr) == SQLITE_OK);
  sqlite3_close(other);
  db.store(r);  // the retry succeeds
  CHECK(db.size() == 2);
  CHECK(db.find(key("kept"), TimeKind::gpu_measured)->config == "variant=lds_fmac");
}

// Schema 1 keyed winners by arch, CUs, family, problem, toolchain and version only: a winner of an
// older build or another product of the same arch and CU count was reused. Such a file is refused
// with what to do, and left as it was.
TEST_CASE("perf db: a schema-1 database (no product, no build id in its keys) is refused, untouched", "[tune][db]") {
  std::string p = temp_db("schema1.db");
  {
    sqlite3* raw = nullptr;
    REQUIRE(sqlite3_open(p.c_str(), &raw) == SQLITE_OK);
    const char* v1 =
        "CREATE TABLE winners (arch TEXT NOT NULL, cus INTEGER NOT NULL, family TEXT NOT NULL, problem TEXT NOT NULL, "
        "toolchain TEXT NOT NULL, project_version TEXT NOT NULL, source TEXT NOT NULL, source_label TEXT NOT NULL, "
        "config TEXT NOT NULL, time_ms REAL NOT NULL, samples TEXT NOT NULL, strategy TEXT NOT NULL, "
        "candidates INTEGER NOT NULL, created_utc TEXT NOT NULL, PRIMARY KEY (arch, cus, family, problem, toolchain, "
        "project_version, source));"
        "INSERT INTO winners VALUES ('gfx950', 256, 'dwconv3d', 'p', 't', 'v', 'modelled', 'm', 'variant=lds_fmac', "
        "1.0, '[1.0]', 'two-level', 1, '');"
        "PRAGMA user_version = 1;";
    REQUIRE(sqlite3_exec(raw, v1, nullptr, nullptr, nullptr) == SQLITE_OK);
    sqlite3_close(raw);
  }
  const auto before = fs::file_size(p);
  REQUIRE_THROWS_WITH(PerfDb(p), Catch::Contains("schema version 1") && Catch::Contains("no product and no build id") &&
                                     Catch::Contains("move it aside and tune again"));
  CHECK(fs::file_size(p) == before);
}
