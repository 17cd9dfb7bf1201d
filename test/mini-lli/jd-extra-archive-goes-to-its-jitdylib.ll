; Question: does an -extra-archive after -jd go to that JITDylib, whose
; modules find its members before the main JITDylib's symbols, as in lli?
;
; RUN: %clang -c %inputs/mini-lli/jd-getv-5.ll -o %t.getv.o
; RUN: rm -f %t.getv.a && llvm-ar rcs %t.getv.a %t.getv.o
;
; In jd a: a's getv is the member's (5), main's its own (9): 5 * 10 + 9.
; RUN: %python %inputs/mini-lli/expect-status.py 59 mini-lli -jd a -extra-module %inputs/mini-lli/jd-calls-getv.ll -extra-archive %t.getv.a %s
; RUN: %python %inputs/mini-lli/expect-status.py 59 mini-lli -jit-kind=orc-lazy -jd a -extra-module %inputs/mini-lli/jd-calls-getv.ll -extra-archive %t.getv.a %s
; RUN: %python %inputs/mini-lli/expect-status.py 59 mini-lli -jit-kind=orc-tiered -jd a -extra-module %inputs/mini-lli/jd-calls-getv.ll -extra-archive %t.getv.a %s
; RUN: %python %inputs/mini-lli/expect-status.py 59 %lli -jit-kind=orc -jd a -extra-module %inputs/mini-lli/jd-calls-getv.ll -extra-archive %t.getv.a %s
; RUN: %python %inputs/mini-lli/expect-status.py 59 %lli -jit-kind=orc-lazy -jd a -extra-module %inputs/mini-lli/jd-calls-getv.ll -extra-archive %t.getv.a %s
;
; The main JITDylib links against jd a, archive included: its getv is the
; member's.
; RUN: echo 'declare i32 @getv()' > %t.main.ll
; RUN: echo 'define i32 @main() { %%v = call i32 @getv() ret i32 %%v }' >> %t.main.ll
; RUN: %python %inputs/mini-lli/expect-status.py 5 mini-lli -jd a -extra-archive %t.getv.a %t.main.ll
; RUN: %python %inputs/mini-lli/expect-status.py 5 mini-lli -jit-kind=orc-lazy -jd a -extra-archive %t.getv.a %t.main.ll
; RUN: %python %inputs/mini-lli/expect-status.py 5 mini-lli -jit-kind=orc-tiered -jd a -extra-archive %t.getv.a %t.main.ll
; RUN: %python %inputs/mini-lli/expect-status.py 5 %lli -jd a -extra-archive %t.getv.a %t.main.ll
;
; A member that needs a symbol nobody defines: an error naming it, not a
; wait.
; RUN: echo 'declare i32 @nosuch()' > %t.bad.ll
; RUN: echo 'define i32 @getv() { %%v = call i32 @nosuch() ret i32 %%v }' >> %t.bad.ll
; RUN: %clang -c %t.bad.ll -o %t.bad.o
; RUN: rm -f %t.bad.a && llvm-ar rcs %t.bad.a %t.bad.o
; RUN: %python %inputs/mini-lli/expect-status.py 1 mini-lli -jd a -extra-archive %t.bad.a %t.main.ll 2>&1 | FileCheck %s --check-prefix=MISSING
; RUN: %python %inputs/mini-lli/expect-status.py 1 mini-lli -jit-kind=orc-lazy -jd a -extra-archive %t.bad.a %t.main.ll 2>&1 | FileCheck %s --check-prefix=MISSING
; RUN: %python %inputs/mini-lli/expect-status.py 1 mini-lli -jit-kind=orc-tiered -jd a -extra-archive %t.bad.a %t.main.ll 2>&1 | FileCheck %s --check-prefix=MISSING
; RUN: not %lli -jd a -extra-archive %t.bad.a %t.main.ll 2>&1 | FileCheck %s --check-prefix=MISSING
; MISSING: Symbols not found: [ nosuch ]
;
; A named JITDylib's archive comes before the modules of one named after it
; (main's link order takes each named JITDylib whole, in order): main's val
; is a's member's (1), not b's module's (20).
; RUN: echo 'define i32 @val() { ret i32 1 }' > %t.val1.ll
; RUN: %clang -c %t.val1.ll -o %t.val1.o
; RUN: rm -f %t.val1.a && llvm-ar rcs %t.val1.a %t.val1.o
; RUN: echo 'declare i32 @val()' > %t.callval.ll
; RUN: echo 'define i32 @main() { %%v = call i32 @val() ret i32 %%v }' >> %t.callval.ll
; RUN: %python %inputs/mini-lli/expect-status.py 1 mini-lli -jd a -extra-archive %t.val1.a -jd b -extra-module %inputs/mini-lli/jd-val-20.ll %t.callval.ll
; RUN: %python %inputs/mini-lli/expect-status.py 1 mini-lli -jit-kind=orc-lazy -jd a -extra-archive %t.val1.a -jd b -extra-module %inputs/mini-lli/jd-val-20.ll %t.callval.ll
; RUN: %python %inputs/mini-lli/expect-status.py 1 mini-lli -jit-kind=orc-tiered -jd a -extra-archive %t.val1.a -jd b -extra-module %inputs/mini-lli/jd-val-20.ll %t.callval.ll
; RUN: %python %inputs/mini-lli/expect-status.py 1 %lli -jd a -extra-archive %t.val1.a -jd b -extra-module %inputs/mini-lli/jd-val-20.ll %t.callval.ll
; RUN: %python %inputs/mini-lli/expect-status.py 1 %lli -jit-kind=orc-lazy -jd a -extra-archive %t.val1.a -jd b -extra-module %inputs/mini-lli/jd-val-20.ll %t.callval.ll
;
; Before -jd the archive is the main JITDylib's, whose own getv comes first,
; for a too: 9 * 10 + 9.
; RUN: %python %inputs/mini-lli/expect-status.py 99 mini-lli -extra-archive %t.getv.a -jd a -extra-module %inputs/mini-lli/jd-calls-getv.ll %s
; RUN: %python %inputs/mini-lli/expect-status.py 99 %lli -extra-archive %t.getv.a -jd a -extra-module %inputs/mini-lli/jd-calls-getv.ll %s

declare i32 @a_getv()

define i32 @getv() {
  ret i32 9
}

define i32 @main() {
  %a = call i32 @a_getv()
  %t = mul i32 %a, 10
  %b = call i32 @getv()
  %r = add i32 %t, %b
  ret i32 %r
}
