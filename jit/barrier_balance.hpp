// Static barrier balance of wave roles (jit/wave_roles.hpp).
//
// gfx9 has one workgroup barrier and no named barriers: an `s_barrier` releases
// when every (not yet ended) wave of the workgroup has reached *an* s_barrier.
// Waves of different roles therefore meet only if every role executes the same
// number of barriers in the same structure. This file computes, for the code
// of one role, its barrier signature and checks that every path through the
// role produces it:
//
//  * a plain barrier is one token;
//  * a loop whose body executes barriers is one token Loop(body signature);
//    every iteration of it (every back edge) and every exit of it must carry the
//    same body signature. A loop without barriers contributes nothing.
//  * where two paths meet (if/else arms, a skipped block, early exits) they must
//    carry the same signature.
//
// Two roles are balanced when their signatures are equal token by token (a loop
// matches a loop with an equal body). ASSUMPTION (not checkable statically):
// loops matched this way run the same number of iterations in both roles; a
// generator drives them from the same uniform trip count.
//
// Control flow must be structured the way the builder's helpers emit it
// (forward branches, and backward branches only to the header of an enclosing
// loop); anything else is reported as an error.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include "jit/kernel_impl.hpp"

namespace cdnajit {

struct BarrierToken {
  bool is_loop = false;
  std::string name;                // barrier name (WaveRoles::barrier) or the instruction's mnemonic; "loop" for loops
  std::string origin;              // call site "file.cpp:42"
  std::vector<BarrierToken> body;  // loop body signature
  bool operator==(const BarrierToken& o) const { return is_loop == o.is_loop && body == o.body; }
};
using BarrierSignature = std::vector<BarrierToken>;

// "[a@f.cpp:3, loop{b@f.cpp:9}]"
std::string describe(const BarrierSignature& s);

// Signature of the instructions program[begin, end) of `k`, entered at `begin`;
// branches out of the range and s_endpgm end a path. Throws cdnajit::Error naming
// `role` and the place where two paths of the role disagree.
BarrierSignature role_barrier_signature(const Kernel::Impl& k, size_t begin, size_t end, const std::string& role);

// Throws cdnajit::Error naming both roles and the first barrier where the signatures differ.
void check_barrier_balance(const std::vector<std::string>& roles, const std::vector<BarrierSignature>& signatures);

}  // namespace cdnajit
