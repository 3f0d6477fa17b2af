#!/bin/sh
# The overhead of the drop-in HIP runtime (runtime/hip_sim) over a direct `cdnajit run` of the
# same kernel: the axpy of tests/hip_sim/module_kernels.hip on N floats, run
#   direct:   cdnajit run CO --kernel axpy --device sim:gfx942 ...            (the simulator device)
#   drop-in:  tests/hip_sim/axpy_module CO N   (a HIP program: hipModuleLoad, hipMalloc, hipMemcpy,
#             hipModuleLaunchKernel, events, linked against the drop-in)
#   hip:0:    cdnajit run CO --kernel axpy --device hip:0 ...  (cdnajit's HIP back end on the drop-in)
# each RUNS times, alternating, without and with the timing model (mi300x). Prints the median
# wall and CPU (user + sys) seconds of each way and the ratio to the direct run: host times of
# this machine, not GPU times. A benchmark, not a test (its figures depend on the machine's load).
#   tools/bench_drop_in.sh BUILD_DIR [N (default 16777216)] [RUNS (default 5)]
set -e
build=${1:?usage: tools/bench_drop_in.sh BUILD_DIR [N] [RUNS]}
n=${2:-16777216}
runs=${3:-5}
cli=$build/tools/cdnajit
co=$build/tests/hip_sim/module_kernels.co
prog=$build/tests/hip_sim/axpy_module
lib=$build/lib/cdnajit/libamdhip64.so.5
for f in "$cli" "$co" "$prog" "$lib"; do
  [ -e "$f" ] || { echo "bench_drop_in: $f is missing (build the cdnajit_cli, hip_sim_axpy_module and hip_sim_module_kernels targets)" >&2; exit 2; }
done
bytes=$((n * 4))
args="--kernel axpy --grid $(((n + 255) / 256)) --block 256 --arg f32:2 --arg buf:x:$bytes:iota --arg buf:y:$bytes:zero --arg i32:$n"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# one WAY MODEL: appends "wall cpu" of one run to $tmp/WAY.MODEL
one() {
  way=$1 model=$2
  case $way in
    direct) if [ "$model" = off ]; then set -- "$cli" run "$co" $args --device sim:gfx942
            else set -- "$cli" run "$co" $args --device sim:gfx942 --model "$model"; fi ;;
    drop-in) set -- "$prog" "$co" "$n" ;;
    hip0) set -- "$cli" run "$co" $args --device hip:0 ;;
  esac
  CDNAJIT_HIP_LIBRARY=$lib CDNAJIT_HIP_DEVICE=sim:gfx942 CDNAJIT_HIP_MODEL=$model \
    /usr/bin/time -f "%e %U %S" -o "$tmp/t" "$@" > /dev/null 2> "$tmp/err" || { cat "$tmp/err" >&2; exit 1; }
  awk '{ printf "%s %.2f\n", $1, $2 + $3 }' "$tmp/t" >> "$tmp/$way.$model"
}

median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

echo "axpy on $n floats ($(((n + 255) / 256)) workgroups of 256), $runs alternating runs per way; host times of this machine"
echo "| model | way | wall s (median) | CPU s (median) | wall / direct | CPU / direct |"
echo "|---|---|---|---|---|---|"
for model in off mi300x; do
  i=0
  while [ $i -lt "$runs" ]; do
    for way in direct drop-in hip0; do one $way $model; done
    i=$((i + 1))
  done
  dw=$(cut -d' ' -f1 "$tmp/direct.$model" | median)
  dc=$(cut -d' ' -f2 "$tmp/direct.$model" | median)
  for way in direct drop-in hip0; do
    w=$(cut -d' ' -f1 "$tmp/$way.$model" | median)
    c=$(cut -d' ' -f2 "$tmp/$way.$model" | median)
    label=$way
    [ $way = hip0 ] && label="cdnajit run --device hip:0"
    [ $way = direct ] && label="cdnajit run --device sim:gfx942"
    [ $way = drop-in ] && label="axpy_module (HIP program)"
    awk -v m="$model" -v l="$label" -v w="$w" -v c="$c" -v dw="$dw" -v dc="$dc" \
      'BEGIN { printf "| %s | %s | %.2f | %.2f | %.2f | %.2f |\n", m, l, w, c, w / dw, c / dc }'
  done
done
