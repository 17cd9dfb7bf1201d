#!/usr/bin/env python3
"""Driver and executor rows of bench/run.sh (issue 5, section 2), side by side in one run.

  driverbench.py prepare   fetch + compile the inputs into $BENCH_BUILD/bench-inputs
  driverbench.py driver    mini-lli vs lli-22: hello-world, SQLite, 50,000 functions
  driverbench.py executor  orc-executor vs llvm-jitlink-executor under llvm-jitlink

Prints "ROW<TAB>cell..." lines (bench/table.py formats them) and appends one verdict
per target to $BENCH_HEADLINES. Every run's output is checked against the native run's
(or the known line); a wrong output or a crash is shown in the cell, not timed.
Heavy cells run once, lli-22 first, with a timeout (ORC_RT_C_BENCH_TIMEOUT seconds,
default 150; for mini-lli 2x lli's time, at least 10 s): a cell that times out shows
">T" and its ratio is a lower bound.
Environment: ORC_RT_C_BENCH_HELLO_RUNS (default 15), ORC_RT_C_BENCH_BIG_RUNS (default 1),
ORC_RT_C_BENCH_ENGINE_RUNS (default 5), ORC_RT_C_BENCH_FUNCS (default 50000).
"""
import os
import shutil
import statistics
import subprocess
import sys
import tarfile
import time

ROOT = os.environ["BENCH_ROOT"]
BUILD = os.environ["BENCH_BUILD"]
HEADLINES = os.environ["BENCH_HEADLINES"]
LLVM = "/usr/lib/llvm-22/bin"
CLANG = shutil.which("clang-22") or os.path.join(LLVM, "clang")
LLI = os.path.join(LLVM, "lli")
JITLINK = os.path.join(LLVM, "llvm-jitlink")
REF_EXECUTOR = os.path.join(LLVM, "llvm-jitlink-executor")
CHILD_TARGET = os.path.join(LLVM, "lli-child-target")
MINI_LLI = os.path.join(BUILD, "bin", "mini-lli")
# -remote-mcjit rows: the program in lli-child-target, for both tools.
REMOTE_NAME = "-jit-kind=mcjit -remote-mcjit -O2"
REMOTE_FLAGS = ["-jit-kind=mcjit", "-remote-mcjit", "-disable-lazy-compilation",
                "-mcjit-remote-process=" + CHILD_TARGET, "-O2"]
ORC_EXECUTOR = os.path.join(BUILD, "bin", "orc-executor")
INPUTS = os.path.join(BUILD, "bench-inputs")
TIMEOUT = float(os.environ.get("ORC_RT_C_BENCH_TIMEOUT", "150"))
HELLO_RUNS = int(os.environ.get("ORC_RT_C_BENCH_HELLO_RUNS", "15"))
BIG_RUNS = int(os.environ.get("ORC_RT_C_BENCH_BIG_RUNS", "1"))
ENGINE_RUNS = int(os.environ.get("ORC_RT_C_BENCH_ENGINE_RUNS", "5"))
NFUNCS = int(os.environ.get("ORC_RT_C_BENCH_FUNCS", "50000"))
SQLITE_ROWS = "50000"
SQLITE_DEFS = ["-DSQLITE_THREADSAFE=0", "-DSQLITE_OMIT_LOAD_EXTENSION", "-DSQLITE_DQS=0"]


def inp(name):
    return os.path.join(INPUTS, name)


def headline(s):
    with open(HEADLINES, "a") as f:
        f.write(s + "\n")


def note(s):
    print("# " + s, flush=True)


def row(*cells):
    print("\t".join(["ROW"] + [str(c) for c in cells]), flush=True)


def endtable():
    print("ROW", flush=True)


def sh(cmd, **kw):
    return subprocess.run(cmd, check=True, **kw)


# ---------------------------------------------------------------- inputs

