#!/bin/sh
# Azure's BabelStream fork (gitaumark/BabelStream, commit 1a1a729: upstream 2f00dfb's HIP kernels)
# against Azure's published ND MI300X v5 figures: prints `id\tmodelled MB/s` per point of
# points.json. Usage: run.sh EXT_DIR BUILD_DIR
# 2^25 doubles instead of the fork's default 1308622848 (10.5 GB per array): see
# babelstream_acceptance/run.sh for why the modelled MB/s does not depend on the size here.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
exec "$here/../common/babelstream.sh" "$1/BabelStream-gitaumark" 1a1a729517df6c44bfbfe6d0db36a24fe8dc6726 \
    "$2/validation/babelstream_azure" gfx942 mi300x "${BABELSTREAM_SIZE:-33554432}" -DBABELSTREAM_V4_API
