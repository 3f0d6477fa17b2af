#!/usr/bin/env bash
# Builds the libFuzzer targets (clang++-22, ASan + UBSan, in ./build-fuzz) and
# runs each one bounded, starting from a seed corpus made of the built-in
# kernels (code objects, their .text, their .s lines, command lines).
#
#   tools/fuzz.sh [SECONDS_PER_TARGET] [TARGET...]     default: 60 s, all four targets
#   FUZZ_RUNS=1000000 tools/fuzz.sh 3600 fuzz_decoder   a campaign: stop after 10^6 executions
#                                                       (or the seconds, whichever comes first)
#
# Findings (crash-*, leak-*, timeout-*, oom-* files) land in build-fuzz/artifacts/<target>/;
# replay one with: build-fuzz/tools/fuzz/<target> <file>. The exit status is 1 when any
# target found something. Needs ./build (the normal build) for the corpus: tools/build.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
shift || true
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(fuzz_code_object_reader fuzz_decoder fuzz_asm_parser fuzz_cli_args)
jobs=${FUZZ_BUILD_JOBS:-2}

cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++-22 \
      -DCMAKE_C_COMPILER=clang-22 -DCDNAJIT_FUZZ=ON > build-fuzz.configure.log 2>&1 \
  || { cat build-fuzz.configure.log; exit 1; }
nice -n 10 ninja -C build-fuzz -j"$jobs" "${targets[@]}"

# Seed corpus: the built-in kernels (made with the normal build's cdnajit) and
# clang-compiled HIP kernels (tests/isa/kernels/*.hip) for both archs.
cli=build/tools/cdnajit
[ -x "$cli" ] || { echo "fuzz.sh: $cli is missing; run tools/build.sh first" >&2; exit 1; }
corpus=build-fuzz/corpus
decoder_piece=64
# A corpus made by an older version of this script (other piece sizes) is made again.
corpus_version="decoder pieces of $decoder_piece bytes"
if [ -d "$corpus" ] && [ "$(cat "$corpus/.made" 2>/dev/null)" != "$corpus_version" ]; then
  rm -rf "$corpus"
fi
mkdir -p "$corpus"/{fuzz_code_object_reader,fuzz_decoder,fuzz_asm_parser,fuzz_cli_args}
add_code_object() {  # <code object> <arch> <name>: the object, its .text and its instruction lines
  local co=$1 arch=$2 name=$3 text
  cp "$co" "$corpus/fuzz_code_object_reader/$name.$arch.co"
  text=$(mktemp)
  llvm-objcopy-22 -O binary --only-section=.text "$co" "$text"
  # The decoder target's first byte picks the arch (odd: gfx950). The code goes in pieces of
  # $decoder_piece bytes (at most 16 instructions): the target's cost is per decoded instruction,
  # so small inputs execute fast, and every piece's instructions stay in the corpus (the run's
  # -max_len keeps mutants as small).
  local piece
  split -b "$decoder_piece" -d -a 4 "$text" "$text.piece."
  for piece in "$text".piece.*; do
    { if [ "$arch" = gfx950 ]; then printf '\x01'; else printf '\x00'; fi; cat "$piece"; } \
      > "$corpus/fuzz_decoder/$name.$arch.${piece##*.}.bin"
  done
  rm -f "$text" "$text".piece.*
  # One file per distinct instruction line, in the disassembler's syntax (what isa::parse reads).
  llvm-objdump-22 -d --no-show-raw-insn --no-leading-addr --mcpu="$arch" "$co" 2>/dev/null |
    grep -E '^\s+[a-z_0-9]+' | sed -E 's/^\s+//; s/\s*(;|\/\/).*$//' | sort -u | awk 'NR <= 300' |  # not head: an early close would end the script (pipefail)
    while IFS= read -r line; do
      printf '%s' "$line" > "$corpus/fuzz_asm_parser/$(printf '%s' "$line" | md5sum | cut -c1-16)"
    done
}
if [ -e "$corpus/.made" ]; then  # the seed corpus of an earlier run (delete build-fuzz/corpus to remake it)
  echo "seed corpus: $corpus (made earlier)"