def prepare():
    """Builds every input once; kept in $BENCH_BUILD/bench-inputs across runs."""
    os.makedirs(INPUTS, exist_ok=True)
    hello_c = inp("hello.c")
    if not os.path.exists(inp("hello.o")):
        with open(hello_c, "w") as f:
            f.write('#include <stdio.h>\nint main(void) { puts("hello, world"); return 0; }\n')
        sh([CLANG, "-O2", "-emit-llvm", "-c", hello_c, "-o", inp("hello.bc")])
        sh([CLANG, "-O2", "-c", hello_c, "-o", inp("hello.o")])

    if not os.path.exists(inp("many.bc")) or open(inp("many.n")).read() != str(NFUNCS):
        with open(inp("many.ll"), "w") as f:
            sh([sys.executable, os.path.join(ROOT, "bench/programs/gen-many-functions.py"),
                str(NFUNCS)], stdout=f)
        sh([os.path.join(LLVM, "llvm-as"), inp("many.ll"), "-o", inp("many.bc")])
        with open(inp("many.n"), "w") as f:
            f.write(str(NFUNCS))

    # The workload for the MCJIT and interpreter rows, at -O0: clang -O1 and up emits
    # llvm.umax, on which lli-22's interpreter aborts.
    work_c = os.path.join(ROOT, "bench/programs/interp-workload.c")
    if not os.path.exists(inp("interp-workload.bc")) or \
            os.path.getmtime(inp("interp-workload.bc")) < os.path.getmtime(work_c):
        sh([CLANG, "-O0", "-emit-llvm", "-c", work_c, "-o", inp("interp-workload.bc")])
        sh([CLANG, "-O0", work_c, "-o", inp("interp-workload-native")])

    # The compute-bound program of the tiered rows, at -O2 (IR and native).
    kernel_c = os.path.join(ROOT, "bench/programs/compute-kernel.c")
    if not os.path.exists(inp("compute-kernel.bc")) or \
            os.path.getmtime(inp("compute-kernel.bc")) < os.path.getmtime(kernel_c):
        sh([CLANG, "-O2", "-emit-llvm", "-c", kernel_c, "-o", inp("compute-kernel.bc")])
        sh([CLANG, "-O2", kernel_c, "-o", inp("compute-kernel-native")])

    # SQLite: the amalgamation inside the npm package better-sqlite3@12 (never committed).
    if not os.path.exists(inp("sqlite-native")):
        src = inp("better-sqlite3")
        if not os.path.exists(os.path.join(src, "sqlite3.c")):
            tgz = [f for f in os.listdir(INPUTS) if f.startswith("better-sqlite3-") and f.endswith(".tgz")]
            if not tgz:
                if not shutil.which("npm"):
                    note("npm not found: no SQLite rows (apt-get install npm)")
                    return
                r = subprocess.run(["npm", "pack", "--silent", "better-sqlite3@12"], cwd=INPUTS,
                                   capture_output=True, text=True)
                if r.returncode != 0:
                    note("npm pack better-sqlite3@12 failed: no SQLite rows: " + r.stderr.strip()[:200])
                    return
                tgz = [r.stdout.strip().splitlines()[-1]]
            os.makedirs(src, exist_ok=True)
            with tarfile.open(os.path.join(INPUTS, tgz[0])) as t:
                for m in t.getmembers():
                    if m.name.startswith("package/deps/sqlite3/") and m.name.endswith((".c", ".h")):
                        m.name = os.path.basename(m.name)
                        t.extract(m, src)
        note("compiling the SQLite amalgamation (once; about a minute)")
        sh([CLANG, "-O2", *SQLITE_DEFS, "-emit-llvm", "-c", os.path.join(src, "sqlite3.c"),
            "-o", inp("sqlite3.bc")])
        sh([CLANG, "-O2", "-I", src, "-emit-llvm", "-c",
            os.path.join(ROOT, "bench/programs/sqlite-driver.c"), "-o", inp("sqlite-driver.bc")])
        sh([os.path.join(LLVM, "llvm-link"), inp("sqlite3.bc"), inp("sqlite-driver.bc"),
            "-o", inp("sqlite-bench.bc")])
        # The object file for llvm-jitlink; the native program is the same object linked.
        sh([CLANG, "-O2", "-c", inp("sqlite-bench.bc"), "-o", inp("sqlite-bench.o")])
        sh([CLANG, inp("sqlite-bench.o"), "-o", inp("sqlite-native"), "-lm"])


