#!/usr/bin/env python3
"""one-service-rule.py CHECK_INCLUDES_PY DIR: shows that a rule for a group of
files fits the RULES table of scripts/check-includes.py. Writes two services
into DIR, adds "a service includes only its own header, the shared one and the
layers below" as one row (not a rule of the project yet), and prints what the
check then reports."""
import importlib.util
import os
import sys

sys.dont_write_bytecode = True  # nothing written into the source tree

spec = importlib.util.spec_from_file_location("check_includes", sys.argv[1])
ci = importlib.util.module_from_spec(spec)
spec.loader.exec_module(ci)
root = sys.argv[2]

FILES = {
    "lib/core/Core.h": "",
    "lib/services/Shared.h": "",
    "lib/services/Alpha.h": "",
    "lib/services/Beta.h": "",
    "lib/services/Alpha.c": '#include "services/Alpha.h"\n'
                            '#include "services/Shared.h"\n'
                            '#include "core/Core.h"\n'
                            '#include "services/Beta.h"\n',
    "lib/services/Beta.c": '#include "Beta.h"\n'
                           '#include "services/Shared.h"\n',
}
for path, text in FILES.items():
    full = os.path.join(root, path)
    os.makedirs(os.path.dirname(full), exist_ok=True)
    with open(full, "w") as f:
        f.write(text)

ci.RULES.append(ci.Rule(
    "one-service", files=["lib/services/*"], unless=["lib/services/Shared.h"],
    only=["lib/services/{stem}.*", "lib/services/Shared.h", "lib/core/*",
          "lib/support/*", ci.PUBLIC],
    why="a service includes no other service's header"))
errors, num_files, _ = ci.check(root)
for e in errors:
    print(e)
print("%d files, %d errors" % (num_files, len(errors)))
