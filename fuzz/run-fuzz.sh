#!/bin/sh
# Builds the libFuzzer targets (clang-22, ASan + UBSan) from the runtime's sources,
# replays each target's regression inputs, then fuzzes each for a bounded time on a
# copy of its seed corpus.
#
#   fuzz/run-fuzz.sh [SECONDS] [BUILD-DIR] [TARGET...]
#
# SECONDS (default 30) is per target; 0 only builds and replays the regressions.
# BUILD-DIR defaults to build-fuzz/. TARGETs (default: all of them):
#   executor  ExecutorFuzzer.c  framing + SPS decoding + direct wrapper calls  corpus/
#   sps       SPSFuzzer.c       SPS decoders alone, with the reader's contract  corpus-sps/
#   stream    StreamFuzzer.c    a whole stream through the server's read loop  corpus-stream/
#   options   OptionsFuzzer.c   mini-lli's option parser (lib/jit/lli/Options.c)    corpus-options/
#   jit       JitLoadFuzzer.c   orc_rt_Jit_loadMemory (the JIT library; links LLVM) corpus-jit/
# Regression inputs (crashes once found, now fixed) live in fuzz/regressions/TARGET/
# and are replayed before fuzzing; any crash there fails the run.
# Exit status: 0 if no crash, leak, timeout or sanitizer report; non-zero otherwise.
set -eu
SECONDS_TO_RUN=${1:-30}
SRC=$(cd "$(dirname "$0")/.." && pwd)
OUT=${2:-$SRC/build-fuzz}
[ $# -ge 2 ] && shift 2 || shift $#
TARGETS=${*:-executor sps stream options jit}
CLANG=${CLANG:-/usr/lib/llvm-22/bin/clang}
JOBS=${JOBS:-2}
# FUZZ_SANITIZER=thread builds with TSan instead (useful for the stream target,
# whose calls run on their own threads); use a separate BUILD-DIR for it.
SAN=${FUZZ_SANITIZER:-address,undefined}
CFLAGS="-std=c11 -D_GNU_SOURCE -g -O1 -fsanitize=$SAN -I$SRC/include -I$SRC/lib"
case $SAN in *undefined*) CFLAGS="$CFLAGS -fno-sanitize-recover=undefined" ;; esac
LIBS="-lpthread -ldl -lrt -lm"
mkdir -p "$OUT/obj"

