#!/usr/bin/env bash
# Installs the Debian 12 packages cdnajit builds and runs with; does nothing
# when they are all present. Needs root (or sudo) only when something is missing.
set -euo pipefail
packages=(cmake ninja-build g++ llvm-22 llvm-22-dev lld-22 liblld-22-dev clang-22
          libfmt-dev catch2 libamdhip64-dev zlib1g-dev libzstd-dev libcli11-dev
          libmpfr-dev libgmp-dev libsqlite3-dev nlohmann-json3-dev
          rocm-device-libs  # ROCm's device math library (ocml.bc), linked by cdnajit-hipcc
          libclang-rt-22-dev)  # libclang-rt: the sanitizer and libFuzzer runtimes (CDNAJIT_SANITIZE, CDNAJIT_FUZZ)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "cdnajit: installing ${missing[*]}"
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO=sudo
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
