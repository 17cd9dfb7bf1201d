#!/usr/bin/env python3
"""truncate.py TOOL FILE [--work DIR] [--step N] [--flips N]

Runs TOOL on damaged copies of FILE, a program that exits 7 (an IR or bitcode file,
judged by its name): every strict prefix at a line end and every N-th byte (default
5; bitcode: every 4-byte boundary that is a multiple of N*4), and, with --flips,
N copies with 1-4 bytes after the magic replaced (seeded 0..N-1, reproducible).
Each run must finish within 30 s and not die by a signal.
  - a prefix must fail: status 1, nothing on stdout, stderr starting with
    "<tool>: error: " and without a crash report ("Stack dump", "PLEASE submit");
  - a flipped copy must fail the same way, or run as a program (any status, empty
    stderr): a damaged constant can make another valid program.
Prints "ok <what>: <count> inputs" per kind, or "FAIL ..." lines naming the input
(kept in DIR, default $TMPDIR); exits 1 if any failed."""
import os
import random
import subprocess
import sys

tool, path = sys.argv[1], sys.argv[2]
opts = sys.argv[3:]
step = int(opts[opts.index("--step") + 1]) if "--step" in opts else 5
flips = int(opts[opts.index("--flips") + 1]) if "--flips" in opts else 0
data = open(path, "rb").read()
bitcode = data[:4] == b"BC\xc0\xde"
name = os.path.basename(tool)
work = opts[opts.index("--work") + 1] if "--work" in opts else os.environ.get("TMPDIR", "/tmp")
failed = 0


def run(blob, what, may_run):
    global failed
    f = "%s.%s%s" % (os.path.join(work, os.path.basename(path)), what,
                     ".bc" if bitcode else ".ll")
    with open(f, "wb") as o:
        o.write(blob)
    try:
        p = subprocess.run([tool, f], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           timeout=30)
    except subprocess.TimeoutExpired:
        why = "timed out"
    else:
        err = p.stderr.decode(errors="replace")
        if p.returncode < 0:
            why = "killed by signal %d" % -p.returncode
        elif "Stack dump" in err or "PLEASE submit" in err:
            why = "crash report: %r" % err[:200]
        elif may_run and err == "":
            why = None
        elif p.returncode != 1 or p.stdout or not err.startswith(name + ": error: "):
            why = "status %d stdout %r stderr %r" % (p.returncode, p.stdout[:80], err[:200])
        else:
            why = None
    if why:
        failed += 1
        os.replace(f, f + ".fail")
        print("FAIL %s: %s" % (what, why))
    else:
        os.unlink(f)


cuts = sorted(set([n for n in range(0, len(data), step)] +
                  [i for i, c in enumerate(data) if c == 0x0A]))
if bitcode:
    cuts = sorted(set(n - n % 4 for n in range(0, len(data), 4 * step)) | {4, 8, len(data) - 4})
end = len(data) if bitcode else len(data.rstrip())  # trailing blanks change nothing
cuts = [n for n in cuts if n < end]
for n in cuts:
    run(data[:n], "prefix-%d" % n, False)
print("%s %s prefixes: %d inputs" % ("ok" if not failed else "FAIL", "bitcode" if bitcode else "IR", len(cuts)))
before = failed
for seed in range(flips):
    r = random.Random(seed)
    b = bytearray(data)
    for _ in range(r.randint(1, 4)):
        b[r.randrange(4, len(b))] = r.randrange(256)
    run(bytes(b), "flip-%d" % seed, True)
if flips:
    print("%s %s flips: %d inputs" % ("ok" if failed == before else "FAIL", "bitcode" if bitcode else "IR", flips))
sys.exit(1 if failed else 0)
