#!/usr/bin/env python3
"""Platform-runtime row of bench/run.sh (issue 14): executor instructions (callgrind)
for one hello-world llvm-jitlink session with -orc-runtime= our archive
(liborc-rt-c-elfnix-x86_64.a) vs compiler-rt's liborc_rt-x86_64.a, under each
executor, side by side in one run. Callgrind runs on the executor process only (a
wrapper script given as -oop-executor), so the controller's own work is not counted.
"Runtime's share" subtracts the same session without -orc-runtime (the executor's
own start-up and the program), leaving what each runtime adds. Every session's
output is checked; a wrong output shows "-" and fails the target.
Prints "ROW<TAB>cell..." lines (bench/table.py) and one verdict to $BENCH_HEADLINES.
"""
import glob
import os
import shutil
import subprocess
import sys

ROOT = os.environ["BENCH_ROOT"]
BUILD = os.environ["BENCH_BUILD"]
HEADLINES = os.environ["BENCH_HEADLINES"]
LLVM = "/usr/lib/llvm-22/bin"
CLANG = shutil.which("clang-22") or os.path.join(LLVM, "clang")
JITLINK = os.path.join(LLVM, "llvm-jitlink")
EXECUTORS = [("llvm-jitlink-executor", os.path.join(LLVM, "llvm-jitlink-executor")),
             ("orc-executor", os.path.join(BUILD, "bin", "orc-executor"))]
OURS = os.path.join(BUILD, "lib", "liborc-rt-c-elfnix-x86_64.a")
CRT = sorted(glob.glob("/usr/lib/llvm-22/lib/clang/*/lib/linux/liborc_rt-x86_64.a"))
INPUTS = os.path.join(BUILD, "bench-inputs")
TARGET = 0.5


def row(*cells):
    print("\t".join(["ROW"] + [str(c) for c in cells]), flush=True)


def session_ir(executor, runtime, obj, expect):
    """Executor instructions for one session; runtime None: without -orc-runtime."""
    wrap = os.path.join(INPUTS, "callgrind-platform-%s.sh" % os.path.basename(executor))
    log = wrap + ".log"
    with open(wrap, "w") as f:
        f.write('#!/bin/sh\nexec valgrind --tool=callgrind --callgrind-out-file=/dev/null '
                '--log-file=%s %s "$@"\n' % (log, executor))
    os.chmod(wrap, 0o755)
    rt = [] if runtime is None else ["-orc-runtime=" + runtime]
    r = subprocess.run([JITLINK, *rt, "-oop-executor=" + wrap, obj],
                       stdin=subprocess.DEVNULL, capture_output=True, timeout=300)
    if r.returncode != 0 or r.stdout.decode(errors="replace") != expect:
        print("# FAIL %s with %s: status %d" % (executor, runtime, r.returncode), flush=True)
        return None
    for line in open(log, errors="replace"):
        if "Collected :" in line:
            return int(line.split(":")[-1])
    return None


def main():
    if not shutil.which("valgrind") or not CRT or not os.path.exists(OURS):
        print("# platform row needs valgrind, compiler-rt's liborc_rt and %s" % OURS)
        with open(HEADLINES, "a") as f:
            f.write("platform runtime start-up: unmeasured; target <= %.1fx: NOT met\n" % TARGET)
        return
    os.makedirs(INPUTS, exist_ok=True)
    src = os.path.join(INPUTS, "platform-hello.c")
    obj = os.path.join(INPUTS, "platform-hello.o")
    with open(src, "w") as f:
        f.write('#include <stdio.h>\nint main(void) { puts("hello, world"); return 0; }\n')
    subprocess.run([CLANG, "-c", "-O2", src, "-o", obj], check=True)
    row("hello-world session with -orc-runtime= (executor instructions, callgrind)",
        "no runtime", "compiler-rt liborc_rt", "ours (orc-rt-c-elfnix)", "ours/compiler-rt",
        "runtime's share: ours/compiler-rt")
    fmt = lambda x: "-" if x is None else "{:,}".format(x)
    ratios = {}
    for name, exe in EXECUTORS:
        none = session_ir(exe, None, obj, "hello, world\n")
        crt = session_ir(exe, CRT[-1], obj, "hello, world\n")
        ours = session_ir(exe, OURS, obj, "hello, world\n")
        r = None if None in (crt, ours) else ours / crt
        share = None if None in (none, crt, ours) or crt <= none else \
            max(ours - none, 0) / (crt - none)
        ratios[name] = (r, share)
        row(name, fmt(none), fmt(crt), fmt(ours), "-" if r is None else "%.2fx" % r,
            "-" if share is None else "%.2fx" % share)
    row()
    f2 = lambda x: "-" if x is None else "%.2fx" % x
    orc, ref = ratios["orc-executor"], ratios["llvm-jitlink-executor"]
    with open(HEADLINES, "a") as f:
        f.write("platform runtime start-up, hello-world session executor instructions, ours / "
                "compiler-rt's: orc-executor %s, llvm-jitlink-executor %s (runtime's share: %s / "
                "%s); target <= %.1fx with orc-executor: %s; with llvm-jitlink-executor (whole "
                "session): %s\n"
                % (f2(orc[0]), f2(ref[0]), f2(orc[1]), f2(ref[1]), TARGET,
                   "met" if orc[0] is not None and orc[0] <= TARGET else "NOT met",
                   "met" if ref[0] is not None and ref[0] <= TARGET else "NOT met"))


if __name__ == "__main__":
    sys.exit(main())
