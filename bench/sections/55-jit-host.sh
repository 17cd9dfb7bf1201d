#!/usr/bin/env bash
# The host JIT library (orc-rt-c/Jit.h) side by side with its peers, in one run
# (bench/programs/jit-host-bench.c): a call through a looked-up entry against an
# indirect call to native code; a warm load + lookup + call + unload cycle of a
# one-function module against native dlopen/dlclose of the same code built as a .so
# and against LLVM-C's LLJIT (add with a resource tracker, look up, call, remove).
# The module is bench/programs/dlopen-cycle.c's plugin, as IR and as a .so.
set -uo pipefail
if ! cmake --build "$BENCH_BUILD" --target jit-host-bench >"$BENCH_BUILD/jit-host-bench.build.log" 2>&1; then
  tail -30 "$BENCH_BUILD/jit-host-bench.build.log"
  echo "host JIT bench: building jit-host-bench failed"
  echo "host JIT rows: unmeasured (build failed): NOT met" >>"$BENCH_HEADLINES"
  exit 1
fi
src=$BENCH_ROOT/bench/programs/dlopen-cycle.c
dir=$BENCH_BUILD/bench-inputs/jit-host
mkdir -p "$dir"
clang=/usr/lib/llvm-22/bin/clang
"$clang" -O2 -shared -fPIC -DPLUGIN "$src" -o "$dir/plugin.so" &&
  "$clang" -O2 -S -emit-llvm -DPLUGIN "$src" -o "$dir/plugin.ll" || {
  echo "host JIT bench: compiling the module failed"
  echo "host JIT rows: unmeasured (compile failed): NOT met" >>"$BENCH_HEADLINES"
  exit 1
}
out=$("$BENCH_BUILD/bin/bench/jit-host-bench" "$dir/plugin.ll" "$dir/plugin.so") || {
  echo "host JIT bench: jit-host-bench failed"
  echo "host JIT rows: unmeasured (run failed): NOT met" >>"$BENCH_HEADLINES"
  exit 1
}
get() { printf '%s\n' "$out" | sed -n "s/^$1 //p"; }
python3 - "$(get entry_ns)" "$(get raw_ns)" "$(get jit_cycle_us)" \
  "$(get dlopen_cycle_us)" "$(get lljit_cycle_us)" "$BENCH_HEADLINES" <<'PY'
import sys
entry, raw, jit, dl, lljit = map(float, sys.argv[1:6])
head = sys.argv[6]
print("ROW\thost JIT (orc-rt-c/Jit.h)\tnative\thost JIT\tLLVM-C LLJIT\thost JIT / native")
print("ROW\tcall (ns): entry vs indirect call to host code\t%.2f\t%.2f\t-\t%+.2f ns" % (raw, entry, entry - raw))
print("ROW\twarm load+lookup+call+unload (us, median)\t%.1f\t%.1f\t%.1f\t%.2fx" % (dl, jit, lljit, jit / dl))
print("ROW")
with open(head, "a") as h:
    d = entry - raw
    h.write("host JIT call through an entry: %+.2f ns over an indirect call; target <= +2 ns: %s\n"
            % (d, "met" if d <= 2 else "NOT met"))
    r = jit / dl
    h.write("host JIT warm load/lookup/call/unload: %.2fx native dlopen/dlclose (LLJIT: %.0fx); target <= 2x: %s\n"
            % (r, lljit / dl, "met" if r <= 2 else "NOT met"))
PY
