#!/usr/bin/env python3
"""Reads and edits mini-lli object cache entries (lib/jit/cache/ObjectCache.c) for the
object-cache tests; the checksum is lib/jit/support/ContentHash.c's, written again here.

  objcache.py count DIR            entries and leftover temporary files in DIR
  objcache.py objects DIR          objects in each entry (one line per entry)
  objcache.py patch DIR OLD NEW    replace the bytes OLD by NEW (same length) in
                                   every entry's objects, checksum fixed up
  objcache.py corrupt DIR          flip one payload byte of every entry
  objcache.py truncate DIR N       cut every entry to its first N bytes"""
import os
import struct
import sys

M64 = (1 << 64) - 1
PA, PB = 0x9E3779B185EBCA87, 0xC2B2AE3D27D4EB4F
HEADER = 16 + 4 + 4 + 8 + 8 + 8 + 8


def rotl(x, r):
    return ((x << r) | (x >> (64 - r))) & M64


def fmix(k):
    k ^= k >> 33
    k = (k * 0xFF51AFD7ED558CCD) & M64
    k ^= k >> 33
    k = (k * 0xC4CEB9FE1A85EC53) & M64
    return k ^ (k >> 33)


def checksum(data):
    a, b = 0x243F6A8885A308D3, 0x13198A2E03707344

    def mix(a, b, w):
        a = (rotl(a ^ ((w * PA) & M64), 31) * PB) & M64
        b = (rotl(b ^ ((w * PB) & M64), 27) * PA + 0x52DCE729) & M64
        return a, b

    whole = len(data) // 8 * 8
    for (w,) in struct.iter_unpack("<Q", data[:whole]):
        a, b = mix(a, b, w)
    tail = data[whole:]
    w = int.from_bytes(tail, "little") ^ (len(tail) << 56)
    a, b = mix(a, b, w)
    n = len(data)
    a, b = fmix(a ^ n), fmix((b + n) & M64)
    return fmix(a ^ rotl(b, 17))


def entries(d):
    return sorted(os.path.join(d, f) for f in os.listdir(d) if f.endswith(".orcobj"))


def objects(data):
    """(offset, size) of each object in an entry."""
    p = HEADER
    for _ in range(2):  # constructors, destructors
        (n,) = struct.unpack_from("<I", data, p)
        p += 4
        for _ in range(n):
            (ln,) = struct.unpack_from("<I", data, p + 4)
            p += 8 + ln
    (n,) = struct.unpack_from("<I", data, p)
    p += 4
    for _ in range(2 * n):  # names: lookup, display
        (ln,) = struct.unpack_from("<I", data, p)
        p += 4 + ln
    for strings in (1, 3):  # exports: name; escapes: stub, target, display
        (n,) = struct.unpack_from("<I", data, p)
        p += 4
        for _ in range(n):
            for _ in range(strings):
                (ln,) = struct.unpack_from("<I", data, p)
                p += 4 + ln
            p += 4  # flags
    (n,) = struct.unpack_from("<I", data, p)
    p += 4
    out = []
    for _ in range(n):
        (size,) = struct.unpack_from("<Q", data, p)
        out.append((p + 8, size))
        p += 8 + size
    return out


def rewrite(path, data):
    data = bytearray(data)
    struct.pack_into("<Q", data, HEADER - 8, checksum(bytes(data[HEADER:])))
    with open(path, "wb") as f:
        f.write(data)


def main():
    cmd, d = sys.argv[1], sys.argv[2]
    if cmd == "count":
        tmp = [f for f in os.listdir(d) if f.endswith(".tmp")]
        print("entries: %d, temporary files: %d" % (len(entries(d)), len(tmp)))
    elif cmd == "objects":
        for e in entries(d):
            data = open(e, "rb").read()
            assert struct.unpack_from("<Q", data, HEADER - 8)[0] == checksum(data[HEADER:]), e
            print("objects: %d" % len(objects(data)))
    elif cmd == "patch":
        old, new = sys.argv[3].encode(), sys.argv[4].encode()
        assert len(old) == len(new)
        for e in entries(d):
            data = bytearray(open(e, "rb").read())
            hits = 0
            for off, size in objects(data):
                blob = bytes(data[off:off + size])
                hits += blob.count(old)
                data[off:off + size] = blob.replace(old, new)
            print("patched %d occurrence(s)" % hits)
            rewrite(e, data)
    elif cmd == "corrupt":
        for e in entries(d):
            data = bytearray(open(e, "rb").read())
            data[len(data) // 2] ^= 0x5A
            open(e, "wb").write(data)
    elif cmd == "truncate":
        for e in entries(d):
            data = open(e, "rb").read()
            open(e, "wb").write(data[:int(sys.argv[3])])
    else:
        sys.exit("objcache.py: error: unknown command '%s'" % cmd)


main()
