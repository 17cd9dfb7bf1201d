"""Prints what FastISel misses in each module of a mini-lli -orc-lazy-debug=mods-to-stdout
dump (the lines between "----- Module Start -----" and "----- Module End -----"),
compiled as tier 0 compiles it: llc -O0, PIC in the small code model.
    isel-misses.py DUMP"""
import subprocess
import sys
import tempfile

modules, current = [], None
with open(sys.argv[1]) as f:
    for line in f:
        if line.startswith("----- Module Start"):
            current = []
        elif line.startswith("----- Module End"):
            modules.append("".join(current))
            current = None
        elif current is not None:
            current.append(line)
if not modules:
    sys.exit("isel-misses.py: no module in " + sys.argv[1])
for text in modules:
    with tempfile.NamedTemporaryFile("w", suffix=".ll") as m:
        m.write(text)
        m.flush()
        r = subprocess.run(["llc", "-O0", "-relocation-model=pic", "-code-model=small",
                            "-pass-remarks-missed=sdagisel", m.name, "-o", "/dev/null"],
                           capture_output=True, text=True)
        if r.returncode:
            sys.exit("isel-misses.py: llc failed: " + r.stderr)
        sys.stdout.write(r.stderr)
print("modules: %d" % len(modules))
