#!/usr/bin/env bash
# Entry overhead (ns and callgrind instructions per entry) and close latency:
# bench/EntryBench.c, one process, every row measured side by side.
set -uo pipefail
if ! cmake --build "$BENCH_BUILD" --target entry-bench >"$BENCH_BUILD/entry-bench.build.log" 2>&1; then
  cat "$BENCH_BUILD/entry-bench.build.log"
  echo "entry-bench: build failed"
  exit 1
fi
exe=$BENCH_BUILD/bin/bench/entry-bench

# Instructions per entry, 1 thread: callgrind counts only inside measuredLoop, which
# runs 1000 warm-up entries then N measured ones.
ir=$BENCH_BUILD/entry-bench-ir.txt
: >"$ir"
if command -v valgrind >/dev/null; then
  n=100000
  for c in direct wrapper token-pair callManagedCode callManagedCode-library \
           callManagedCode-fallback mutex atomic; do
    tot=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null \
            --toggle-collect=measuredLoop "$exe" --callgrind "$c" "$n" 2>&1 |
          sed -n 's/.*Collected : \([0-9]*\).*/\1/p')
    [ -n "$tot" ] && awk -v c="$c" -v t="$tot" -v n="$n" \
      'BEGIN { printf "%s %.1f\n", c, t / (n + 1000) }' >>"$ir"
  done
else
  echo "# valgrind not found: no instruction counts"
fi

"$exe" --ir "$ir" | while IFS= read -r line; do
  case "$line" in
    HEADLINE*) printf '%s\n' "${line#HEADLINE?}" >>"$BENCH_HEADLINES" ;;
    *) printf '%s\n' "$line" ;;
  esac
done
