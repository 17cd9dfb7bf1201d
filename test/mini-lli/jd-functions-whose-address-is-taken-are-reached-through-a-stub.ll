; Question: under orc-lazy, a function whose address is taken has no lazy
; stub of its own (lib/jit/compile/LazySplit.h): is it reached from another JITDylib
; through a stub all the same, so that its code and an object of the other
; JITDylib that use each other link (here main's @mainf reads the member's
; @memv, and the member's @member_f calls @mainf), as in lli? It used to
; hang: the member waited for @mainf's code, which waited for the member.
; The timeouts make a hang fail.
;
; mainf() + member_f() = 40 + (40 - 38).
; RUN: rm -rf %t && mkdir %t
; RUN: %clang -c %inputs/mini-lli/jd-member-calls-mainf.c -o %t/member.o
; RUN: llvm-ar rcs %t/member.a %t/member.o
; RUN: %python %inputs/mini-lli/expect-status.py --timeout=60 42 mini-lli -jit-kind=orc-lazy -jd a -extra-archive %t/member.a %s
; RUN: %python %inputs/mini-lli/expect-status.py --timeout=60 42 mini-lli -jit-kind=orc-tiered -jd a -extra-archive %t/member.a %s
; RUN: %python %inputs/mini-lli/expect-status.py --timeout=60 42 mini-lli -jit-kind=orc-lazy -per-module-lazy -jd a -extra-archive %t/member.a %s
; RUN: %python %inputs/mini-lli/expect-status.py --timeout=60 42 mini-lli -jit-kind=orc -jd a -extra-archive %t/member.a %s
; RUN: %python %inputs/mini-lli/expect-status.py --timeout=60 42 %lli -jit-kind=orc-lazy -jd a -extra-archive %t/member.a %s
; RUN: %python %inputs/mini-lli/expect-status.py --timeout=60 42 %lli -jit-kind=orc -jd a -extra-archive %t/member.a %s
;
; The same with a module of a in place of the member (@fa points at @mainf):
; it hung too.
; RUN: %python %inputs/mini-lli/expect-status.py --timeout=60 42 mini-lli -jit-kind=orc-lazy -jd a -extra-module %inputs/mini-lli/jd-points-at-mainf.ll %s
; RUN: %python %inputs/mini-lli/expect-status.py --timeout=60 42 mini-lli -jit-kind=orc-tiered -jd a -extra-module %inputs/mini-lli/jd-points-at-mainf.ll %s
; RUN: %python %inputs/mini-lli/expect-status.py --timeout=60 42 mini-lli -jit-kind=orc -jd a -extra-module %inputs/mini-lli/jd-points-at-mainf.ll %s
; RUN: %python %inputs/mini-lli/expect-status.py --timeout=60 42 %lli -jit-kind=orc-lazy -jd a -extra-module %inputs/mini-lli/jd-points-at-mainf.ll %s

@fp = global ptr @mainf
@memv = external global i32

declare i32 @member_f()

define i32 @mainf() {
  %v = load i32, ptr @memv
  ret i32 %v
}

define i32 @main() {
  %f = load ptr, ptr @fp
  %a = call i32 %f()
  %b = call i32 @member_f()
  %r = add i32 %a, %b
  ret i32 %r
}
