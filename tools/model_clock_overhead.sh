#!/bin/sh
# Host-time overhead of the timing model with in-kernel clocks (runtime/model/README.md, "In-kernel
# clocks"): compiles two clang-22 streaming kernels (1024 workgroups x 256 threads, each timing itself
# with two clock64()), runs each on the plain simulator and under `--model mi300x`, and prints both
# host wall times (medians and spreads of REPEATS runs of each, alternating), the model's own split
# ("in-kernel clocks" line), the load average and the ratio overhead / functional time =
# (modelled - plain) / plain; issue 26's target is at most 2. The two kernels:
#  - stream_timed: the first clock value also reaches every thread's sum (`s` starts from t0 & 1), so
#    the clock-derived slice holds the accumulation loop (its FMAs add the iota input's words, denormal
#    floats, the host FPU's slow path);
#  - stream_stamps: the same loop with `s` starting from 0: clock values reach only the stored
#    timestamps, the usual microbenchmark;
#  - stream_untimed: the same kernel reading no clock (0 for both timestamps): the model's overhead
#    without the clock runs (one recorded run, the first round's line trace, the kernel-time model).
# Host times only; the machine's load moves them.
# Usage: tools/model_clock_overhead.sh BUILD_DIR [REPEATS]   (default 3)
set -eu
[ $# -ge 1 ] || { echo "usage: $0 BUILD_DIR [REPEATS]" >&2; exit 2; }
build=$1
repeats=${2:-3}
here=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# kernel NAME START [CLOCK]: writes $work/NAME.co, whose sum starts from START and whose timestamps
# read CLOCK (default clock64())
kernel() {
  clock=${3:-clock64()}
  cat > "$work/$1.hip" <<HIP
extern "C" __global__ void $1(const float* a, float* b, unsigned long long* t, int n) {
  long long t0 = $clock;
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x, stride = gridDim.x * blockDim.x;
  float s = $2;
  for (int k = 0; k < n; ++k) s += a[i + k * stride] * 1.5f;
  b[i] = s;
  __asm__ volatile("" ::"v"(s));
  long long t1 = $clock;
  if (threadIdx.x == 0) { t[blockIdx.x * 2] = t0; t[blockIdx.x * 2 + 1] = t1; }
}
HIP
  clang-22 -x hip --offload-arch=gfx942 --cuda-device-only --no-gpu-bundle-output -nogpulib -nogpuinc -O3 \
      -include "$here/runtime/hip_device.h" -o "$work/$1.co" "$work/$1.hip"
}
kernel stream_timed 'float(t0 & 1)'
kernel stream_stamps '0.0f'
kernel stream_untimed '0.0f' 0
run() {
  name=$1
  shift
  "$build/tools/cdnajit" run "$work/$name.co" --kernel "$name" --grid 1024 --block 256 \
      --arg buf:a:16777216:iota --arg buf:b:1048576 --arg buf:t:16384 --arg i32:16 "$@"
}
ms() { sed -n 's/.*host wall time \([0-9.]*\) ms.*/\1/p' | head -1; }
median() { sort -n | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }
spread() { sort -n | awk '{v[NR] = $1} END {printf "%s-%s", v[1], v[NR]}'; }
load() { cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo "?"; }
# measure NAME: plain and modelled runs alternate, so that a change of the machine's load hits both alike.
measure() {
  load_before=$(load)
  : > "$work/plain.txt"
  : > "$work/model.txt"
  i=0
  while [ $i -lt "$repeats" ]; do
    run "$1" --device sim:gfx942 2>&1 | ms >> "$work/plain.txt"
    run "$1" --model mi300x > "$work/out.txt" 2>&1
    echo "$(ms < "$work/out.txt") $(grep 'in-kernel clocks' "$work/out.txt" | sed 's/.*fixed point//')" >> "$work/model.txt"
    i=$((i + 1))
  done
  plain=$(median < "$work/plain.txt")
  model=$(cut -d' ' -f1 "$work/model.txt" | median)
  echo "== $1"
  echo "plain simulator (median of $repeats): $plain ms (spread $(spread < "$work/plain.txt") ms)"
  echo "with --model mi300x (median of $repeats): $model ms (spread $(cut -d' ' -f1 "$work/model.txt" | spread) ms)"
  echo "model runs' split (runs to the fixed point + replays):"
  sed 's/^/  /' "$work/model.txt"
  echo "load average (1 min) before / after: $load_before / $(load)"
  awk -v k="$1" -v p="$plain" -v m="$model" \
      'BEGIN { printf "%s: overhead / functional time: %.2f (target <= 2)\n", k, (m - p) / p }'
}
measure stream_timed
measure stream_stamps
measure stream_untimed
