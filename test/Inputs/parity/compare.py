#!/usr/bin/env python3
"""Program parity runner for test/parity.

Compiles one C or C++ program twice with clang-22 -- natively, and to LLVM IR --
runs the native binary and `TOOL prog.ll` with the same arguments, stdin and
environment, and compares stdout byte for byte and the exit status.

On a match it prints the (common) stdout followed by one line
`parity: exit status N`, so the RUN line can pipe it into FileCheck and assert
what the program actually did (a suite that only compared two empty outputs
could never fail). On a mismatch it prints a unified diff of stdout, both exit
statuses, both stderrs, to stderr, and exits 1.

  compare.py --cc CLANG [--tool mini-lli|/path/to/lli] [--out DIR]
             [--extra-module SRC]... [--shared-lib SRC]... [--cflag FLAG]...
             [--tool-arg=ARG]...
             [--opt=-On] [--bitcode] [--same-argv0] [--stdin FILE] [--timeout SECONDS]
             PROG.c|PROG.cpp [-- ARGS...]

--extra-module SRC: SRC is linked into the native binary, and compiled to its
own .ll file that is passed to the tool as `-extra-module=SRC.ll`.
--shared-lib SRC: SRC is built into libSRC.so, which the native binary links
(with an rpath) and the tool loads with `-dlopen=libSRC.so`.
The tool is run as `TOOL [TOOL-ARGS...] prog.ll ARGS...`.
`--tool native` runs the native binary a second time instead of a JIT: the
comparison is then trivial, but the FileCheck lines get checked against what
the program does natively (lit --param parity_tool=native).
With ORC_RT_C_COMPILE_CACHE naming a directory (test/parity/lit.local.cfg sets it), each
compile's output is reused from an identical earlier compile (compile_cache.py).
Python 3 standard library only.
"""
import argparse
import difflib
import os
import shutil
import signal
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import compile_cache


def fail(msg):
    sys.stderr.write("parity: error: %s\n" % msg)
    sys.stderr.flush()
    sys.exit(1)


def run(cmd, what, **kw):
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, **kw)
    except OSError as e:
        fail("%s: cannot run %s: %s" % (what, cmd[0], e))
    return p


def compile_or_die(cmd, output):
    """Compiles, or reuses the output of an identical earlier compile
    (compile_cache.py; only when ORC_RT_C_COMPILE_CACHE is set)."""
    compile_cache.run(cmd, [output], compile_uncached)


def compile_uncached(cmd):
    p = run(cmd, "compile")
    if p.returncode != 0:
        fail("compile failed (status %d): %s\n%s" % (
            p.returncode, " ".join(cmd), p.stderr.decode("utf-8", "replace")))


def run_program(name, cmd, env, stdin_data, timeout):
    """Runs cmd in its own process group, so that on a timeout the whole group
    (the driver and any children the program forked) is killed and no
    grandchild keeps the output pipes open."""
    try:
        p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, env=env, start_new_session=True)
    except OSError as e:
        fail("%s run: cannot run %s: %s" % (name, cmd[0], e))
    try:
        out, err = p.communicate(stdin_data, timeout=timeout)
    except subprocess.TimeoutExpired:
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except OSError:
            pass
        try:
            out, err = p.communicate(timeout=10)
        except subprocess.TimeoutExpired:
            out, err = b"", b""
        fail("%s run timed out after %gs: %s\nstdout so far:\n%s\nstderr so far:\n%s" % (
            name, timeout, " ".join(cmd), out.decode("utf-8", "replace"),
            err.decode("utf-8", "replace")))
    return subprocess.CompletedProcess(cmd, p.returncode, out, err)


def describe_status(rc):
    # subprocess reports death by signal as -SIGNO.
    if rc < 0:
        return "killed by signal %d" % -rc
    return "exit status %d" % rc


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cc", required=True, help="clang-22 or clang++ of LLVM 22")
    ap.add_argument("--tool", default="mini-lli",
                    help="the JIT driver under test (default: mini-lli on PATH)")
    ap.add_argument("--tool-arg", action="append", default=[],
                    help="an option for the tool, before the input file")
    ap.add_argument("--extra-module", action="append", default=[],
                    help="a second source file: linked natively, -extra-module for the tool")
    ap.add_argument("--shared-lib", action="append", default=[],
                    help="a source file built into a shared library (lib<name>.so): the "
                    "native binary links it, the tool gets -dlopen=PATH")
    ap.add_argument("--cflag", action="append", default=[],
                    help="an extra compiler flag for both compilations")
    ap.add_argument("--opt", default="-O1", help="optimisation level for both (default -O1)")
    ap.add_argument("--bitcode", action="store_true",
                    help="give the tool bitcode (.bc) instead of textual IR (.ll)")
    ap.add_argument("--same-argv0", action="store_true",
                    help="pass -fake-argv0=NATIVE-BINARY to the tool, so argv[0] is the "
                    "same string in both runs")
    ap.add_argument("--stdin", help="a file fed to both runs on stdin (default: empty)")
    ap.add_argument("--timeout", type=float, default=120.0,
                    help="seconds each run may take")
    ap.add_argument("--out", help="directory for the binary, the .ll files and outputs "
                    "(default: a temporary directory, removed afterwards)")
    ap.add_argument("prog")
    ap.add_argument("args", nargs=argparse.REMAINDER,
                    help="after --: arguments passed to both runs")
    a = ap.parse_args()
    args = a.args[1:] if a.args[:1] == ["--"] else a.args

    tool = a.tool
    if tool != "native" and os.sep not in tool:
        found = shutil.which(tool)
        if not found:
            fail("tool '%s' not found on PATH" % tool)
        tool = found

    if a.out:
        out = os.path.abspath(a.out)
        shutil.rmtree(out, ignore_errors=True)
        os.makedirs(out)
    else:
        out = tempfile.mkdtemp(prefix="parity.")
    try:
        return compare(a, tool, args, out)
    finally:
        if not a.out:
            shutil.rmtree(out, ignore_errors=True)


