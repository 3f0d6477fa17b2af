#include "jit/asm/code_object_cache.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fstream>

#include "jit/asm/assemble.hpp"
#include "jit/asm/link.hpp"
#include "jit/codeobject/target_id.hpp"
#include "jit/isa/error.hpp"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/SHA256.h"

// lld/Common/Version.h includes a generated Version.inc that Debian's
// liblld-22-dev does not ship; the function itself is in lldCommon.
namespace lld {
std::string getLLDVersion();
}

namespace cdnajit {
namespace {

using Digest = std::array<uint8_t, 32>;

// On-disk entry: fixed little-endian header, then the code object.
//   0  magic "CDNAJCO\0"      8 bytes
//   8  format version         u32
//  12  header size (88)       u32
//  16  key digest (SHA-256)   32 bytes
//  48  payload length         u64
//  56  payload SHA-256        32 bytes
//  88  payload
constexpr char kMagic[8] = {'C', 'D', 'N', 'A', 'J', 'C', 'O', '\0'};
constexpr uint32_t kFormatVersion = 1;
constexpr size_t kHeaderSize = 88;
// Memory side is dropped wholesale past this size: code objects are small,
// so this only matters for processes that build many thousands of kernels.
constexpr size_t kMemoryLimitBytes = size_t(256) << 20;
// A disk entry larger than this is not a code object this cache wrote: discarded unread.
constexpr uint64_t kMaxEntryBytes = uint64_t(256) << 20;

std::string to_hex(const Digest& d) {
  static const char* digits = "0123456789abcdef";
  std::string s;
  for (uint8_t b : d) {
    s += digits[b >> 4];
    s += digits[b & 15];
  }
  return s;
}

Digest sha256(std::span<const uint8_t> bytes) {
  return llvm::SHA256::hash(llvm::ArrayRef<uint8_t>(bytes.data(), bytes.size()));
}

// Fields are separated by their lengths so no two keys frame to the same bytes.
std::string framed_key(const CacheKey& key) {
  std::string s;
  s.reserve(key.asm_text.size() + key.toolchain.size() + 48);
  s += "cdnajit-code-object-key/1\n";
  s += mcpu_name(key.arch);
  s += '\n';
  s += std::to_string(key.toolchain.size()) + ":";
  s += key.toolchain;
  s += std::to_string(key.asm_text.size()) + ":";
  s += key.asm_text;
  return s;
}

Digest key_digest(const CacheKey& key) {
  std::string f = framed_key(key);
  return sha256(std::span(reinterpret_cast<const uint8_t*>(f.data()), f.size()));
}

void put_u32(uint8_t* p, uint32_t v) {
  for (int i = 0; i < 4; ++i) p[i] = uint8_t(v >> (8 * i));
}
void put_u64(uint8_t* p, uint64_t v) {
  for (int i = 0; i < 8; ++i) p[i] = uint8_t(v >> (8 * i));
}
uint32_t get_u32(const uint8_t* p) {
  uint32_t v = 0;
  for (int i = 0; i < 4; ++i) v |= uint32_t(p[i]) << (8 * i);
  return v;
}
uint64_t get_u64(const uint8_t* p) {
  uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v |= uint64_t(p[i]) << (8 * i);
  return v;
}

double ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

const std::string& toolchain_version() {
  static const std::string version = "cdnajit-asm/1 LLVM " LLVM_VERSION_STRING " " +
                                     lld::getLLDVersion() +
                                     " code-object-v5 ld.lld -m elf64_amdgpu --no-undefined -shared";
  return version;
}

std::string CacheKey::digest_hex() const { return to_hex(key_digest(*this)); }

CodeObjectCache::CodeObjectCache(std::optional<std::filesystem::path> disk_dir)
    : disk_dir_(std::move(disk_dir)) {}

std::optional<std::filesystem::path> CodeObjectCache::default_cache_dir() {
  if (const char* d = std::getenv("CDNAJIT_CACHE_DIR"); d && *d) return std::filesystem::path(d);
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x)
    return std::filesystem::path(x) / "cdnajit";
  if (const char* h = std::getenv("HOME"); h && *h)
    return std::filesystem::path(h) / ".cache" / "cdnajit";
  return std::nullopt;
}

CodeObjectCache& CodeObjectCache::global() {
  static CodeObjectCache cache(default_cache_dir());
  return cache;
}

std::optional<std::filesystem::path> CodeObjectCache::entry_path(const CacheKey& key) const {
  if (!disk_dir_) return std::nullopt;
  return *disk_dir_ / (key.digest_hex() + ".co");
}

std::optional<std::vector<uint8_t>> CodeObjectCache::get(const CacheKey& key) {
  std::string memory_key = framed_key(key);
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (auto it = memory_.find(memory_key); it != memory_.end()) {
      ++stats_.memory_hits;
      return *it->second;
    }
  }
  if (disk_dir_) {
    if (auto bytes = read_disk(key_digest(key))) {
      remember(std::move(memory_key), std::make_shared<const std::vector<uint8_t>>(*bytes));
      std::lock_guard<std::mutex> lock(mutex_);
      ++stats_.disk_hits;
      return bytes;
    }
  }
  std::lock_guard<std::mutex> lock(mutex_);
  ++stats_.misses;
  return std::nullopt;
}

