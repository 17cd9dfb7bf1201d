#!/usr/bin/env python3
"""make-services-tree.py DIR: writes two services, the shared services headers
and the list of adders into DIR, where only Alpha.c (line 4) includes another
service's header."""
import os
import sys

FILES = {
    "lib/core/Core.h": "",
    "lib/services/ExecutorServices.h": "",
    "lib/services/ServiceWire.h": "",
    "lib/services/Alpha.h": '#include "services/ExecutorServices.h"\n',
    "lib/services/Beta.h": '#include "services/ExecutorServices.h"\n',
    "lib/services/Alpha.c": '#include "services/Alpha.h"\n'
                            '#include "services/ServiceWire.h"\n'
                            '#include "core/Core.h"\n'
                            '#include "services/Beta.h"\n',
    "lib/services/Beta.c": '#include "Beta.h"\n'
                           '#include "services/ExecutorServices.h"\n',
    "lib/services/ServiceList.c": '#include "services/Alpha.h"\n'
                                  '#include "services/Beta.h"\n',
}
for path, text in FILES.items():
    full = os.path.join(sys.argv[1], path)
    os.makedirs(os.path.dirname(full), exist_ok=True)
    with open(full, "w") as f:
        f.write(text)
