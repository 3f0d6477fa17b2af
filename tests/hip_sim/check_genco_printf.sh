#!/bin/sh
# cdnajit-hipcc --genco and device printf under `cdnajit run` (the simulator device, not the drop-in
# runtime). Usage: check_genco_printf.sh CDNAJIT_HIPCC CDNAJIT DEVICE_PRINTF_HIP WORK_DIR
#  - --genco writes the device code object of device_printf.hip for gfx950;
#  - `cdnajit run` of its print_lines kernel on 8 workgroups prints the 32 lines the kernel prints
#    (any order: workgroups run on several host threads);
#  - its failing_assert kernel prints ROCm's message for each of the 24 failing work-items, and the
#    run fails with the trap (exit 1);
#  - --genco usage errors (two archs, with -c) exit 2.
set -eu
hipcc=$1 cdnajit=$2 src=$3 dir=$4
co=$dir/device_printf_gfx950.co
"$hipcc" --genco --offload-arch=gfx950 -O2 "$src" -o "$co"
"$cdnajit" run "$co" --kernel _Z11print_linesv --grid 8 --block 64 --device sim:gfx950 >"$dir/genco_print.out"
for g in 0 1 2 3 4 5 6 7; do for i in 0 16 32 48; do echo "workgroup $g work-item $i"; done; done | sort >"$dir/genco_print.want"
grep '^workgroup ' "$dir/genco_print.out" | sort | diff "$dir/genco_print.want" - || { echo "cdnajit run: the printed lines differ" >&2; exit 1; }
status=0
"$cdnajit" run "$co" --kernel _Z14failing_assertPii --grid 1 --block 64 --arg buf:out:256 --arg i32:40 \
    --device sim:gfx950 >"$dir/genco_assert.out" 2>"$dir/genco_assert.err" || status=$?
[ "$status" -eq 1 ] || { echo "cdnajit run of the failing assert: exit $status, expected 1" >&2; exit 1; }
grep -q "trap raised: s_trap 2" "$dir/genco_assert.err" || { echo "the failed assert did not stop the run" >&2; exit 1; }
n=$(grep -c "device_printf.hip:[0-9]*: .*failing_assert.*: Device-side assertion \`threadIdx.x < n' failed\.$" "$dir/genco_assert.out" || true)
[ "$n" -eq 24 ] || { echo "expected 24 assertion messages, got $n" >&2; exit 1; }
for bad in "--offload-arch=gfx942 --offload-arch=gfx950" "-c --offload-arch=gfx942"; do
  status=0
  # shellcheck disable=SC2086
  "$hipcc" --genco $bad "$src" -o "$dir/bad.co" 2>"$dir/genco_usage.err" || status=$?
  [ "$status" -eq 2 ] || { echo "cdnajit-hipcc --genco $bad: exit $status, expected 2" >&2; exit 1; }
  grep -q "genco" "$dir/genco_usage.err" || { echo "cdnajit-hipcc --genco $bad: the message does not say why" >&2; exit 1; }
done
echo "--genco code object: cdnajit run printed 32 lines and 24 assertion messages (failed run)"
