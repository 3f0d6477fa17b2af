// The published-measurement points of the model report (tools/published_points): loading
// tools/validation-style folders, clear errors on malformed ones, the per-set statistics and the
// targets, and the repository's own tools/validation folders.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <unistd.h>

#include "jit/isa/error.hpp"
#include "tools/published_points.hpp"

using namespace cdnajit::report;
namespace fs = std::filesystem;

namespace {

struct TempDir {
  fs::path path;
  TempDir() {
    path = fs::temp_directory_path() / ("cdnajit_published_" + std::to_string(::getpid()) + "_" +
                                        std::to_string(reinterpret_cast<uintptr_t>(this)));
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~TempDir() { fs::remove_all(path); }
  void write(const std::string& rel, const std::string& text) const {
    fs::create_directories((path / rel).parent_path());
    std::ofstream(path / rel) << text;
  }
};

const char* kSource = R"("source": {"name": "s", "url": "https://example.org/s", "commit": "0123456789abcdef",
  "files": ["a.cpp", "b.h"], "published_in": "a table", "license_note": "n"})";

std::string point(const std::string& id, const std::string& kind, double published, const std::string& fitted = "false",
                  const std::string& arch = "gfx942") {
  return R"({"id": ")" + id + R"(", "arch": ")" + arch + R"(", "product": "mi300x", "metric": "cycles", "kind": ")" + kind +
         R"(", "published": )" + std::to_string(published) + R"(, "published_where": "table 1", "run": "x", "fitted": )" + fitted + "}";
}

std::string section(const std::vector<PublishedPoint>& pts) {
  std::ostringstream md;
  write_published_section(md, pts, "run_all.sh");
  return md.str();
}

}  // namespace

TEST_CASE("published points: load, classify and compare", "[model][published]") {
  TempDir d;
  d.write("a/points.json", std::string("{") + kSource + R"(, "build": "b", "points": [)" + point("p1", "lds", 100) + "," +
                               point("p2", "lds", 100, "false", "gfx950") + "," + point("p3", "streaming", 200, "\"hbm share\"") +
                               "]}");
  d.write("a/modelled.tsv", "p1\t110\np2\t90\np3\t200\n");
  d.write("b/points.json", std::string("{") + kSource + R"(, "points": [)" + point("q1", "streaming", 100) + "]}");
  // b has no modelled.tsv: its point is listed as not run.
  const auto pts = load_published_points(d.path);
  REQUIRE(pts.size() == 4);
  CHECK(pts[0].folder == "a");
  CHECK(pts[0].files == "a.cpp, b.h");
  CHECK(*pts[0].modelled == Approx(110));
  CHECK(pts[2].fitted == "hbm share");
  CHECK(pts[0].fitted.empty());
  CHECK(!pts[3].modelled);
  const std::string md = section(pts);
  CHECK(md.find("| validation | 3 | 2 | 10.0% | 1.11x (a/p2) |") != std::string::npos);
  CHECK(md.find("| fitted | 1 | 1 | 0.0% | 1.00x (a/p3) |") != std::string::npos);
  // A validation point not run fails the median target; both LDS archs within 20% meet theirs.
  CHECK(md.find("10.0% over 2 of 3 points: **not met**") != std::string::npos);
  CHECK(md.find("2 of 2 points within 20%; worst a/p1 off by 10.0%; both architectures: **met**") != std::string::npos);
  CHECK(md.find("0 of 1 points within 10% (1 not run)") != std::string::npos);
  CHECK(md.find("| `b` | q1 | mi300x (gfx942) | cycles | 100 | table 1 | not run | - | validation |") != std::string::npos);
  CHECK(md.find("Each GEMM size within 20%: no validation points of this kind: **not met**") != std::string::npos);
}