def compare(a, tool, args, out):
    sources = [a.prog] + a.extra_module
    flags = [a.opt] + a.cflag

    sos = []
    for src in a.shared_lib:
        so = os.path.join(out, "lib%s.so" % os.path.splitext(os.path.basename(src))[0])
        compile_or_die([a.cc] + flags + ["-shared", "-fPIC", src, "-o", so], so)
        sos.append(so)

    native = os.path.join(out, "native")
    compile_or_die([a.cc] + flags + sources + sos + ["-o", native, "-Wl,-rpath," + out,
                                                     "-lpthread", "-lm"], native)

    lls = []
    for i, src in enumerate(sources):
        ll = os.path.join(out, "%d-%s.%s" % (i, os.path.splitext(os.path.basename(src))[0],
                                             "bc" if a.bitcode else "ll"))
        compile_or_die([a.cc] + flags + ["-c" if a.bitcode else "-S", "-emit-llvm", src,
                                         "-o", ll], ll)
        lls.append(ll)
    if tool == "native":
        jit_cmd = [native] + args
    else:
        fake = ["-fake-argv0=" + native] if a.same_argv0 else []
        jit_cmd = ([tool] + a.tool_arg + fake + ["-dlopen=" + so for so in sos]
                   + ["-extra-module=" + ll for ll in lls[1:]]
                   + [lls[0]] + args)

    stdin_data = b""
    if a.stdin:
        with open(a.stdin, "rb") as f:
            stdin_data = f.read()

    # Under an ASan build of the driver, LeakSanitizer would report the
    # program's own still-reachable-only-from-JIT'd-globals or deliberately
    # unfreed memory against the driver at exit and change its exit status
    # (a C program may exit without freeing). Parity is about the program's
    # behaviour; the driver's own leaks are checked by the mini-lli/ tests.
    jit_env = dict(os.environ)
    jit_env["ASAN_OPTIONS"] = ":".join(
        filter(None, [jit_env.get("ASAN_OPTIONS", ""), "detect_leaks=0"]))

    results = {}
    for name, cmd, env in (("native", [native] + args, None), ("jit", jit_cmd, jit_env)):
        p = run_program(name, cmd, env, stdin_data, a.timeout)
        results[name] = p
        with open(os.path.join(out, name + ".stdout"), "wb") as f:
            f.write(p.stdout)
        with open(os.path.join(out, name + ".stderr"), "wb") as f:
            f.write(p.stderr)

    n, j = results["native"], results["jit"]
    if n.stdout == j.stdout and n.returncode == j.returncode:
        sys.stdout.buffer.write(n.stdout)
        if n.stdout and not n.stdout.endswith(b"\n"):
            sys.stdout.buffer.write(b"\n")
        sys.stdout.write("parity: %s\n" % describe_status(n.returncode))
        return 0

    # The report goes to stderr: lit shows it in full, and FileCheck (reading
    # stdout) then fails on empty input instead of echoing a truncated dump.
    w = sys.stderr.write
    w("parity: MISMATCH for %s\n" % a.prog)
    w("parity: native: %s\n" % " ".join([native] + args))
    w("parity: jit:    %s\n" % " ".join(jit_cmd))
    w("parity: native %s, jit %s\n" % (describe_status(n.returncode),
                                       describe_status(j.returncode)))
    if n.stdout != j.stdout:
        w("parity: stdout differs (--- native, +++ jit):\n")
        diff = difflib.unified_diff(
            n.stdout.decode("utf-8", "backslashreplace").splitlines(True),
            j.stdout.decode("utf-8", "backslashreplace").splitlines(True),
            "native.stdout", "jit.stdout")
        for line in diff:
            w(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n")
    else:
        w("parity: stdout identical (%d bytes)\n" % len(n.stdout))
    for name, p in (("native", n), ("jit", j)):
        err = p.stderr.decode("utf-8", "backslashreplace")
        if err:
            w("parity: %s stderr:\n%s%s" % (name, err, "" if err.endswith("\n") else "\n"))
    sys.stderr.flush()
    return 1


if __name__ == "__main__":
    sys.exit(main())
