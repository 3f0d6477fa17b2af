#include "jit/isa/waitcnt.hpp"

#include <string>

#include "jit/isa/error.hpp"

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
  return uint16_t((vm & 0xf) | ((vm >> 4) << 14) | (exp << 4) | (lgkm << 8));
}

WaitcntFields decode_waitcnt(uint16_t s) {
  WaitcntFields f;
  f.vmcnt = (s & 0xf) | (((s >> 14) & 3) << 4);
  f.expcnt = (s >> 4) & 7;
  f.lgkmcnt = (s >> 8) & 0xf;
  return f;
}

}  // namespace cdnajit::isa
