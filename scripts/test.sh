#!/usr/bin/env bash
# The whole test suite: installs what is missing, then for each build configuration
# builds and runs every unit test (cmocka) and every lit test, and ends with one line
# "N passed, M failed" over all of them. Exits non-zero on any failure.
#
#   scripts/test.sh                          normal, ASan+UBSan and TSan builds
#   ORC_RT_C_TEST_CONFIGS=normal scripts/test.sh     only the normal build (build/)
#   ORC_RT_C_TEST_CONFIGS=address scripts/test.sh    only ASan+UBSan (build-address/)
#   ORC_RT_C_TEST_CONFIGS=thread scripts/test.sh     only TSan (build-thread/)
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
configs=${ORC_RT_C_TEST_CONFIGS:-normal address thread}

bash "$root/scripts/install-deps.sh" || exit 1
total_pass=0 total_fail=0 summary=""
for cfg in $configs; do
  if [ "$cfg" = normal ]; then san="" build="$root/build"; else san=$cfg build="$root/build-$cfg"; fi
  echo "=== $cfg build ($build)"
  if ORC_RT_C_SANITIZER=$san bash "$root/scripts/build.sh" "$build"; then
    log=$(mktemp)
    # The short libFuzzer runs (test/executor/fuzz-smoke.test) build their own ASan
    # fuzzer, so they run once, with the normal configuration; so do the program
    # suites under mini-lli's MCJIT engine and its interpreter, and through stock
    # llvm-jitlink with the ORC platform runtimes.
    fuzz=""; [ "$cfg" = normal ] && fuzz=1
    ORC_RT_C_FUZZ=$fuzz ORC_RT_C_ENGINES=$fuzz python3 "$root/scripts/run-tests.py" "$build" | tee "$log"
    line=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$log" | tail -1)
    # The failing tests' names go into the summary too: the end of the output
    # is what a CI log keeps when it keeps only part of it.
    failed_names=$(sed -n '/^failures:$/,/^[0-9]* passed, [0-9]* failed$/p' "$log" | grep '^  ')
    rm -f "$log"
    p=${line%% passed*}; f=${line#*passed, }; f=${f%% failed*}
    [ -n "$line" ] || { p=0 f=1; }
  else
    echo "test: error: $cfg build failed"
    p=0 f=1
  fi
  total_pass=$((total_pass + p)) total_fail=$((total_fail + f))
  summary="$summary  $cfg: $p passed, $f failed\n"
  [ -n "${failed_names:-}" ] && summary="$summary$(printf '%s\n' "$failed_names" | sed 's/^/  /')\n"
  failed_names=""
done
printf "=== summary\n%b" "$summary"
echo "$total_pass passed, $total_fail failed"
[ "$total_fail" -eq 0 ]
