#!/usr/bin/env bash
# build-with-pkg-config.sh CC OUT SRC [CFLAGS...]: builds SRC against orc-rt-c using only
# what pkg-config reports (PKG_CONFIG_PATH points at the installed .pc file).
set -eu
cc=$1 out=$2 src=$3
shift 3
# shellcheck disable=SC2046
"$cc" "$@" "$src" -o "$out" $(pkg-config --cflags --libs orc-rt-c) -lpthread
