// The gfx9 `s_waitcnt` immediate: vmcnt = bits [3:0] | [15:14] << 4, expcnt = [6:4],
// lgkmcnt = [11:8]. A field at its maximum (63 / 7 / 15) means "do not wait".
#pragma once
#include <cstdint>
#include <optional>
#include <string>

#include "jit/isa/machine_inst.hpp"

namespace cdnajit::passes {

constexpr int kVmcntMax = 63, kExpcntMax = 7, kLgkmcntMax = 15;

struct WaitFields {
  int vm = -1, lgkm = -1, exp = -1;  // -1: this counter is not waited on
  bool any() const { return vm >= 0 || lgkm >= 0 || exp >= 0; }
};

uint16_t encode_waitcnt(const WaitFields& w);
WaitFields decode_waitcnt(uint16_t imm);
std::string waitcnt_text(const WaitFields& w);  // the instruction as text (isa::waitcnt_text)

// The fields of an s_waitcnt instruction (immediate or `vmcnt(N) lgkmcnt(M)` form);
// nullopt if `mi` is not an s_waitcnt.
std::optional<WaitFields> read_waitcnt(const isa::MachineInst& mi);

// A new s_waitcnt instruction with `comment`.
isa::MachineInst make_waitcnt(const WaitFields& w, std::string comment);

}  // namespace cdnajit::passes
