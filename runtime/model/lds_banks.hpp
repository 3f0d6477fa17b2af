// LDS bank conflicts from the real per-lane addresses of one DS instruction.
#pragma once
#include <cstdint>
#include <span>

#include "runtime/model/hardware.hpp"

namespace cdnajit::model {

// Passes one DS instruction needs in the LDS: lanes are taken in groups whose
// data fills the banks once (32 lanes for 4-byte accesses on 32 banks, 16 for
// 8-byte, 8 for 16-byte); a group costs as many passes as the most distinct
// dwords any one bank must deliver (lanes reading the same dword share it, a
// broadcast). `addrs` holds 64 or 128 (two accesses per lane) byte addresses in
// lane order, sim::kNoAddress for inactive lanes. 0 when no lane is active.
// `misaligned_passes_per_byte` > 0: a lane whose 8- or 16-byte access is not naturally aligned
// is served on its own, that many passes per byte it moves (8 per b64 lane at 1); 0: like an
// aligned lane (Hardware::lds_misaligned_passes_per_byte explains why).
// `read`: a 16-byte read takes its lanes in the order measured on MI300X (32 banks) and MI350X
// (64 banks) ([LDSPH] in hardware.cpp: 8 lanes 0-3 and 20-23 first on 32 banks, 16 lanes 0-3,
// 12-15, 20-23, 24-27 first on 64 banks); otherwise, and for every other width, contiguous lanes.
// `misaligned_passes` (optional): set to the part of the result spent on misaligned lanes served alone.
int lds_passes(std::span<const uint64_t> addrs, int lane_bytes, int banks, int misaligned_passes_per_byte = 0,
               bool read = false, int* misaligned_passes = nullptr);

// Bytes one DS instruction moves: active lane-accesses x max(4, lane_bytes).
uint64_t lds_bytes(std::span<const uint64_t> addrs, int lane_bytes);
// Lanes with at least one access (a lane of a two-access instruction sends one address).
uint64_t active_lanes(std::span<const uint64_t> addrs);

// Cycles the instruction occupies its LDS half: the bank passes or the half's bandwidth,
// whichever is slower (Hardware::lds_bytes_per_clk; the microbenchmark in hardware.cpp
// [LDSMB] shows both limits: a conflict-free wave64 dword read takes 4 cycles, not 2).
// A write moves its data and its lanes' 4-byte addresses at Hardware::lds_write_bytes_per_clk (one
// input port carries both), a read its data at lds_bytes_per_clk.
int lds_cycles(std::span<const uint64_t> addrs, int lane_bytes, const Hardware& hw, bool write = false);

// The two limits of lds_cycles apart: `bank_cycles` = bank passes x Hardware::lds_bank_cycles (the
// banks, which Hardware::lds_banks_shared_by_halves makes one array for the whole CU) and
// `port_cycles` = bytes / the half's rate (the SIMD pair's path into the LDS). Passes of misaligned
// lanes served alone stay with the half (port_cycles >= all passes then), not the shared banks:
// Hardware::lds_misaligned_passes_per_byte was fitted when each half had banks of its own.
struct LdsCost {
  int bank_cycles = 0;
  int port_cycles = 0;
};
LdsCost lds_cost(std::span<const uint64_t> addrs, int lane_bytes, const Hardware& hw, bool write = false);

}  // namespace cdnajit::model
