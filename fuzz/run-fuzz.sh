#!/bin/sh
# Builds the libFuzzer target (clang-22, ASan + UBSan) from the runtime's sources and
# runs it on a copy of the seed corpus for a bounded time.
#   fuzz/run-fuzz.sh [SECONDS] [BUILD-DIR]     (defaults: 30, build-fuzz/)
# Exit status: 0 if no crash, leak, timeout or sanitizer report; libFuzzer's otherwise.
set -eu
SECONDS_TO_RUN=${1:-30}
SRC=$(cd "$(dirname "$0")/.." && pwd)
OUT=${2:-$SRC/build-fuzz}
CLANG=${CLANG:-/usr/lib/llvm-22/bin/clang}
mkdir -p "$OUT/corpus"
# The runtime library sources (support, core, services, remote), as CMake builds them.
SOURCES=$(ls "$SRC"/lib/support/*.c "$SRC"/lib/core/*.c "$SRC"/lib/services/*.c \
             "$SRC"/lib/remote/*.c)
"$CLANG" -std=c11 -D_GNU_SOURCE -g -O1 -fsanitize=fuzzer,address,undefined \
  -fno-sanitize-recover=undefined -I"$SRC/include" -I"$SRC/lib" \
  "$SRC/fuzz/ExecutorFuzzer.c" $SOURCES -o "$OUT/executor-fuzzer" -lpthread -ldl -lrt
cp "$SRC"/fuzz/corpus/* "$OUT/corpus/"
"$OUT/executor-fuzzer" -max_total_time="$SECONDS_TO_RUN" -timeout=10 -rss_limit_mb=2048 \
  -max_len=65536 -print_final_stats=1 "$OUT/corpus"
