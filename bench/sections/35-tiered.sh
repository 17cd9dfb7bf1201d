#!/usr/bin/env bash
# Tiered compilation (-jit-kind=orc-tiered) against mini-lli -O0 and -O2 and lli-22
# -O2, side by side in one run: SQLite (300,000 rows, the inputs of 30-driver.sh), a
# compute-bound program (bench/programs/compute-kernel.c, about 5 s natively),
# hello-world and the 50,000-function module; peak memory on SQLite. The rows are
# bench/driverbench.py's (tiered).
set -uo pipefail
if ! cmake --build "$BENCH_BUILD" --target mini-lli >"$BENCH_BUILD/tiered-bench.build.log" 2>&1; then
  tail -30 "$BENCH_BUILD/tiered-bench.build.log"
  echo "tiered bench: building mini-lli failed"
  echo "mini-lli orc-tiered rows: unmeasured (build failed): NOT met" >>"$BENCH_HEADLINES"
  exit 1
fi
python3 "$BENCH_ROOT/bench/driverbench.py" prepare || echo "# preparing the inputs failed (rows missing below)"
python3 "$BENCH_ROOT/bench/driverbench.py" tiered
