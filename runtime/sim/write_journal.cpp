// Saves the pages a launch writes before their first write (write_journal.hpp).
#include "runtime/sim/write_journal.hpp"

#include <algorithm>
#include <cstring>
#include <thread>

#include "runtime/sim/simulator.hpp"

namespace cdnajit::sim {

WriteJournal::WriteJournal(Memory& m) {
  for (auto [base, size] : m.allocations()) {
    Alloc a;
    a.base = base;
    a.size = size;
    a.data = m.find(base, size)->data.get();
    const uint64_t pages = (size + kPage - 1) / kPage;
    a.state.reset(new std::atomic<uint8_t>[pages]());
    a.saved.reset(new uint8_t[size]);  // not written: its pages are mapped when a page is saved
    allocs_.push_back(std::move(a));
  }
  std::sort(allocs_.begin(), allocs_.end(), [](const Alloc& x, const Alloc& y) { return x.base < y.base; });
}

void WriteJournal::save(Alloc& a, uint64_t page) {
  std::atomic<uint8_t>& s = a.state[page];
  if (s.load(std::memory_order_acquire) == 2) return;
  uint8_t expected = 0;
  if (s.compare_exchange_strong(expected, 1, std::memory_order_acq_rel)) {
    const uint64_t off = page * kPage;
    std::memcpy(a.saved.get() + off, a.data + off, std::min(kPage, a.size - off));
    s.store(2, std::memory_order_release);
    return;
  }
  while (s.load(std::memory_order_acquire) != 2) std::this_thread::yield();  // another thread is saving it
}

void WriteJournal::before_write(uint64_t addr, uint64_t n) {
  if (!n) return;
  auto it = std::upper_bound(allocs_.begin(), allocs_.end(), addr, [](uint64_t v, const Alloc& a) { return v < a.base; });
  if (it == allocs_.begin()) return;
  Alloc& a = *--it;
  if (addr - a.base >= a.size) return;  // not an allocation of the journal
  const uint64_t lo = addr - a.base, hi = std::min(a.size, lo + n);
  for (uint64_t p = lo / kPage; p <= (hi - 1) / kPage; ++p) save(a, p);
}

void WriteJournal::restore(Memory& m) const {
  for (const Alloc& a : allocs_) {
    const Memory::Block* b = m.find(a.base, a.size);
    if (!b || b->base != a.base || b->data.get() != a.data)
      throw Error("simulator: an allocation changed between the runs of a launch (write journal)");
    for (uint64_t p = 0, pages = (a.size + kPage - 1) / kPage; p < pages; ++p)
      if (a.state[p].load(std::memory_order_relaxed) == 2) {
        const uint64_t off = p * kPage;
        std::memcpy(a.data + off, a.saved.get() + off, std::min(kPage, a.size - off));
      }
  }
}

uint64_t WriteJournal::saved_pages() const {
  uint64_t n = 0;
  for (const Alloc& a : allocs_)
    for (uint64_t p = 0, pages = (a.size + kPage - 1) / kPage; p < pages; ++p) n += a.state[p].load(std::memory_order_relaxed) == 2;
  return n;
}

}  // namespace cdnajit::sim
