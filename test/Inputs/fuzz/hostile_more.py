#!/usr/bin/env python3
"""More hostile-controller cases for orc-executor (Python 3 stdlib only).

usage: hostile_more.py EXECUTOR [CASE...]
Reuses the controller of test/Inputs/executor/hostile.py and adds the rest of the
PROTOCOL.md 6.1 matrix: opcode and Hangup variants, a Result whose send fails
because the controller has gone, oversized messages (checking that no memory is
reserved before the bytes arrive), more calls to unmapped or non-code addresses,
and seeded random garbage streams (pure random bytes, and random messages with
plausible headers). Prints "ok CASE" or "FAIL CASE: why" per case; exits 1 if any
case failed. Random cases print their seeds; ORC_RT_C_HOSTILE_SEEDS=a,b,... replays
chosen seeds.
"""
import os
import random
import struct
import sys
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..",
                                "executor"))
import hostile as H  # noqa: E402

u64, msg, sps_str = H.u64, H.msg, H.sps_str
SETUP, HANGUP, RESULT, CALL = H.SETUP, H.HANGUP, H.RESULT, H.CALL
MM, DM = H.MM, H.DM
B = "__llvm_orc_bootstrap_"
CASES = {}


def case(name):
    def reg(f):
        CASES[name] = f
        return f
    return reg


def one_error_line(st, err, expect):
    lines = err.splitlines()
    if st != 1 or len(lines) != 1 or not lines[0].startswith(
            "orc-executor: error: ") or expect not in lines[0]:
        return "status %r stderr %r (want 1 and one error line with %r)" % (st, err, expect)
    return None


def fatal_case(name, expect, send):
    def run(e):
        send(e)
        st, _, err = e.finish()
        return one_error_line(st, err, expect)
    CASES[name] = run


fatal_case("opcode_4", "Unexpected opcode", lambda e: e.send(msg(4)))
fatal_case("opcode_max", "Unexpected opcode", lambda e: e.send(msg(2**64 - 1, 1, 2)))
fatal_case("size_zero", "Message size too small",
           lambda e: e.send(H.HDR.pack(0, CALL, 0, 0)))
fatal_case("size_31", "Message size too small",
           lambda e: e.send(H.HDR.pack(31, HANGUP, 0, 0) + b"\x00" * 64))
fatal_case("header_then_eof_1_byte", "Unexpected end-of-file", lambda e: e.send(b"\x20"))
fatal_case("header_31_bytes", "Unexpected end-of-file",
           lambda e: e.send(msg(HANGUP)[:31]))
fatal_case("body_short_by_one", "Unexpected end-of-file",
           lambda e: e.send(msg(CALL, 1, e.syms[MM + "reserve_wrapper"], b"\x00" * 16)[:-1]))
fatal_case("setup_after_calls", "Unexpected Setup opcode",
           lambda e: (e.call(MM + "reserve_wrapper",
                             u64(e.syms[MM + "Instance"]) + u64(0), 1),
                      e.send(msg(SETUP, 0, 0))))
fatal_case("result_seqno_zero", "No call for sequence number 0",
           lambda e: e.send(msg(RESULT, 0, 0, b"")))
fatal_case("result_seqno_max", "No call for sequence number 18446744073709551615",
           lambda e: e.send(msg(RESULT, 2**64 - 1, 7, b"\x01" * 100)))
fatal_case("size_just_above_max", "Message size too large",
           lambda e: e.send(H.HDR.pack((1 << 32) + 33, CALL, 0, 0)))
fatal_case("call_tag_max", "not code in this process",
           lambda e: e.send(msg(CALL, 1, 2**64 - 1)))
fatal_case("call_tag_kernel_half", "not code in this process",
           lambda e: e.send(msg(CALL, 1, 0xffff800000001000)))
fatal_case("call_stack_address", "not code in this process",
           lambda e: e.send(msg(CALL, 1, int(open("/proc/%d/maps" % e.p.pid).read().split(
               "[stack]")[0].splitlines()[-1].split("-")[0], 16) + 64)))


def clean_case(name, payloads):
    """Hangup after some messages: status 0, nothing on stderr."""
    def run(e):
        e.send(b"".join(payloads(e)))
        st, _, err = e.finish()
        return None if st == 0 and err == "" else "status %r stderr %r" % (st, err)
    CASES[name] = run


clean_case("hangup_seqno_tag", lambda e: [msg(HANGUP, 2**64 - 1, 2**64 - 1)])
clean_case("hangup_big_payload", lambda e: [msg(HANGUP, 0, 0, b"\xff" * (1 << 20))])
clean_case("hangup_then_garbage", lambda e: [msg(HANGUP), b"\xde\xad" * 100])


