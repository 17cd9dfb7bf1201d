#!/usr/bin/env python3
"""Writes an LLVM IR module of N functions that main calls every one of, each
with the previous one's result, and prints the last: gen-call-chain.py N > m.ll"""
import sys

n = int(sys.argv[1])
out = ['@fmt = private constant [11 x i8] c"chain: %d\\0A\\00"', "declare i32 @printf(ptr, ...)"]
for i in range(n):
    out.append("define i32 @f%d(i32 %%x) noinline {\n  %%r = add i32 %%x, %d\n  ret i32 %%r\n}" % (i, i))
out.append("define i32 @main() {\nentry:")
prev = "0"
for i in range(n):
    out.append("  %%r%d = call i32 @f%d(i32 %s)" % (i, i, prev))
    prev = "%%r%d" % i
out.append("  call i32 (ptr, ...) @printf(ptr @fmt, i32 %s)\n  ret i32 0\n}" % prev)
print("\n".join(out))
