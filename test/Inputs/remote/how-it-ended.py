"""Runs a command and prints how it ended ("killed by signal N" or "exit N")."""
import subprocess
import sys

p = subprocess.run(sys.argv[1:])
sys.stdout.flush()
print("killed by signal %d" % -p.returncode if p.returncode < 0 else "exit %d" % p.returncode)
