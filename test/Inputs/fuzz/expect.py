#!/usr/bin/env python3
"""expect.py [--timeout S] [--no-stdout] STATUS CMD ARGS...

Runs CMD (stdin inherited) and checks that it exits with STATUS within S seconds
(default 30). Its stdout and stderr are passed through (stdout first), so the output
can still go to FileCheck. Fails (exit 1, with a line on stderr saying why) if the
command is killed by a signal (a crash), runs past the timeout (a hang; it is killed),
exits with another status, or -- with --no-stdout -- printed anything on stdout
(partial output that could pass for a run of the program)."""
import subprocess
import sys

args = sys.argv[1:]
timeout, no_stdout = 30.0, False
while args and args[0].startswith("--"):
    opt = args.pop(0)
    if opt == "--timeout":
        timeout = float(args.pop(0))
    elif opt == "--no-stdout":
        no_stdout = True
    elif opt == "--":
        break
    else:
        sys.exit("expect.py: unknown option " + opt)
want = int(args.pop(0))
try:
    p = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       timeout=timeout)
except subprocess.TimeoutExpired as e:
    sys.stdout.buffer.write(e.stdout or b"")
    sys.stderr.buffer.write(e.stderr or b"")
    sys.stderr.write("expect: TIMEOUT: %s ran for more than %g s\n" % (args[0], timeout))
    sys.exit(1)
sys.stdout.buffer.write(p.stdout)
sys.stdout.flush()
sys.stderr.buffer.write(p.stderr)
sys.stderr.flush()
if p.returncode < 0:
    sys.stderr.write("expect: CRASH: %s was killed by signal %d\n" % (args[0], -p.returncode))
    sys.exit(1)
if p.returncode != want:
    sys.stderr.write("expect: expected exit status %d from %s, got %d\n"
                     % (want, args[0], p.returncode))
    sys.exit(1)
if no_stdout and p.stdout:
    sys.stderr.write("expect: %s printed %d bytes on stdout\n" % (args[0], len(p.stdout)))
    sys.exit(1)
