#include "runtime/sim/host_cpu.hpp"

namespace cdnajit::sim {

const HostCpu& host_cpu() {
  static const HostCpu cpu = [] {
    __builtin_cpu_init();  // a static initialiser may run before libgcc's constructor has filled the bits
    HostCpu c;
    c.popcnt = __builtin_cpu_supports("popcnt");
    c.fma = __builtin_cpu_supports("fma");
    c.avx2 = __builtin_cpu_supports("avx2");
    c.avx512f = __builtin_cpu_supports("avx512f");
    c.avx512bw = __builtin_cpu_supports("avx512bw");
    c.avx512dq = __builtin_cpu_supports("avx512dq");
    c.avx512vl = __builtin_cpu_supports("avx512vl");
    return c;
  }();
  return cpu;
}

}  // namespace cdnajit::sim