# ---------------------------------------------------------------- timing

class Cell:
    """One command, run some times; wall times of the runs whose output was right."""

    def __init__(self, cmd, expect, timeout=TIMEOUT):
        self.cmd, self.expect, self.timeout = cmd, expect, timeout
        self.times, self.error = [], None

    def run(self):
        if self.error:
            return
        t0 = time.perf_counter()
        try:
            r = subprocess.run(self.cmd, stdin=subprocess.DEVNULL, capture_output=True,
                               timeout=self.timeout)
        except subprocess.TimeoutExpired:
            self.error = ">%.0f" % self.timeout
            return
        dt = time.perf_counter() - t0
        out = r.stdout.decode(errors="replace")
        if r.returncode != 0 or out != self.expect:
            err = r.stderr.decode(errors="replace").strip().splitlines()
            why = ("status %d" % r.returncode) if r.returncode != 0 else "wrong output"
            self.error = "FAIL"
            note("FAIL %s: %s; stdout %r; stderr %s" %
                 (" ".join(os.path.basename(c) if i == 0 else c for i, c in enumerate(self.cmd)),
                  why, out[:120], err[-1][:200] if err else "(empty)"))
            return
        self.times.append(dt)

    def value(self):
        """Median wall seconds, or None."""
        return statistics.median(self.times) if self.times and not self.error else None

    def fmt(self, unit=1.0, digits=3):
        if self.error:
            return self.error
        v = self.value()
        return "-" if v is None else "%.*f" % (digits, v * unit)


def run_rounds(cells, rounds):
    """Interleaved: every cell once per round, so load hits every cell alike."""
    for _ in range(rounds):
        for c in cells:
            c.run()


def run_pairs(pairs, rounds):
    """(lli, mini-lli) pairs, interleaved; mini-lli's timeout is 2x lli's time (at least
    10 s, at most TIMEOUT), so a pathological case costs little and still shows as a
    lower bound that misses every target."""
    for _ in range(rounds):
        for l, m in pairs:
            l.run()
            if l.times:
                m.timeout = min(TIMEOUT, max(10.0, 2 * max(l.times)))
            m.run()


def ratio(a, b):
    """a/b as text; a lower bound if a timed out."""
    if b.value() is None:
        return "-"
    if a.error and a.error.startswith(">"):
        return ">%.2fx" % (a.timeout / b.value())
    if a.value() is None:
        return "-"
    return "%.2fx" % (a.value() / b.value())


def ratio_num(a, b):
    if b.value() is None:
        return None
    if a.error and a.error.startswith(">"):
        return a.timeout / b.value()
    return None if a.value() is None else a.value() / b.value()


def verdict(text, r, target, lower_bound=False):
    if r is None:
        headline("%s: unmeasured; target <= %sx: NOT met" % (text, target))
    else:
        met = r <= target and not lower_bound
        headline("%s: %s%.2fx; target <= %sx: %s" %
                 (text, ">" if lower_bound else "", r, target, "met" if met else "NOT met"))


# ---------------------------------------------------------------- mini-lli vs lli

