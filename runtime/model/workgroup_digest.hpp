// Workgroups that replay alike on the CU model, compared by a digest of their recorded streams
// (the in-kernel clocks' share grouping and prediction, clock_reads.hpp).
//
// CUs with equal shares replay alike. Two workgroups replay alike on the CU model when their waves
// execute the same instructions with the same EXEC populations, branch outcomes and LDS addresses,
// and their global accesses cover the same lines up to their names: the model's global timing reads
// of an access only the lines it covers (how many, and the level the memory hierarchy serves each
// from, which follows from the order the workgroup touches them), not where the lines are or where
// in its line each lane's access lies. So an access's global addresses are taken as the lines it
// covers, in ascending order as the memory hierarchy's model takes them, each numbered in order of
// the workgroup's first touch. A CU model whose timing depends on absolute global addresses (or on
// offsets in a line) must set ModelOptions::clock_share_equal_cus = false.
// Workgroups are compared by a 128-bit digest of that sequence (two independent 64-bit hashes), which
// lets every workgroup be digested once, on the host's threads, without keeping the sequences.
#pragma once
#include <bit>
#include <compare>
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "runtime/sim/record.hpp"

namespace cdnajit::model {

struct WorkgroupDigest {
  uint64_t a = 1469598103934665603ull, b = 0x243f6a8885a308d3ull;
  void add(uint64_t v) {
    a = (a ^ v) * 1099511628211ull;                                     // FNV-1a over 64-bit words
    b = std::rotl(b + v * 0x9e3779b97f4a7c15ull, 27) * 0xff51afd7ed558ccdull;  // a multiply-rotate hash
  }
  auto operator<=>(const WorkgroupDigest&) const = default;
};

// The digest of the workgroup whose waves start at rec.waves[first_wave] (`line`: the cache line size).
WorkgroupDigest digest_workgroup(const sim::Recording& rec, size_t first_wave, uint64_t line);

// The digests of each share's workgroups in order (a share: workgroup ids, each in rec.workgroups at
// position pos.at(id)), the shares on the host's threads.
std::vector<std::vector<WorkgroupDigest>> share_digests(const sim::Recording& rec, const std::vector<std::vector<uint64_t>>& shares,
                                                        const std::unordered_map<uint64_t, size_t>& pos, uint64_t line);

}  // namespace cdnajit::model
