#!/usr/bin/env python3
"""Runs every unit-test binary and the lit suite of one build folder, counts each test
case, prints failures, and ends with the line "N passed, M failed"."""
import os
import re
import subprocess
import sys

build = os.path.abspath(sys.argv[1])
passed = failed = 0
failures = []

# Unit tests: every cmocka binary, each case counted through cmocka's TAP output.
unit_dir = os.path.join(build, "bin", "unittests")
env = dict(os.environ, CMOCKA_MESSAGE_OUTPUT="TAP")
for name in sorted(os.listdir(unit_dir)) if os.path.isdir(unit_dir) else []:
    exe = os.path.join(unit_dir, name)
    if not os.access(exe, os.X_OK) or os.path.isdir(exe):
        continue
    try:
        p = subprocess.run([exe], env=env, capture_output=True, text=True, timeout=600)
        out, rc = p.stdout + p.stderr, p.returncode
    except subprocess.TimeoutExpired as e:
        out, rc = (e.stdout or b"").decode(errors="replace"), "timeout"
    ok = len(re.findall(r"^ok \d+", out, re.M))
    bad = len(re.findall(r"^not ok \d+", out, re.M))
    if rc != 0 and bad == 0:
        bad = 1  # crashed, timed out or failed outside any case
    passed += ok
    failed += bad
    status = "PASS" if bad == 0 else "FAIL"
    print(f"unit: {status}: {name} ({ok} passed, {bad} failed)")
    if bad:
        failures.append(name)
        print(out[-6000:])

# lit tests.
lit = os.path.join("/usr/lib/llvm-22/bin", "lit")
p = subprocess.run([lit, "-sv", "--timeout=300", os.path.join(build, "test")],
                   capture_output=True, text=True)
out = p.stdout + p.stderr
for line in out.splitlines():
    if re.match(r"^(FAIL|XPASS|UNRESOLVED|TIMEOUT): ", line):
        failures.append(line)
counts = dict((k, int(v)) for k, v in re.findall(r"^\s*(\w[\w ]*?)\s*:\s*(\d+)", out, re.M))
lit_passed = counts.get("Passed", 0) + counts.get("Expectedly Failed", 0)
lit_failed = sum(counts.get(k, 0) for k in
                 ("Failed", "Unresolved", "Timed Out", "Unexpectedly Passed"))
if p.returncode != 0 and lit_failed == 0:
    lit_failed = 1
print(out if lit_failed else "\n".join(out.splitlines()[-8:]))
passed += lit_passed
failed += lit_failed
print(f"lit: {lit_passed} passed, {lit_failed} failed")

if failures:
    print("failures:\n  " + "\n  ".join(failures))
print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
