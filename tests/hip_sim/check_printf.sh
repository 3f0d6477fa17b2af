#!/bin/sh
# Device printf and assert on the drop-in runtime. Usage: check_printf.sh DEVICE_PRINTF_PROGRAM WORK_DIR
#  - `print`: the kernels' stdout equals the lines the C library prints for the same formats and
#    values (the program prints those to stderr as "want: ..."): the first seven in order (one
#    work-item), the 32 lines of 8 workgroups in any order (the simulator runs workgroups on
#    several host threads, as a GPU runs them in no fixed order);
#  - `assert`: the launch fails with hipErrorLaunchFailure and ROCm's message is printed once per
#    failing work-item (24 of 64).
set -eu
prog=$1
dir=$2
"$prog" print >"$dir/printf.out" 2>"$dir/printf.err"
sed -n 's/^want: //p' "$dir/printf.err" >"$dir/printf.want"
[ "$(wc -l <"$dir/printf.want")" -eq 39 ] || { echo "expected 39 reference lines" >&2; exit 1; }
head -n 7 "$dir/printf.want" >"$dir/printf.want.head"
head -n 7 "$dir/printf.out" | diff "$dir/printf.want.head" - || { echo "the single work-item's lines differ" >&2; exit 1; }
sort "$dir/printf.want" >"$dir/printf.want.sorted"
sort "$dir/printf.out" | diff "$dir/printf.want.sorted" - || { echo "the printed lines differ" >&2; exit 1; }
if "$prog" assert >"$dir/assert.out" 2>"$dir/assert.err"; then :; else echo "assert run: exit $?" >&2; cat "$dir/assert.err" >&2; exit 1; fi
grep -q 'launch: hipErrorLaunchFailure' "$dir/assert.err" || { echo "the failed assert did not fail the launch" >&2; exit 1; }
n=$(grep -c "device_printf.hip:[0-9]*: .*failing_assert.*: Device-side assertion \`threadIdx.x < n' failed\.$" "$dir/assert.out" || true)
[ "$n" -eq 24 ] || { echo "expected 24 assertion messages, got $n:" >&2; head -3 "$dir/assert.out" >&2; exit 1; }
echo "device printf: 39 lines as the C library prints them; 24 assertion messages and a failed launch"
