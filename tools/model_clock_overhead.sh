#!/bin/sh
# Host-time overhead of the timing model with in-kernel clocks (runtime/model/README.md, "In-kernel
# clocks"): compiles the README's clock-timed streaming kernel (1024 workgroups x 256 threads, each
# timing itself with two clock64()) with clang-22, runs it on the plain simulator and under
# `--model mi300x`, and prints both host wall times (medians and spreads of REPEATS runs of each,
# alternating), the model's own split ("in-kernel clocks" line), the load average and the ratio
# overhead / functional time = (modelled - plain) / plain; issue 26's target is at most 2. Host times
# only; the machine's load moves them.
# Usage: tools/model_clock_overhead.sh BUILD_DIR [REPEATS]   (default 3)
set -eu
[ $# -ge 1 ] || { echo "usage: $0 BUILD_DIR [REPEATS]" >&2; exit 2; }
build=$1
repeats=${2:-3}
here=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat > "$work/stream_timed.hip" <<'HIP'
extern "C" __global__ void stream_timed(const float* a, float* b, unsigned long long* t, int n) {
  long long t0 = clock64();
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x, stride = gridDim.x * blockDim.x;
  float s = float(t0 & 1);
  for (int k = 0; k < n; ++k) s += a[i + k * stride] * 1.5f;
  b[i] = s;
  __asm__ volatile("" ::"v"(s));
  long long t1 = clock64();
  if (threadIdx.x == 0) { t[blockIdx.x * 2] = t0; t[blockIdx.x * 2 + 1] = t1; }
}
HIP
clang-22 -x hip --offload-arch=gfx942 --cuda-device-only --no-gpu-bundle-output -nogpulib -nogpuinc -O3 \
    -include "$here/runtime/hip_device.h" -o "$work/stream_timed.co" "$work/stream_timed.hip"
run() {
  "$build/tools/cdnajit" run "$work/stream_timed.co" --kernel stream_timed --grid 1024 --block 256 \
      --arg buf:a:16777216:iota --arg buf:b:1048576 --arg buf:t:16384 --arg i32:16 "$@"
}
ms() { sed -n 's/.*host wall time \([0-9.]*\) ms.*/\1/p' | head -1; }
median() { sort -n | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }
spread() { sort -n | awk '{v[NR] = $1} END {printf "%s-%s", v[1], v[NR]}'; }
load() { cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo "?"; }
# Plain and modelled runs alternate, so that a change of the machine's load hits both alike.
load_before=$(load)
: > "$work/plain.txt"
: > "$work/model.txt"
i=0
while [ $i -lt "$repeats" ]; do
  run --device sim:gfx942 2>&1 | ms >> "$work/plain.txt"
  run --model mi300x > "$work/out.txt" 2>&1
  echo "$(ms < "$work/out.txt") $(grep 'in-kernel clocks' "$work/out.txt" | sed 's/.*fixed point//')" >> "$work/model.txt"
  i=$((i + 1))
done
plain=$(median < "$work/plain.txt")
model=$(cut -d' ' -f1 "$work/model.txt" | median)
echo "plain simulator (median of $repeats): $plain ms (spread $(spread < "$work/plain.txt") ms)"
echo "with --model mi300x (median of $repeats): $model ms (spread $(cut -d' ' -f1 "$work/model.txt" | spread) ms)"
echo "model runs' split (runs to the fixed point + replays):"
sed 's/^/  /' "$work/model.txt"
echo "load average (1 min) before / after: $load_before / $(load)"
awk -v p="$plain" -v m="$model" 'BEGIN { printf "overhead / functional time: %.2f (target <= 2)\n", (m - p) / p }'
