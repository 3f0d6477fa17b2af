#!/usr/bin/env bash
# Installs this build into a fresh prefix, then configures, builds and runs the
# out-of-tree consumer project (tests/package/consumer) against the installed
# package only, with the compiler of the build (a sanitizer build's libraries need
# that compiler's sanitizer runtimes). Usage: run_consumer.sh BUILD_DIR SOURCE_DIR [CXX_COMPILER]
set -euo pipefail
build=$(cd "$1" && pwd)
src=$(cd "$2" && pwd)
work=$build/package-test
rm -rf "$work"
mkdir -p "$work"
cmake --install "$build" --prefix "$work/prefix" > "$work/install.log"
"$work/prefix/bin/cdnajit" list > /dev/null
# The documentation a kernel author works from is installed: the tutorial, the reference, the lane layouts.
for doc in README.md isa.md simulator.md timing-model.md; do
  [ -s "$work/prefix/share/doc/cdnajit/$doc" ] || { echo "not installed: share/doc/cdnajit/$doc" >&2; exit 1; }
done
grep -q "### A one-wave MFMA tile" "$work/prefix/share/doc/cdnajit/README.md" || { echo "installed README.md has no tutorial" >&2; exit 1; }
cmake_args=()
command -v ccache > /dev/null && cmake_args=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
[ -n "${3:-}" ] && cmake_args+=(-DCMAKE_CXX_COMPILER="$3")
cmake -S "$src/tests/package/consumer" -B "$work/consumer" -G Ninja -DCMAKE_BUILD_TYPE=Release \
      -DCMAKE_PREFIX_PATH="$work/prefix" "${cmake_args[@]}" > "$work/configure.log" || { cat "$work/configure.log"; exit 1; }
cmake --build "$work/consumer" > "$work/build.log" || { cat "$work/build.log"; exit 1; }
"$work/consumer/scale_kernel"
