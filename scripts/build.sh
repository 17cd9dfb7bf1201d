#!/usr/bin/env bash
# Installs what is missing, then configures and builds orc-rt-c into a build folder.
#   scripts/build.sh [BUILD_DIR] [extra cmake args...]
# BUILD_DIR defaults to build/. ORC_RT_C_SANITIZER=address|thread selects a sanitizer
# build (ASan+UBSan or TSan).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bash "$root/scripts/install-deps.sh"
dir=${1:-$root/build}
shift || true
args=()
args+=("-DORC_RT_C_SANITIZER=${ORC_RT_C_SANITIZER:-}")
# Benchmarks mean nothing under a sanitizer, and three of them link LLVM statically:
# a sanitizer build leaves them out (the normal build still compiles them).
[ -n "${ORC_RT_C_SANITIZER:-}" ] && args+=(-DORC_RT_C_BUILD_BENCH=OFF)
[ -n "${CI:-}" ] && args+=(-DORC_RT_C_WERROR=ON)
cmake -S "$root" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo ${args[@]+"${args[@]}"} "$@" >/dev/null
cmake --build "$dir"
