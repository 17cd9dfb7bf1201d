#!/usr/bin/env python3
"""Checks that every #include in the source tree follows the folder map
(docs/Design.md, "Folders and what may include what").

  scripts/check-includes.py [--root DIR]   check the tree at DIR (default: this project)
  scripts/check-includes.py --rules        print the rules

Prints one line per include that breaks a rule,
  lib/core/Session.c:12: error: includes lib/services/Services.h; rule 'core': ...
and exits 1 if there is any; otherwise prints how many files and includes it
checked and exits 0. Run by test/layering/includes-follow-the-folder-map.test.

Where an include points is found as the compiler finds it with the project's
include paths: a quoted name next to the including file first, then under lib/,
then under include/. A name found there is a file of the tree (a path from the
root, e.g. lib/services/Services.h); any other is external and written in angle
brackets as included (<llvm-c/Core.h>, <stdio.h>). llvm-c/ and llvm/ names are
always external.
"""
import argparse
import fnmatch
import os
import re
import sys
from dataclasses import dataclass, field

# ---------------------------------------------------------------------------
# The rules. A row applies to the files matching `files` (globs over paths from
# the root; `*` also matches across folders, as in fnmatch) except those matching
# `unless`, and says either
#   only:  the files of the tree they may include (external headers are not
#          limited by `only`), or
#   never: what they may not include (tree files, or <external> headers).
# In `only` and `never`, {dir} stands for the including file's folder and {stem}
# for its name without the extension (lib/services/EHFrame.c: lib/services,
# EHFrame). Every row that applies to a file must allow each of its includes. To
# add a rule for a group of files, add a row: rows narrow, they never widen what
# another row allows ("one-service" below is such a row).
# ---------------------------------------------------------------------------

PUBLIC = "include/orc-rt-c/*"
# What lib/jit may use of the runtime, and lib/jit's library folders.
RUNTIME = ["lib/services/*", "lib/core/*", "lib/support/*", PUBLIC]
JIT_LIBRARY = ["lib/jit/support/*", "lib/jit/ir/*", "lib/jit/compile/*",
               "lib/jit/cache/*", "lib/jit/modules/*", "lib/jit/tier/*",
               "lib/jit/host/*"]
# lib/services files every service may use: the services object, the action
# lists, the wire helpers and the guarded copies.
SERVICES_SHARED = ["ExecutorServices", "AllocAction", "ServiceWire", "SafeCopy"]


@dataclass
class Rule:
    name: str
    files: list
    why: str
    only: list = None
    never: list = None
    unless: list = field(default_factory=list)