def driver():
    for exe in (MINI_LLI, LLI):
        if not os.access(exe, os.X_OK):
            note("%s not found: no driver rows" % exe)
            return
    settings = [(k, o) for k in ("orc", "orc-lazy") for o in ("-O0", "-O2")]

    def pair(bc, k, o, expect, args=()):
        flags = ["-jit-kind=" + k, o]
        return (Cell([LLI, *flags, bc, *args], expect), Cell([MINI_LLI, *flags, bc, *args], expect))

    row("mini-lli vs lli-22 (process wall s)", "settings", "runs", "lli-22 s", "mini-lli s",
        "mini-lli/lli")
    results = {}

    # hello-world: many runs, median.
    hello = {s: pair(inp("hello.bc"), *s, "hello, world\n") for s in settings}
    run_rounds([c for p in hello.values() for c in p], HELLO_RUNS)
    for s, (l, m) in hello.items():
        row("hello-world", "-jit-kind=%s %s" % s, HELLO_RUNS, l.fmt(), m.fmt(), ratio(m, l))
    results["hello"] = hello

    # The other engines (hello-world): MCJIT, the interpreter and MCJIT in an executor
    # process (-remote-mcjit, both tools with LLVM 22's lli-child-target), each against
    # lli-22's same engine at the same settings.
    engines = {name: (Cell([LLI, *flags, inp("hello.bc")], "hello, world\n"),
                      Cell([MINI_LLI, *flags, inp("hello.bc")], "hello, world\n"))
               for name, flags in (("-jit-kind=mcjit -O2", ["-jit-kind=mcjit", "-O2"]),
                                   ("-force-interpreter", ["-force-interpreter"]),
                                   (REMOTE_NAME, REMOTE_FLAGS))}
    run_rounds([c for p in engines.values() for c in p], HELLO_RUNS)
    engine_rows = []
    for name, (l, m) in engines.items():
        row("hello-world", name, HELLO_RUNS, l.fmt(), m.fmt(), ratio(m, l))
        engine_rows.append(("hello-world, " + name, (l, m)))
    # bench/programs/interp-workload.c (-O0 bitcode): scale 4 under the interpreters
    # (about 0.5 s of CPU each), 40 under MCJIT; and SQLite under MCJIT. (No remote
    # row: lli-22's remote MCJIT passes the program no arguments.)
    if os.path.exists(inp("interp-workload.bc")):
        work = {}
        for name, flags, scale in (("-jit-kind=mcjit -O2", ["-jit-kind=mcjit", "-O2"], "40"),
                                   ("-force-interpreter", ["-force-interpreter"], "4")):
            expect = subprocess.run([inp("interp-workload-native"), scale], capture_output=True,
                                    text=True).stdout
            work[name] = (Cell([LLI, *flags, inp("interp-workload.bc"), scale], expect),
                          Cell([MINI_LLI, *flags, inp("interp-workload.bc"), scale], expect))
        run_rounds([c for p in work.values() for c in p], ENGINE_RUNS)
        for name, (l, m) in work.items():
            row("interp-workload.c", name, ENGINE_RUNS, l.fmt(), m.fmt(), ratio(m, l))
            engine_rows.append(("interp-workload.c, " + name, (l, m)))
    if os.path.exists(inp("sqlite-native")):
        expect = subprocess.run([inp("sqlite-native"), SQLITE_ROWS], capture_output=True,
                                text=True).stdout
        mc = (Cell([LLI, "-jit-kind=mcjit", "-O2", inp("sqlite-bench.bc"), SQLITE_ROWS], expect),
              Cell([MINI_LLI, "-jit-kind=mcjit", "-O2", inp("sqlite-bench.bc"), SQLITE_ROWS],
                   expect))
        run_pairs([mc], BIG_RUNS)
        engine_rows.append(("SQLite, -jit-kind=mcjit -O2", mc))
        row("SQLite (%s rows)" % SQLITE_ROWS, "-jit-kind=mcjit -O2", BIG_RUNS, mc[0].fmt(),
            mc[1].fmt(), ratio(mc[1], mc[0]))

    # SQLite: the amalgamation + our driver, one module of IR.
    sq = None
    if os.path.exists(inp("sqlite-native")):
        native = Cell([inp("sqlite-native"), SQLITE_ROWS], None)
        r = subprocess.run(native.cmd, capture_output=True, text=True)
        native.expect = r.stdout
        sq = {s: pair(inp("sqlite-bench.bc"), *s, r.stdout, [SQLITE_ROWS]) for s in settings}
        run_rounds([native], 3)
        run_pairs(list(sq.values()), BIG_RUNS)
        for s, (l, m) in sq.items():
            row("SQLite (%s rows)" % SQLITE_ROWS, "-jit-kind=%s %s" % s, BIG_RUNS, l.fmt(), m.fmt(),
                ratio(m, l))
        results["sqlite"] = sq
    else:
        row("SQLite", "(inputs unavailable)", "-", "-", "-", "-")

    # 50,000 functions, main calls ten.
    expect = subprocess.run([LLI, "-jit-kind=orc-lazy", inp("many.bc")], capture_output=True,
                            text=True).stdout
    many = {s: pair(inp("many.bc"), *s, expect) for s in settings}
    run_pairs(list(many.values()), BIG_RUNS)
    for s, (l, m) in many.items():
        row("%d functions, main calls 10" % NFUNCS, "-jit-kind=%s %s" % s, BIG_RUNS, l.fmt(),
            m.fmt(), ratio(m, l))
    endtable()

    # Against the native program.
    if sq:
        row("SQLite against native (clang -O2)", "settings", "wall s", "x native")
        row("native", "-", native.fmt(), "1.00x")
        for s in (("orc", "-O2"), ("orc", "-O0"), ("orc-lazy", "-O2")):
            l, m = sq[s]
            row("lli-22", "-jit-kind=%s %s" % s, l.fmt(), ratio(l, native))
            row("mini-lli", "-jit-kind=%s %s" % s, m.fmt(), ratio(m, native))
        help_text = subprocess.run([MINI_LLI, "--help"], capture_output=True, text=True).stdout
        if "object-cache-dir" in help_text:
            cache = os.path.join(INPUTS, "object-cache")
            shutil.rmtree(cache, ignore_errors=True)
            warm = Cell([MINI_LLI, "-object-cache-dir=" + cache, inp("sqlite-bench.bc"), SQLITE_ROWS],
                        native.expect)
            warm.run()  # cold: fills the cache
            cold_t = warm.times[:]
            warm.times = []
            # Side by side with the native program, interleaved, median of 7 each.
            native_again = Cell(native.cmd, native.expect)
            run_rounds([native_again, warm], 7)
            row("mini-lli, cold object cache", "-jit-kind=orc -O2",
                "%.3f" % cold_t[0] if cold_t else warm.fmt(), "")
            row("native (interleaved with the warm runs)", "-", native_again.fmt(), "1.00x")
            row("mini-lli, warm object cache", "-jit-kind=orc -O2", warm.fmt(),
                ratio(warm, native_again))
            verdict("mini-lli, SQLite with a warm object cache vs native (median of 7, interleaved)",
                    ratio_num(warm, native_again), 1.2)
        else:
            row("mini-lli, warm object cache", "(no -object-cache-dir yet)", "-", "-")
            headline("mini-lli, SQLite with a warm object cache vs native: unmeasured "
                     "(mini-lli has no -object-cache-dir); target <= 1.2x: NOT met")
        endtable()

    # Verdicts.
    for label, (l, m) in engine_rows:
        verdict("mini-lli %s vs lli-22's same engine" % label, ratio_num(m, l), 1.0,
                lower_bound=bool(m.error and m.error.startswith(">")))
    l, m = hello[("orc", "-O2")]
    verdict("mini-lli hello-world start-up vs lli-22 (orc -O2, median of %d)" % HELLO_RUNS,
            ratio_num(m, l), 0.8)
    l, m = many[("orc-lazy", "-O2")]
    verdict("mini-lli %d-function module, orc-lazy -O2 vs lli-22 orc-lazy" % NFUNCS,
            ratio_num(m, l), 0.5, lower_bound=bool(m.error and m.error.startswith(">")))
    if sq:
        l, m = sq[("orc", "-O2")]
        verdict("mini-lli SQLite total wall time vs lli-22 (orc -O2)", ratio_num(m, l), 0.6,
                lower_bound=bool(m.error and m.error.startswith(">")))
        l, m = sq[("orc", "-O0")]
        verdict("mini-lli SQLite at -O0 vs lli-22 at -O0 (orc)", ratio_num(m, l), 0.35,
                lower_bound=bool(m.error and m.error.startswith(">")))
    else:
        headline("mini-lli SQLite rows: unmeasured (inputs unavailable): NOT met")


