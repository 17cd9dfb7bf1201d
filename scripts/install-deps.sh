#!/usr/bin/env bash
# Installs, with apt-get, the Debian 12 packages orc-rt-c needs to build and test, and
# only those that are missing. Safe to run again; needs root when something is missing.
set -euo pipefail

pkgs=(cmake ninja-build pkg-config python3 python3-psutil llvm-22 llvm-22-dev llvm-22-tools clang-22
      libclang-rt-22-dev libcmocka-dev)

missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
    missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "install-deps: installing ${missing[*]}"
if [ "$(id -u)" -ne 0 ]; then
  echo "install-deps: error: need root to install: ${missing[*]}" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
