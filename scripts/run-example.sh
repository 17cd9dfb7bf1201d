#!/usr/bin/env bash
# Quick start (1): installs what is missing, builds, and runs the bundled example that
# shows a live frame being drained at shutdown.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bash "$root/scripts/build.sh" "$root/build"
if [ -x "$root/build/bin/mini-lli" ] && [ -f "$root/examples/drain-at-shutdown.ll" ]; then
  # -shutdown-timeout=forever asks for the drain (by default mini-lli ends like the
  # native program, without waiting for the worker); -trace-shutdown prints each
  # shutdown phase (stderr) between the program's lines.
  exec "$root/build/bin/mini-lli" -shutdown-timeout=forever -trace-shutdown \
    "$root/examples/drain-at-shutdown.ll" 2>&1
fi
exec "$root/build/bin/drain-at-shutdown"