# ---------------------------------------------------------------- tiered

TIERED_SQLITE_ROWS = os.environ.get("ORC_RT_C_BENCH_TIERED_SQLITE_ROWS", "300000")
KERNEL_ROUNDS = os.environ.get("ORC_RT_C_BENCH_KERNEL_ROUNDS", "4000")
TIERED_RUNS = int(os.environ.get("ORC_RT_C_BENCH_TIERED_RUNS", "3"))


def peak_kb(cmd):
    """Peak resident memory of one run of cmd, in KiB (wait4's ru_maxrss), or None."""
    with open(os.devnull, "wb") as null:
        try:
            p = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=null, stderr=null)
        except OSError:
            return None
        _, status, usage = os.wait4(p.pid, 0)
        p.returncode = 0  # (reaped here; keeps Popen from waiting again)
    return usage.ru_maxrss if os.waitstatus_to_exitcode(status) == 0 else None


def tiered():
    """-jit-kind=orc-tiered against mini-lli -O0 and -O2 (orc) and lli-22 -O2, side by
    side, interleaved, median of the runs: SQLite (300,000 rows: about a second
    natively), a compute-bound program (about 5 s natively), hello-world and the
    50,000-function module; peak memory on SQLite."""
    for exe in (MINI_LLI, LLI):
        if not os.access(exe, os.X_OK):
            note("%s not found: no tiered rows" % exe)
            return
    tools = [("mini-lli -jit-kind=orc-tiered -O2", [MINI_LLI, "-jit-kind=orc-tiered", "-O2"]),
             ("mini-lli -jit-kind=orc -O0", [MINI_LLI, "-jit-kind=orc", "-O0"]),
             ("mini-lli -jit-kind=orc -O2", [MINI_LLI, "-jit-kind=orc", "-O2"]),
             ("lli-22 -jit-kind=orc -O2", [LLI, "-jit-kind=orc", "-O2"])]
    programs = [("hello-world", inp("hello.bc"), [], None, HELLO_RUNS)]
    if os.path.exists(inp("sqlite-native")):
        programs.append(("SQLite (%s rows)" % TIERED_SQLITE_ROWS, inp("sqlite-bench.bc"),
                         [TIERED_SQLITE_ROWS], inp("sqlite-native"), TIERED_RUNS))
    if os.path.exists(inp("compute-kernel-native")):
        programs.append(("compute kernels (%s rounds)" % KERNEL_ROUNDS,
                         inp("compute-kernel.bc"), [KERNEL_ROUNDS],
                         inp("compute-kernel-native"), TIERED_RUNS))
    programs.append(("%d functions, main calls 10" % NFUNCS, inp("many.bc"), [], None, 1))
    row("tiered compilation (process wall s)", "tool", "runs", "wall s", "x orc-tiered")
    cells = {}
    for name, bc, args, native, runs in programs:
        if native:
            expect = subprocess.run([native, *args], capture_output=True, text=True).stdout
        elif bc == inp("hello.bc"):
            expect = "hello, world\n"
        else:
            expect = subprocess.run([LLI, "-jit-kind=orc-lazy", bc], capture_output=True,
                                    text=True).stdout
        cs = [Cell(cmd + [bc, *args], expect) for _, cmd in tools]
        if native:
            cs.append(Cell([native, *args], expect))
        run_rounds(cs, runs)
        for (tool, _), c in zip(tools, cs):
            row(name, tool, runs, c.fmt(), ratio(c, cs[0]))
        if native:
            row(name, "native (clang -O2)", runs, cs[-1].fmt(), ratio(cs[-1], cs[0]))
        cells[name] = cs
    endtable()

    def check(name, label, other, target):
        cs = cells.get(name)
        if not cs:
            headline("mini-lli orc-tiered, %s: unmeasured (inputs unavailable); target <= %sx: "
                     "NOT met" % (label, target))
            return
        verdict("mini-lli orc-tiered, %s" % label, ratio_num(cs[0], cs[other]), target)

    sq = "SQLite (%s rows)" % TIERED_SQLITE_ROWS
    check(sq, "SQLite total wall vs mini-lli -O2", 2, 0.6)
    check(sq, "SQLite total wall vs mini-lli -O0", 1, 0.9)
    check("compute kernels (%s rounds)" % KERNEL_ROUNDS,
          "compute-bound program vs mini-lli -O2", 2, 1.1)
    check("hello-world", "hello-world vs mini-lli -O2", 2, 1.05)
    if sq in cells:
        peaks = [peak_kb(cmd + [inp("sqlite-bench.bc"), TIERED_SQLITE_ROWS])
                 for _, cmd in tools[:3]]
        row("SQLite peak memory", "tool", "MiB", "x orc -O2")
        for (tool, _), kb in zip(tools[:3], peaks):
            row("SQLite (%s rows)" % TIERED_SQLITE_ROWS, tool,
                "-" if kb is None else "%.1f" % (kb / 1024),
                "-" if kb is None or not peaks[2] else "%.2fx" % (kb / peaks[2]))
        endtable()
        r = None if None in (peaks[0], peaks[2]) else peaks[0] / peaks[2]
        verdict("mini-lli orc-tiered, SQLite peak memory vs mini-lli -O2", r, 1.2)


