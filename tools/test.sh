#!/usr/bin/env bash
# The README's test command: installs what is missing, builds, runs every test.
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/build.sh
ctest --test-dir build --output-on-failure -j1
# A short bounded run of the command-line fuzzer (at most 60 s): mutated code
# objects through separate `cdnajit run` / `cdnajit check` processes; exit 1 on
# any crash, hang or odd exit status. The full 10^4 run is a separate command (README).
crash_dir=$(mktemp -d)
build/tools/cdnajit fuzz --through-cli --iterations 300 --seconds 60 --jobs 2 --crash-dir "$crash_dir" \
  --kernel vector_add --kernel bf16_dot
rm -rf "$crash_dir"
