#!/bin/sh
# Shared by the BabelStream sources: builds a BabelStream checkout's HIP kernels (unmodified) with
# cdnajit-hipcc beside the hipEvents host side (babelstream_events.cpp), runs them on the simulator
# with the timing model and prints `PREFIX-<kernel>\t<modelled MB/s>` per kernel (Copy Mul Add Triad Dot).
#
#   babelstream.sh CHECKOUT COMMIT BUILD_DIR ARCH PRODUCT ARRAY_SIZE [EXTRA_CXXFLAGS]
set -eu
checkout=$1 commit=$2 out=$3 arch=$4 product=$5 n=$6 extra=${7:-}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
out=$(cd "$out" && pwd)  # the build runs inside the checkout
bin=$(cd "$out/../.." && pwd)/tools
have=$(git -C "$checkout" rev-parse HEAD 2>/dev/null) || { echo "babelstream.sh: $checkout is not a git checkout" >&2; exit 1; }
[ "$have" = "$commit" ] || { echo "babelstream.sh: $checkout is at $have, the points were published for $commit" >&2; exit 1; }
# shellcheck disable=SC2086
(cd "$checkout" && "$bin/cdnajit-hipcc" -O3 -std=c++17 -DHIP $extra -Isrc -Isrc/hip src/hip/HIPStream.cpp \
    "$here/babelstream_events.cpp" -o "$out/babelstream_events" --offload-arch="$arch") >&2
# The program's own lines (label<TAB>MB/s) become point ids; a failed run fails the script.
# CDNAJIT_HIP_MODEL_ONLY=round: each launch runs only the workgroups the model replays and its whole
# first round (the modelled time equals a full launch's); the host side checks no results.
result=$(CDNAJIT_HIP_MODEL_ONLY=round CDNAJIT_HIP_DEVICE=sim:$arch CDNAJIT_HIP_MODEL=$product "$out/babelstream_events" "$n" 2>"$out/stderr.txt") ||
  { echo "babelstream.sh: babelstream_events failed (see $out/stderr.txt)" >&2; exit 1; }
printf '%s\n' "$result" | awk -F'\t' -v p="$product" 'NF == 2 { printf "%s-%s\t%s\n", p, tolower($1), $2 }'
