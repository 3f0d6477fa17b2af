#include "runtime/hip_sim/offload_bundle.hpp"

#include <cstring>

#include "jit/isa/error.hpp"

namespace cdnajit::hip_sim {
namespace {

constexpr size_t kMagicBytes = sizeof(kBundleMagic) - 1;
constexpr uint64_t kMaxEntries = 1024;  // far above any program's architecture count
constexpr uint64_t kMaxIdBytes = 4096;
constexpr char kHipPrefix[] = "hipv4-amdgcn-amd-amdhsa--";
constexpr char kHostId[] = "host-x86_64-unknown-linux-gnu-";

uint64_t read_u64(const uint8_t* p) {
  uint64_t v;
  std::memcpy(&v, p, 8);
  return v;
}

}  // namespace

std::vector<BundleEntry> read_offload_bundle(const uint8_t* data, size_t size) {
  if (!data) throw Error("offload bundle: null pointer");
  if (size >= 4 && std::memcmp(data, "CCOB", 4) == 0)
    throw Error("offload bundle: compressed bundle (CCOB); build without --offload-compress");
  if (size < kMagicBytes + 8 || std::memcmp(data, kBundleMagic, kMagicBytes) != 0)
    throw Error("offload bundle: missing the magic \"__CLANG_OFFLOAD_BUNDLE__\" at the start");
  size_t pos = kMagicBytes;
  auto need = [&](uint64_t n, const char* what) {
    if (n > size || pos > size - n)
      throw Error("offload bundle: truncated " + std::string(what) + " at byte " + std::to_string(pos));
  };
  const uint64_t count = read_u64(data + pos);
  pos += 8;
  if (count == 0 || count > kMaxEntries)
    throw Error("offload bundle: " + std::to_string(count) + " entries; valid is 1.." + std::to_string(kMaxEntries));
  std::vector<BundleEntry> out;
  for (uint64_t i = 0; i < count; ++i) {
    need(24, "entry header");
    const uint64_t offset = read_u64(data + pos), bytes = read_u64(data + pos + 8), id_len = read_u64(data + pos + 16);
    pos += 24;
    if (id_len == 0 || id_len > kMaxIdBytes)
      throw Error("offload bundle: entry " + std::to_string(i) + " id of " + std::to_string(id_len) + " bytes");
    need(id_len, "entry id");
    BundleEntry e;
    e.id.assign(reinterpret_cast<const char*>(data + pos), id_len);
    pos += id_len;
    if (offset > size || bytes > size - offset)
      throw Error("offload bundle: entry '" + e.id + "' [" + std::to_string(offset) + ", +" + std::to_string(bytes) +
                  ") lies outside the bundle");
    e.bytes = std::span<const uint8_t>(data + offset, bytes);
    out.push_back(std::move(e));
  }
  return out;
}

std::string bundle_entry_processor(const std::string& id) {
  const size_t n = sizeof(kHipPrefix) - 1;
  if (id.compare(0, n, kHipPrefix) != 0) return {};
  std::string target = id.substr(n);  // "gfx942:sramecc+:xnack-"
  return target.substr(0, target.find(':'));
}

std::vector<uint8_t> write_offload_bundle(const std::vector<std::pair<std::string, std::vector<uint8_t>>>& code_objects) {
  constexpr uint64_t kAlign = 4096;
  std::vector<std::string> ids{kHostId};
  for (const auto& [proc, co] : code_objects) ids.push_back(kHipPrefix + proc);
  std::vector<uint8_t> out(kMagicBytes);
  std::memcpy(out.data(), kBundleMagic, kMagicBytes);
  auto put_u64 = [&](uint64_t v) {
    out.resize(out.size() + 8);
    std::memcpy(out.data() + out.size() - 8, &v, 8);
  };
  uint64_t header = kMagicBytes + 8;
  for (const auto& id : ids) header += 24 + id.size();
  put_u64(ids.size());
  uint64_t offset = (header + kAlign - 1) / kAlign * kAlign;
  std::vector<uint64_t> offsets;
  for (size_t i = 0; i < ids.size(); ++i) {
    const uint64_t bytes = i == 0 ? 0 : code_objects[i - 1].second.size();
    offsets.push_back(offset);
    put_u64(offset);
    put_u64(bytes);
    put_u64(ids[i].size());
    out.insert(out.end(), ids[i].begin(), ids[i].end());
    offset = (offset + bytes + kAlign - 1) / kAlign * kAlign;
  }
  for (size_t i = 1; i < ids.size(); ++i) {
    const auto& co = code_objects[i - 1].second;
    out.resize(offsets[i], 0);
    out.insert(out.end(), co.begin(), co.end());
  }
  return out;
}

}  // namespace cdnajit::hip_sim
