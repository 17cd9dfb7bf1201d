#!/usr/bin/env python3
"""make-tree.py DIR [--clean]: writes a small source tree shaped like the
project's into DIR for test/layering/check-includes-fails-on-each-broken-rule.test.
Each line marked BAD includes across the folder map; with --clean those lines
are left out and the tree follows the map."""
import os
import sys

FILES = {
    "include/orc-rt-c/Public.h": [
        ('#include "core/Core.h"', "BAD"),
    ],
    "lib/support/Support.h": [],
    "lib/core/Core.h": [],
    "lib/core/Core.c": [
        ('#include "support/Support.h"', ""),
        ('#include "services/Service.h"', "BAD"),
    ],
    "lib/services/Service.h": [],
    "lib/services/Service.c": [
        ('#include "core/Core.h"', ""),
        ('#include "jit/program/Jit.h"', "BAD"),
        ("#include <llvm-c/Core.h>", "BAD"),
    ],
    "lib/remote/Remote.h": [],
    "lib/remote/Remote.c": [
        ('#include "services/Service.h"', ""),
        ('#include "jit/program/Jit.h"', "BAD"),
    ],
    "lib/jit/program/Jit.h": [],
    "lib/jit/program/Jit.c": [
        ("#include <llvm-c/Core.h>", ""),
        ('#include "Jit.h"', ""),
        ('#include "remote/Remote.h"', "BAD"),
    ],
    "lib/jit/support/Support.h": [],
    "lib/jit/compile/Compile.h": [],
    "lib/jit/ir/Ir.c": [
        ('#include "jit/support/Support.h"', ""),
        ('#include "jit/compile/Compile.h"', "BAD"),
    ],
    "lib/jit/modules/Stubs.c": [
        ('#include "jit/support/Support.h"', ""),
        ('#include "jit/program/Jit.h"', "BAD"),
    ],
    "lib/jit/interpreter/Interpreter.h": [],
    "lib/jit/mcjit/MCJIT.c": [
        ('#include "jit/compile/Compile.h"', ""),
        ('#include "jit/interpreter/Interpreter.h"', "BAD"),
    ],
    "lib/jit/controller/Client.h": [],
    "lib/jit/program/Driver.c": [
        ('#include "jit/mcjit/MCJIT.h"', ""),
        ('#include "jit/controller/Client.h"', "BAD"),
    ],
    "lib/jit/mcjit/MCJIT.h": [],
    "tools/mini-lli/main.c": [
        ('#include "jit/program/Jit.h"', ""),
        ("#include <llvm/IR/Module.h>", "BAD"),
    ],
    "tools/orc-executor/main.c": [
        ('#include "remote/Remote.h"', "BAD"),
        ("#include <stdio.h>", ""),
    ],
    "test/shutdown/prog.c": [
        ('#include "core/Core.h"', "BAD"),
        ('#include "orc-rt-c/Public.h"', ""),
    ],
}

root = sys.argv[1]
clean = "--clean" in sys.argv[2:]
for path, lines in FILES.items():
    full = os.path.join(root, path)
    os.makedirs(os.path.dirname(full), exist_ok=True)
    with open(full, "w") as f:
        for text, mark in lines:
            if not (clean and mark == "BAD"):
                f.write(text + "\n")