void CodeObjectCache::put(const CacheKey& key, std::span<const uint8_t> code_object) {
  std::string memory_key = framed_key(key);
  if (disk_dir_) {
    if (!write_disk(key_digest(key), code_object)) {
      std::lock_guard<std::mutex> lock(mutex_);
      ++stats_.disk_write_failures;
    }
  }
  remember(std::move(memory_key),
           std::make_shared<const std::vector<uint8_t>>(code_object.begin(), code_object.end()));
}

void CodeObjectCache::remember(std::string memory_key, Blob blob) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (memory_bytes_ + blob->size() > kMemoryLimitBytes) {
    memory_.clear();
    memory_bytes_ = 0;
  }
  auto [it, inserted] = memory_.insert_or_assign(std::move(memory_key), blob);
  (void)it;
  if (inserted) memory_bytes_ += blob->size();
}

std::optional<std::vector<uint8_t>> CodeObjectCache::read_disk(const Digest& digest) {
  std::filesystem::path file = *disk_dir_ / (to_hex(digest) + ".co");
  auto discard = [&] {
    // Something else sits at the entry path (a FIFO, a directory, a huge file):
    // remove it so the next put() can store a real entry there.
    std::error_code ignored;
    std::filesystem::remove_all(file, ignored);
    std::lock_guard<std::mutex> lock(mutex_);
    ++stats_.corrupt_entries_discarded;
    return std::nullopt;
  };
  // O_NONBLOCK: opening a FIFO must not wait for a writer; only regular files are read.
  int fd = ::open(file.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ENOENT) return std::nullopt;  // not cached yet
    return discard();
  }
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || uint64_t(st.st_size) > kMaxEntryBytes) {
    ::close(fd);
    return discard();
  }
  std::vector<uint8_t> bytes(size_t(st.st_size));
  size_t got = 0;
  while (got < bytes.size()) {
    ssize_t n = ::read(fd, bytes.data() + got, bytes.size() - got);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    got += size_t(n);
  }
  ::close(fd);
  bytes.resize(got);

  auto valid = [&]() {
    if (bytes.size() < kHeaderSize) return false;
    const uint8_t* h = bytes.data();
    if (std::memcmp(h, kMagic, sizeof kMagic) != 0) return false;
    if (get_u32(h + 8) != kFormatVersion || get_u32(h + 12) != kHeaderSize) return false;
    if (std::memcmp(h + 16, digest.data(), digest.size()) != 0) return false;
    if (get_u64(h + 48) != bytes.size() - kHeaderSize) return false;
    Digest check = sha256(std::span(bytes).subspan(kHeaderSize));
    return std::memcmp(h + 56, check.data(), check.size()) == 0;
  };
  if (!valid()) {
    std::error_code ignored;
    std::filesystem::remove(file, ignored);
    std::lock_guard<std::mutex> lock(mutex_);
    ++stats_.corrupt_entries_discarded;
    return std::nullopt;
  }
  return std::vector<uint8_t>(bytes.begin() + kHeaderSize, bytes.end());
}

