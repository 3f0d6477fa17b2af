#!/usr/bin/env bash
# The README's main command: build, then run the seed depthwise-conv3d job.
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/build.sh
./build/tools/cdnajit seed --arch gfx950 --asm build/dwconv3d_seed_gfx950.s "$@"
