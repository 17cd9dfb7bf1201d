#!/usr/bin/env bash
# Quick start (1): installs what is missing, builds, and runs the bundled example that
# shows a live frame being drained at shutdown.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bash "$root/scripts/build.sh" "$root/build"
if [ -x "$root/build/bin/mini-lli" ] && [ -f "$root/examples/drain-at-shutdown.ll" ]; then
  exec "$root/build/bin/mini-lli" "$root/examples/drain-at-shutdown.ll"
fi
exec "$root/build/bin/drain-at-shutdown"
