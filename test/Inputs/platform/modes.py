#!/usr/bin/env python3
"""Runs one llvm-jitlink command line in-process and with each executor.

usage: modes.py ORC_EXECUTOR REF_EXECUTOR -- CMD...

CMD holds the argument "@OOP@": dropped for the in-process run, replaced by
-oop-executor=ORC_EXECUTOR, then -oop-executor=REF_EXECUTOR. Prints the
in-process run's stdout and status, then one line per executor saying whether
its stdout matched the in-process one (with a diff if not) and its status. Each
run's stderr goes to stderr. Exits 0; the FileCheck lines decide.
"""
import subprocess
import sys


def run(cmd, oop):
    argv = []
    for a in cmd:
        if a == "@OOP@":
            if oop:
                argv.append("-oop-executor=" + oop)
        else:
            argv.append(a)
    try:
        p = subprocess.run(argv, capture_output=True, timeout=120)
    except subprocess.TimeoutExpired:
        return None, b"", b"timeout\n"
    return p.returncode, p.stdout, p.stderr


def main():
    orc, ref, sep, cmd = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
    assert sep == "--" and "@OOP@" in cmd, __doc__
    status, out, err = run(cmd, None)
    sys.stdout.write(out.decode(errors="replace"))
    sys.stderr.write(err.decode(errors="replace"))
    print("in-process: status %s" % status)
    for name, exe in (("orc-executor", orc), ("llvm-jitlink-executor", ref)):
        s, o, e = run(cmd, exe)
        sys.stderr.write(e.decode(errors="replace"))
        if o == out:
            print("%s: same stdout, status %s" % (name, s))
        else:
            print("%s: DIFFERENT stdout, status %s\n--- in-process\n%s--- %s\n%s"
                  % (name, s, out.decode(errors="replace"), name,
                     o.decode(errors="replace")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
