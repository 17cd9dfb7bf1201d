#!/usr/bin/env bash
# orc-executor vs llvm-jitlink-executor under stock llvm-jitlink (-oop-executor=PATH):
# per-run wall time on hello-world and on the SQLite program as an object file, with
# llvm-jitlink in-process as the baseline of the per-run overhead; and the bare
# start-up of orc-executor, llvm-jitlink-executor and lli-child-target (EOF on the
# input fd) in callgrind instructions. Inputs come from 30-driver.sh.
set -uo pipefail
[ -x "$BENCH_BUILD/bin/orc-executor" ] ||
  cmake --build "$BENCH_BUILD" --target orc-executor >"$BENCH_BUILD/executor-bench.build.log" 2>&1
[ -f "$BENCH_BUILD/bench-inputs/hello.o" ] || python3 "$BENCH_ROOT/bench/driverbench.py" prepare
python3 "$BENCH_ROOT/bench/driverbench.py" executor
