#!/bin/sh
# Runs every published-measurement source under tools/validation (each folder's run.sh) and
# writes its modelled.tsv, which `report_model` reads. Usage: run_all.sh EXT_DIR BUILD_DIR
# EXT_DIR holds the public checkouts (outside this repository), BUILD_DIR the project's build.
# A source whose run fails keeps its previous modelled.tsv and the script exits 1 at the end.
set -u
if [ $# -ne 2 ] || [ ! -d "$1" ] || [ ! -x "$2/tools/cdnajit-hipcc" ]; then
  echo "usage: run_all.sh EXT_DIR BUILD_DIR  (EXT_DIR: the folder of the public checkouts; BUILD_DIR: a build with tools/cdnajit-hipcc)" >&2
  exit 2
fi
ext=$(cd "$1" && pwd) build=$(cd "$2" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
status=0
for run in "$here"/*/run.sh; do
  dir=$(dirname "$run") name=$(basename "$(dirname "$run")")
  [ -f "$dir/points.json" ] || continue
  echo "== $name" >&2
  start=$(date +%s)
  if "$run" "$ext" "$build" > "$dir/modelled.tsv.new"; then
    mv "$dir/modelled.tsv.new" "$dir/modelled.tsv"
    echo "   $(wc -l < "$dir/modelled.tsv") points in $(( $(date +%s) - start )) s" >&2
  else
    rm -f "$dir/modelled.tsv.new"
    echo "   FAILED (modelled.tsv left as it was)" >&2
    status=1
  fi
done
exit $status
