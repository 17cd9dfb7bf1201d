#!/usr/bin/env python3
"""Sends a signal to a program while it waits for a drain:
signal-during-drain.py SIGNAME CMD ARGS...

Starts CMD with stdout on a pipe and default signal dispositions, reads the
first line of its stdout (which must arrive while CMD is still running, i.e.
before the process ends: output the program wrote is not held back by the
drain), checks that CMD is still running 0.3 s later (it is waiting), sends
SIGNAME and waits at most 5 s. Prints the line read, then how CMD ended:
`ended by SIGNAME` or `exit status N`; `still running after 5 s` (and kills
it) if the signal did not end it."""
import os
import select
import signal
import subprocess
import sys
import time

sig = getattr(signal, sys.argv[1])


def default_dispositions():
    # lit's workers ignore SIGINT, and an ignored signal stays ignored across
    # exec: give the program the dispositions a shell's foreground job has.
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


p = subprocess.Popen(sys.argv[2:], stdout=subprocess.PIPE,
                     restore_signals=True, preexec_fn=default_dispositions)
# At most 5 s for the first line; a program that holds it back would
# otherwise keep this script waiting as long as the drain.
data = b""
deadline = time.time() + 5
while b"\n" not in data and time.time() < deadline:
    ready, _, _ = select.select([p.stdout], [], [], deadline - time.time())
    if not ready:
        break
    chunk = os.read(p.stdout.fileno(), 4096)
    if not chunk:
        break
    data += chunk
line = data.split(b"\n")[0].decode("utf-8", "replace")
print("read while running: %s" % line)
time.sleep(0.3)
if p.poll() is not None:
    print("not waiting: exit status %d" % p.returncode)
    sys.exit(0)
p.send_signal(sig)
try:
    p.wait(timeout=5)
except subprocess.TimeoutExpired:
    p.kill()
    p.wait()
    print("still running after 5 s")
    sys.exit(0)
rc = p.returncode
if rc < 0:
    print("ended by %s" % signal.Signals(-rc).name)
else:
    print("exit status %d" % rc)
