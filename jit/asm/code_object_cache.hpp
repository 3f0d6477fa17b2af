// Content-addressed cache of linked code objects. The key is everything that
// determines the bytes: arch, the exact assembly text and the toolchain
// version (LLVM/lld versions and our link options). Entries live in memory
// and on disk; a disk entry carries a header with its key digest and a
// payload checksum, so a truncated or corrupted file is detected, deleted and
// rebuilt, never trusted.
#pragma once
#include <array>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "jit/isa/isa.hpp"

namespace cdnajit {

// "cdnajit-asm/1 LLVM 22.1.8 LLD 22.1.8 code-object-v5 ld.lld -shared": changes
// whenever the produced bytes could change for the same input.
const std::string& toolchain_version();

// A non-owning view of one cache key.
struct CacheKey {
  Arch arch;
  std::string_view asm_text;
  std::string_view toolchain;  // normally toolchain_version()

  // SHA-256 (lower-case hex, 64 chars) over an unambiguous framing of all fields.
  std::string digest_hex() const;
};

// Where time went in one assemble_and_link_cached call (milliseconds).
struct AsmTimings {
  double lookup_ms = 0;    // memory + disk lookup
  double assemble_ms = 0;  // 0 on a hit
  double link_ms = 0;      // 0 on a hit
  double store_ms = 0;     // memory + disk store after a miss
  double total_ms = 0;
};

class CodeObjectCache {
 public:
  struct Stats {
    uint64_t memory_hits = 0;
    uint64_t disk_hits = 0;
    uint64_t misses = 0;
    uint64_t corrupt_entries_discarded = 0;  // bad header/length/checksum on disk
    uint64_t disk_write_failures = 0;        // the cache still works from memory
  };

  // disk_dir nullopt: memory only. The directory is created on first store.
  explicit CodeObjectCache(std::optional<std::filesystem::path> disk_dir);

  // The process-wide cache, on disk in default_cache_dir().
  static CodeObjectCache& global();
  // $CDNAJIT_CACHE_DIR, else $XDG_CACHE_HOME/cdnajit, else ~/.cache/cdnajit
  // (nullopt if none of these can be determined).
  static std::optional<std::filesystem::path> default_cache_dir();

  std::optional<std::vector<uint8_t>> get(const CacheKey& key);
  void put(const CacheKey& key, std::span<const uint8_t> code_object);

  // File that holds (or would hold) the key's disk entry; nullopt if memory only.
  std::optional<std::filesystem::path> entry_path(const CacheKey& key) const;
  const std::optional<std::filesystem::path>& disk_dir() const { return disk_dir_; }
  void clear_memory();
  Stats stats() const;

 private:
  using Blob = std::shared_ptr<const std::vector<uint8_t>>;
  using Digest = std::array<uint8_t, 32>;
  std::optional<std::vector<uint8_t>> read_disk(const Digest& digest);
  bool write_disk(const Digest& digest, std::span<const uint8_t> code_object);
  void remember(std::string memory_key, Blob blob);

  std::optional<std::filesystem::path> disk_dir_;
  mutable std::mutex mutex_;
  std::unordered_map<std::string, Blob> memory_;  // framed key -> code object
  size_t memory_bytes_ = 0;
  Stats stats_;
};

// assemble() + link_code_object() through `cache`: returns the cached code
// object if present, else builds and stores it. Throws cdnajit::Error with the
// formatted assembler diagnostics (line, column, message, source line) if the
// text does not assemble, or lld's message if it does not link.
std::vector<uint8_t> assemble_and_link_cached(CodeObjectCache& cache, std::string_view asm_text,
                                              Arch arch, bool* cache_hit = nullptr,
                                              AsmTimings* timings = nullptr);
// Same, through CodeObjectCache::global().
std::vector<uint8_t> assemble_and_link_cached(std::string_view asm_text, Arch arch,
                                              bool* cache_hit = nullptr, AsmTimings* timings = nullptr);

}  // namespace cdnajit
