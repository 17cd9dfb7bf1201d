#!/usr/bin/env bash
# The whole test suite: installs what is missing, builds, runs every unit test (cmocka)
# and every lit test, and ends with one line "N passed, M failed". Exits non-zero on any
# failure.
#   scripts/test.sh                      normal build in build/
#   ORC_RT_C_SANITIZER=address scripts/test.sh   ASan+UBSan build in build-address/
#   ORC_RT_C_SANITIZER=thread  scripts/test.sh   TSan build in build-thread/
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
san=${ORC_RT_C_SANITIZER:-}
build=${ORC_RT_C_BUILD_DIR:-$root/build${san:+-$san}}
if ! bash "$root/scripts/build.sh" "$build"; then
  echo "test: error: build failed"
  echo "0 passed, 1 failed"
  exit 1
fi
exec python3 "$root/scripts/run-tests.py" "$build"
