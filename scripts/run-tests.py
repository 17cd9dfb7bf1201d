#!/usr/bin/env python3
"""Runs every unit-test binary and the lit suite of one build folder, counts each test
case, prints failures, and ends with the line "N passed, M failed"."""
import glob
import os
import re
import subprocess
import sys
import time

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

# lit tests: the whole suite, then (ORC_RT_C_ENGINES=1, the normal build) the
# program suites again under mini-lli's MCJIT engine, the parity programs under
# -jit-kind=orc-tiered (from textual IR and from bitcode), and under LLVM's interpreter
# (-force-interpreter), where most programs need what the interpreter lacks: each
# such test is XFAIL for that engine with the reason (docs/CommandGuide/mini-lli.md,
# Engines); the parity programs run in an executor process (-remote-mcjit, with
# orc-executor and with lli-child-target); and the parity programs through stock llvm-jitlink with our ORC
# platform runtime and with compiler-rt's, in process and with both executors
# (test/parity/README.md; each program XFAILs where llvm-jitlink or a runtime
# gets it wrong).
lit = os.path.join("/usr/lib/llvm-22/bin", "lit")


def run_lit(label, paths, params=()):
    global passed, failed
    args = [lit, "-sv", "--timeout=300"] + ["--param=" + p for p in params]
    start = time.monotonic()
    p = subprocess.run(args + [os.path.join(build, "test", x) for x in paths],
                       capture_output=True, text=True)
    seconds = time.monotonic() - start
    out = p.stdout + p.stderr
    for line in out.splitlines():
        if re.match(r"^(FAIL|XPASS|UNRESOLVED|TIMEOUT): ", line):
            failures.append(f"{line} [{label}]")
    counts = dict((k, int(v)) for k, v in
                  re.findall(r"^\s*(\w[\w ]*?)\s*:\s*(\d+)", out, re.M))
    lit_passed = counts.get("Passed", 0) + counts.get("Expectedly Failed", 0)
    lit_failed = sum(counts.get(k, 0) for k in
                     ("Failed", "Unresolved", "Timed Out", "Unexpectedly Passed"))
    if p.returncode != 0 and lit_failed == 0:
        lit_failed = 1
    print(out if lit_failed else "\n".join(out.splitlines()[-8:]))
    passed += lit_passed
    failed += lit_failed
    print(f"lit ({label}): {lit_passed} passed, {lit_failed} failed ({seconds:.0f} s)")


run_lit("all", [""])
if os.environ.get("ORC_RT_C_ENGINES"):
    run_lit("parity, -jit-kind=mcjit", ["parity"],
            ["parity_tool_args=-jit-kind=mcjit"])
    run_lit("shutdown, -jit-kind=mcjit", ["shutdown"],
            ["engine_args=-jit-kind=mcjit"])
    # Tiered: a threshold of 1 makes nearly every function switch tiers while
    # the program runs (the default would leave most at tier 0).
    run_lit("parity, -jit-kind=orc-tiered", ["parity"],
            ["parity_tool_args=-jit-kind=orc-tiered -tier-up-threshold=1"])
    # The same from bitcode, whose bodies orc-tiered reads on first call.
    run_lit("parity, -jit-kind=orc-tiered, bitcode", ["parity"],
            ["parity_tool_args=-jit-kind=orc-tiered -tier-up-threshold=1",
             "parity_bitcode=1"])
    run_lit("parity, -force-interpreter", ["parity"],
            ["parity_tool_args=-force-interpreter"])
    run_lit("shutdown, -force-interpreter", ["shutdown"],
            ["engine_args=-force-interpreter"])
    # -remote-mcjit: the program in an executor process, ours and LLVM's.
    for executor in (os.path.join(build, "bin", "orc-executor"),
                     "/usr/lib/llvm-22/bin/lli-child-target"):
        run_lit(f"parity, -remote-mcjit, {os.path.basename(executor)}", ["parity"],
                ["parity_tool_args=-jit-kind=mcjit -remote-mcjit "
                 "-disable-lazy-compilation -mcjit-remote-process=" + executor])
    runtimes = []
    if os.path.exists(os.path.join(build, "lib", "liborc-rt-c-elfnix-x86_64.a")):
        runtimes.append("ours")  # built on x86-64 hosts only
        if glob.glob("/usr/lib/llvm-22/lib/clang/*/lib/linux/liborc_rt-x86_64.a"):
            runtimes.append("compiler-rt")
    for runtime in runtimes:
        for executor in ("in-process", "orc-executor", "llvm-jitlink-executor"):
            run_lit(f"parity, llvm-jitlink -orc-runtime={runtime}, {executor}",
                    ["parity"], ["parity_tool=jitlink", "parity_runtime=" + runtime,
                                 "parity_executor=" + executor])

if failures:
    print("failures:\n  " + "\n  ".join(failures))
print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
