#!/bin/sh
# `cdnajit run --arg bytes:N:hex=HEX|file=PATH`: the struct {float a = 2; int n = 4096} passed by
# value to axpy_struct gives the bytes axpy gives with the scalars f32:2, i32:4096; a wrong size
# is refused naming the argument; malformed hex is a usage error (exit 2).
#   run_bytes.sh CDNAJIT MODULE_KERNELS_CO SCRATCH_DIR
set -e
cli=$1 co=$2 dir=$3
xy="--grid 16 --block 256 --arg buf:x:16384:random --arg buf:y:16384:iota"
printf '\000\000\000\100\000\020\000\000' > "$dir/params.bin"  # 2.0f, 4096 (little-endian)
"$cli" run "$co" --kernel axpy --device sim:gfx942 --arg f32:2 $xy --arg i32:4096 --out y="$dir/y_scalars.bin" > /dev/null
"$cli" run "$co" --kernel axpy_struct --device sim:gfx942 --arg bytes:8:hex=0000004000100000 $xy --out y="$dir/y_hex.bin" > /dev/null
"$cli" run "$co" --kernel axpy_struct --device sim:gfx942 --arg bytes:8:file="$dir/params.bin" $xy --out y="$dir/y_file.bin" > /dev/null
cmp "$dir/y_scalars.bin" "$dir/y_hex.bin"
cmp "$dir/y_scalars.bin" "$dir/y_file.bin"
status=0
"$cli" run "$co" --kernel axpy_struct --device sim:gfx942 --arg bytes:4:hex=00000040 $xy > "$dir/bytes_err.txt" 2>&1 || status=$?
test $status -ne 0
grep -q "expects a 8-byte value" "$dir/bytes_err.txt"
status=0
"$cli" run "$co" --kernel axpy_struct --device sim:gfx942 --arg bytes:2:hex=0g00 $xy > "$dir/bytes_err.txt" 2>&1 || status=$?
test $status -eq 2
grep -q "not a hex digit" "$dir/bytes_err.txt"
echo PASS
