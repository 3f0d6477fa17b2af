#include <catch2/catch.hpp>

#include <sys/stat.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <thread>

#include "jit/asm/code_object_cache.hpp"
#include "jit/asm/temp_dir.hpp"
#include "jit/isa/error.hpp"
#include "test_kernels.hpp"

using namespace cdnajit;

namespace {

std::vector<uint8_t> read_all(const std::filesystem::path& p) { return read_whole_file(p); }

void write_all(const std::filesystem::path& p, const std::vector<uint8_t>& b) { write_whole_file(p, b); }

}  // namespace

TEST_CASE("cache: keys separate arch, text and toolchain", "[asm][cache]") {
  std::string text = test::scale_kernel_text(Arch::gfx942);
  CacheKey base{Arch::gfx942, text, toolchain_version()};
  CacheKey other_arch{Arch::gfx950, text, toolchain_version()};
  CacheKey other_tool{Arch::gfx942, text, "LLVM 23.0.0"};
  std::string edited = text + "\n";
  CacheKey other_text{Arch::gfx942, edited, toolchain_version()};
  CHECK(base.digest_hex().size() == 64);
  CHECK(base.digest_hex() == CacheKey{Arch::gfx942, text, toolchain_version()}.digest_hex());
  CHECK(base.digest_hex() != other_arch.digest_hex());
  CHECK(base.digest_hex() != other_tool.digest_hex());
  CHECK(base.digest_hex() != other_text.digest_hex());
  // Field boundaries are framed: moving bytes between fields changes the key.
  CHECK(CacheKey{Arch::gfx942, "ab", "c"}.digest_hex() != CacheKey{Arch::gfx942, "b", "ca"}.digest_hex());
  CHECK(toolchain_version().find("22.") != std::string::npos);
}

TEST_CASE("cache: miss builds, hit returns identical bytes from memory and disk", "[asm][cache]") {
  TempDir dir("cdnajit-cache-test");
  std::string text = test::scale_kernel_text(Arch::gfx950);
  CodeObjectCache cache(dir.path());
  bool hit = true;
  AsmTimings t;
  auto built = assemble_and_link_cached(cache, text, Arch::gfx950, &hit, &t);
  CHECK_FALSE(hit);
  REQUIRE_FALSE(built.empty());
  auto path = cache.entry_path({Arch::gfx950, text, toolchain_version()});
  REQUIRE(path);
  CHECK(std::filesystem::exists(*path));

  auto again = assemble_and_link_cached(cache, text, Arch::gfx950, &hit, &t);
  CHECK(hit);
  CHECK(again == built);
  CHECK(t.assemble_ms == 0);
  CHECK(cache.stats().memory_hits == 1);

  // Repeated hits keep answering from memory with the same bytes (speed is measured by tools/bench_jit).
  for (int i = 0; i < 20; ++i) CHECK(assemble_and_link_cached(cache, text, Arch::gfx950, &hit) == built);
  CHECK(cache.stats().memory_hits == 21);

  // A fresh cache on the same directory hits on disk.
  CodeObjectCache fresh(dir.path());
  auto from_disk = assemble_and_link_cached(fresh, text, Arch::gfx950, &hit);
  CHECK(hit);
  CHECK(from_disk == built);
  CHECK(fresh.stats().disk_hits == 1);

  // Other arch: a different entry, not a hit.
  assemble_and_link_cached(fresh, test::scale_kernel_text(Arch::gfx942), Arch::gfx942, &hit);
  CHECK_FALSE(hit);
  size_t entries = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir.path())) entries += e.path().extension() == ".co";
  CHECK(entries == 2);
}

TEST_CASE("cache: corrupted or truncated disk entries are discarded and rebuilt", "[asm][cache]") {
  TempDir dir("cdnajit-cache-test");
  std::string text = test::scale_kernel_text(Arch::gfx942);
  CacheKey key{Arch::gfx942, text, toolchain_version()};
  std::vector<uint8_t> good;
  {
    CodeObjectCache cache(dir.path());
    good = assemble_and_link_cached(cache, text, Arch::gfx942);
  }
  auto path = *CodeObjectCache(dir.path()).entry_path(key);
  const auto pristine = read_all(path);
  REQUIRE(pristine.size() > 88 + good.size() - 1);

  struct Damage {
    const char* what;
    std::function<void(std::vector<uint8_t>&)> apply;
  };
  std::vector<Damage> damages = {
      {"flip a payload byte", [](auto& b) { b[b.size() / 2 + 44] ^= 0x5a; }},
      {"flip the last byte", [](auto& b) { b.back() ^= 1; }},
      {"flip a magic byte", [](auto& b) { b[0] ^= 0xff; }},
      {"flip a key digest byte", [](auto& b) { b[20] ^= 0x01; }},
      {"truncate the payload", [](auto& b) { b.resize(b.size() - 100); }},
      {"truncate into the header", [](auto& b) { b.resize(40); }},
      {"empty file", [](auto& b) { b.clear(); }},
      {"append junk", [](auto& b) { b.push_back(0); }},
  };
  for (const auto& d : damages) {
    CAPTURE(d.what);
    auto bytes = pristine;
    d.apply(bytes);
    write_all(path, bytes);
    CodeObjectCache cache(dir.path());  // empty memory: must consult the disk
    CHECK_FALSE(cache.get(key).has_value());
    CHECK(cache.stats().corrupt_entries_discarded == 1);
    CHECK_FALSE(std::filesystem::exists(path));
    bool hit = true;
    auto rebuilt = assemble_and_link_cached(cache, text, Arch::gfx942, &hit);
    CHECK_FALSE(hit);
    CHECK(rebuilt == good);
    CHECK(read_all(path) == pristine);
  }
}

