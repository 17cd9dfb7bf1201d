#!/usr/bin/env python3
"""check-needed.py FILE...: prints each ELF file's DT_NEEDED libraries and fails if any
is outside libc/pthreads/libdl (plus the sanitizer runtimes of a sanitizer build)."""
import re
import subprocess
import sys

allowed = re.compile(r"^(libc|libpthread|libdl|ld-linux[-\w]*|libasan|libubsan|libtsan"
                     r"|libgcc_s)\.so")
ok = True
for path in sys.argv[1:]:
    out = subprocess.run(["readelf", "-d", path], capture_output=True, text=True,
                         check=True).stdout
    needed = re.findall(r"\(NEEDED\)\s+Shared library: \[([^\]]+)\]", out)
    for lib in needed:
        good = bool(allowed.match(lib))
        print(f"{path.rsplit('/', 1)[-1]}: needs {lib}: {'ok' if good else 'NOT ALLOWED'}")
        ok &= good
sys.exit(0 if ok else 1)
