// The original bytes of the device memory a launch writes, saved page by page before the first write
// to each page, so that the memory can be given back as it was before the launch.
//
// The timing model runs a clock-reading kernel more than once from the same initial memory
// (runtime/model/clock_reads.hpp). A copy of every allocation taken before the first run costs a scan,
// a copy and fresh pages for all of the launch's memory (a 16 MiB input: 4096 pages) although the
// usual run writes a small part of it, and is not needed at all when the first run is the last one.
// With Options::write_journal set, every write of a kernel to global memory calls before_write first
// (global_ptr for a store, and the whole-vector store path's lanes_in_one_block: the only two ways a
// kernel's stores, atomics, buffer and scalar stores reach a Memory block), which saves each page it
// touches the first time. restore() copies the saved pages back.
//
// Threads: before_write is called by the simulator's threads at once. A page is saved by the first
// thread to claim it; any other thread writing to it waits until the copy is done, so no write lands
// before its page is saved. Allocations made after the journal (the launch's own kernarg segment,
// written anew by each run) are not journaled.
#pragma once
#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

namespace cdnajit::sim {

class Memory;

class WriteJournal {
 public:
  explicit WriteJournal(Memory& m);  // journals the allocations `m` has now
  // Bytes [addr, addr + n) are about to be written: saves each page of them not saved yet.
  void before_write(uint64_t addr, uint64_t n);
  // Copies every saved page back into `m` (between launches, one thread); pages stay saved, so the
  // journal keeps giving back the memory as it was when it was made.
  void restore(Memory& m) const;
  uint64_t saved_pages() const;

 private:
  static constexpr uint64_t kPage = 4096;
  struct Alloc {
    uint64_t base = 0, size = 0;
    uint8_t* data = nullptr;                           // the allocation's bytes
    std::unique_ptr<std::atomic<uint8_t>[]> state;     // per page: 0 not saved, 1 being saved, 2 saved
    std::unique_ptr<uint8_t[]> saved;                  // the allocation's layout; only saved pages touched
  };
  void save(Alloc& a, uint64_t page);
  std::vector<Alloc> allocs_;  // by base address
};

}  // namespace cdnajit::sim