TEST_CASE("published points: LDS points of one arch do not meet the both-architectures target", "[model][published]") {
  TempDir d;
  d.write("a/points.json", std::string("{") + kSource + R"(, "points": [)" + point("p1", "lds", 100) + "]}");
  d.write("a/modelled.tsv", "p1\t101\n");
  const std::string md = section(load_published_points(d.path));
  CHECK(md.find("only gfx942 has LDS points (the target asks for both): **not met**") != std::string::npos);
}

TEST_CASE("published points: rules chosen against a source's points are listed with it", "[model][published]") {
  TempDir d;
  std::string with_rules = kSource;
  with_rules.insert(with_rules.rfind('}'), R"j(, "rules_chosen_against": "switch_x (2 of 2 with it)")j");
  d.write("a/points.json", "{" + with_rules + R"(, "points": [)" + point("p1", "lds", 100) + "]}");
  d.write("a/modelled.tsv", "p1\t101\n");
  d.write("b/points.json", std::string("{") + kSource + R"(, "points": [)" + point("q1", "lds", 100) + "]}");
  d.write("b/modelled.tsv", "q1\t99\n");
  const auto pts = load_published_points(d.path);
  REQUIRE(pts.size() == 2);
  CHECK(pts[0].rules_chosen == "switch_x (2 of 2 with it)");
  CHECK(pts[1].rules_chosen.empty());
  const std::string md = section(pts);
  CHECK(md.find("no independent test of these choices:\n\n- `a`: switch_x (2 of 2 with it)\n") != std::string::npos);
  CHECK(md.find("- `b`:") == std::string::npos);
  // Without any, the paragraph is left out; the points stay validation points either way.
  CHECK(section({pts[1]}).find("Rules chosen") == std::string::npos);
  CHECK(md.find("| validation | 2 | 2 |") != std::string::npos);
}

TEST_CASE("published points: malformed folders are clear errors", "[model][published]") {
  TempDir d;
  auto fails_with = [&](const std::string& json, const std::string& tsv, const std::string& what) {
    d.write("a/points.json", json);
    d.write("a/modelled.tsv", tsv);
    try {
      load_published_points(d.path);
      FAIL("no error for: " << what);
    } catch (const cdnajit::Error& e) {
      INFO(e.what());
      CHECK(std::string(e.what()).find(what) != std::string::npos);
    }
  };
  const std::string ok = std::string("{") + kSource + R"(, "points": [)" + point("p1", "lds", 100) + "]}";
  fails_with("{ not json", "", "not valid JSON");
  fails_with(R"({"points": []})", "", "expected an object with \"source\"");
  fails_with(std::string("{") + kSource + R"(, "points": [{"id": "p1"}]})", "", "field \"arch\" is missing");
  fails_with(std::string("{") + kSource + R"(, "points": [)" + point("p1", "lds", -1) + "]}", "", "\"published\" must be a positive number");
  fails_with(std::string("{") + kSource + R"(, "points": [)" + point("p1", "lds", 1, "true") + "]}", "", "\"fitted\" must be false");
  fails_with(std::string("{") + kSource + R"(, "points": [)" + point("p1", "lds", 1, "false", "gfx90a") + "]}", "", "is not gfx942 or gfx950");
  fails_with(ok, "p2\t5\n", "id 'p2' is not a point of points.json");
  fails_with(ok, "p1\tfast\n", "modelled value 'fast' of 'p1' is not a positive number");
  fails_with(ok, "p1 5\n", "expected 'id<TAB>modelled value'");
  fails_with(ok, "p1\t5\np1\t6\n", "id 'p1' appears twice");
  CHECK_THROWS_AS(load_published_points(d.path / "missing"), cdnajit::Error);
}

TEST_CASE("published points: the repository's tools/validation folders load", "[model][published]") {
  const auto pts = load_published_points(fs::path(CDNAJIT_SOURCE_ROOT) / "tools" / "validation");
  REQUIRE(!pts.empty());
  for (const PublishedPoint& p : pts) {
    INFO(p.folder << "/" << p.id);
    CHECK(p.modelled.has_value());  // every committed point was run
  }
}
