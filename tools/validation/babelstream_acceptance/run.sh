#!/bin/sh
# BabelStream (UoB-HPC, commit 57637d5) against AMD's MI300X acceptance thresholds: prints
# `id\tmodelled MB/s` per point of points.json. Usage: run.sh EXT_DIR BUILD_DIR
# 2^25 doubles (268 MB per array) instead of the guide's 2^28: the model starts every launch with
# empty caches and both sizes are many rounds of the grid, so the modelled MB/s does not depend on
# the size here (README of tools/validation shows both sizes).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
exec "$here/../common/babelstream.sh" "$1/BabelStream" 57637d572532fc028b6c0964944f1afc27ff5436 \
    "$2/validation/babelstream_acceptance" gfx942 mi300x "${BABELSTREAM_SIZE:-33554432}"