TEST_CASE("cache: assembly errors throw with formatted diagnostics and are not cached", "[asm][cache]") {
  TempDir dir("cdnajit-cache-test");
  CodeObjectCache cache(dir.path());
  std::string text = "\t.text\n\ts_nop 0\n\tv_dot2_f32_bf16 v0, v1, v2, v3\n\ts_endpgm\n";
  try {
    assemble_and_link_cached(cache, text, Arch::gfx942);
    FAIL("expected cdnajit::Error");
  } catch (const Error& e) {
    std::string m = e.what();
    CHECK(m.find("gfx942") != std::string::npos);
    CHECK(m.find("line 3:") != std::string::npos);
    CHECK(m.find("v_dot2_f32_bf16 v0, v1, v2, v3") != std::string::npos);
  }
  CHECK(std::filesystem::is_empty(dir.path()));
  CHECK_NOTHROW(assemble_and_link_cached(cache, text, Arch::gfx950));
}

TEST_CASE("cache: memory-only cache and default directory resolution", "[asm][cache]") {
  CodeObjectCache memory_only(std::nullopt);
  std::string text = test::scale_kernel_text(Arch::gfx942);
  CacheKey key{Arch::gfx942, text, toolchain_version()};
  CHECK_FALSE(memory_only.get(key));
  std::vector<uint8_t> blob{1, 2, 3};
  memory_only.put(key, blob);
  CHECK(memory_only.get(key) == blob);
  CHECK_FALSE(memory_only.entry_path(key));
  memory_only.clear_memory();
  CHECK_FALSE(memory_only.get(key));

  auto dir = CodeObjectCache::default_cache_dir();
  if (const char* env = std::getenv("CDNAJIT_CACHE_DIR"); env && *env) {
    REQUIRE(dir);
    CHECK(*dir == std::filesystem::path(env));
  }
}

TEST_CASE("cache: concurrent builds through one cache agree", "[asm][cache]") {
  TempDir dir("cdnajit-cache-test");
  CodeObjectCache cache(dir.path());
  std::vector<std::vector<uint8_t>> results(4);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      Arch arch = t % 2 ? Arch::gfx950 : Arch::gfx942;
      for (int i = 0; i < 5; ++i) results[t] = assemble_and_link_cached(cache, test::scale_kernel_text(arch), arch);
    });
  for (auto& th : threads) th.join();
  CHECK(results[0] == results[2]);
  CHECK(results[1] == results[3]);
  CHECK(results[0] != results[1]);
  // Every lookup is answered once. A thread that missed in memory can find the entry on disk that
  // another thread wrote meanwhile (get() reads the disk outside the lock), so disk hits count too.
  const auto st = cache.stats();
  CHECK(st.memory_hits + st.disk_hits + st.misses == 20);
  CHECK(st.misses >= 2);  // each arch's first lookup
}

TEST_CASE("cache: a FIFO or a directory at an entry path is replaced, never read or fatal", "[asm][cache]") {
  TempDir dir("cdnajit-cache-test");
  std::string text = test::scale_kernel_text(Arch::gfx942);
  CacheKey key{Arch::gfx942, text, toolchain_version()};
  auto path = *CodeObjectCache(dir.path()).entry_path(key);
  std::filesystem::create_directories(dir.path());
  struct Squatter {
    const char* what;
    std::function<void()> make;
  };
  std::vector<Squatter> squatters = {
      // A blocking open of a FIFO for reading would wait forever for a writer.
      {"a FIFO", [&] { REQUIRE(mkfifo(path.c_str(), 0600) == 0); }},
      {"an empty directory", [&] { std::filesystem::create_directory(path); }},
      {"a directory with a file in it",
       [&] {
         std::filesystem::create_directory(path);
         write_all(path / "x", {1, 2, 3});
       }},
  };
  for (const auto& s : squatters) {
    CAPTURE(s.what);
    s.make();
    CodeObjectCache cache(dir.path());
    bool hit = true;
    auto built = assemble_and_link_cached(cache, text, Arch::gfx942, &hit);
    CHECK_FALSE(hit);
    CHECK(cache.stats().corrupt_entries_discarded == 1);
    CHECK(std::filesystem::is_regular_file(path));
    CodeObjectCache again(dir.path());  // the replaced entry is a real one now
    CHECK(again.get(key) == std::optional(built));
    std::filesystem::remove(path);
  }
}
