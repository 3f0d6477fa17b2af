#!/usr/bin/env bash
# What HipKittens' published BF16 GEMM times contain besides the kernel, read from the checkouts'
# own git history (nothing is run). Usage: timed_region.sh EXT_DIR
#
# 1. For each published JSON (MI325X on branch cdna3, MI355X on main): the commit that last wrote
#    it, and whether the kernel files' dispatch_micro at that commit calls hipDeviceSynchronize().
#    test_python.py times dispatch_micro between two hipEvents, so a synchronize inside it is in
#    the timed region: the end event is enqueued only after the host has seen the kernel finish.
# 2. The one published measurement of that synchronize's cost: on MI355X the repository measured
#    the same kernels with it (commit bfcab22) and, a day later, without it (9231b79, whose only
#    change to the kernel files is the dispatch); the difference per size.
set -euo pipefail
if [ $# -ne 1 ]; then
  echo "usage: $0 EXT_DIR   (EXT_DIR/HipKittens and EXT_DIR/HipKittens-cdna3, see README.md)" >&2
  exit 2
fi
EXT=$(realpath "$1")
for tool in git jq; do
  command -v "$tool" >/dev/null || { echo "timed_region.sh: needs $tool" >&2; exit 1; }
done
for repo in HipKittens HipKittens-cdna3; do
  git -C "$EXT/$repo" rev-parse HEAD >/dev/null 2>&1 || { echo "timed_region.sh: $EXT/$repo is not a git checkout (README.md)" >&2; exit 1; }
done

report_json() {  # checkout, kernel folder, json file
  local repo=$EXT/$1 dir=analysis/bf16_gemm/$2 json=$3 commit
  commit=$(git -C "$repo" log -1 --format=%h -- "$dir/$json")
  echo "$2/$json: last written by commit $commit ($(git -C "$repo" log -1 --format=%ad --date=short "$commit"))"
  for n in 1024 2048 4096 8192 16384; do
    local sync=no
    git -C "$repo" show "$commit:$dir/kernel_$n.cpp" | sed -n '/^void dispatch_micro/,/^}/p' | grep -q hipDeviceSynchronize && sync=yes
    printf '  N=%-5s published %8.2f us per launch; hipDeviceSynchronize() in the timed dispatch_micro: %s\n' "$n" \
      "$(git -C "$repo" show "$commit:$dir/$json" | jq ".\"$n\".avg_time * 1000")" "$sync"
  done
}
report_json HipKittens-cdna3 mi325x mi325x_bf16_gemm.json
# The same commit also holds data_to_log.json, another run of the same files on MI325X: its spread
# from the published run is the run-to-run noise of these single-launch means.
commit=$(git -C "$EXT/HipKittens-cdna3" log -1 --format=%h -- analysis/bf16_gemm/mi325x/mi325x_bf16_gemm.json)
echo "  another run at $commit (data_to_log.json), us per launch:" \
  $(git -C "$EXT/HipKittens-cdna3" show "$commit:analysis/bf16_gemm/mi325x/data_to_log.json" |
    jq -r 'to_entries | map("N=\(.key) \(.value.avg_time * 1000 * 100 | round / 100)") | join(", ")')
report_json HipKittens mi350x mi355x_bf16_gemm.json

# The MI355X pair: same kernels, with and without the synchronize.
WITH=bfcab22d WITHOUT=9231b79a
repo=$EXT/HipKittens
dir=analysis/bf16_gemm/mi350x
echo "MI355X, commit $WITH (dispatch_micro synchronizes) against $WITHOUT (it does not):"
changed=$(git -C "$repo" diff "$WITH" "$WITHOUT" -- "$dir"/kernel_*.cpp | grep -E '^[-+][^-+]' | grep -vE 'hipStream_t stream;|hipDeviceSynchronize\(\);|micro_tk<<<' || true)
[ -z "$changed" ] && echo "  (the kernel files differ only in the dispatch: the stream argument and the synchronize)" ||
  { echo "  the kernel files differ in more than the dispatch:"; echo "$changed"; }
if git -C "$repo" diff --quiet "$WITH" "$WITHOUT" -- include "$dir/test_python.py"; then
  echo "  (the library, include/, and the harness, test_python.py, are unchanged between them)"
else
  echo "  the library or the harness changed between them too"
fi
for n in 1024 2048 4096 8192 16384; do
  a=$(git -C "$repo" show "$WITH:$dir/mi355x_bf16_gemm.json" | jq ".\"$n\".avg_time * 1000")
  b=$(git -C "$repo" show "$WITHOUT:$dir/mi355x_bf16_gemm.json" | jq ".\"$n\".avg_time * 1000")
  awk -v n="$n" -v a="$a" -v b="$b" 'BEGIN { printf "  N=%-5s %9.2f us with, %9.2f us without: %6.2f us\n", n, a, b, a - b }'
done
