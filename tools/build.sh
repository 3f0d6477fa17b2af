#!/usr/bin/env bash
# Configures and builds cdnajit (Release) in ./build.
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/setup-deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release > build.configure.log 2>&1 || { cat build.configure.log; exit 1; }
ninja -C build -j"$(nproc)"
