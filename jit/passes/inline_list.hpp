// A list that keeps its first N elements inside the object and moves to the heap only
// beyond that. An instruction's register accesses (regs.hpp) are a handful of entries, and
// one std::vector per kind of access cost a heap allocation (and a free) for each list of
// every instruction, in each pass that works the accesses out: a large share of the pass
// time on a ~600-instruction kernel. The object stays small (an overflow pointer, not a
// std::vector): a program's accesses are one contiguous array, and a large one is served by
// mmap with glibc's default thresholds (fresh pages to fault in on every build).
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace cdnajit::passes {

template <class T, size_t N>
class InlineList {
 public:
  InlineList() = default;
  InlineList(const InlineList& o) { append(o); }
  InlineList(InlineList&& o) noexcept : inline_(o.inline_), heap_(std::move(o.heap_)), size_(o.size_) { o.size_ = 0; }
  InlineList& operator=(const InlineList& o) {
    if (this != &o) {
      heap_.reset();
      size_ = 0;
      append(o);
    }
    return *this;
  }
  InlineList& operator=(InlineList&& o) noexcept {
    if (this != &o) {
      inline_ = o.inline_;
      heap_ = std::move(o.heap_);
      size_ = o.size_;
      o.size_ = 0;
    }
    return *this;
  }

  void push_back(const T& v) {
    if (!heap_) {
      if (size_ < N) {
        inline_[size_++] = v;
        return;
      }
      heap_ = std::make_unique<std::vector<T>>(inline_.begin(), inline_.end());  // full: go on on the heap
    }
    heap_->push_back(v);
    ++size_;
  }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  const T* begin() const { return heap_ ? heap_->data() : inline_.data(); }
  const T* end() const { return begin() + size_; }
  const T& operator[](size_t i) const { return begin()[i]; }

 private:
  void append(const InlineList& o) {
    for (const T& v : o) push_back(v);
  }
  std::array<T, N> inline_{};
  std::unique_ptr<std::vector<T>> heap_;  // all elements once there are more than N
  uint32_t size_ = 0;
};

}  // namespace cdnajit::passes
