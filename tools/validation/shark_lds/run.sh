#!/bin/sh
# nod-ai/amd-shark-ai's LDS harness (docs/empirical-lds, commit efa471a): builds
# bench/lds_phase_mask.hip.cpp with cdnajit-hipcc (device code unmodified; one host-side shim below) for gfx942 and gfx950, runs every
# point of points.json on the simulator with the timing model (clock64() reads modelled cycles)
# and prints `id\t<the program's "cycles/active thread">`. Usage: run.sh EXT_DIR BUILD_DIR
set -eu
commit=efa471aeef66a260c85983cc41e833bfa769dade
checkout=$1/amd-shark-ai
out=$2/validation/shark_lds
have=$(git -C "$checkout" rev-parse HEAD 2>/dev/null) || { echo "run.sh: $checkout is not a git checkout" >&2; exit 1; }
[ "$have" = "$commit" ] || { echo "run.sh: $checkout is at $have, the points were published for $commit" >&2; exit 1; }
mkdir -p "$out"
# Host-side shim, the only change: the harness's print helper print_val() subscripts uint2/uint4
# (HIP_vector_type::operator[], ROCm 6), which Debian's ROCm 5.2 headers lack; it reads the same
# elements through the vector's `data` member. The kernel and everything else compile as published.
src=$checkout/docs/empirical-lds/harness/bench/lds_phase_mask.hip.cpp
sed '/int print_val(T in)/,/^}/ s/in\[\([0-3]\)\]/in.data[\1]/g' "$src" > "$out/lds_phase_mask.hip.cpp"
changed=$(diff "$src" "$out/lds_phase_mask.hip.cpp" | grep -c '^>' || true)
[ "$changed" = 2 ] || { echo "run.sh: the print_val shim changed $changed lines, expected 2" >&2; exit 1; }
"$2/tools/cdnajit-hipcc" -O2 "$out/lds_phase_mask.hip.cpp" -o "$out/lds_phase_mask" \
    --offload-arch=gfx942 --offload-arch=gfx950 >&2
# One line per point: id, access width, stride in bytes, arch, product (the published tables).
while read -r id width stride arch product; do
  v=$(printf '%s 0xffffffffffffffff %s 64\n' "$width" $((stride / 4)) |
      CDNAJIT_HIP_DEVICE=sim:$arch CDNAJIT_HIP_MODEL=$product "$out/lds_phase_mask" 2>/dev/null |
      sed -n 's/^cycles\/active thread=//p')
  [ -n "$v" ] || { echo "run.sh: $id printed no 'cycles/active thread'" >&2; exit 1; }
  printf '%s\t%s\n' "$id" "$v"
done <<'POINTS'
mi300x-b32-stride4 32 4 gfx942 mi300x
mi300x-b32-stride8 32 8 gfx942 mi300x
mi300x-b32-stride16 32 16 gfx942 mi300x
mi300x-b32-stride32 32 32 gfx942 mi300x
mi300x-b32-stride64 32 64 gfx942 mi300x
mi300x-b32-stride128 32 128 gfx942 mi300x
mi300x-b32-stride256 32 256 gfx942 mi300x
mi300x-b32-stride512 32 512 gfx942 mi300x
mi300x-b64-stride8 64 8 gfx942 mi300x
mi300x-b64-stride16 64 16 gfx942 mi300x
mi300x-b64-stride32 64 32 gfx942 mi300x
mi300x-b64-stride64 64 64 gfx942 mi300x
mi300x-b64-stride128 64 128 gfx942 mi300x
mi300x-b64-stride256 64 256 gfx942 mi300x
mi300x-b64-stride512 64 512 gfx942 mi300x
mi300x-b128-stride16 128 16 gfx942 mi300x
mi300x-b128-stride32 128 32 gfx942 mi300x
mi300x-b128-stride64 128 64 gfx942 mi300x
mi300x-b128-stride128 128 128 gfx942 mi300x
mi300x-b128-stride256 128 256 gfx942 mi300x
mi300x-b128-stride512 128 512 gfx942 mi300x
mi350x-b64-stride8 64 8 gfx950 mi350x
mi350x-b64-stride16 64 16 gfx950 mi350x
mi350x-b64-stride32 64 32 gfx950 mi350x
mi350x-b64-stride64 64 64 gfx950 mi350x
mi350x-b64-stride128 64 128 gfx950 mi350x
mi350x-b64-stride256 64 256 gfx950 mi350x
mi350x-b64-stride512 64 512 gfx950 mi350x
POINTS
