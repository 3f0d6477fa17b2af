// Workgroup digests for the in-kernel clocks' share grouping (workgroup_digest.hpp).
#include "runtime/model/workgroup_digest.hpp"

#include <algorithm>

#include "runtime/model/parallel_for.hpp"
#include "runtime/sim/cache_lines.hpp"

namespace cdnajit::model {

namespace {


// Line -> label, an open-addressing table (a workgroup touches a few hundred lines; a node per
// line in a std::unordered_map cost an allocation each). Reused across workgroups.
class LabelTable {
 public:
  void clear() {
    if (keys_.empty()) keys_.resize(1024);
    std::fill(keys_.begin(), keys_.end(), 0);
    vals_.resize(keys_.size());
    size_ = 0;
  }
  // The line's label, or the next one when the line is new.
  uint64_t label(uint64_t line) {
    if (2 * (size_ + 1) > keys_.size()) grow();
    const size_t mask = keys_.size() - 1;
    for (size_t i = size_t(line * 0x9e3779b97f4a7c15ull >> 20) & mask;; i = (i + 1) & mask) {
      if (keys_[i] == line + 1) return vals_[i];
      if (keys_[i] == 0) {
        keys_[i] = line + 1;
        vals_[i] = size_;
        return size_++;
      }
    }
  }

 private:
  void grow() {
    std::vector<uint64_t> keys = std::move(keys_), vals = std::move(vals_);
    keys_.assign(keys.size() * 2, 0);
    vals_.assign(keys_.size(), 0);
    const size_t mask = keys_.size() - 1;
    for (size_t j = 0; j < keys.size(); ++j) {
      if (!keys[j]) continue;
      size_t i = size_t((keys[j] - 1) * 0x9e3779b97f4a7c15ull >> 20) & mask;
      while (keys_[i]) i = (i + 1) & mask;
      keys_[i] = keys[j];
      vals_[i] = vals[j];
    }
  }
  std::vector<uint64_t> keys_, vals_;  // keys_: line + 1, 0 = empty
  uint64_t size_ = 0;
};

// Lines labelled in order of the workgroup's first touch.
class LineLabels {
 public:
  explicit LineLabels(LabelTable& label) : label_(label) { label_.clear(); }
  uint64_t label_of(uint64_t l) {
    if (l != last_line_) {  // neighbouring accesses mostly continue a line
      last_line_ = l;
      last_label_ = label_.label(l);
    }
    return last_label_;
  }

 private:
  LabelTable& label_;
  uint64_t last_line_ = ~uint64_t(0), last_label_ = 0;
};

// The lines an affine step (sim::RecordedStep::affine) covers, as append_cache_lines gives them, without
// visiting its lanes when that is possible: lanes with an address consecutive and a stride of at most
// a line, so that they cover every line from the first lane's to the last lane's end. Else false.
bool affine_lines(const uint64_t* words, int lane_bytes, uint64_t line, std::vector<uint64_t>& out) {
  const uint64_t base = words[0], stride = words[1], mask = words[2];
  if (!mask || stride > line) return false;
  const int f = std::countr_zero(mask), n = std::popcount(mask);
  if ((mask >> f) != (n == 64 ? ~0ull : (1ull << n) - 1)) return false;  // not consecutive lanes
  const uint64_t first = base + uint64_t(f) * stride;
  const uint64_t end = first + uint64_t(n - 1) * stride + uint64_t(std::max(1, lane_bytes)) - 1;  // last byte
  if (end < first) return false;  // wraps
  for (uint64_t l = first / line; l <= end / line; ++l) out.push_back(l);
  return true;
}

// The digest of a workgroup's normalized streams. LDS addresses enter as they are: their affine words
// (sim::affine_addresses) when they have that form, else all of them, so equal addresses give equal
// digests whichever way the recording stored them.
WorkgroupDigest digest_with(const sim::Recording& rec, size_t first_wave, uint64_t line,
                            LabelTable& label) {  // line -> order of first touch (reused)
  LineLabels labels(label);
  // Four digests, step i of a wave going to lane i % 4, folded into one at the end: the hashes'
  // multiply chains then overlap instead of waiting on each other step after step.
  WorkgroupDigest lane[4];
  sim::StepAddressBuffer buf;
  uint64_t words[sim::kAffineWords];
  thread_local std::vector<uint64_t> lines;
  for (size_t k = 0; k < rec.waves_per_workgroup; ++k) {
    const sim::RecordedWave& w = rec.waves[first_wave + k];
    lane[0].add(w.steps.size());
    for (size_t i = 0; i < w.steps.size(); ++i) {
      const sim::RecordedStep& st = w.steps[i];
      WorkgroupDigest& d = lane[i & 3];
      d.add(uint64_t(st.op) << 24 | uint64_t(st.active) << 16 | uint64_t(st.taken) << 15 | st.addr_count);
      if (!st.addr_count) continue;
      auto add_addresses = [&](const uint64_t* a, size_t n) {
        if (n == 64 && sim::affine_addresses(a, words)) {
          d.add(1);
          for (uint64_t v : words) d.add(v);
        } else {
          d.add(0);
          for (size_t j = 0; j < n; ++j) d.add(a[j]);
        }
      };
      const uint64_t* stored = w.addrs.data() + st.addr_first;
      if (rec.ops[st.op].unit != isa::Unit::VMEM) {  // LDS addresses as they are
        if (st.affine) {
          d.add(1);
          for (uint32_t j = 0; j < sim::kAffineWords; ++j) d.add(stored[j]);
        } else {
          add_addresses(stored, st.addr_count);
        }
        continue;
      }
      // Global: the labels of the lines the access covers, in the order the memory hierarchy's
      // model takes them (ascending, memory_hierarchy.cpp's lines_of); a run of consecutive labels
      // (a coalesced access) as its first label and length.
      lines.clear();
      const int lane_bytes = rec.ops[st.op].lane_bytes;
      if (!st.affine || !affine_lines(stored, lane_bytes, line, lines))
        sim::append_cache_lines(sim::step_addresses(w, st, buf), lane_bytes, int(line), lines);
      bool run = true;
      for (size_t j = 0; j < lines.size(); ++j) {
        lines[j] = labels.label_of(lines[j]);
        run &= lines[j] == lines[0] + j;
      }
      d.add(lines.size() << 1 | uint64_t(run));
      if (run && !lines.empty()) d.add(lines[0]);
      else
        for (uint64_t l : lines) d.add(l);
    }
    for (WorkgroupDigest& d : lane) d.add(~uint64_t(0));  // wave boundary
  }
  WorkgroupDigest d;
  for (const WorkgroupDigest& l : lane) {
    d.add(l.a);
    d.add(l.b);
  }
  return d;
}

}  // namespace

WorkgroupDigest digest_workgroup(const sim::Recording& rec, size_t first_wave, uint64_t line) {
  thread_local LabelTable label;
  return digest_with(rec, first_wave, line, label);
}

std::vector<std::vector<WorkgroupDigest>> share_digests(const sim::Recording& rec, const std::vector<std::vector<uint64_t>>& shares,
                                                        const std::unordered_map<uint64_t, size_t>& pos, uint64_t line) {
  std::vector<std::vector<WorkgroupDigest>> out(shares.size());
  const size_t wpw = rec.waves_per_workgroup;
  parallel_for(shares.size(), [&](size_t c) {
    for (uint64_t w : shares[c]) out[c].push_back(digest_workgroup(rec, pos.at(w) * wpw, line));
  });
  return out;
}

}  // namespace cdnajit::model