# ---------------------------------------------------------------- executors

def callgrind_ir(cmd):
    """Instructions of a whole process under callgrind, or None."""
    if not shutil.which("valgrind"):
        return None
    r = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *cmd],
                       stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE, timeout=120)
    for line in r.stderr.decode(errors="replace").splitlines():
        if "Collected :" in line:
            return int(line.split(":")[-1])
    return None


def session_ir(executor_path, obj, expect):
    """Instructions the executor process runs for one whole llvm-jitlink session
    (callgrind on the executor only, through a wrapper script given as -oop-executor)."""
    if not shutil.which("valgrind"):
        return None
    wrap = os.path.join(INPUTS, "callgrind-" + os.path.basename(executor_path) + ".sh")
    log = wrap + ".log"
    with open(wrap, "w") as f:
        f.write('#!/bin/sh\nexec valgrind --tool=callgrind --callgrind-out-file=/dev/null '
                '--log-file=%s %s "$@"\n' % (log, executor_path))
    os.chmod(wrap, 0o755)
    r = subprocess.run([JITLINK, "-oop-executor=" + wrap, obj], stdin=subprocess.DEVNULL,
                       capture_output=True, timeout=120)
    if r.returncode != 0 or r.stdout.decode(errors="replace") != expect:
        note("FAIL llvm-jitlink -oop-executor=%s under callgrind: status %d" % (wrap, r.returncode))
        return None
    for line in open(log, errors="replace"):
        if "Collected :" in line:
            return int(line.split(":")[-1])
    return None


