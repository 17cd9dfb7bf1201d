#!/usr/bin/env python3
"""Runs one client command line twice, once per executor, and compares the results.

usage: parity.py [--stderr] [--timeout S] REF OURS -- CMD...
Every "@EXE@" in CMD is replaced by REF, then by OURS. Prints our run's stdout, then
one line per compared property; exits 1 on any difference (stdout and exit status are
always compared; stderr too with --stderr, after replacing the executor paths).
"""
import subprocess
import sys


def run(cmd, exe, timeout):
    argv = [a.replace("@EXE@", exe) for a in cmd]
    try:
        p = subprocess.run(argv, capture_output=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None
    return p.returncode, p.stdout, p.stderr.replace(exe.encode(), b"@EXE@")


def main():
    args = sys.argv[1:]
    cmp_stderr = "--stderr" in args
    if cmp_stderr:
        args.remove("--stderr")
    timeout = 60
    if args[0] == "--timeout":
        timeout = float(args[1])
        args = args[2:]
    ref, ours, sep, cmd = args[0], args[1], args[2], args[3:]
    assert sep == "--", "usage: parity.py [--stderr] REF OURS -- CMD..."
    r = run(cmd, ref, timeout)
    o = run(cmd, ours, timeout)
    if r is None or o is None:
        print("PARITY FAIL: timeout (ref=%s ours=%s)" % (r is None, o is None))
        return 1
    sys.stdout.write(o[1].decode(errors="replace"))
    ok = True
    print("status ref=%d ours=%d" % (r[0], o[0]))
    if r[0] != o[0]:
        ok = False
        print("PARITY FAIL: exit status differs")
    if r[1] != o[1]:
        ok = False
        print("PARITY FAIL: stdout differs\n--- ref\n%s\n--- ours\n%s" %
              (r[1].decode(errors="replace"), o[1].decode(errors="replace")))
    if cmp_stderr and r[2] != o[2]:
        ok = False
        print("PARITY FAIL: stderr differs\n--- ref\n%s\n--- ours\n%s" %
              (r[2].decode(errors="replace"), o[2].decode(errors="replace")))
    sys.stderr.write(o[2].decode(errors="replace"))
    if ok:
        print("PARITY OK")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