@case("calls_to_non_code")
def calls_to_non_code(e):
    """Entry points and actions at addresses that are not code: an error Result
    (empty for the run-as wrappers, as for undecodable arguments), the session goes
    on."""
    inst = u64(e.syms[MM + "Instance"])
    for i, (name, payload) in enumerate([
            (B + "run_as_main_wrapper", u64(0x10) + u64(0)),
            (B + "run_as_main_wrapper", inst + u64(1) + sps_str("x")),  # data address
            (B + "run_as_void_function_wrapper", u64(0)),
            (B + "run_as_void_function_wrapper", u64(0x7ffffffff000)),
            (B + "run_as_int_function_wrapper", u64(0x10) + struct.pack("<i", 3)),
    ]):
        r = e.call(name, payload, i)
        if r != b"":
            e.finish()
            return "%s answered %r, want an empty Result" % (name, r)
    r = e.call(MM + "reserve_wrapper", inst + u64(0x1000), 10)
    base = struct.unpack("<Q", r[1:9])[0]
    fin = u64(0x10) + sps_str(b"")
    dealloc = u64(0) + sps_str(b"")
    r = e.call(MM + "initialize_wrapper", inst + u64(1) + b"\x03" + u64(base) +
               u64(0x1000) + sps_str(b"") + u64(1) + fin + dealloc, 11)
    if r[:1] != b"\x00" or b"call to 0x10: not an address of code" not in r:
        e.finish()
        return "initialize with a finalize action at 0x10 answered %r" % r
    r = e.call(MM + "reserve_wrapper", inst + u64(0), 12)
    if r != b"\x01" + u64(0):
        e.finish()
        return "reserve(0) afterwards answered %r" % r
    st, _, err = e.finish()
    return None if st == 0 and err == "" else "status %r stderr %r" % (st, err)


@case("result_send_fails")
def result_send_fails(e):
    """The controller stops reading before a Result is sent: the executor logs the
    reference's line once, is not killed by SIGPIPE, and exits 0 at EOF."""
    os.close(e.e2c_r)
    inst = u64(e.syms[MM + "Instance"])
    for i in range(3):
        e.send(msg(CALL, i, e.syms[MM + "reserve_wrapper"], inst + u64(0)))
    # Wait (bounded) for the report before EOF: at EOF the executor disconnects
    # and later Results are dropped without a word.
    early = b""
    deadline = time.time() + H.TIMEOUT
    while b"\n" not in early and time.time() < deadline:
        r, _, _ = H.select.select([e.p.stderr], [], [], 0.1)
        if r:
            chunk = os.read(e.p.stderr.fileno(), 4096)
            if not chunk:
                break
            early += chunk
    e.e2c_r = os.open(os.devnull, os.O_RDONLY)  # for finish() to close
    st, _, err = e.finish()
    err = early.decode(errors="replace") + err
    want = "orc-executor: SimpleRemoteEPCServer FD-transport disconnected\n"
    return None if st == 0 and err == want else "status %r stderr %r (want 0, %r)" % (
        st, err, want)


@case("pipelined_calls_unread")
def pipelined(e):
    """1000 calls written back to back while the controller reads nothing (the
    Result pipe fills and call threads block on it): no deadlock, every call
    answered exactly once, then a clean exit."""
    inst = u64(e.syms[MM + "Instance"])
    tag = e.syms[MM + "reserve_wrapper"]
    n = 1000
    data = b"".join(msg(CALL, i, tag, inst + u64(0)) for i in range(n))
    t = threading.Thread(target=e.send, args=(data,))
    t.start()
    seen = {}
    for _ in range(n):
        opc, seq, rtag, payload = e.read_msg()
        if opc != RESULT or rtag != 0 or payload != b"\x01" + u64(0):
            e.finish()
            return "bad Result %r" % ((opc, seq, rtag, payload),)
        seen[seq] = seen.get(seq, 0) + 1
    t.join(H.TIMEOUT)
    if sorted(seen) != list(range(n)) or set(seen.values()) != {1}:
        e.finish()
        return "Results for %d distinct seqnos, want each of 0..%d once" % (len(seen), n - 1)
    st, _, err = e.finish()
    return None if st == 0 and err == "" else "status %r stderr %r" % (st, err)


def vm_size_kb(pid):
    for line in open("/proc/%d/status" % pid):
        if line.startswith("VmSize:"):
            return int(line.split()[1])
    raise RuntimeError("no VmSize")


def oversized(announced, sent):
    """Announces a payload of `announced` bytes, sends `sent` of them, waits, then
    EOF: the executor's address space must grow with what was sent, not with what
    was announced (no reservation before the bytes arrive)."""
    def run(e):
        before = vm_size_kb(e.p.pid)
        e.send(H.HDR.pack(announced + 32, CALL, 1, e.syms[MM + "reserve_wrapper"]))
        chunk = b"\x00" * 65536
        left = sent
        while left:
            n = min(left, len(chunk))
            e.send(chunk[:n])
            left -= n
        time.sleep(0.3)
        grown = vm_size_kb(e.p.pid) - before
        st, _, err = e.finish()
        why = one_error_line(st, err, "Unexpected end-of-file")
        limit = 64 * 1024 + 4 * sent // 1024  # KiB: slack + a few times what arrived
        if not why and grown > limit:
            why = "address space grew by %d KiB after %d bytes of a %d-byte message" % (
                grown, sent, announced)
        return why
    return run


