// A list that keeps its first N elements inside the object and moves to the heap only
// beyond that. An instruction's register accesses (regs.hpp) are a handful of entries, and
// one std::vector per kind of access cost a heap allocation (and a free) for each list of
// every instruction, in each pass that works the accesses out: a large share of the pass
// time on a ~600-instruction kernel.
#pragma once
#include <array>
#include <cstddef>
#include <vector>

namespace cdnajit::passes {

template <class T, size_t N>
class InlineList {
 public:
  void push_back(const T& v) {
    if (heap_.empty()) {
      if (size_ < N) {
        inline_[size_++] = v;
        return;
      }
      heap_.assign(inline_.begin(), inline_.end());  // full: continue on the heap
    }
    heap_.push_back(v);
    ++size_;
  }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  const T* begin() const { return heap_.empty() ? inline_.data() : heap_.data(); }
  const T* end() const { return begin() + size_; }
  const T& operator[](size_t i) const { return begin()[i]; }

 private:
  std::array<T, N> inline_{};
  std::vector<T> heap_;  // all elements once there are more than N
  size_t size_ = 0;
};

}  // namespace cdnajit::passes
