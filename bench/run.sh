#!/usr/bin/env bash
# One command for the benchmarks: builds what they need (a RelWithDebInfo build of this
# tree in build-bench/, or $ORC_RT_C_BENCH_BUILD) and prints one table measured in this
# run, side by side, with ratios; the headline (every target and whether it is met)
# comes last.
#   bash bench/run.sh
#
# Row groups are the scripts bench/sections/NN-*.sh, run in name order; add rows by
# adding a section. Each section gets BENCH_ROOT (the source tree), BENCH_BUILD (the
# configured build folder; build your own targets with cmake --build) and
# BENCH_HEADLINES (a file), prints its table as TAB-separated lines "ROW<TAB>cell..."
# (the first is the header; a lone "ROW" ends the table; any other line is printed as
# is) and appends one line per target verdict to $BENCH_HEADLINES.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${ORC_RT_C_BENCH_BUILD:-$root/build-bench}
[ -f "$root/scripts/install-deps.sh" ] && bash "$root/scripts/install-deps.sh" >/dev/null

mkdir -p "$build"
if ! cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
     -DORC_RT_C_BUILD_BENCH=ON -DORC_RT_C_SANITIZER= >"$build/bench-configure.log" 2>&1; then
  cat "$build/bench-configure.log"
  echo "bench: error: configuring $build failed"
  exit 1
fi

# Everything first: a section that installs the build (15-as-linked.sh) installs every
# target, tools included, and a fresh checkout has built none of them yet.
if ! cmake --build "$build" >"$build/bench-build.log" 2>&1; then
  tail -50 "$build/bench-build.log"
  echo "bench: error: building $build failed"
  exit 1
fi

export BENCH_ROOT=$root BENCH_BUILD=$build
export BENCH_HEADLINES=$build/bench-headlines.txt
: >"$BENCH_HEADLINES"

cpu=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')
echo "orc-rt-c benchmarks, $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "machine: ${cpu:-unknown CPU}, $(nproc) CPUs, $(uname -sr), load average$(cut -d' ' -f1-3 /proc/loadavg | sed 's/^/ /')"
echo "compiler: $(cc --version | head -1); build: RelWithDebInfo (-O2 -g), $build"
echo

status=0
for section in "$root"/bench/sections/*.sh; do
  bash "$section" | python3 "$root/bench/table.py" || status=1
  echo
done

echo "== headline (issue 5 targets) =="
cat "$BENCH_HEADLINES"
exit $status
