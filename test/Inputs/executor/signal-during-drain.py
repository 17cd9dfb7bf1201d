#!/usr/bin/env python3
"""Signals an executor while it drains: signal-during-drain.py SIGNAME PIDFILE CLIENT...

Runs the client (which starts the executor through pid-wrapper.sh, writing the
executor's PID to PIDFILE) with stdout on a pipe and default signal
dispositions, waits at most 30 s for the client to end (the JIT'd program's
output, on the shared stdout, is read meanwhile), checks that the executor is
still running 0.3 s later (it drains: JIT'd code is still running), sends it
SIGNAME and waits at most 5 s for it to end. Prints the program's output, then
`executor ended after the signal` or `executor still running after 5 s` (and
kills it), or `executor not draining` if it had already ended."""
import os
import signal
import subprocess
import sys
import time


def default_dispositions():
    # lit's workers ignore SIGINT; an ignored signal stays ignored across exec.
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def alive(pid):
    try:
        with open("/proc/%d/stat" % pid) as f:
            return f.read().split(") ")[1].split()[0] != "Z"
    except OSError:
        return False


sig = getattr(signal, sys.argv[1])
pidfile = sys.argv[2]
try:
    os.unlink(pidfile)
except OSError:
    pass
# stdout to a file, not a pipe: the executor shares it and outlives the client.
out_path = pidfile + ".out"
with open(out_path, "wb") as out:
    c = subprocess.Popen(sys.argv[3:], stdout=out, preexec_fn=default_dispositions)
    try:
        c.wait(timeout=30)
    except subprocess.TimeoutExpired:
        c.kill()
        c.wait()
        print("client timed out")
with open(pidfile) as f:
    pid = int(f.read().strip())
time.sleep(0.3)
with open(out_path, "rb") as f:
    sys.stdout.write(f.read().decode("utf-8", "replace"))
if not alive(pid):
    print("executor not draining")
    sys.exit(0)
os.kill(pid, sig)
deadline = time.time() + 5
while alive(pid) and time.time() < deadline:
    time.sleep(0.02)
if alive(pid):
    os.kill(pid, signal.SIGKILL)
    print("executor still running after 5 s")
else:
    print("executor ended after the signal")
