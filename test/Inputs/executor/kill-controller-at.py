#!/usr/bin/env python3
"""Kills a controller once the JIT'd program has said a given line, then waits for the
executor it started to end.

usage: kill-controller-at.py [--timeout S] --at LINE -- CMD...

Runs CMD (the controller: llvm-jitlink or lli with an executor) with stdout on a pipe.
When a stdout line equals LINE, SIGKILLs CMD (its executor lives on: only CMD is
killed). Then reads stdout and stderr until every process holding them
(the executor) has ended. Prints the program's stdout, then stderr; exits 0. Exits 1
if LINE never came, or if the pipes are still open after --timeout seconds (default
60): an executor that outlives its controller that long has hung (CMD's process
group, the executor included, is then killed).
"""
import os
import signal
import subprocess
import sys
import threading


def main():
    args = sys.argv[1:]
    timeout, at = 60.0, None
    while args and args[0] != "--":
        opt, val = args[0], args[1]
        args = args[2:]
        if opt == "--timeout":
            timeout = float(val)
        elif opt == "--at":
            at = val
        else:
            sys.exit("kill-controller-at.py: unknown option " + opt)
    cmd = args[1:]
    # A group of their own: on a timeout the executor (started by CMD) is killed too.
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         start_new_session=True)
    err = []
    reader = threading.Thread(target=lambda: err.append(p.stderr.read()),
                              daemon=True)
    reader.start()
    out = []
    seen = False
    done = threading.Event()

    def read_out():
        nonlocal seen
        for line in p.stdout:
            out.append(line)
            if not seen and line.rstrip(b"\n") == at.encode():
                seen = True
                p.kill()
        done.set()

    t = threading.Thread(target=read_out, daemon=True)
    t.start()
    finished = done.wait(timeout)
    sys.stdout.write(b"".join(out).decode(errors="replace"))
    sys.stdout.flush()
    if not finished:
        print("kill-controller-at: stdout still open after %g seconds (seen=%s)"
              % (timeout, seen))
        os.killpg(p.pid, signal.SIGKILL)
        return 1
    reader.join(timeout)
    p.wait()
    sys.stdout.write(b"".join(err).decode(errors="replace"))
    if not seen:
        print("kill-controller-at: never saw the line %r" % at)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