# The runtime library sources (support, core, services, remote), as CMake builds
# them, compiled once per run into $OUT/obj.
runtime_objects() {
  if [ ! -f "$OUT/obj/.done" ] || [ -n "$(find "$SRC/lib" "$SRC/include" \
      -newer "$OUT/obj/.done" -name '*.[ch]' | head -1)" ]; then
    rm -f "$OUT"/obj/*.o
    ls "$SRC"/lib/support/*.c "$SRC"/lib/core/*.c "$SRC"/lib/services/*.c \
       "$SRC"/lib/remote/*.c |
      xargs -P "$JOBS" -I{} sh -c '
        f={}; o="$0/obj/$(basename "$(dirname "$f")")-$(basename "$f" .c).o"
        exec "$1" $2 -fsanitize=fuzzer-no-link -c "$f" -o "$o"' \
        "$OUT" "$CLANG" "$CFLAGS"
    touch "$OUT/obj/.done"
  fi
  ls "$OUT"/obj/*.o
}

# The JIT library's sources (lib/jit: support, ir, compile, cache, modules, tier, host),
# for the jit target, into $OUT/jit-obj; LLVM itself is not instrumented.
LLVM_LIBDIR=$(dirname "$CLANG")/../lib
jit_objects() {
  if [ ! -f "$OUT/jit-obj/.done" ] || [ -n "$(find "$SRC/lib/jit" "$SRC/include" \
      -newer "$OUT/jit-obj/.done" -name '*.[ch]' | head -1)" ]; then
    mkdir -p "$OUT/jit-obj"
    rm -f "$OUT"/jit-obj/*.o
    for d in support ir compile cache modules tier host; do ls "$SRC"/lib/jit/$d/*.c; done |
      xargs -P "$JOBS" -I{} sh -c '
        f={}; o="$0/jit-obj/$(basename "$(dirname "$f")")-$(basename "$f" .c).o"
        exec "$1" $2 -fsanitize=fuzzer-no-link -I$3 -DORC_RT_C_VERSION=\"fuzz\" \
          -DORC_RT_C_LLVM_VERSION=\"fuzz\" -c "$f" -o "$o"' \
        "$OUT" "$CLANG" "$CFLAGS" "$(dirname "$CLANG")/../include"
    touch "$OUT/jit-obj/.done"
  fi
  ls "$OUT"/jit-obj/*.o
}

build() { # target -> $OUT/$1-fuzzer
  case $1 in
  executor) MAIN=ExecutorFuzzer.c; OBJS=$(runtime_objects); EXTRA= ;;
  sps)      MAIN=SPSFuzzer.c;      OBJS=$(runtime_objects); EXTRA= ;;
  stream)   MAIN=StreamFuzzer.c;   OBJS=$(runtime_objects); EXTRA= ;;
  options)  MAIN=OptionsFuzzer.c;  OBJS=
            EXTRA="$SRC/lib/jit/lli/Options.c $SRC/lib/jit/lli/CodeGenFlags.c $SRC/lib/jit/support/AbsolutePath.c $SRC/lib/support/Error.c $SRC/lib/support/FaultInjection.c
                   -DORC_RT_C_VERSION=\"fuzz\" -DORC_RT_C_LLVM_VERSION=\"fuzz\"" ;;
  jit)      MAIN=JitLoadFuzzer.c;  OBJS="$(runtime_objects) $(jit_objects)"
            EXTRA="-L$LLVM_LIBDIR -lLLVM -Wl,-rpath,$LLVM_LIBDIR" ;;
  *) echo "run-fuzz.sh: unknown target '$1'" >&2; exit 2 ;;
  esac
  # shellcheck disable=SC2086
  "$CLANG" $CFLAGS -fsanitize=fuzzer "$SRC/fuzz/$MAIN" $EXTRA $OBJS \
    -o "$OUT/$1-fuzzer" $LIBS
}

corpus_dir() {
  if [ "$1" = executor ]; then echo "$SRC/fuzz/corpus"; else echo "$SRC/fuzz/corpus-$1"; fi
}

for T in $TARGETS; do
  echo "== fuzz target: $T"
  build "$T"
  # LLVM's IR readers leak on some input they reject (the bitcode reader's
  # forward-reference placeholders); libLLVM.so has no frame pointers, so the fast
  # unwinder cannot tell those leaks from ours, and full unwinding makes an input
  # take seconds. The jit target so checks crashes and memory errors, not leaks
  # (unittests/JitTest runs malformed modules under LSan instead).
  if [ "$T" = jit ]; then
    export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
  fi
  REG="$SRC/fuzz/regressions/$T"
  if [ -d "$REG" ] && [ -n "$(ls "$REG")" ]; then
    echo "== replaying $(ls "$REG" | wc -l) regression input(s) of $T"
    "$OUT/$T-fuzzer" -timeout=10 -rss_limit_mb=2048 "$REG"/*
  fi
  if [ "$SECONDS_TO_RUN" -gt 0 ]; then
    rm -rf "$OUT/corpus-$T"
    mkdir -p "$OUT/corpus-$T"
    cp "$(corpus_dir "$T")"/* "$OUT/corpus-$T/"
    # The jit target fuzzes IR text only (FUZZ_JIT_BITCODE=1 adds bitcode):
    # LLVM's bitcode reader is not hardened against malformed input (short
    # runs found a SIGSEGV inside it and a 1.7 KB input it spent 3.4 GB and
    # 28 s on), which no caller of LLVMParseIRInContext can turn into an
    # error (docs/Embedding.md). Its regressions above replay bitcode too.
    ASCII=
    [ "$T" = jit ] && [ "${FUZZ_JIT_BITCODE:-0}" != 1 ] && ASCII=-only_ascii=1
    "$OUT/$T-fuzzer" -max_total_time="$SECONDS_TO_RUN" -timeout=10 $ASCII \
      -rss_limit_mb=2048 -max_len=65536 -print_final_stats=1 "$OUT/corpus-$T"
  fi
done
