#!/usr/bin/env bash
# HipKittens' published BF16 GEMM kernels (C = A * B^T, M = N = K) run on the simulator and
# timed by the model. Usage: run.sh EXT_DIR BUILD_DIR [ID...]
#   EXT_DIR/HipKittens        github.com/HazyResearch/HipKittens at f09e968 (main; MI355X kernels)
#   EXT_DIR/HipKittens-cdna3  the same repository at 2538b4d (branch cdna3; MI325X kernels, which
#                             main's library no longer compiles)
# Each kernel file analysis/bf16_gemm/<dir>/kernel_<N>.cpp, as it was when its published JSON was
# written (MI325X: commit d2e6eb40 of the cdna3 checkout's history, whose dispatch_micro calls
# hipDeviceSynchronize() inside the timed region; the checkout's own files, from a day later, do not,
# with the same device code; MI355X: the checkout's files), is compiled unmodified by
# cdnajit-hipcc together with shim/gemm_main.cpp (the host side, in place of the repository's
# Python/PyTorch harness) and run on the drop-in HIP runtime with CDNAJIT_HIP_MODEL_ONLY (the
# simulator runs only the workgroups the model needs, see POINTS; the time is the modelled launch).
# Prints "id<TAB>modelled TFLOP/s" per point (all points, or the IDs given); progress and the
# model's report go to stderr. HK_TIME=kernel prints the kernel's own modelled TFLOP/s instead of
# the event-timed one (which adds the product's launch overhead); HK_MODEL_ONLY overrides the mode.
# The MI325X points charge their harness's host synchronize (CDNAJIT_HIP_HOST_SYNC_US, see POINTS;
# README.md, "The host synchronize in the MI325X times"; timed_region.sh shows the history).
set -euo pipefail
if [ $# -lt 2 ]; then
  echo "usage: $0 EXT_DIR BUILD_DIR [ID...]" >&2
  exit 2
fi
EXT=$(realpath "$1")
BUILD=$(realpath "$2")
shift 2
HERE=$(cd "$(dirname "$0")" && pwd)
HIPCC="$BUILD/tools/cdnajit-hipcc"
[ -x "$HIPCC" ] || { echo "run.sh: $HIPCC is missing (build the project first)" >&2; exit 1; }

check_commit() {  # checkout, expected commit
  local have
  have=$(git -C "$1" rev-parse HEAD 2>/dev/null) || { echo "run.sh: $1 is not a git checkout; clone github.com/HazyResearch/HipKittens there at $2" >&2; exit 1; }
  [ "$have" = "$2" ] || { echo "run.sh: $1 is at $have, expected $2 (git -C $1 checkout $2)" >&2; exit 1; }
}
MAIN_COMMIT=f09e9685c4c6aaa41fb3ebd4fe4ca664938589e1
CDNA3_COMMIT=2538b4d43f69384d0f219e445e6a17bd4a791856
check_commit "$EXT/HipKittens" "$MAIN_COMMIT"
check_commit "$EXT/HipKittens-cdna3" "$CDNA3_COMMIT"

WORK=$(mktemp -d /tmp/cdnajit-hipkittens-XXXXXX)
trap 'rm -rf "$WORK"' EXIT

# id  checkout  kernel folder  arch  define  product  CDNAJIT_HIP_MODEL_ONLY  kernel files' commit (- : the checkout's)
#   CDNAJIT_HIP_HOST_SYNC_US (what the harness's host synchronize inside the timed region costs, us)
# round: the simulator runs the first round of workgroups (the whole grid up to N = 2048 here), whose
#   cache lines the memory hierarchy needs to see workgroups share the A and B panels in L2; the
#   modelled time equals a full run's.
# 1: the sampled mode of the codegen families' --model-only: the replayed workgroups and 16 more run in
#   full, the first round address-only for its cache lines (runtime/model/grid_lines.hpp; N = 4096 on
#   MI355X: HBM 100.7 MB, the footprint of A, B and C): minutes instead of the 8-35 CPU minutes a first
#   round of N >= 4096 costs here in full. HK_MODEL_ONLY=round runs every point in the round mode.
# Host synchronize: the MI325X files as measured (d2e6eb40) call hipDeviceSynchronize() inside the
#   event-timed dispatch_micro; the run charges it 13.35 us, the median of the five sizes at which the
#   same repository measured that synchronize on MI355X (bfcab22d against 9231b79a: 10.5-16.1 us),
#   measured apart from these points, not fitted to them (README.md, "The host synchronize in the
#   MI325X times"). The MI355X files do not synchronize: 0. HK_HOST_SYNC_US overrides it for every point.
POINTS="
mi355x_bf16_1024 HipKittens mi350x gfx950 KITTENS_CDNA4 mi355x round - 0
mi355x_bf16_2048 HipKittens mi350x gfx950 KITTENS_CDNA4 mi355x round - 0
mi355x_bf16_4096 HipKittens mi350x gfx950 KITTENS_CDNA4 mi355x 1 - 0
mi355x_bf16_8192 HipKittens mi350x gfx950 KITTENS_CDNA4 mi355x 1 - 0
mi355x_bf16_16384 HipKittens mi350x gfx950 KITTENS_CDNA4 mi355x 1 - 0
mi325x_bf16_1024 HipKittens-cdna3 mi325x gfx942 KITTENS_CDNA3 mi325x round d2e6eb40 13.35
mi325x_bf16_2048 HipKittens-cdna3 mi325x gfx942 KITTENS_CDNA3 mi325x round d2e6eb40 13.35
mi325x_bf16_4096 HipKittens-cdna3 mi325x gfx942 KITTENS_CDNA3 mi325x 1 d2e6eb40 13.35
mi325x_bf16_8192 HipKittens-cdna3 mi325x gfx942 KITTENS_CDNA3 mi325x 1 d2e6eb40 13.35
mi325x_bf16_16384 HipKittens-cdna3 mi325x gfx942 KITTENS_CDNA3 mi325x 1 d2e6eb40 13.35
"
wanted() {
  [ $# -eq 1 ] && return 0
  local id=$1; shift
  for w in "$@"; do [ "$w" = "$id" ] && return 0; done
  return 1
}
while read -r id repo dir arch define product mode files_commit host_sync_us; do
  [ -n "$id" ] || continue
  wanted "$id" "$@" || continue
  n=${id##*_}
  src="$EXT/$repo/analysis/bf16_gemm/$dir/kernel_$n.cpp"
  if [ "$files_commit" != - ]; then  # the file as measured, from the checkout's history
    src="$WORK/${id}_kernel_$n.cpp"
    git -C "$EXT/$repo" show "$files_commit:analysis/bf16_gemm/$dir/kernel_$n.cpp" > "$src" ||
      { echo "run.sh: $EXT/$repo has no commit $files_commit (clone the whole repository, not a shallow copy)" >&2; exit 1; }
  fi
  exe="$WORK/$id"
  # The repository's Makefile flags for the target (-ffast-math and the warp-sync define: CDNA4 only).
  extra=()
  [ "$arch" = gfx950 ] && extra=(-DHIP_ENABLE_WARP_SYNC_BUILTINS -ffast-math)
  echo "run.sh: $id: building $src for $arch" >&2
  "$HIPCC" --offload-arch="$arch" -std=c++20 -O3 -w -Wno-invalid-constexpr -D"$define" "${extra[@]}" \
    -I "$HERE/shim/stub" -I "$HERE/shim/compat" -I /usr/include/hip -I "$EXT/$repo/include" \
    -DKERNEL_SOURCE="\"$src\"" "$HERE/shim/gemm_main.cpp" -o "$exe" >&2
  echo "run.sh: $id: running on sim:$arch, model $product" >&2
  # CDNAJIT_HIP_CHECK_WAITCNT=0: the larger kernels read LDS written by their own wave's LDS DMA
  # before the s_waitcnt vmcnt that covers it (e.g. mi350x/kernel_4096.cpp, the hot loop's
  # load(B_tile_0, Bs[1][0]) comes before its s_waitcnt vmcnt(6)); on the GPU the DMA has landed by
  # then, and the simulator, which writes LDS at issue, refuses it unless the check is off.
  rep_file="$WORK/$id.report"
  out=$(CDNAJIT_HIP_DEVICE="sim:$arch" CDNAJIT_HIP_MODEL="$product" CDNAJIT_HIP_MODEL_ONLY="${HK_MODEL_ONLY:-$mode}" \
        CDNAJIT_HIP_HOST_SYNC_US="${HK_HOST_SYNC_US:-$host_sync_us}" \
        CDNAJIT_HIP_CHECK_WAITCNT="${HK_CHECK_WAITCNT:-0}" CDNAJIT_HIP_MODEL_REPORT=1 "$exe" 2> "$rep_file")
  rep=$(cat "$rep_file")
  echo "$rep" >&2
  echo "run.sh: $id: $out" >&2
  tflops=$(echo "$out" | awk '{print $3}')
  # HK_TIME=kernel: the kernel's own modelled time (the model's report line, without the launch
  # overhead the event timeline adds), for comparison with kernels modelled by `cdnajit gemm`.
  if [ "${HK_TIME:-event}" = kernel ]; then
    ms=$(echo "$rep" | awk '/modelled \(model .*\): _Z/ {for (i = 1; i <= NF; ++i) if ($i == "ms") {print $(i-1); exit}}')
    [ -n "$ms" ] || { echo "run.sh: $id: no kernel time in the model's report" >&2; exit 1; }
    tflops=$(awk -v n="$n" -v ms="$ms" 'BEGIN {printf "%.2f", 2 * n * n * n / (ms * 1e-3) / 1e12}')
  fi
  printf '%s\t%s\n' "$id" "$tflops"
done <<< "$POINTS"