RULES = [
    # liborc-rt-c: support -> core -> services -> remote, each may include the
    # layers below it and the public headers.
    Rule("public-api", files=[PUBLIC], only=[PUBLIC],
         why="public headers are for users: they include only each other"),
    Rule("support", files=["lib/support/*"], only=["lib/support/*", PUBLIC],
         why="lib/support is the bottom layer"),
    Rule("core", files=["lib/core/*"],
         only=["lib/core/*", "lib/support/*", PUBLIC],
         why="lib/core sits on lib/support only"),
    Rule("services", files=["lib/services/*"],
         only=["lib/services/*", "lib/core/*", "lib/support/*", PUBLIC],
         why="lib/services sits on lib/core and lib/support"),
    # One service, one room: a service's files include their own header and
    # the shared ones, never another service's; only the list of adders
    # (ServiceList.c) names every service.
    Rule("one-service", files=["lib/services/*"],
         unless=["lib/services/ServiceList.c"] +
                ["lib/services/%s.*" % f for f in SERVICES_SHARED],
         only=["lib/services/{stem}.*", "lib/core/*", "lib/support/*", PUBLIC] +
              ["lib/services/%s.h" % f for f in SERVICES_SHARED],
         why="a service includes no other service's header; only ServiceList.c "
             "lists them all"),
    # The platform runtime archive is JIT-linked into the executor: it carries
    # its own copy of lib/support and nothing else of the tree.
    Rule("platform", files=["lib/platform/*"],
         only=["lib/platform/*", "lib/support/*", PUBLIC],
         why="lib/platform (JIT-linked into the executor) sits on lib/support "
             "only"),
    # Within it, calls point one way: dlopen/dlclose (JITDylibs) run the handler
    # list (AtExit), which knows JITDylibs only by their header addresses.
    Rule("platform-atexit", files=["lib/platform/AtExit.*"],
         never=["lib/platform/JITDylibs.h"],
         why="AtExit sits below JITDylibs: JITDylibs.c runs a JITDylib's "
             "handlers, AtExit.c never reaches back"),
    Rule("remote", files=["lib/remote/*"],
         only=["lib/remote/*", "lib/services/*", "lib/core/*", "lib/support/*",
               PUBLIC],
         why="lib/remote sits on the runtime below it, never on lib/jit"),
    # lib/jit (LLJIT through the LLVM-C API) sits on the runtime, beside lib/remote.
    Rule("jit", files=["lib/jit/*"],
         only=["lib/jit/*", "lib/services/*", "lib/core/*", "lib/support/*",
               PUBLIC],
         why="lib/jit sits on the runtime, never on lib/remote"),
    # Inside lib/jit, folders by job, includes pointing one way (docs/Design.md,
    # "lib/jit by job"). First what a JIT library for any host needs, bottom up:
    # support -> ir -> compile, cache; modules on support alone. None of it
    # knows mini-lli.
    Rule("jit-support", files=["lib/jit/support/*"],
         only=["lib/jit/support/*"] + RUNTIME,
         why="lib/jit/support (containers, hashing, LLVM errors as runtime "
             "errors) is lib/jit's bottom layer"),
    Rule("jit-ir", files=["lib/jit/ir/*"],
         only=["lib/jit/ir/*", "lib/jit/support/*"] + RUNTIME,
         why="lib/jit/ir reads and rewrites modules; it compiles nothing"),
    Rule("jit-compile", files=["lib/jit/compile/*"],
         only=["lib/jit/compile/*", "lib/jit/ir/*", "lib/jit/support/*"] +
              RUNTIME,
         why="lib/jit/compile (code generation and ORC glue) sits on ir and "
             "support"),
    Rule("jit-cache", files=["lib/jit/cache/*"],
         only=["lib/jit/cache/*", "lib/jit/compile/*", "lib/jit/ir/*",
               "lib/jit/support/*"] + RUNTIME,
         why="lib/jit/cache keeps what ir takes out of a module with its "
             "objects; its user says how to compile"),
    Rule("jit-modules", files=["lib/jit/modules/*"],
         only=["lib/jit/modules/*", "lib/jit/support/*"] + RUNTIME,
         why="lib/jit/modules (entry stubs, exit order) sits on the runtime and "
             "support only"),
    Rule("jit-tier", files=["lib/jit/tier/*"],
         only=["lib/jit/tier/*", "lib/jit/cache/*", "lib/jit/compile/*",
               "lib/jit/ir/*", "lib/jit/modules/*", "lib/jit/support/*"] +
              RUNTIME,
         why="lib/jit/tier (tiered compilation: fronts, counters, the "
             "compile thread) sits on cache, compile, ir, modules and "
             "support"),
    # The JIT library's face: orc-rt-c/Jit.h on the folders below it.
    Rule("jit-host", files=["lib/jit/host/*"],
         only=["lib/jit/host/*", "lib/jit/support/*", "lib/jit/ir/*",
               "lib/jit/compile/*", "lib/jit/cache/*", "lib/jit/modules/*",
               "lib/jit/tier/*"] +
              RUNTIME,
         why="lib/jit/host (orc-rt-c/Jit.h) sits on the JIT library's folders"),
    # Then what only mini-lli needs: lli's options and outputs, the two LLVM
    # engines, the program (its JIT, runtime, dlopen, exit order) and the
    # controller of an executor process, in that order.
    Rule("jit-lli", files=["lib/jit/lli/*"],
         only=["lib/jit/lli/*"] + JIT_LIBRARY + RUNTIME,
         why="lib/jit/lli (lli's command line and outputs) sits on the JIT "
             "library"),
    Rule("jit-engines", files=["lib/jit/mcjit/*", "lib/jit/interpreter/*"],
         only=["{dir}/*", "lib/jit/lli/*"] + JIT_LIBRARY + RUNTIME,
         why="an engine's folder knows lli's options, no other engine and not "
             "the program that drives it"),
    Rule("jit-program", files=["lib/jit/program/*"],
         never=["lib/jit/controller/*"],
         why="the in-process program knows nothing of the executor process's "
             "controller"),
    Rule("jit-library-knows-no-tool", files=["lib/jit/*"],
         unless=["lib/jit/lli/*", "lib/jit/mcjit/*", "lib/jit/interpreter/*",
                 "lib/jit/program/*", "lib/jit/controller/*"],
         never=["lib/jit/lli/*", "lib/jit/mcjit/*", "lib/jit/interpreter/*",
                "lib/jit/program/*", "lib/jit/controller/*"],
         why="the JIT library's folders never include what only mini-lli "
             "needs"),
    # Tools are thin mains over one library.
    Rule("mini-lli", files=["tools/mini-lli/*"],
         only=["tools/mini-lli/*", "lib/jit/*", PUBLIC],
         why="mini-lli is a main over lib/jit"),
    Rule("orc-executor", files=["tools/orc-executor/*"],
         only=["tools/orc-executor/*", PUBLIC],
         why="orc-executor is built on liborc-rt-c's public API, as a user would"),
    # Code written as a user of the runtime sees its public API only.
    Rule("examples", files=["examples/*"], only=["examples/*", PUBLIC],
         why="examples use the public API only"),
    Rule("stress", files=["stress/*"], only=["stress/*", PUBLIC],
         why="the torture test drives the runtime through its public API"),
    Rule("lit-programs", files=["test/*"], only=["test/*", PUBLIC],
         why="programs in lit tests are JIT'd or linked like a user's"),
    # LLVM: one door, in one folder.
    # (The host JIT bench measures LLVM-C's own LLJIT beside the JIT library;
    # CodeGenTest gives lib/jit/compile a module and reads its objects back.)
    Rule("llvm-c", files=["*"],
         unless=["lib/jit/*", "bench/programs/jit-host-bench.c",
                 "unittests/CodeGenTest.c"],
         never=["<llvm-c/*>"],
         why="lib/jit is the only code that includes llvm-c/*; liborc-rt-c has "
             "no LLVM"),
    Rule("llvm-c++", files=["*"], never=["<llvm/*>"],
         why="the LLVM-C API is the project's only door into LLVM"),
]

