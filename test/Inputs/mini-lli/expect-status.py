#!/usr/bin/env python3
"""Runs a command and checks its exit status: expect-status.py STATUS CMD ARGS...

stdout and stderr pass through unchanged (so the output can still be piped to
FileCheck); exits 0 if the command exited with STATUS, otherwise prints what it
got and exits 1. A command killed by a signal never matches."""
import subprocess
import sys

want = int(sys.argv[1])
args = sys.argv[2:]
if args and args[0] == "--":
    args = args[1:]
rc = subprocess.call(args)
if rc != want:
    sys.stdout.flush()
    sys.stderr.write("expect-status: expected exit status %d from %s, got %d\n"
                     % (want, args[0], rc))
    sys.exit(1)
