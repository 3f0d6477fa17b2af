// Simulated global memory: named allocations at 4 GiB-aligned addresses with
// at least 4 GiB of unmapped guard space between them.
#include "runtime/sim/sim_internal.hpp"

namespace cdnajit::sim {

namespace {
constexpr uint64_t kGuardBytes = uint64_t(1) << 32;
}

Memory::Memory() = default;
Memory::~Memory() = default;

uint64_t Memory::alloc(size_t bytes, std::string name) {
  if (bytes > (size_t(1) << 40)) throw Error("Memory::alloc: " + std::to_string(bytes) + " bytes is too large");
  Block b;
  b.base = next_;
  b.size = bytes;
  b.name = name.empty() ? "alloc@" + hex(b.base) : std::move(name);
  // calloc, not new[](): a large block comes zeroed from fresh pages, so an allocation
  // costs time and memory only for the bytes the launch touches.
  b.data.reset(static_cast<uint8_t*>(std::calloc(bytes ? bytes : 1, 1)));
  if (!b.data) throw Error("Memory::alloc: " + std::to_string(bytes) + " bytes for '" + b.name + "': out of host memory");
  // The next allocation starts on a 4 GiB boundary at least 4 GiB past this one's end, so
  // an access up to 4 GiB beyond a buffer (any 32-bit byte offset) lands in unmapped space
  // and is reported, never silently read from or written to a neighbour. 2^48 / 2^32 leaves
  // room for 65536 live allocations below the 48-bit addresses buffer resources can hold.
  next_ = ((next_ + bytes + kGuardBytes - 1) & ~(kGuardBytes - 1)) + kGuardBytes;
  if (next_ >= (uint64_t(1) << 48)) throw Error("Memory::alloc: simulated address space (48 bits) exhausted");
  uint64_t base = b.base;
  blocks_.emplace(base, std::move(b));
  return base;
}

uint64_t Memory::alloc_host_visible(size_t bytes, std::string name) {
  // Host memory after the block that no other host-visible block can start in.
  constexpr size_t kHostGuardBytes = 64 * 1024;
  if (bytes > (size_t(1) << 40)) throw Error("Memory::alloc_host_visible: " + std::to_string(bytes) + " bytes is too large");
  Block b;
  b.size = bytes;
  b.data.reset(static_cast<uint8_t*>(std::calloc(bytes + kHostGuardBytes, 1)));
  if (!b.data) throw Error("Memory::alloc_host_visible: " + std::to_string(bytes) + " bytes: out of host memory");
  return insert_host_block(std::move(b), std::move(name), "Memory::alloc_host_visible");
}

uint64_t Memory::register_host(void* host, size_t bytes, std::string name) {
  if (!host || bytes == 0) throw Error("Memory::register_host: a null pointer or 0 bytes");
  Block b;
  b.size = bytes;
  b.data = std::unique_ptr<uint8_t[], Block::FreeBytes>(static_cast<uint8_t*>(host), Block::FreeBytes{false});
  return insert_host_block(std::move(b), std::move(name), "Memory::register_host");
}

uint64_t Memory::insert_host_block(Block b, std::string name, const char* api) {
  b.host_visible = true;
  b.base = reinterpret_cast<uint64_t>(b.data.get());
  b.name = name.empty() ? "host@" + hex(b.base) : std::move(name);
  // Simulated addresses grow from 4 GiB (kGuardBytes) upwards and host heaps live far above
  // (or, in a non-PIE program, below 4 GiB): refuse the rare overlap, and any overlap with a
  // block already there (a host range registered twice).
  auto next = blocks_.lower_bound(b.base);
  if ((b.base + b.size > kGuardBytes && b.base < next_) || b.base >= (uint64_t(1) << 48))
    throw Error(std::string(api) + ": host address " + hex(b.base) + " collides with the simulated address space");
  if ((next != blocks_.end() && next->first < b.base + b.size) ||
      (next != blocks_.begin() && std::prev(next)->second.base + std::prev(next)->second.size > b.base))
    throw Error(std::string(api) + ": host range [" + hex(b.base) + ", +" + std::to_string(b.size) +
                ") overlaps an allocation already there; " + describe_nearest(b.base));
  const uint64_t base = b.base;
  blocks_.emplace(base, std::move(b));
  return base;
}

void Memory::free(uint64_t addr) {
  auto it = blocks_.find(addr);
  if (it == blocks_.end()) throw Error("Memory::free: " + hex(addr) + " is not the base of an allocation; " + describe_nearest(addr));
  // Freeing the newest allocation returns its address range (a launch's kernarg segment is
  // allocated and freed per launch, which would otherwise use up the address space).
  // Host-visible blocks sit above every simulated one and never move next_.
  if (!it->second.host_visible && (std::next(it) == blocks_.end() || std::next(it)->second.host_visible))
    next_ = it->first;
  blocks_.erase(it);
}

const Memory::Block* Memory::find(uint64_t addr, size_t n) const {
  auto it = blocks_.upper_bound(addr);
  if (it == blocks_.begin()) return nullptr;
  --it;
  const Block& b = it->second;
  if (addr - b.base <= b.size && b.size - (addr - b.base) >= n) return &b;
  return nullptr;
}
Memory::Block* Memory::find(uint64_t addr, size_t n) {
  return const_cast<Block*>(static_cast<const Memory*>(this)->find(addr, n));
}

std::string Memory::describe_nearest(uint64_t addr) const {
  const Block* best = nullptr;
  uint64_t dist = ~0ull;
  for (const auto& [base, b] : blocks_) {
    uint64_t d = addr < base ? base - addr : (addr < base + b.size ? 0 : addr - (base + b.size) + 1);
    if (d < dist) { dist = d; best = &b; }
  }
  if (!best) return "no allocations exist";
  std::string rel = addr < best->base ? std::to_string(best->base - addr) + " bytes before it"
                    : addr < best->base + best->size ? "offset " + std::to_string(addr - best->base) + " inside it"
                                                     : std::to_string(addr - best->base - best->size) + " bytes past its end";
  return "nearest allocation '" + best->name + "' [" + hex(best->base) + ", +" + std::to_string(best->size) + "), address is " + rel;
}

void Memory::write(uint64_t addr, const void* src, size_t n) {
  Block* b = find(addr, n);
  if (!b) throw Error("Memory::write of " + std::to_string(n) + " bytes at " + hex(addr) + " is out of bounds; " + describe_nearest(addr));
  if (n) std::memcpy(b->data.get() + (addr - b->base), src, n);
}

void Memory::read(uint64_t addr, void* dst, size_t n) const {
  const Block* b = find(addr, n);
  if (!b) throw Error("Memory::read of " + std::to_string(n) + " bytes at " + hex(addr) + " is out of bounds; " + describe_nearest(addr));
  if (n) std::memcpy(dst, b->data.get() + (addr - b->base), n);
}

std::vector<std::pair<uint64_t, size_t>> Memory::allocations() const {
  std::vector<std::pair<uint64_t, size_t>> out;
  for (const auto& [base, b] : blocks_) out.emplace_back(base, b.size);
  return out;
}

}  // namespace cdnajit::sim
