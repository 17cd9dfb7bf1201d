#!/usr/bin/env python3
"""Runs LLVM's own ExecutionEngine lit tests with a given lli, RUN lines verbatim.

usage: run-llvm-ee-tests.py [-v] TOOL PATH...
  TOOL  the lli to test: lli-22, or build/bin/mini-lli
  PATH  test files, or folders searched for *.ll tests (Inputs/ skipped), from
        a copy of llvm/test/ExecutionEngine: its MCJIT, Orc, OrcLazy and
        Interpreter folders and its top-level *.ll files are the ones that run
        lli (docs/Testing.md says how to fetch them).

Each RUN line runs as lit would run it on x86_64 Linux, with only the lli swapped:
`%lli` and `%lli_mcjit` (as LLVM's lit config defines them) and a bare `lli` become
TOOL; %s %S %p %t %exeext are substituted; FileCheck, not, llc and the other LLVM
tools come from LLVM 22. REQUIRES/UNSUPPORTED/XFAIL are evaluated for
x86_64-unknown-linux-gnu with the FEATURES below (lit's boolean expressions: &&, ||,
!, parentheses, target=<regex>). A test whose RUN lines name an input file that the
copy lacks is UNRESOLVED (counted apart, not a failure of either tool).

Prints one line per test (PASS, FAIL, XFAIL, XPASS, UNSUPPORTED, UNRESOLVED) and the
counts; -v also prints the first failing RUN line and the tail of its output.
This is a developer tool, not part of the default test run: the LLVM tests are not
in this repository."""
import os
import re
import subprocess
import sys
import tempfile

TRIPLE = "x86_64-unknown-linux-gnu"
FEATURES = {
    "native", "target-x86_64", "x86_64-linux", "system-linux", "cxx-shared-library",
    "thread_support", "x86-registered-target", "host-byteorder-little-endian",
    "default_triple", "shell",
}
BIN = "/usr/lib/llvm-22/bin"


def feature_true(item):
    """One lit feature atom: a feature name or target=<pattern with {{regex}}>."""
    if item.startswith("target="):
        pat = item[len("target="):]
        rx = "".join(p if i % 2 else re.escape(p)
                     for i, p in enumerate(re.split(r"\{\{|\}\}", pat)))
        return re.fullmatch(rx, TRIPLE) is not None
    if item.startswith("host-jit-triple="):
        return False
    return item == "*" or item in FEATURES


def evaluate(expr):
    """lit's boolean expression grammar over feature atoms."""
    toks = re.findall(r"&&|\|\||!|\(|\)|[^\s&|!()]+(?:\{\{.*?\}\}[^\s&|!()]*)*", expr)
    pos = [0]

    def peek():
        return toks[pos[0]] if pos[0] < len(toks) else None

    def take():
        pos[0] += 1
        return toks[pos[0] - 1]

    def atom():
        t = take()
        if t == "!":
            return not atom()
        if t == "(":
            v = disj()
            take()
            return v
        return feature_true(t)

    def conj():
        v = atom()
        while peek() == "&&":
            take()
            v = atom() and v
        return v

    def disj():
        v = conj()
        while peek() == "||":
            take()
            v = conj() or v
        return v

    return disj()


def substitute(r, tool, path, tmp):
    d = os.path.dirname(os.path.abspath(path))
    r = re.sub(r"%if system-linux %\{(.*?)%\}", r"\1", r)
    r = re.sub(r"(^|\|\s*|;\s*|&&\s*|\bnot\s+)lli(?![\w.-])",
               lambda m: m.group(1) + "%lli", r)
    r = r.replace("%lli_mcjit", tool + " -jit-kind=mcjit")
    r = r.replace("%lli", tool)
    r = r.replace("%exeext", "")
    # lit's LLVM config names lli-child-target by its full path, as it does FileCheck.
    r = re.sub(r"(?<![\w/.-])lli-child-target\b", BIN + "/lli-child-target", r)
    r = r.replace("%s", os.path.abspath(path)).replace("%S", d).replace("%p", d)
    r = r.replace("%t", os.path.join(tmp, "t"))
    r = re.sub(r"(^|\|\s*)not\b", lambda m: m.group(1) + BIN + "/not", r)
    return r


def missing_inputs(runs, path):
    d = os.path.dirname(os.path.abspath(path))
    for r in runs:
        for m in re.finditer(r"%[pS]/(Inputs/[^\s;|>]+)", r):
            if not os.path.exists(os.path.join(d, m.group(1))):
                return m.group(1)
    return None


def run(tool, path, verbose):
    runs, cur = [], ""
    unsupported = xfail = False
    for line in open(path, errors="replace").read().splitlines():
        m = re.search(r"\b(RUN|REQUIRES|UNSUPPORTED|XFAIL):(.*)$", line)
        if not m:
            continue
        kind, body = m.group(1), m.group(2).strip()
        if kind == "RUN":
            if body.endswith("\\"):
                cur += body[:-1] + " "
                continue
            runs.append(cur + body)
            cur = ""
        elif kind == "REQUIRES":
            unsupported |= not all(evaluate(e) for e in body.split(",") if e.strip())
        elif kind == "UNSUPPORTED":
            unsupported |= any(evaluate(e) for e in body.split(",") if e.strip())
        else:
            xfail |= any(evaluate(e) for e in body.split(",") if e.strip())
    if unsupported:
        return "UNSUPPORTED", ""
    lacking = missing_inputs(runs, path)
    if lacking:
        return "UNRESOLVED", "input not in this copy: " + lacking
    tmp = tempfile.mkdtemp(prefix="llvm-ee-")
    env = dict(os.environ, PATH=BIN + ":" + os.environ["PATH"])
    detail = ""
    ok = True
    for r in runs:
        cmd = substitute(r, tool, path, tmp)
        try:
            p = subprocess.run(["bash", "-c", "set -o pipefail; " + cmd], cwd=tmp,
                               env=env, stdin=subprocess.DEVNULL,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               timeout=120)
            rc, out = p.returncode, p.stdout.decode(errors="replace")
        except subprocess.TimeoutExpired:
            rc, out = -1, "timed out after 120 s"
        if rc != 0:
            ok = False
            if verbose:
                tail = "\n".join(out.strip().splitlines()[-6:])
                detail = "  RUN: %s\n  %s" % (r, tail.replace("\n", "\n  "))
            break
    if xfail:
        return ("XPASS" if ok else "XFAIL"), detail
    return ("PASS" if ok else "FAIL"), detail


def main():
    args = sys.argv[1:]
    verbose = "-v" in args
    args = [a for a in args if a != "-v"]
    if len(args) < 2:
        sys.exit(__doc__)
    tool, dirs = args[0], args[1:]
    counts = {}
    tests = []
    for top in dirs:
        if os.path.isfile(top):
            tests.append((top, os.path.dirname(top)))
        for root, subdirs, files in os.walk(top):
            subdirs[:] = sorted(s for s in subdirs if s != "Inputs")
            tests += [(os.path.join(root, f), top) for f in sorted(files)
                      if f.endswith(".ll")]
    for path, top in tests:
        res, detail = run(tool, path, verbose)
        counts[res] = counts.get(res, 0) + 1
        print("%-11s %s" % (res, os.path.relpath(path, os.path.dirname(top))))
        if detail:
            print(detail)
        sys.stdout.flush()
    print(" ".join("%s=%d" % kv for kv in sorted(counts.items())))


if __name__ == "__main__":
    main()
