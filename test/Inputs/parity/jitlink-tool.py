#!/usr/bin/env python3
"""An lli-shaped front for stock llvm-jitlink, so compare.py can run the parity suite
through llvm-jitlink with an ORC platform runtime.

  jitlink-tool.py --runtime=ARCHIVE [--executor=PATH] [-fake-argv0=A] [-dlopen=SO]...
                  [-extra-module=M.ll]... PROG.ll [ARGS...]

Compiles each .ll/.bc to an object with clang-22 (codegen -O2 as lli's default, or the
-O<n> given; -jit-kind= is accepted and ignored; an identical earlier compile's object
is reused when ORC_RT_C_COMPILE_CACHE is set, compile_cache.py),
then runs `llvm-jitlink -orc-runtime=ARCHIVE [-oop-executor=PATH] PROG.o M.o...
-preload=SO... -args ARGV0 ARGS...`. llvm-jitlink passes only the -args words as argv,
so ARGV0 (the -fake-argv0 value, else PROG.ll's path) goes first, making argc match a
native run. Exits with llvm-jitlink's status; stdout and stderr pass through.
"""
import os
import shutil
import subprocess
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import compile_cache

LLVM = "/usr/lib/llvm-22/bin"


def compile_uncached(cmd):
    if subprocess.run(cmd).returncode != 0:
        sys.exit(2)


def main():
    runtime, executor, argv0, preload, extra, opt = None, None, None, [], [], "-O2"
    args = sys.argv[1:]
    while args and args[0].startswith("-"):
        a = args.pop(0)
        if a.startswith("--runtime="):
            runtime = a.split("=", 1)[1]
        elif a.startswith("--executor="):
            executor = a.split("=", 1)[1]
        elif a.startswith("-fake-argv0="):
            argv0 = a.split("=", 1)[1]
        elif a.startswith("-dlopen="):
            preload.append(a.split("=", 1)[1])
        elif a.startswith("-extra-module="):
            extra.append(a.split("=", 1)[1])
        elif a in ("-O0", "-O1", "-O2", "-O3"):
            opt = a  # lli's codegen level: ours too
        elif a.startswith("-jit-kind="):
            pass  # lli's JIT flavour: llvm-jitlink has one (objects, eager)
        else:
            sys.stderr.write("jitlink-tool.py: error: unsupported option '%s'\n" % a)
            return 2
    if not runtime or not args:
        sys.stderr.write("jitlink-tool.py: error: need --runtime=ARCHIVE and PROG.ll\n")
        return 2
    prog, prog_args = args[0], args[1:]
    clang = shutil.which("clang-22") or os.path.join(LLVM, "clang")
    objs = []
    for ll in [prog] + extra:
        obj = os.path.splitext(ll)[0] + ".jitlink.o"
        compile_cache.run([clang, "-c", opt, "-Wno-override-module", ll, "-o", obj], [obj],
                          compile_uncached)
        objs.append(obj)
    cmd = [os.path.join(LLVM, "llvm-jitlink"), "-orc-runtime=" + runtime]
    if executor:
        cmd.append("-oop-executor=" + executor)
    cmd += objs + ["-preload=" + so for so in preload]
    cmd += ["-args", argv0 or prog] + prog_args
    sys.stdout.flush()
    os.execv(cmd[0], cmd)


if __name__ == "__main__":
    sys.exit(main())
