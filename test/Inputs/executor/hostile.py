#!/usr/bin/env python3
"""A hostile SimpleRemoteEPC controller (Python 3 stdlib only).

usage: hostile.py EXECUTOR [CASE...]
Starts EXECUTOR as llvm-jitlink does (filedescs=<in>,<out>), reads its Setup, then
plays one scenario per case and checks the executor's exit status and stderr. Prints
one line per case ("ok CASE" or "FAIL CASE: why"); exits 1 if any case failed.
"""
import os
import select
import struct
import subprocess
import sys
import time

HDR = struct.Struct("<QQQQ")
SETUP, HANGUP, RESULT, CALL = 0, 1, 2, 3
TIMEOUT = 20


def u64(v):
    return struct.pack("<Q", v & 0xFFFFFFFFFFFFFFFF)


def sps_str(b):
    if isinstance(b, str):
        b = b.encode()
    return u64(len(b)) + b


def msg(opc, seq=0, tag=0, payload=b"", size=None):
    return HDR.pack(len(payload) + 32 if size is None else size, opc, seq, tag) + payload


class Exec:
    def __init__(self, exe):
        self.exe = exe
        c2e_r, self.c2e_w = os.pipe()
        self.e2c_r, e2c_w = os.pipe()
        self.p = subprocess.Popen([exe, "filedescs=%d,%d" % (c2e_r, e2c_w)],
                                  pass_fds=(c2e_r, e2c_w), stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE)
        os.close(c2e_r)
        os.close(e2c_w)
        self.buf = b""
        opc, seq, tag, payload = self.read_msg()
        assert opc == SETUP and seq == 0 and tag == 0, "bad Setup"
        self.syms = parse_setup(payload)

    def read_exact(self, n):
        deadline = time.time() + TIMEOUT
        while len(self.buf) < n:
            r, _, _ = select.select([self.e2c_r], [], [], max(0, deadline - time.time()))
            if not r:
                raise TimeoutError("no reply from executor")
            chunk = os.read(self.e2c_r, 65536)
            if not chunk:
                raise EOFError("executor closed its output")
            self.buf += chunk
        out, self.buf = self.buf[:n], self.buf[n:]
        return out

    def read_msg(self):
        size, opc, seq, tag = HDR.unpack(self.read_exact(32))
        return opc, seq, tag, self.read_exact(size - 32)

    def send(self, data):
        os.write(self.c2e_w, data)

    def call(self, name, payload, seq):
        self.send(msg(CALL, seq, self.syms[name], payload))
        opc, rseq, tag, result = self.read_msg()
        assert opc == RESULT and rseq == seq and tag == 0, "bad Result header"
        return result

    def finish(self):
        try:
            os.close(self.c2e_w)
        except OSError:
            pass
        try:
            out, err = self.p.communicate(timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            self.p.kill()
            out, err = self.p.communicate()
            return None, out, err
        os.close(self.e2c_r)
        return self.p.returncode, out, err.decode(errors="replace")


def parse_setup(p):
    o = 0

    def take(n):
        nonlocal o
        v = p[o:o + n]
        assert len(v) == n
        o += n
        return v

    def rd_u64():
        return struct.unpack("<Q", take(8))[0]

    def rd_str():
        return take(rd_u64()).decode()

    rd_str()
    rd_u64()
    for _ in range(rd_u64()):
        rd_str()
        take(rd_u64())
    syms = {}
    for _ in range(rd_u64()):
        name = rd_str()
        syms[name] = rd_u64()
    assert o == len(p), "trailing Setup bytes"
    return syms


MM = "__llvm_orc_SimpleExecutorMemoryManager_"
DM = "__llvm_orc_SimpleExecutorDylibManager_"


def fatal(expect):
    """A case whose input must end the executor with status 1 and this message."""
    def deco(send):
        def run(e):
            send(e)
            st, _, err = e.finish()
            lines = err.splitlines()
            if st != 1 or len(lines) != 1 or not lines[0].startswith(
                    "orc-executor: error: ") or expect not in lines[0]:
                return "status %r stderr %r (want 1 and one error line with %r)" % (
                    st, err, expect)
            return None
        return run
    return deco


def clean(play):
    """A case after which the executor must still serve, then end with status 0."""
    def run(e):
        why = play(e)
        if why:
            e.finish()
            return why
        # still alive and answering?
        r = e.call(MM + "reserve_wrapper", u64(e.syms[MM + "Instance"]) + u64(0), 1000)
        if r != b"\x01" + u64(0):
            e.finish()
            return "reserve(0) after the case gave %r" % r
        st, _, err = e.finish()
        if st != 0 or "error" in err:
            return "status %r stderr %r (want 0, no error)" % (st, err)
        return None
    return run


CASES = {}


def case(name):
    def reg(f):
        CASES[name] = f
        return f
    return reg


case("size_too_small")(fatal("Message size too small")(
    lambda e: e.send(msg(CALL, 0, 0, b"", size=10))))
case("truncated_header")(fatal("Unexpected end-of-file")(
    lambda e: e.send(b"\x40" + b"\x00" * 9)))
case("truncated_body")(fatal("Unexpected end-of-file")(
    lambda e: e.send(msg(CALL, 0, e.syms[MM + "reserve_wrapper"], b"\x00" * 20, size=100))))
case("unknown_opcode")(fatal("Unexpected opcode")(lambda e: e.send(msg(7))))
case("setup_from_controller")(fatal("Unexpected Setup opcode")(
    lambda e: e.send(msg(SETUP, 0, 0, b"\x00" * 8))))
case("result_unknown_seqno")(fatal("No call for sequence number 42")(
    lambda e: e.send(msg(RESULT, 42, 0, b"\x00"))))
case("huge_size")(fatal("Message size too large")(
    lambda e: e.send(HDR.pack(1 << 62, CALL, 0, e.syms[MM + "reserve_wrapper"]))))
case("huge_size_max")(fatal("Message size too large")(
    lambda e: e.send(HDR.pack((1 << 64) - 1, CALL, 0, 0))))
case("call_address_zero")(fatal("to address 0x0")(lambda e: e.send(msg(CALL, 0, 0))))
case("call_unmapped")(fatal("not code in this process")(
    lambda e: e.send(msg(CALL, 0, 0x10, b""))))
case("call_unmapped_high")(fatal("not code in this process")(
    lambda e: e.send(msg(CALL, 0, 0x7ffffffff000, b""))))

case("call_data_address")(fatal("not code in this process")(
    lambda e: e.send(msg(CALL, 0, e.syms[MM + "Instance"], b""))))


@case("eof_at_boundary")
def eof_at_boundary(e):
    st, out, err = e.finish()
    return None if st == 0 and err == "" else "status %r stderr %r" % (st, err)


@case("hangup_with_payload")
def hangup(e):
    e.send(msg(HANGUP, 5, 9, b"\x01" + sps_str("hello")))
    st, out, err = e.finish()
    return None if st == 0 and err == "" else "status %r stderr %r" % (st, err)


@case("undecodable_args")
@clean
def undecodable(e):
    for i, (name, payload) in enumerate([
            (MM + "reserve_wrapper", b"\x01\x02\x03"),
            (MM + "initialize_wrapper", u64(e.syms[MM + "Instance"]) + u64(1 << 60)),
            (MM + "release_wrapper", u64(e.syms[MM + "Instance"]) + u64(1 << 40)),
            (DM + "resolve_wrapper", u64(1) + u64(1 << 61)),
            ("__llvm_orc_bootstrap_run_as_main_wrapper", u64(0) + u64(1 << 59)),
            ("__llvm_orc_bootstrap_mem_write_buffers_wrapper", u64(1) + u64(0x1000) + u64(99)),
            (MM + "reserve_wrapper", u64(12345) + u64(4096)),  # wrong instance
    ]):
        r = e.call(name, payload, i)
        if r != b"":
            return "%s with bad args answered %r, want an empty Result" % (name, r)
    return None


@case("run_as_main_address_zero")
@clean
def run_main_zero(e):
    r = e.call("__llvm_orc_bootstrap_run_as_main_wrapper", u64(0) + u64(0), 0)
    return None if r == b"" else "answered %r" % r


@case("resolve_empty_required")
@clean
def resolve_empty(e):
    h = e.call(DM + "open_wrapper", u64(e.syms[DM + "Instance"]) + sps_str("") + u64(0), 0)
    if h[:1] != b"\x01":
        return "open failed: %r" % h
    r = e.call(DM + "resolve_wrapper", h[1:9] + u64(1) + sps_str("") + b"\x01", 1)
    return None if r[:1] == b"\x00" else "answered %r, want an Expected error" % r


@case("memory_manager_errors")
@clean
def mm_errors(e):
    inst = u64(e.syms[MM + "Instance"])
    r = e.call(MM + "reserve_wrapper", inst + u64(0x2000), 0)
    if r[:1] != b"\x01":
        return "reserve failed %r" % r
    base = struct.unpack("<Q", r[1:9])[0]
    want = [
        (MM + "initialize_wrapper", inst + u64(0) + u64(0), b"Finalization request is empty"),
        (MM + "initialize_wrapper",
         inst + u64(1) + b"\x03" + u64(base) + u64(4) + sps_str(b"123456") + u64(0),
         b"content size (0x6 bytes) exceeds segment size (0x4 bytes)"),
        (MM + "initialize_wrapper",
         inst + u64(1) + b"\x03" + u64(base + 0x10000) + u64(4) + sps_str(b"") + u64(0),
         b"is not part of any reserved address range"),
        (MM + "release_wrapper", inst + u64(1) + u64(base + 8),
         b"In release, 0x%x is not part of any reserved address range" % (base + 8)),
        (MM + "deinitialize_wrapper", inst + u64(1) + u64(base),
         b"does not correspond to the start of any initialized region"),
        (DM + "open_wrapper", u64(e.syms[DM + "Instance"]) + sps_str("") + u64(1),
         b"open: non-zero mode bits not yet supported"),
    ]
    for i, (name, payload, text) in enumerate(want):
        r = e.call(name, payload, 1 + i)
        if text not in r:
            return "%s answered %r, want %r" % (name, r, text)
    r = e.call(MM + "release_wrapper", inst + u64(1) + u64(base), 50)
    return None if r == b"\x00" else "release of the slab answered %r" % r


@case("memory_access")
@clean
def memory_access(e):
    B = "__llvm_orc_bootstrap_mem_"
    inst = u64(e.syms[MM + "Instance"])
    r = e.call(MM + "reserve_wrapper", inst + u64(0x1000), 0)
    base = struct.unpack("<Q", r[1:9])[0]
    if e.call(B + "write_uint32s_wrapper", u64(1) + u64(base) + struct.pack("<I", 0x64636261), 1) != b"":
        return "write_uint32s failed"
    if e.call(B + "write_buffers_wrapper", u64(1) + u64(base + 4) + sps_str(b"e\0"), 2) != b"":
        return "write_buffers failed"
    r = e.call(B + "read_uint16s_wrapper", u64(1) + u64(base + 2), 3)
    if r != u64(1) + b"cd":
        return "read_uint16s gave %r" % r
    r = e.call(B + "read_strings_wrapper", u64(1) + u64(base), 4)
    if r != u64(1) + sps_str(b"abcde"):
        return "read_strings gave %r" % r
    r = e.call(B + "read_buffers_wrapper", u64(1) + u64(base + 1) + u64(base + 3), 5)
    if r != u64(1) + sps_str(b"bc"):
        return "read_buffers gave %r" % r
    # Bad addresses: an empty Result (an error), never a crash.
    for i, (name, payload) in enumerate([
            (B + "write_uint64s_wrapper", u64(1) + u64(0x10) + u64(7)),
            (B + "write_buffers_wrapper", u64(1) + u64(0x10) + sps_str(b"x")),
            (B + "read_uint8s_wrapper", u64(1) + u64(0x10)),
            (B + "read_strings_wrapper", u64(1) + u64(0x7ffffffff000)),
            (B + "read_buffers_wrapper", u64(1) + u64(0x10) + u64(0x20)),
    ]):
        r = e.call(name, payload, 10 + i)
        if r != b"":
            return "%s at a bad address answered %r" % (name, r)
    return None


def initialize_with_bogus_dealloc(e):
    """Reserves and initializes a block whose dealloc action calls 0x10 (reported
    at shutdown); returns None or why it failed. Ends right after the Result."""
    inst = u64(e.syms[MM + "Instance"])
    r = e.call(MM + "reserve_wrapper", inst + u64(0x1000), 0)
    base = struct.unpack("<Q", r[1:9])[0]
    fin = u64(0) + sps_str(b"")  # no finalize call
    dealloc = u64(0x10) + sps_str(b"")
    payload = (inst + u64(1) + b"\x03" + u64(base) + u64(0x1000) + sps_str(b"") +
               u64(1) + fin + dealloc)
    r = e.call(MM + "initialize_wrapper", payload, 1)
    if r[:1] != b"\x01":
        e.finish()
        return "initialize answered %r" % r
    st, _, err = e.finish()
    if st != 0 or "call to 0x10: not an address of code" not in err:
        return "status %r stderr %r" % (st, err)
    return None


@case("bogus_dealloc_action")
def bogus_dealloc(e):
    """A dealloc action with a non-code address runs at shutdown: reported, no crash."""
    return initialize_with_bogus_dealloc(e)


@case("answered_call_holds_no_token")
def answered_call_holds_no_token(e):
    """EOF right after the last Result: the call that sent it no longer counts as
    running JIT'd code, so the teardown (dealloc actions) runs every time. Many
    sessions, since a call that answered before giving its token back would make
    this fail only when EOF wins that race."""
    for i in range(150):
        why = initialize_with_bogus_dealloc(e if i == 0 else Exec(e.exe))
        if why:
            return "session %d: %s" % (i, why)
    return None


@case("jit_data_is_not_code")
@clean
def jit_data_is_not_code(e):
    """An action into a non-executable segment of JIT'd memory is refused, though the
    executor knows the memory as its own (only segments it made executable are code)."""
    inst = u64(e.syms[MM + "Instance"])
    r = e.call(MM + "reserve_wrapper", inst + u64(0x2000), 0)
    base = struct.unpack("<Q", r[1:9])[0]
    segs = (u64(2) + b"\x03" + u64(base) + u64(0x1000) + sps_str(b"\xc3" * 16) +
            b"\x05" + u64(base + 0x1000) + u64(0x1000) + sps_str(b"\xc3" * 16))
    actions = u64(1) + u64(base + 8) + sps_str(b"") + u64(0) + sps_str(b"")
    r = e.call(MM + "initialize_wrapper", inst + segs + actions, 1)
    want = b"call to 0x%x: not an address of code" % (base + 8)
    if want not in r:
        return "initialize answered %r, want %r" % (r, want)
    r = e.call(MM + "release_wrapper", inst + u64(1) + u64(base), 2)
    return None if r == b"\x00" else "release of the slab answered %r" % r


def main():
    exe, names = sys.argv[1], sys.argv[2:] or list(CASES)
    failed = 0
    for name in names:
        try:
            why = CASES[name](Exec(exe))
        except Exception as ex:  # a crash, a hang or a protocol violation
            why = "%s: %s" % (type(ex).__name__, ex)
        print(("ok %s" % name) if why is None else ("FAIL %s: %s" % (name, why)))
        failed += why is not None
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