def executor():
    for exe in (ORC_EXECUTOR, REF_EXECUTOR, JITLINK):
        if not os.access(exe, os.X_OK):
            note("%s not found: no executor rows" % exe)
            return
    row("orc-executor vs llvm-jitlink-executor (llvm-jitlink, wall s)", "runs", "in-process",
        "llvm-jitlink-executor", "orc-executor", "orc/ref wall", "overhead ref", "overhead orc",
        "orc/ref overhead")
    progs = [("hello-world (hello.o)", inp("hello.o"), [], "hello, world\n", HELLO_RUNS)]
    if os.path.exists(inp("sqlite-native")):
        exp = subprocess.run([inp("sqlite-native"), SQLITE_ROWS], capture_output=True,
                             text=True).stdout
        progs.append(("SQLite (sqlite-bench.o)", inp("sqlite-bench.o"), ["-args", "sqlite-bench", SQLITE_ROWS],  # argv[0] first
                      exp, 3))
    hello_ratio = None
    for name, obj, args, exp, runs in progs:
        inproc = Cell([JITLINK, obj, *args], exp)
        ref = Cell([JITLINK, "-oop-executor=" + REF_EXECUTOR, obj, *args], exp)
        orc = Cell([JITLINK, "-oop-executor=" + ORC_EXECUTOR, obj, *args], exp)
        run_rounds([inproc, ref, orc], runs)
        ov = [None if c.value() is None or inproc.value() is None else c.value() - inproc.value()
              for c in (ref, orc)]
        ovr = ov[1] / ov[0] if None not in ov and min(ov) > 0 else None  # noise can make one <= 0
        row(name, runs, inproc.fmt(), ref.fmt(), orc.fmt(), ratio(orc, ref),
            "-" if ov[0] is None else "%.3f" % ov[0], "-" if ov[1] is None else "%.3f" % ov[1],
            "-" if ovr is None else "%.2fx" % ovr)
        if hello_ratio is None:
            hello_ratio = (ratio_num(orc, ref), ovr)
    endtable()

    row("executor instructions for one llvm-jitlink session (callgrind)", "llvm-jitlink-executor",
        "orc-executor", "orc/ref")
    sess = [session_ir(e, inp("hello.o"), "hello, world\n") for e in (REF_EXECUTOR, ORC_EXECUTOR)]
    row("hello-world (hello.o)", *["-" if x is None else "{:,}".format(x) for x in sess],
        "-" if None in sess else "%.2fx" % (sess[1] / sess[0]))
    endtable()

    row("bare start-up, EOF on the input fd (callgrind)", "command", "instructions", "x orc-executor")
    cmds = [("orc-executor", [ORC_EXECUTOR, "filedescs=0,1"]),
            ("llvm-jitlink-executor", [REF_EXECUTOR, "filedescs=0,1"]),
            ("lli-child-target", [CHILD_TARGET, "0", "1"])]
    irs = [(n, c, callgrind_ir(c)) for n, c in cmds]
    base = irs[0][2]
    for n, c, ir in irs:
        row(n, " ".join([os.path.basename(c[0])] + c[1:]) + " </dev/null",
            "-" if ir is None else "{:,}".format(ir),
            "-" if ir is None or not base else "%.1fx" % (ir / base))
    endtable()

    if base is None:
        headline("orc-executor bare start-up: unmeasured (no valgrind); target <= 0.3 M instructions: NOT met")
    else:
        headline("orc-executor bare start-up: %.2f M instructions (llvm-jitlink-executor %s, lli-child-target %s); "
                 "target <= 0.3 M: %s" % (base / 1e6,
                                          "-" if irs[1][2] is None else "%.2f M" % (irs[1][2] / 1e6),
                                          "-" if irs[2][2] is None else "%.2f M" % (irs[2][2] / 1e6),
                                          "met" if base <= 300000 else "NOT met"))
    wall, ovr = hello_ratio
    fmt = lambda x: "-" if x is None else "%.2fx" % x
    irr = None if None in sess else sess[1] / sess[0]
    headline("orc-executor per-run overhead under llvm-jitlink, hello-world: executor instructions "
             "per session %s the reference's; wall time %s, wall over in-process %s; "
             "target <= 0.7x (instructions): %s"
             % (fmt(irr), fmt(wall), fmt(ovr), "met" if irr is not None and irr <= 0.7 else "NOT met"))


if __name__ == "__main__":
    {"prepare": prepare, "driver": driver, "tiered": tiered,
     "executor": executor}[sys.argv[1]]()
