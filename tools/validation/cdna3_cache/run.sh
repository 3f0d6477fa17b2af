#!/bin/sh
# MrRoy09/AMD-CDNA3-CacheBenchmarking (commit 90676cc), l2_coherence_tests/cache_latency_test:
# builds l1_latency_test.cpp and l1_write_allocate_test.cpp unmodified with cdnajit-hipcc for gfx942
# (the folder's Makefile flags, -O1 -g: the published binaries, committed beside the sources, time
# exactly `s_memtime; global_load_dword; s_waitcnt vmcnt(0); s_memtime`, which -O2 would unroll with an
# s_waitcnt lgkmcnt(0) inside some timed regions), runs both on the simulator with the MI300X model
# (s_memtime reads modelled cycles) and prints `id\t<the program's cycles>` per point of points.json.
# Usage: run.sh EXT_DIR BUILD_DIR
set -eu
commit=90676cca7f8aef7d26987cecc49facf368fb339e
checkout=$1/AMD-CDNA3-CacheBenchmarking
out=$2/validation/cdna3_cache
have=$(git -C "$checkout" rev-parse HEAD 2>/dev/null) || { echo "run.sh: $checkout is not a git checkout" >&2; exit 1; }
[ "$have" = "$commit" ] || { echo "run.sh: $checkout is at $have, the points were published for $commit" >&2; exit 1; }
mkdir -p "$out"
src=$checkout/l2_coherence_tests/cache_latency_test
for p in l1_latency_test l1_write_allocate_test; do
  "$2/tools/cdnajit-hipcc" -O1 -g "$src/$p.cpp" -o "$out/$p" --offload-arch=gfx942 >&2
  CDNAJIT_HIP_DEVICE=sim:gfx942 CDNAJIT_HIP_MODEL=mi300x "$out/$p" > "$out/$p.txt"
done
# One line per point: id, program, the label of its printed line.
while IFS='|' read -r id prog label; do
  v=$(grep -F "$label" "$out/$prog.txt" | sed 's/^[^:]*:[[:space:]]*\([0-9][0-9]*\).*/\1/')
  [ -n "$v" ] || { echo "run.sh: $prog printed no '$label' line" >&2; exit 1; }
  printf '%s\t%s\n' "$id" "$v"
done <<'POINTS'
mi300x-cold-load|l1_latency_test|1st load (memory, cold):
mi300x-l1-hit|l1_latency_test|2nd load (L1 hit):
mi300x-nt-load|l1_latency_test|3rd load (NT):
mi300x-sc1-load|l1_latency_test|4th load (sc1):
mi300x-load-after-inv-sc1|l1_latency_test|5th load (after inv sc1):
mi300x-load-load|l1_write_allocate_test|1. Load -> Load:
mi300x-store-load|l1_write_allocate_test|2. Store -> Load:
mi300x-store-load-load|l1_write_allocate_test|3. Store -> Load -> Load:
POINTS
