#!/bin/sh
# `cdnajit selftest --device hip:0` against the drop-in runtime (the environment names it):
#   selftest.sh CDNAJIT ARCH SCRATCH_DIR pass FAMILY...  -- the kernel sets run, the report says the
#       device is the drop-in (the simulator against itself, times modelled), every set's JIT
#       kernels and clang references are in it, every launch's bits are equal, and the drop-in's
#       event times and in-kernel clock values equal the simulator's modelled ones; exit status 0.
#   selftest.sh CDNAJIT ARCH SCRATCH_DIR corrupt -- with the test-only hook that flips one bit of
#       the device's first output, the difference is reported and the exit status is 1.
set -e
cli=$1 arch=$2 dir=$3 mode=$4
shift 4
out="$dir/selftest_${arch}_$mode$(printf '_%s' "$@")"
rm -f "$out.md" "$out.json"
if [ "$mode" = corrupt ]; then
  status=0
  CDNAJIT_SELFTEST_CORRUPT_DEVICE_BYTE=1 "$cli" selftest --device hip:0 --family gemm --warmups 0 --out "$out" \
    > "$out.log" 2>&1 || status=$?
  cat "$out.log"
  test $status -eq 1
  grep -q 'BITS DIFFER' "$out.log"
  grep -q '"pass": false' "$out.json"
  grep -q '\*\*differ\*\*' "$out.md"
  grep -q 'first at byte 0 (device 0x' "$out.md"
  echo PASS
  exit 0
fi
families=""
for f in "$@"; do families="$families --family $f"; done
"$cli" selftest --device hip:0 --warmups 0 $families --out "$out" > "$out.log" 2>&1 || { cat "$out.log"; exit 1; }
cat "$out.log"
grep -q 'compares the simulator with itself through two paths' "$out.md"
grep -q 'modelled (model mi3' "$out.md"
grep -q '^\*\*PASS: ' "$out.md"
grep -q '"pass": true' "$out.json"
if grep -q 'differ' "$out.md"; then echo "a launch differs"; exit 1; fi
# Each registered family's default kernel (verified against the family's reference) and the
# clang references beside it are in the report.
for f in "$@"; do
  [ "$f" = clock ] || grep -q "| $f: JIT, default configuration, verified |" "$out.md" || {
    echo "no verified run of $f's default kernel in the report"; exit 1; }
  case $f in
    dwconv3d) kernels="dwconv3d_v97 dwconv3d_naive dwconv3d_v97_sgb dwconv3d_mfma_band_ref" ;;
    conv3d_igemm) kernels="conv3d_transpose_bf16 conv3d_igemm_bf16 conv3d_igemm_ref conv3d_direct" ;;
    conv_bwd_weight) kernels="conv_bwd_weight conv_bwd_weight_ref conv_bwd_weight_plain" ;;
    gemm) kernels="gemm_bf16_NT gemm_ref" ;;
    gemm_mx) kernels="gemm_mxfp8_f32 gemm_mx_ref" ;;
    examples) kernels="bf16_dot" ;;
    clock) kernels="clock_probe" ;;
  esac
  for k in $kernels; do grep -q "\`$k\`" "$out.md" || { echo "no launch of $k in the report"; exit 1; }; done
done
# On the drop-in, the device's event time is the same model's time of the same launch.
python3 - "$out.json" "$*" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["drop_in"] and d["timings"] >= 20, d
for l in d["launches"]:
    assert l["bits_equal"], l
    assert len(l["device_times_ms"]) == d["timings"], l
    assert l["modelled_ms"] and l["modelled_ms"] > 0, l
    # hipEventElapsedTime returns a float: equal to its precision (2^-24 relative)
    assert abs(l["device_median_ms"] - l["modelled_ms"]) <= 1e-6 * l["modelled_ms"], (l["launch"], l["device_median_ms"], l["modelled_ms"])
clock = [l for l in d["launches"] if l["kernel"] == "clock_probe"]
assert len(clock) == ("clock" in sys.argv[2].split())
assert not clock or clock[0]["reads_clock"] and clock[0]["modelled_clock_cycles"] > 0, clock
assert not clock or clock[0]["device_clock_cycles"] == clock[0]["modelled_clock_cycles"], clock  # the drop-in's clock is modelled
print(len(d["launches"]), "launches checked")
PY
echo PASS
