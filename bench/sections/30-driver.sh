#!/usr/bin/env bash
# mini-lli vs lli-22, side by side: hello-world (many runs), the SQLite amalgamation of
# the npm package better-sqlite3@12 with bench/programs/sqlite-driver.c (fetched and
# compiled once into $BENCH_BUILD/bench-inputs, never committed), and a generated
# module of 50,000 functions of which main calls ten; each at -jit-kind=orc and
# orc-lazy, -O0 and -O2, the same for both tools; and the SQLite program run natively.
# The rows are bench/driverbench.py's.
set -uo pipefail
if ! cmake --build "$BENCH_BUILD" --target mini-lli orc-executor >"$BENCH_BUILD/driver-bench.build.log" 2>&1; then
  tail -30 "$BENCH_BUILD/driver-bench.build.log"
  echo "driver bench: building mini-lli and orc-executor failed"
  echo "mini-lli vs lli rows: unmeasured (build failed): NOT met" >>"$BENCH_HEADLINES"
  exit 1
fi
python3 "$BENCH_ROOT/bench/driverbench.py" prepare || echo "# preparing the inputs failed (rows missing below)"
python3 "$BENCH_ROOT/bench/driverbench.py" driver
