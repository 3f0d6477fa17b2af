// The host CPU's instruction-set features, detected once. The simulator's fast paths (dot2,
// fma64, the MFMA numerics, memory lanes, recording) choose an implementation by them, mostly in
// static initialisers; every one of those reads this one record instead of asking the compiler's
// CPU-feature builtins itself.
#pragma once

namespace cdnajit::sim {

struct HostCpu {
  bool popcnt = false, fma = false, avx2 = false;
  bool avx512f = false, avx512bw = false, avx512dq = false, avx512vl = false;
};

// Safe from static initialisers of any translation unit: it initialises the builtins' feature
// bits first (libgcc's own constructor may not have run yet).
const HostCpu& host_cpu();

}  // namespace cdnajit::sim
