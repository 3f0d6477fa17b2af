#include "jit/isa/waitcnt.hpp"

#include <string>

#include "jit/isa/error.hpp"
#include "jit/isa/opcode.hpp"

namespace cdnajit::isa {

namespace {
int checked(const char* name, int value, int max) {
  if (value < 0) return max;
  if (value > max)
    throw Error(std::string("s_waitcnt: ") + name + "(" + std::to_string(value) + ") is out of range; valid 0.." +
                std::to_string(max));
  return value;
}
}  // namespace

uint16_t encode_waitcnt(int vmcnt, int expcnt, int lgkmcnt) {
  int vm = checked("vmcnt", vmcnt, kMaxVmcnt);
  int exp = checked("expcnt", expcnt, kMaxExpcnt);
  int lgkm = checked("lgkmcnt", lgkmcnt, kMaxLgkmcnt);
  using namespace target;
  return uint16_t((vm & ((1 << kVmcntLoBits) - 1)) << kVmcntLoShift | (vm >> kVmcntLoBits) << kVmcntHiShift |
                  exp << kExpcntShift | lgkm << kLgkmcntShift);
}

WaitcntFields decode_waitcnt(uint16_t s) {
  using namespace target;
  auto field = [s](int shift, int bits) { return (s >> shift) & ((1 << bits) - 1); };
  WaitcntFields f;
  f.vmcnt = field(kVmcntLoShift, kVmcntLoBits) | field(kVmcntHiShift, kVmcntHiBits) << kVmcntLoBits;
  f.expcnt = field(kExpcntShift, kExpcntBits);
  f.lgkmcnt = field(kLgkmcntShift, kLgkmcntBits);
  return f;
}

std::string waitcnt_text(int vmcnt, int expcnt, int lgkmcnt) {
  std::string s(info(Opcode::s_waitcnt).mnemonic);
  if (vmcnt >= 0) s += " vmcnt(" + std::to_string(vmcnt) + ")";
  if (expcnt >= 0) s += " expcnt(" + std::to_string(expcnt) + ")";
  if (lgkmcnt >= 0) s += " lgkmcnt(" + std::to_string(lgkmcnt) + ")";
  if (vmcnt < 0 && expcnt < 0 && lgkmcnt < 0)
    s += " vmcnt(" + std::to_string(kMaxVmcnt) + ") expcnt(" + std::to_string(kMaxExpcnt) + ") lgkmcnt(" +
         std::to_string(kMaxLgkmcnt) + ")";
  return s;
}

}  // namespace cdnajit::isa