CASES["oversized_4g_no_bytes"] = oversized((1 << 32) - 1, 0)
CASES["oversized_4g_1m_bytes"] = oversized(1 << 32, 1 << 20)
CASES["oversized_1g_16k_bytes"] = oversized(1 << 30, 16384)

KNOWN_ERRORS = ("Message size too small", "Unexpected end-of-file", "Unexpected opcode",
                "Unexpected Setup opcode", "No call for sequence number",
                "Message size too large", "to address 0x0", "not code in this process")
SAFE = [MM + "reserve_wrapper", MM + "initialize_wrapper", MM + "deinitialize_wrapper",
        MM + "release_wrapper", DM + "resolve_wrapper",
        "__llvm_orc_ExecutorSharedMemoryMapperService_Deinitialize",
        "__llvm_orc_ExecutorSharedMemoryMapperService_Release",
        B + "mem_read_uint8s_wrapper", B + "mem_read_uint64s_wrapper",
        B + "mem_read_strings_wrapper", B + "mem_read_buffers_wrapper"]


def garbage_run(exe, stream_of):
    """Feeds one stream (a function of the Setup's symbols), draining the
    executor's output meanwhile; returns why it is not acceptable, or None."""
    e = H.Exec(exe)
    drained = []

    def drain():
        while True:
            try:
                b = os.read(e.e2c_r, 65536)
            except OSError:
                return
            if not b:
                return
            drained.append(len(b))
    t = threading.Thread(target=drain, daemon=True)
    t.start()
    try:
        e.send(stream_of(e))
    except BrokenPipeError:
        pass  # the executor stopped reading at a protocol error
    try:
        os.close(e.c2e_w)
    except OSError:
        pass
    try:
        out, err = e.p.communicate(timeout=H.TIMEOUT)
    except H.subprocess.TimeoutExpired:
        e.p.kill()
        e.p.communicate()
        return "hang (killed after %d s)" % H.TIMEOUT
    t.join(H.TIMEOUT)
    err = err.decode(errors="replace")
    st = e.p.returncode
    if st == 0 and err == "":
        return None
    if st == 1 and len(err.splitlines()) == 1 and err.startswith(
            "orc-executor: error: ") and any(k in err for k in KNOWN_ERRORS):
        return None
    return "status %r stderr %r" % (st, err[:300])


def seeds(default):
    env = os.environ.get("ORC_RT_C_HOSTILE_SEEDS")
    return [int(s) for s in env.split(",")] if env else list(range(default))


def random_bytes(r):
    return lambda e: bytes(r.randrange(256) for _ in range(r.randrange(1, 300)))


def random_messages(r):
    def make(e):
        out = b""
        for _ in range(r.randrange(1, 12)):
            opc = CALL if r.random() < 0.85 else r.choice([0, 1, 2, 4, r.randrange(2**64)])
            tag = (e.syms[r.choice(SAFE)] if r.random() < 0.93
                   else r.choice([0, 0x10, r.randrange(2**64)]))
            words = [e.syms[MM + "Instance"], r.randrange(2**64), r.randrange(64),
                     0, 1, 0x1000]
            payload = b"".join(
                r.choice([u64(r.choice(words)), bytes([r.randrange(256)]),
                          sps_str(bytes(r.randrange(256) for _ in range(r.randrange(8))))])
                for _ in range(r.randrange(0, 8)))
            size = len(payload) + 32
            if r.random() < 0.15:  # a lying size
                size = r.choice([0, 31, size + r.randrange(1, 64), 2**64 - 1, 1 << 40])
            out += H.HDR.pack(size & (2**64 - 1), opc & (2**64 - 1),
                              r.choice([0, 1, 2, 1000, r.randrange(2**64)]), tag) + payload
            if opc == HANGUP:
                break
        return out
    return make


def garbage_case(name, gen, count):
    def run(exe):
        bad = []
        for s in seeds(count):
            why = garbage_run(exe, gen(random.Random("%s-%d" % (name, s))))
            if why:
                bad.append("seed %d: %s" % (s, why))
        return "; ".join(bad) if bad else None
    run.takes_exe = True
    CASES[name] = run


garbage_case("garbage_random_bytes", random_bytes, 60)
garbage_case("garbage_random_messages", random_messages, 150)


def main():
    exe, names = sys.argv[1], sys.argv[2:] or list(CASES)
    failed = 0
    for name in names:
        f = CASES[name]
        try:
            why = f(exe) if getattr(f, "takes_exe", False) else f(H.Exec(exe))
        except Exception as ex:  # a crash, a hang or a protocol violation
            why = "%s: %s" % (type(ex).__name__, ex)
        print(("ok %s" % name) if why is None else ("FAIL %s: %s" % (name, why)),
              flush=True)
        failed += why is not None
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
