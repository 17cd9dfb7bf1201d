#!/usr/bin/env python3
"""Runs a command and checks its exit status:
expect-status.py [--timeout=SECONDS] STATUS CMD ARGS...

stdout and stderr pass through unchanged (so the output can still be piped to
FileCheck); exits 0 if the command exited with STATUS, otherwise prints what it
got and exits 1. A command killed by a signal never matches; nor does one still
running after --timeout seconds (it is killed: a hang fails the test quickly).
"""
import subprocess
import sys

argv = sys.argv[1:]
timeout = None
if argv and argv[0].startswith("--timeout="):
    timeout = float(argv[0][len("--timeout="):])
    argv = argv[1:]
want = int(argv[0])
args = argv[1:]
if args and args[0] == "--":
    args = args[1:]
try:
    rc = subprocess.call(args, timeout=timeout)
except subprocess.TimeoutExpired:
    sys.stdout.flush()
    sys.stderr.write("expect-status: %s still running after %g seconds\n"
                     % (args[0], timeout))
    sys.exit(1)
if rc != want:
    sys.stdout.flush()
    sys.stderr.write("expect-status: expected exit status %d from %s, got %d\n"
                     % (want, args[0], rc))
    sys.exit(1)
