#!/usr/bin/env bash
# Hot reload of the host JIT library (orc-rt-c/Jit.h), in one run:
#   latency (bench/programs/jit-reload-latency.c): orc_rt_JitModule_reloadMemory of a
#     one-function module to a new version (a new body each time: compiled, no cache),
#     median of 50, against what a dlopen-based reloader pays for the same IR: clang
#     -O2 -shared -fPIC as a new process, then dlopen + dlsym + call + dlclose, median
#     of 10;
#   churn (bench/programs/jit-reload-churn.c): N reloads of a small module (N is
#     $BENCH_CHURN_N, default 100000: 150-250 s on a quiet machine, 8-10 minutes at load
#     average 3-7), resident memory after the first tenth and at the end, time of the
#     first and the last tenth in wall and in process CPU time (the verdict is on CPU
#     time: on a shared machine the wall time moves with the load).
set -uo pipefail
if ! cmake --build "$BENCH_BUILD" --target jit-reload-latency jit-reload-churn \
     >"$BENCH_BUILD/jit-reload-bench.build.log" 2>&1; then
  tail -30 "$BENCH_BUILD/jit-reload-bench.build.log"
  echo "host JIT reload bench: building the reload benches failed"
  echo "host JIT reload rows: unmeasured (build failed): NOT met" >>"$BENCH_HEADLINES"
  exit 1
fi
dir=$BENCH_BUILD/bench-inputs/jit-reload
mkdir -p "$dir"
clang=/usr/lib/llvm-22/bin/clang
n=${BENCH_CHURN_N:-100000}
status=0
lat=$("$BENCH_BUILD/bin/bench/jit-reload-latency" "$clang" "$dir" 50 10) || {
  echo "host JIT reload bench: jit-reload-latency failed"
  lat=
  status=1
}
churn=$("$BENCH_BUILD/bin/bench/jit-reload-churn" "$n") || {
  echo "host JIT reload bench: jit-reload-churn $n failed"
  churn=
  status=1
}
get() { printf '%s\n' "$1" | sed -n "s/^$2 //p"; }
python3 - "$BENCH_HEADLINES" "$n" \
  "$(get "$lat" reload_us)" "$(get "$lat" reload_best_us)" "$(get "$lat" reloads)" \
  "$(get "$lat" clang_dlopen_ms)" "$(get "$lat" clang_dlopen_best_ms)" \
  "$(get "$lat" dlopen_us)" "$(get "$lat" runs)" \
  "$(get "$churn" rss_first_kb)" "$(get "$churn" rss_end_kb)" \
  "$(get "$churn" first_s)" "$(get "$churn" last_s)" "$(get "$churn" calls_kept)" \
  "$(get "$churn" first_cpu_s)" "$(get "$churn" last_cpu_s)" \
  "$(get "$churn" tenths_s)" "$(get "$churn" tenths_cpu_s)" <<'PY'
import sys
head, n = sys.argv[1], int(sys.argv[2])
lat = sys.argv[3:10]
churn = sys.argv[10:17]
h = open(head, "a")
print("ROW\thost JIT hot reload, one-function module\tclang+dlopen\thost JIT reload\treload / clang+dlopen")
if all(lat):
    rus, rbest, reloads, cms, cbest, dlus, runs = map(float, lat)
    r = rus / (cms * 1e3)
    print("ROW\treload to a new version, cache off (median)\t%.2f ms\t%.0f us\t%.3fx" % (cms, rus, r))
    print("ROW\treload to a new version, cache off (best)\t%.2f ms\t%.0f us\t%.3fx" % (cbest, rbest, rbest / (cbest * 1e3)))
    print("ROW\t  of which dlopen+dlsym+call+dlclose (median)\t%.0f us\t-\t-" % dlus)
    print("ROW\ttimed reloads\t%d\t%d\t-" % (runs, reloads))
    h.write("host JIT reload latency (one-function module, cache off): %.0f us, %.3fx clang -O2 -shared + dlopen (%.1f ms); target <= 0.1x: %s\n"
            % (rus, r, cms, "met" if r <= 0.1 else "NOT met"))
else:
    print("ROW\treload to a new version, cache off (median)\t-\t-\tunmeasured")
    h.write("host JIT reload latency: unmeasured (run failed): NOT met\n")
print("ROW")
print("ROW\thost JIT reload churn (N = %d reloads)\tafter N/10\tat the end\tend / N/10" % n)
if all(churn):
    rf, re_, tf, tl, kept, cf, cl = map(float, churn)
    print("ROW\tresident memory (KiB)\t%d\t%d\t%.3fx (%+d KiB, %.0f B per reload)"
          % (rf, re_, re_ / rf, re_ - rf, (re_ - rf) * 1024 / (n - n // 10)))
    print("ROW\ttime of a tenth (s, wall): first vs last\t%.3f\t%.3f\t%.3fx" % (tf, tl, tl / tf))
    print("ROW\ttime of a tenth (s, process CPU): first vs last\t%.3f\t%.3f\t%.3fx" % (cf, cl, cl / cf))
    print("ROW\tcalls counted in the kept variable\t-\t%d\t%s" % (kept, "= N" if kept == n else "!= N"))
    lim = 1.25 * rf + 4096
    h.write("host JIT %d reloads: resident memory %d KiB at the end vs %d KiB after %d (limit %d KiB = 1.25x + 4 MiB); target: %s\n"
            % (n, re_, rf, n // 10, lim, "met" if re_ <= lim else "NOT met"))
    # Verdict on CPU time: on a shared machine the wall time of a tenth moves
    # with the load more than with the reloads; the wall ratio is shown too.
    h.write("host JIT %d reloads: last tenth %.2f s CPU vs first tenth %.2f s (%.2fx; wall %.2fx); target <= 1.2x: %s\n"
            % (n, cl, cf, cl / cf, tl / tf, "met" if cl <= 1.2 * cf else "NOT met"))
    print("time of each tenth (s, wall): %s" % sys.argv[17])
    print("time of each tenth (s, CPU):  %s" % sys.argv[18])
    if kept != n:
        h.write("host JIT %d reloads: the kept variable counted %d calls, not %d: NOT met\n" % (n, kept, n))
else:
    print("ROW\tresident memory (KiB)\t-\t-\tunmeasured")
    h.write("host JIT %d reloads: unmeasured (run failed): NOT met\n" % n)
print("ROW")
PY
exit $status
