// Wave and workgroup collectives written with the builder DSL: small functions that emit a fixed
// instruction sequence into a Kernel, built on the typed cross-lane operands (Dpp, Swizzle) and
// gfx950's v_permlane32_swap. Each has a HIP twin (tests/jit/test_wave_ops.cpp) that does the same
// arithmetic in the same order with clang's builtins and matches it bit for bit on the simulator.
//
// snippet-context: cdnajit::Kernel k("w", cdnajit::Arch::gfx942); cdnajit::Reg x = k.vgpr("x");
//   cdnajit::Reg sum = k.vgpr("sum");
//   cdnajit::lib::wave_reduce(k, cdnajit::lib::ReduceOp::add_f32, sum, x);  // every lane: the wave's sum
//
// They assume the whole wave is active (EXEC all ones) and a wave of 64 lanes.
#pragma once
#include <source_location>

#include "jit/kernel.hpp"

namespace cdnajit::lib {

enum class ReduceOp { add_f32, max_f32, min_f32, add_i32, max_i32, min_i32 };

// dst = op over the 64 lanes of src, in every lane. src is left unchanged (dst may be src).
// Order of the arithmetic (what a twin must repeat for equal bits): a butterfly in which each lane
// combines op(value of its partner, own value) for partners l^1, l^2 (DPP quad_perm), the mirrored
// half-row and row (DPP row_half_mirror, row_mirror: the partner holds the same partial as l^4, l^8),
// l^16 (ds_swizzle SWAP,16), then op(lanes 0..31's total, lanes 32..63's total) (gfx950:
// v_permlane32_swap; gfx942: v_readlane of lanes 0 and 32).
void wave_reduce(Kernel& k, ReduceOp op, Reg dst, Reg src, std::source_location loc = std::source_location::current());

// dst = src of lane `lane` (0..63), in every lane.
void wave_broadcast(Kernel& k, Reg dst, Reg src, int lane, std::source_location loc = std::source_location::current());

// dst = op over every lane of a one-dimensional workgroup, in every lane: wave_reduce, each wave's
// result stored to LDS at lds_offset + 4 * wave, s_barrier, then every lane reads the partials and
// combines them in wave order: op(op(op(p0, p1), p2), ...). Needs 4 * waves bytes of LDS at
// lds_offset (k.lds_alloc); the caller puts a barrier before writing that LDS again.
void workgroup_reduce(Kernel& k, ReduceOp op, Reg dst, Reg src, uint32_t lds_offset,
                      std::source_location loc = std::source_location::current());

}  // namespace cdnajit::lib
