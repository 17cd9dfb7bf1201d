#!/usr/bin/env bash
# The fast path has no locked or fence instruction: disassembles the entry wrapper and
# the token functions as linked into entry-bench and counts lock-prefixed instructions,
# xchg with a memory operand (implicitly locked) and mfence/lfence/sfence. The
# fallback-mode path is shown as a control: it must have one.
set -uo pipefail
exe=$BENCH_BUILD/bin/bench/entry-bench
[ -x "$exe" ] || cmake --build "$BENCH_BUILD" --target entry-bench >/dev/null 2>&1
dis=$(objdump -d --no-show-raw-insn "$exe")
body() { # the instructions of one symbol, up to the next blank line (without padding)
  awk -v f="<$1>:" '$2 == f { p = 1; next } p && /^$/ { exit } p' <<<"$dis" |
    grep -Ev '\s(nop|xchg +%ax,%ax|data16|cs nopw)' ; }
bad() { grep -Ec '\block\b|[ms]fence|lfence|xchg[^(]*\(' <<<"$1"; }

echo "ROW	fast path (objdump of entry-bench)	instructions	locked/fence"
fail=0
for f in orc_rt_Session_callManagedCode callInGroup orc_rt_internal_callInGroup \
         orc_rt_TaskGroup_acquireToken orc_rt_TaskGroup_releaseToken; do
  b=$(body "$f")
  if [ -z "$b" ]; then
    echo "ROW	$f	(inlined)	-"
    continue
  fi
  n=$(grep -c . <<<"$b"); k=$(bad "$b")
  [ "$k" -ne 0 ] && fail=1
  echo "ROW	$f	$n	$k"
done
slow=$(grep -o '<[^>]*acquireSlow[^>]*>:' <<<"$dis" | head -1 | tr -d '<>:')
if [ -n "$slow" ]; then
  b=$(body "$slow")
  echo "ROW	control: $slow (fallback mode, seq_cst)	$(grep -c . <<<"$b")	$(bad "$b")"
fi
echo "ROW"
if [ $fail -eq 0 ]; then v=met; else v="NOT met"; fi
echo "no locked or fence instruction on the fast path (callManagedCode, acquireToken, releaseToken; objdump): $v" >>"$BENCH_HEADLINES"
