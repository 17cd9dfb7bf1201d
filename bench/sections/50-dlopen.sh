#!/usr/bin/env bash
# dlopen of LLVM IR in mini-lli vs native dlopen of the same code built as a shared
# library, side by side in one run (bench/programs/dlopen-cycle.c): one warm
# dlopen + dlsym + call + dlclose cycle, and what the module's token (its stub) adds
# to a call into the module; and, from objdump of mini-lli, that the stubs' entry and
# return paths have no locked or fence instruction (the token is the per-thread-slot
# fast path, inline).
set -uo pipefail
if ! cmake --build "$BENCH_BUILD" --target mini-lli >"$BENCH_BUILD/dlopen-bench.build.log" 2>&1; then
  tail -30 "$BENCH_BUILD/dlopen-bench.build.log"
  echo "dlopen bench: building mini-lli failed"
  echo "dlopen rows: unmeasured (build failed): NOT met" >>"$BENCH_HEADLINES"
  exit 1
fi
src=$BENCH_ROOT/bench/programs/dlopen-cycle.c
dir=$BENCH_BUILD/bench-inputs/dlopen
mkdir -p "$dir"
clang=/usr/lib/llvm-22/bin/clang
"$clang" -O2 -shared -fPIC -DPLUGIN "$src" -o "$dir/plugin.so" &&
  "$clang" -O2 -S -emit-llvm -DPLUGIN "$src" -o "$dir/plugin.ll" &&
  "$clang" -O2 "$src" -o "$dir/host" -ldl &&
  "$clang" -O2 -S -emit-llvm "$src" -o "$dir/host.ll" || {
  echo "dlopen bench: compiling the programs failed"
  echo "dlopen rows: unmeasured (compile failed): NOT met" >>"$BENCH_HEADLINES"
  exit 1
}
native=$("$dir/host" "$dir/plugin.so")
jit=$("$BENCH_BUILD/bin/mini-lli" "$dir/host.ll" "$dir/plugin.ll")
get() { printf '%s\n' "$1" | sed -n "s/^$2 //p"; }
python3 - "$(get "$native" cycle_us)" "$(get "$jit" cycle_us)" \
  "$(get "$native" raw_ns)" "$(get "$native" stub_ns)" \
  "$(get "$jit" raw_ns)" "$(get "$jit" stub_ns)" "$BENCH_HEADLINES" <<'PY'
import sys
ncyc, jcyc, nraw, nsym, jraw, jstub = map(float, sys.argv[1:7])
head = sys.argv[7]
print("ROW\tdlopen of a small module\tnative .so\tmini-lli .ll\tratio")
print("ROW\twarm dlopen+dlsym+call+dlclose (us, median)\t%.1f\t%.1f\t%.2fx" % (ncyc, jcyc, jcyc / ncyc))
print("ROW\tcall through a pointer, no stub (ns)\t%.2f\t%.2f\t-" % (nraw, jraw))
print("ROW\tcall through dlsym's pointer (ns)\t%.2f\t%.2f\t-" % (nsym, jstub))
print("ROW\tadded by the module's token stub (ns)\t-\t%+.2f\t-" % (jstub - jraw))
print("ROW")
with open(head, "a") as h:
    r = jcyc / ncyc
    h.write("dlopen cycle vs native: %.2fx; target <= 10x: %s\n" % (r, "met" if r <= 10 else "NOT met"))
    d = jstub - jraw
    h.write("module token per call: %+.2f ns; target <= 2 ns: %s\n" % (d, "met" if d <= 2 else "NOT met"))
PY
# The stubs' inline paths (lib/jit/modules/ModuleStubs.c), as linked into mini-lli.
bad=0
echo "ROW	module stub code (objdump of mini-lli)	instructions	locked/fence"
for f in orc_rt_jit_moduleStubCall orc_rt_jit_moduleStubEntry orc_rt_jit_moduleStubReturn; do
  b=$(objdump -d --no-show-raw-insn --disassemble="$f" "$BENCH_BUILD/bin/mini-lli" |
    grep -E '^ +[0-9a-f]+:')
  n=$(grep -c . <<<"$b"); k=$(grep -Ec '\block\b|[ms]fence|lfence|xchg[^(]*\(' <<<"$b")
  { [ "$n" -eq 0 ] || [ "$k" -ne 0 ]; } && bad=1
  echo "ROW	$f	$n	$k"
done
echo "ROW"
if [ $bad -eq 0 ]; then v=met; else v="NOT met"; fi
echo "no locked or fence instruction in the module stubs' entry and return (objdump): $v" >>"$BENCH_HEADLINES"
