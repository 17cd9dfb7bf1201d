#!/usr/bin/env bash
# Our ELFNix platform runtime archive vs compiler-rt's under stock llvm-jitlink: executor
# instructions for one hello-world session, with each executor (bench/platformbench.py).
set -uo pipefail
cmake --build "$BENCH_BUILD" --target orc-executor orc-rt-c-elfnix \
  >"$BENCH_BUILD/platform-bench.build.log" 2>&1
python3 "$BENCH_ROOT/bench/platformbench.py"
