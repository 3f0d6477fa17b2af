#!/bin/sh
# cdnajit-hipcc --emit-static-lib: a HIP source with its own kernel archived into a static library
# (host code and fat binary in its object), linked into a plain C++ program by cdnajit-hipcc and,
# the other way ROCm's examples build it, by the host C++ compiler against the drop-in runtime; both
# programs run the library's kernel. Usage: check_static_lib.sh CDNAJIT_HIPCC CXX LIBDIR SRC_DIR WORK_DIR
set -eu
hipcc=$1 cxx=$2 libdir=$3 src=$4 dir=$5
rm -f "$dir/libscale.a"
"$hipcc" --emit-static-lib --offload-arch=gfx942 -O2 "$src/scale.hip" -o "$dir/libscale.a"
ar t "$dir/libscale.a" | grep -q '\.o$' || { echo "libscale.a holds no object" >&2; exit 1; }
"$hipcc" "$src/main.cpp" -L"$dir" -lscale -o "$dir/static_lib_hipcc"
"$dir/static_lib_hipcc"
"$cxx" "$src/main.cpp" -L"$dir" -lscale -L"$libdir" -l:libamdhip64.so.5 -Wl,-rpath,"$libdir" -o "$dir/static_lib_cxx"
"$dir/static_lib_cxx"
status=0
"$hipcc" --emit-static-lib "$src/scale.hip" 2>"$dir/static_usage.err" || status=$?
[ "$status" -eq 2 ] && grep -q "emit-static-lib" "$dir/static_usage.err" || { echo "--emit-static-lib without -o: exit $status" >&2; exit 1; }