bool CodeObjectCache::write_disk(const Digest& digest, std::span<const uint8_t> code_object) {
  static std::atomic<uint64_t> counter{0};
  std::error_code ec;
  std::filesystem::create_directories(*disk_dir_, ec);
  if (ec) return false;

  std::vector<uint8_t> entry(kHeaderSize + code_object.size());
  uint8_t* h = entry.data();
  std::memcpy(h, kMagic, sizeof kMagic);
  put_u32(h + 8, kFormatVersion);
  put_u32(h + 12, kHeaderSize);
  std::memcpy(h + 16, digest.data(), digest.size());
  put_u64(h + 48, code_object.size());
  Digest check = sha256(code_object);
  std::memcpy(h + 56, check.data(), check.size());
  std::memcpy(h + kHeaderSize, code_object.data(), code_object.size());

  // Write beside the final name, then rename: readers see the old entry, no
  // entry or the complete new one, never a partial file.
  const std::string name = to_hex(digest);
  std::filesystem::path final_path = *disk_dir_ / (name + ".co");
  std::filesystem::path temp_path =
      *disk_dir_ / (name + ".tmp." + std::to_string(::getpid()) + "." + std::to_string(counter++));
  {
    std::ofstream f(temp_path, std::ios::binary | std::ios::trunc);
    f.write(reinterpret_cast<const char*>(entry.data()), static_cast<std::streamsize>(entry.size()));
    f.close();
    if (!f) {
      std::filesystem::remove(temp_path, ec);
      return false;
    }
  }
  // A directory at the entry path would make every rename fail: clear it first.
  if (std::filesystem::is_directory(std::filesystem::symlink_status(final_path, ec)))
    std::filesystem::remove_all(final_path, ec);
  std::filesystem::rename(temp_path, final_path, ec);
  if (ec) {
    std::filesystem::remove(temp_path, ec);
    return false;
  }
  return true;
}

void CodeObjectCache::clear_memory() {
  std::lock_guard<std::mutex> lock(mutex_);
  memory_.clear();
  memory_bytes_ = 0;
}

CodeObjectCache::Stats CodeObjectCache::stats() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return stats_;
}

std::vector<uint8_t> assemble_and_link_cached(CodeObjectCache& cache, std::string_view asm_text,
                                              Arch arch, bool* cache_hit, AsmTimings* timings) {
  AsmTimings t;
  auto t_start = std::chrono::steady_clock::now();
  CacheKey key{arch, asm_text, toolchain_version()};
  auto cached = cache.get(key);
  t.lookup_ms = ms_since(t_start);
  if (cache_hit) *cache_hit = cached.has_value();
  if (cached) {
    t.total_ms = ms_since(t_start);
    if (timings) *timings = t;
    return std::move(*cached);
  }

  auto t0 = std::chrono::steady_clock::now();
  AsmResult assembled = assemble(asm_text, arch);
  t.assemble_ms = ms_since(t0);
  if (!assembled.ok)
    throw Error("assembly for " + std::string(mcpu_name(arch)) + " failed:\n" +
                format_diagnostics(assembled.diagnostics));

  t0 = std::chrono::steady_clock::now();
  std::vector<uint8_t> code_object = link_code_object(assembled.object, arch);
  t.link_ms = ms_since(t0);

  t0 = std::chrono::steady_clock::now();
  cache.put(key, code_object);
  t.store_ms = ms_since(t0);
  t.total_ms = ms_since(t_start);
  if (timings) *timings = t;
  return code_object;
}

std::vector<uint8_t> assemble_and_link_cached(std::string_view asm_text, Arch arch, bool* cache_hit,
                                              AsmTimings* timings) {
  return assemble_and_link_cached(CodeObjectCache::global(), asm_text, arch, cache_hit, timings);
}

}  // namespace cdnajit
