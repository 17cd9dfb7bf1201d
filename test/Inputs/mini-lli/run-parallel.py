#!/usr/bin/env python3
"""Starts N copies of a command at once and reports how many printed the same
first line as each other and exited 0: run-parallel.py N CMD ARGS...
Prints "N runs, K printed '<line>' and exited 0", where <line> is the most
common first line of stdout; any failing run's output follows, for the log."""
import collections
import subprocess
import sys

n = int(sys.argv[1])
cmd = sys.argv[2:]
procs = [subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
         for _ in range(n)]
results = []
for p in procs:
    out, err = p.communicate(timeout=120)
    results.append((p.returncode, out, err))
firsts = collections.Counter(out.splitlines()[0] if out else "" for _, out, _ in results)
line, _ = firsts.most_common(1)[0]
good = sum(1 for rc, out, _ in results if rc == 0 and out and out.splitlines()[0] == line)
print("%d runs, %d printed '%s' and exited 0" % (n, good, line))
for rc, out, err in results:
    if rc != 0 or not out or out.splitlines()[0] != line:
        print("status %d\nstdout: %s\nstderr: %s" % (rc, out, err))
