// DigestedList<T>: the list of a Kernel's recorded entries (instructions, register
// declarations), each with a 128-bit digest of its own fields kept in a contiguous
// array beside it. The digest is computed when an entry is added and again whenever
// one is changed, and only this class hands out writable entries — through modify(),
// which recomputes the digest afterwards. So the build memo's key (jit/program_hash.hpp)
// is one hash over the digest arrays instead of a walk over every field of every
// entry, and it cannot miss a change: there is no other way to change an entry.
#pragma once
#include <cstddef>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "jit/isa/error.hpp"

namespace cdnajit {

struct ProgramHash {
  uint64_t a = 0, b = 0;
  bool operator==(const ProgramHash&) const = default;
};

// `digest_of(const T&)` (found by argument-dependent lookup) gives an entry's digest.
template <class T>
class DigestedList {
 public:
  using const_iterator = typename std::vector<T>::const_iterator;
  using const_reverse_iterator = typename std::vector<T>::const_reverse_iterator;

  void push_back(T&& v) {
    const ProgramHash d = digest_of(v);
    digests_.push_back(d);
    try {
      items_.push_back(std::move(v));
    } catch (...) {
      digests_.pop_back();
      throw;
    }
  }

  // Changes entry i through `edit(T&)`, then recomputes its digest.
  template <class Edit>
  void modify(size_t i, Edit&& edit) {
    if (i >= items_.size()) throw Error("internal: DigestedList::modify() index out of range");
    edit(items_[i]);
    digests_[i] = digest_of(items_[i]);
  }

  // Reorders entries [first, first + from.size()): the entry at first + j becomes the one
  // that was at from[j]. `from` must be a permutation of that range. Digests travel along.
  void permute(size_t first, std::span<const size_t> from) {
    const size_t n = from.size();
    if (first + n > items_.size()) throw Error("internal: DigestedList::permute() range out of bounds");
    std::vector<bool> seen(n, false);
    for (size_t f : from) {
      if (f < first || f >= first + n || seen[f - first])
        throw Error("internal: DigestedList::permute() given a list that is not a permutation of its range");
      seen[f - first] = true;
    }
    std::vector<T> items;
    std::vector<ProgramHash> digests;
    items.reserve(n), digests.reserve(n);
    for (size_t f : from) items.push_back(std::move(items_[f])), digests.push_back(digests_[f]);
    for (size_t j = 0; j < n; ++j) items_[first + j] = std::move(items[j]), digests_[first + j] = digests[j];
  }

  // Empties the list and keeps its storage; swap() hands storage between lists.
  void clear() {
    items_.clear();
    digests_.clear();
  }
  size_t capacity() const { return items_.capacity(); }
  void swap(DigestedList& other) noexcept {
    items_.swap(other.items_);
    digests_.swap(other.digests_);
  }

  const T& operator[](size_t i) const { return items_[i]; }
  const T& at(size_t i) const { return items_.at(i); }
  const T& back() const { return items_.back(); }
  size_t size() const { return items_.size(); }
  bool empty() const { return items_.empty(); }
  const_iterator begin() const { return items_.begin(); }
  const_iterator end() const { return items_.end(); }
  const_reverse_iterator rbegin() const { return items_.rbegin(); }
  const_reverse_iterator rend() const { return items_.rend(); }
  std::span<const ProgramHash> digests() const { return digests_; }

 private:
  std::vector<T> items_;
  std::vector<ProgramHash> digests_;  // digests_[i] = digest_of(items_[i]), always
};

}  // namespace cdnajit
