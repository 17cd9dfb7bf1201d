#!/usr/bin/env python3
"""Runs one TCP session: EXECUTOR listen=127.0.0.1:PORT [OPTS] + CLIENT connecting to it.

usage: tcp_session.py EXECUTOR "OPT ..." -- CLIENT-ARGS... (every "@ADDR@" in the client
arguments becomes 127.0.0.1:PORT). Picks a free port, starts the executor, waits until
it listens (without connecting, so its one accept is not used up), runs the client and,
while it runs, tries a second connection, which must be refused. Prints the executor's stdout, the
client's status, whether the second connection was refused, and the executor's status.
Every step is bounded by a timeout.
"""
import os
import socket
import subprocess
import sys
import time

TIMEOUT = 30


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def has_socket(port, state):
    """True if a local socket on PORT is in STATE (0A listen, 01 established)."""
    want = ":%04X" % port
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            with open(table) as f:
                for line in f.readlines()[1:]:
                    cols = line.split()
                    if cols[1].endswith(want) and cols[3] == state:
                        return True
        except OSError:
            pass
    return False


def listening(port):
    return has_socket(port, "0A")


def listen_address(port):
    """The local address of the listening socket on PORT, e.g. 127.0.0.1."""
    want = ":%04X" % port
    with open("/proc/net/tcp") as f:
        for line in f.readlines()[1:]:
            cols = line.split()
            if cols[1].endswith(want) and cols[3] == "0A":
                a = int(cols[1].split(":")[0], 16)
                return ".".join(str((a >> s) & 255) for s in (0, 8, 16, 24))
    return None


def main():
    exe, opts = sys.argv[1], sys.argv[2].split()
    client = sys.argv[4:]
    port = free_port()
    addr = "127.0.0.1:%d" % port
    ex = subprocess.Popen([exe, "listen=" + addr] + opts, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE)
    deadline = time.time() + TIMEOUT
    while not listening(port):
        if time.time() > deadline or ex.poll() is not None:
            ex.kill()
            print("executor never listened:", ex.communicate()[1].decode())
            return 1
        time.sleep(0.02)
    print("listening on %s" % listen_address(port))
    c = subprocess.Popen([a.replace("@ADDR@", addr) for a in client],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    # While the first session runs (the test program sleeps), a second controller
    # must be refused. Wait until the client's connection is established first.
    deadline = time.time() + TIMEOUT
    while not has_socket(port, "01") and time.time() < deadline and c.poll() is None:
        time.sleep(0.02)
    time.sleep(0.2)  # from handshake to the executor's accept (and listener close)
    try:
        socket.create_connection(("127.0.0.1", port), timeout=2).close()
        print("second connection: accepted")
    except OSError:
        print("second connection: refused")
    try:
        _, cerr = c.communicate(timeout=TIMEOUT)
        status = c.returncode
        sys.stderr.write(cerr.decode(errors="replace"))
    except subprocess.TimeoutExpired:
        c.kill()
        c.communicate()
        status = "timeout"
    try:
        out, err = ex.communicate(timeout=TIMEOUT)
        ex_status = ex.returncode
    except subprocess.TimeoutExpired:
        ex.kill()
        out, err = ex.communicate()
        ex_status = "timeout"
    sys.stdout.write(out.decode(errors="replace"))
    sys.stderr.write(err.decode(errors="replace"))
    print("client status: %s" % status)
    print("executor status: %s" % ex_status)
    return 0


if __name__ == "__main__":
    sys.exit(main())
