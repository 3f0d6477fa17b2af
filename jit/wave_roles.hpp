// Wave roles: one workgroup, several kinds of waves running different code
// ("wave specialisation", as in CK's wavelet kernels: load waves do address
// arithmetic, global loads and LDS writes; math waves do LDS reads and MFMA).
//
//   Kernel k("wavelet", Arch::gfx950);
//   WaveRoles roles(k);
//   roles.role("math", 4, [&](const RoleEnv& r) { ... roles.barrier("tile_ready"); ... });
//   roles.role("load", 4, [&](const RoleEnv& r) { ... roles.barrier("tile_ready"); ... });
//   roles.emit();          // dispatch + role blocks + barrier check
//   k.s_endpgm();
//   BuildResult b = k.build();
//
// What emit() produces and guarantees:
//  * Workgroup size = 64 x (sum of the roles' waves). Waves are assigned to roles in
//    declaration order: the first role gets waves 0..n0-1, and so on. CK's wavelet
//    kernels put the math waves first (their thread mapping of the MFMA tiles starts
//    at thread 0), so declare the math role first.
//  * Dispatch: the wave index (workitem id x / 64, made uniform with
//    v_readfirstlane_b32) selects the role with a chain of s_cmp_lt_u32 /
//    s_cbranch_scc1; each role's code is one contiguous block of the program, and
//    leaves it by one branch to the common end (after emit()).
//  * Registers: the role blocks never flow into each other, so a register created
//    and used inside one role is live only inside that role's block, and the
//    linear-scan allocator reuses its physical registers for the other roles. The
//    kernel's VGPR count is then the maximum over roles plus what is live across
//    them (created before emit(), or used after it), not the sum;
//    register_report() measures both from the liveness.
//  * Barriers: gfx9 has one workgroup barrier (no named barriers), so every role must
//    execute the same s_barrier sequence on every path (jit/barrier_balance.hpp).
//    emit() checks this and throws cdnajit::Error naming the role and the barrier.
//    Options::pad_to_balance appends dummy barriers at the end of roles whose
//    sequence is a prefix of the longest one (CK pads the same way);
//    pad_barriers(n) adds them by hand anywhere.
#pragma once
#include <array>
#include <functional>
#include <source_location>
#include <string>
#include <vector>

#include "jit/barrier_balance.hpp"
#include "jit/kernel.hpp"

namespace cdnajit {

// What a role's body gets to know about the wave running it.
struct RoleEnv {
  std::string name;
  int index = 0;        // declaration order
  int first_wave = 0;   // waves [first_wave, first_wave + waves) of the workgroup run this role
  int waves = 0;
  Reg wave;             // SGPR: this wave's index inside its role, 0..waves-1
  int first_thread() const { return 64 * first_wave; }
  int threads() const { return 64 * waves; }
};

// Static facts per role, from the recorded program and its liveness.
struct RoleStats {
  std::string name;
  int waves = 0;
  int peak_vgprs = 0, peak_sgprs = 0, peak_agprs = 0;  // max live dwords of the role's own values
  std::array<int, int(isa::Unit::Misc) + 1> by_unit{};  // static instruction mix of the role's block
  int instructions = 0;
};

struct RoleRegisterReport {
  std::vector<RoleStats> roles;
  // Max live dwords of values whose live range is not inside one role's block
  // (live across roles: the dispatch's wave index, arguments loaded before emit(), v0 ...).
  int shared_vgprs = 0, shared_sgprs = 0, shared_agprs = 0;
  int max_role_vgprs() const;
  int sum_role_vgprs() const;
};

class WaveRoles {
 public:
  struct Options {
    bool check_barriers = true;   // false only to show what happens without the check
    bool pad_to_balance = false;  // append dummy barriers to roles whose sequence is a prefix of the longest
  };

  explicit WaveRoles(Kernel& k, std::source_location loc = std::source_location::current());

  // Declares a role of `waves` waves (1..16 in total per workgroup) whose code `body` emits.
  void role(std::string name, int waves, std::function<void(const RoleEnv&)> body,
            std::source_location loc = std::source_location::current());

  // Inside a body: a named s_barrier (the name appears in barrier-check errors and the .s).
  void barrier(std::string name, std::source_location loc = std::source_location::current());
  // Inside a body: n dummy barriers, to balance a role that has fewer.
  void pad_barriers(int n, std::source_location loc = std::source_location::current());

  // Emits the dispatch and every role; throws cdnajit::Error on unbalanced barriers.
  void emit(const Options& opts, std::source_location loc = std::source_location::current());
  void emit(std::source_location loc = std::source_location::current()) { emit(Options{}, loc); }

  // After emit().
  int total_waves() const;
  const std::vector<BarrierSignature>& signatures() const { return signatures_; }
  const std::vector<int>& padded() const { return padded_; }  // dummy barriers emit() appended per role
  RoleRegisterReport register_report() const;

 private:
  struct Decl {
    std::string name;
    int waves;
    std::function<void(const RoleEnv&)> body;
    std::source_location loc;
    size_t begin = 0, end = 0;  // the role's block: IrInst indices [begin, end)
  };
  Kernel& k_;
  std::vector<Decl> roles_;
  std::vector<BarrierSignature> signatures_;
  std::vector<int> padded_;
  bool emitted_ = false;
};

}  // namespace cdnajit
