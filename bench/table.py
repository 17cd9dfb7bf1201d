#!/usr/bin/env python3
"""Formats bench section output: runs of "ROW<TAB>cell..." lines become an aligned
table (first line the header; a lone "ROW" ends the table); other lines pass through."""
import sys

rows = []


def flush():
    global rows
    if not rows:
        return
    n = max(len(r) for r in rows)
    rows = [r + [""] * (n - len(r)) for r in rows]
    w = [max(len(r[i]) for r in rows) for i in range(n)]

    def line(r):
        # first column left-aligned, numbers right-aligned
        return "  ".join(c.ljust(w[i]) if i == 0 else c.rjust(w[i])
                         for i, c in enumerate(r)).rstrip()

    print(line(rows[0]))
    print("  ".join("-" * x for x in w))
    for r in rows[1:]:
        print(line(r))
    rows = []


for raw in sys.stdin:
    s = raw.rstrip("\n")
    if s == "ROW":
        flush()
        print()
    elif s.startswith("ROW\t"):
        rows.append(s.split("\t")[1:])
    else:
        flush()
        print(s)
flush()
