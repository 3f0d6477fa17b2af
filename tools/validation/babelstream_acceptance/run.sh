#!/bin/sh
# BabelStream (UoB-HPC, commit 57637d5) against AMD's MI300X acceptance thresholds: prints
# `id\tmodelled MB/s` per point of points.json. Usage: run.sh EXT_DIR BUILD_DIR
# The guide's size, 2^28 doubles (2.1 GB per array): every modelled launch carries the product's
# fixed launch overhead, which is 4.5% of Copy's time at 2^25 but 0.56% at 2^28, so the size matters.
# common/babelstream.sh runs only the workgroups the model replays (CDNAJIT_HIP_MODEL_ONLY=round).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
exec "$here/../common/babelstream.sh" "$1/BabelStream" 57637d572532fc028b6c0964944f1afc27ff5436 \
    "$2/validation/babelstream_acceptance" gfx942 mi300x "${BABELSTREAM_SIZE:-268435456}"
