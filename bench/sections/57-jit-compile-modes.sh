#!/usr/bin/env bash
# The host JIT library's compile modes side by side in one run
# (bench/programs/jit-compile-modes.c): a host loads SQLite with its driver (the
# inputs of 30-driver.sh, 50,000 rows) and runs its main, compiled eagerly at -O0
# and -O2, Lazy at -O2 and Tiered at -O2; each a fresh process, interleaved,
# median of the runs. No target: the rows say what each mode costs.
set -uo pipefail
if ! cmake --build "$BENCH_BUILD" --target jit-compile-modes >"$BENCH_BUILD/jit-compile-modes.build.log" 2>&1; then
  tail -30 "$BENCH_BUILD/jit-compile-modes.build.log"
  echo "host JIT compile modes: building jit-compile-modes failed"
  exit 1
fi
python3 "$BENCH_ROOT/bench/driverbench.py" prepare >/dev/null ||
  echo "# preparing the inputs failed (rows missing below)"
bc=$BENCH_BUILD/bench-inputs/sqlite-bench.bc
out=$("$BENCH_BUILD/bin/bench/jit-compile-modes" "$bc" "${ORC_RT_C_BENCH_MODE_RUNS:-3}" 50000) || {
  echo "host JIT compile modes: jit-compile-modes failed"
  exit 1
}
python3 - "$out" <<'PY'
import sys
rows = {}
for line in sys.argv[1].splitlines():
    name, *kv = line.split()
    rows[name] = dict(x.split("=") for x in kv)
base = float(rows["eager-O2"]["total_s"])
status = {r["status"] for r in rows.values()}
print("ROW\thost JIT: SQLite (50,000 rows), load + main\tload (s)\tmain (s)\ttotal (s)\tpeak (MiB)\ttotal / eager -O2")
for name in ("eager-O0", "eager-O2", "Lazy-O2", "Tiered-O2"):
    r = rows[name]
    print("ROW\t%s\t%s\t%s\t%s\t%.0f\t%.2fx" % (name, r["load_s"], r["run_s"], r["total_s"],
                                              int(r["peak_kb"]) / 1024, float(r["total_s"]) / base))
if len(status) != 1:
    print("ROW\tmain's status differs between the modes: %s" % sorted(status))
print("ROW")
PY