SOURCE_SUFFIXES = (".c", ".h", ".cpp", ".cc", ".cxx", ".hpp", ".hh", ".inc",
                   ".def")
INCLUDE_RE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')


def matches(path, globs):
    return any(fnmatch.fnmatchcase(path, g) for g in globs)


def applies(rule, path):
    return matches(path, rule.files) and not matches(path, rule.unless)


def for_file(globs, path):
    """globs with {dir} and {stem} filled in for the including file `path`."""
    dir_, name = os.path.split(path)
    stem = os.path.splitext(name)[0]
    return [g.replace("{dir}", dir_).replace("{stem}", stem) for g in globs]


def allowed(rule, path, target):
    """True if `rule` lets `path` include `target` (a tree path or <external>)."""
    if rule.never is not None and matches(target, for_file(rule.never, path)):
        return False
    if rule.only is not None and not target.startswith("<"):
        return matches(target, for_file(rule.only, path))
    return True


def source_files(root):
    """Paths (from root, with /) of the tree's C and C++ files; build folders
    (any folder holding a CMakeCache.txt, or named build*) and hidden ones are
    skipped."""
    for dirpath, dirnames, filenames in os.walk(root):
        rel_dir = os.path.relpath(dirpath, root)
        dirnames[:] = sorted(
            d for d in dirnames
            if not d.startswith(".")
            and not (rel_dir == "." and d.startswith("build"))
            and not os.path.exists(os.path.join(dirpath, d, "CMakeCache.txt")))
        for f in sorted(filenames):
            if f.endswith(SOURCE_SUFFIXES):
                path = os.path.normpath(os.path.join(rel_dir, f))
                yield path.replace(os.sep, "/")


def resolve(root, including, quote, name):
    """What `#include <name>` or `#include "name"` in `including` points to."""
    if name.startswith(("llvm-c/", "llvm/")):
        return "<%s>" % name
    bases = [os.path.dirname(including)] if quote == '"' else []
    bases += ["lib", "include"]
    for base in bases:
        path = os.path.normpath(os.path.join(base, name))
        if path.startswith(".."):
            continue
        if os.path.isfile(os.path.join(root, path)):
            return path.replace(os.sep, "/")
    return "<%s>" % name


def includes(root, path):
    with open(os.path.join(root, path), encoding="utf-8", errors="replace") as f:
        for number, line in enumerate(f, 1):
            m = INCLUDE_RE.match(line)
            if m:
                yield number, resolve(root, path, m.group(1), m.group(2))


def check(root):
    errors = []
    num_files = num_includes = 0
    for path in source_files(root):
        rules = [r for r in RULES if applies(r, path)]
        num_files += 1
        for number, target in includes(root, path):
            num_includes += 1
            for rule in rules:
                if not allowed(rule, path, target):
                    errors.append("%s:%d: error: includes %s; rule '%s': %s"
                                  % (path, number, target, rule.name, rule.why))
    return errors, num_files, num_includes


def print_rules():
    for r in RULES:
        what = ("only " + ", ".join(r.only)) if r.only is not None else \
               ("never " + ", ".join(r.never))
        files = ", ".join(r.files) + \
            ((" (not " + ", ".join(r.unless) + ")") if r.unless else "")
        print("%-13s %s: %s  -- %s" % (r.name, files, what, r.why))


def main():
    parser = argparse.ArgumentParser(
        description="Checks #includes against the folder map of docs/Design.md.")
    parser.add_argument("--root", default=os.path.join(
        os.path.dirname(os.path.abspath(__file__)), ".."),
        help="the source tree to check (default: this project)")
    parser.add_argument("--rules", action="store_true", help="print the rules")
    args = parser.parse_args()
    if args.rules:
        print_rules()
        return 0
    root = os.path.abspath(args.root)
    if not os.path.isdir(root):
        print("check-includes: error: %s: not a directory" % args.root,
              file=sys.stderr)
        return 2
    errors, num_files, num_includes = check(root)
    for e in errors:
        print(e)
    if errors:
        print("check-includes: %d include(s) break the folder map "
              "(docs/Design.md)" % len(errors))
        return 1
    print("check-includes: %d files, %d includes: all follow the folder map"
          % (num_files, num_includes))
    return 0


if __name__ == "__main__":
    sys.exit(main())
