; Question: do the main JITDylib and a member of JITDylib a's archive that
; call each other's functions (main through a variable pointing at the
; member's @getv) and the member reading main's @counter link and run, as in
; lli, under orc and orc-lazy? A call reaches another JITDylib's function
; through a stub, so neither object waits for the other (this used to be
; refused under orc and hang under orc-lazy).
;
; getv() = counter + mainf(1) = 40 + 2.
; RUN: rm -rf %t && mkdir %t
; RUN: %clang -c %inputs/mini-lli/jd-member-calls-main.c -o %t/member.o
; RUN: llvm-ar rcs %t/member.a %t/member.o
; RUN: %python %inputs/mini-lli/expect-status.py --timeout=60 42 mini-lli -jd a -extra-archive %t/member.a %s
; RUN: %python %inputs/mini-lli/expect-status.py --timeout=60 42 mini-lli -compile-threads=2 -jd a -extra-archive %t/member.a %s
; RUN: %python %inputs/mini-lli/expect-status.py --timeout=60 42 mini-lli -jit-kind=orc-lazy -jd a -extra-archive %t/member.a %s
; RUN: %python %inputs/mini-lli/expect-status.py --timeout=60 42 mini-lli -jit-kind=orc-tiered -jd a -extra-archive %t/member.a %s
; RUN: %python %inputs/mini-lli/expect-status.py --timeout=60 42 mini-lli -jit-kind=orc-lazy -per-module-lazy -jd a -extra-archive %t/member.a %s
; RUN: %python %inputs/mini-lli/expect-status.py --timeout=60 42 mini-lli -jit-linker=rtdyld -jd a -extra-archive %t/member.a %s
; RUN: %python %inputs/mini-lli/expect-status.py --timeout=60 42 %lli -jit-kind=orc -jd a -extra-archive %t/member.a %s
; RUN: %python %inputs/mini-lli/expect-status.py --timeout=60 42 %lli -jit-kind=orc-lazy -jd a -extra-archive %t/member.a %s

@counter = global i32 40
@fp = global ptr @getv

declare i32 @getv()

define i32 @mainf(i32 %x) {
  %y = add i32 %x, 1
  ret i32 %y
}

define i32 @main() {
  %f = load ptr, ptr @fp
  %v = call i32 %f()
  ret i32 %v
}