else
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for arch in gfx942 gfx950; do
  for k in $("$cli" list --kernels); do
    "$cli" build --kernel "$k" --arch "$arch" -o "$tmp/k.co" > /dev/null 2>&1 && add_code_object "$tmp/k.co" "$arch" "$k"
  done
  for hip in tests/isa/kernels/*.hip; do  # gfx950.hip needs gfx950: its gfx942 compile fails and is skipped
    clang++-22 -x hip --offload-arch="$arch" --cuda-device-only --no-gpu-bundle-output -nogpulib -nogpuinc -O3 \
      -c "$hip" -o "$tmp/h.co" > /dev/null 2>&1 && add_code_object "$tmp/h.co" "$arch" "hip_$(basename "$hip" .hip)"
  done
done
cl=0
while IFS= read -r line; do  # command lines, words separated by NUL
  printf '%s' "$line" | tr ' ' '\0' > "$corpus/fuzz_cli_args/cmd$cl"
  cl=$((cl + 1))
done <<'CMDS'
list
dump --kernel bf16_dot --arch gfx942
job gemm --config tile=64x64 --arch gfx942 --model none
dump --family gemm --config waves=2x4 --problem 256x256x64
build --kernel vector_add --arch=gfx950 -o /tmp/x.co --hazards verify
stats --kernel dwconv3d_seed.row_interleaved --waitcnt off
run x.co --kernel vector_add --device sim:gfx950 --grid 4,1,1 --block 256 --arg buf:a:4096:iota --arg buf:b:4096:random --arg buf:out:4096 --arg u32:1000 --out out=/tmp/out.bin --max-instructions 100000 --timeout 2.5
run x.co --kernel k --grid 4294967295 --block 1,1,1 --lds 65536 --arg i32:-5 --arg f32:1e-3 --arg i64:0x10 --arg u64:7 --arg f64:2.5
seed --arch gfx950 --variant lds_dot2 --channels 1 --asm /tmp/s.s
fuzz --kernel vector_add --seconds 1 --iterations 10 --seed 5 --no-launch
run --help
CMDS
echo "$corpus_version" > "$corpus/.made"
fi

status=0
for t in "${targets[@]}"; do
  mkdir -p "build-fuzz/artifacts/$t" "build-fuzz/work/$t"
  echo "== $t: ${seconds} s"
  log="build-fuzz/artifacts/$t/run.log"
  # -rss_limit_mb / -timeout: an input over 2 GB or 10 s is a finding, not a stalled run.
  runs=()
  [ -n "${FUZZ_RUNS:-}" ] && runs=(-runs="$FUZZ_RUNS")
  [ "$t" = fuzz_decoder ] && runs+=(-max_len=$((decoder_piece + 1)))  # the arch byte + one piece
  # handle_segv=0: libFuzzer's own SIGSEGV handler writes the crash input (ASan's report of a
  # SIGSEGV inside LLVM's uninstrumented code sometimes died in the unwinder before that).
  if ! ASAN_OPTIONS=${ASAN_OPTIONS:-handle_segv=0} nice -n 10 "build-fuzz/tools/fuzz/$t" "build-fuzz/work/$t" "$corpus/$t" -max_total_time="$seconds" "${runs[@]}" \
       -rss_limit_mb=2048 -timeout=10 -artifact_prefix="build-fuzz/artifacts/$t/" -print_final_stats=1 \
       > "$log" 2>&1; then
    status=1
    echo "   FINDING (see $log):"; grep -E 'ERROR|SUMMARY|Test unit written' "$log" | head -5 | sed 's/^/   /'
  fi
  grep -E '^stat::number_of_executed_units|^stat::peak_rss_mb' "$log" | sed 's/^/   /'
done
exit $status
