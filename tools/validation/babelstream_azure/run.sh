#!/bin/sh
# Azure's BabelStream fork (gitaumark/BabelStream, commit 1a1a729: upstream 2f00dfb's HIP kernels)
# against Azure's published ND MI300X v5 figures: prints `id\tmodelled MB/s` per point of
# points.json. Usage: run.sh EXT_DIR BUILD_DIR
# 2^28 doubles instead of the fork's default 1308622848 (10.5 GB per array): three such arrays
# exceed the memory the drop-in runtime reports for the simulated device (the host's), and the
# program refuses to start. The launch overhead is then 0.56% of Copy's time instead of 0.12%.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
exec "$here/../common/babelstream.sh" "$1/BabelStream-gitaumark" 1a1a729517df6c44bfbfe6d0db36a24fe8dc6726 \
    "$2/validation/babelstream_azure" gfx942 mi300x "${BABELSTREAM_SIZE:-268435456}" -DBABELSTREAM_V4_API
