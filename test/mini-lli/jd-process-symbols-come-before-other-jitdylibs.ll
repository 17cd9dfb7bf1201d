; Question: when a -jd module and the process define the same exported name,
; does the main JITDylib get the process's (it links the process before the
; named JITDylibs) and the -jd module its own, as in lli?
;
; main's abs(-3) is the C library's (3); jd_abs() calls the module's (77).
; RUN: %python %inputs/mini-lli/expect-status.py 80 mini-lli -jd a -extra-module %inputs/mini-lli/jd-defines-abs.ll %s
; RUN: %python %inputs/mini-lli/expect-status.py 80 mini-lli -jit-kind=orc-lazy -jd a -extra-module %inputs/mini-lli/jd-defines-abs.ll %s
; RUN: %python %inputs/mini-lli/expect-status.py 80 mini-lli -jit-kind=orc-tiered -jd a -extra-module %inputs/mini-lli/jd-defines-abs.ll %s
; RUN: %python %inputs/mini-lli/expect-status.py 80 %lli -jit-kind=orc -jd a -extra-module %inputs/mini-lli/jd-defines-abs.ll %s
; RUN: %python %inputs/mini-lli/expect-status.py 80 %lli -jit-kind=orc-lazy -jd a -extra-module %inputs/mini-lli/jd-defines-abs.ll %s
;
; In the main JITDylib the module's own definition comes first: 77 + 77.
; RUN: %python %inputs/mini-lli/expect-status.py 154 mini-lli -extra-module %inputs/mini-lli/jd-defines-abs.ll %s
; RUN: %python %inputs/mini-lli/expect-status.py 154 %lli -extra-module %inputs/mini-lli/jd-defines-abs.ll %s

declare i32 @abs(i32)
declare i32 @jd_abs()

define i32 @main() {
  %a = call i32 @abs(i32 -3)
  %b = call i32 @jd_abs()
  %r = add i32 %a, %b
  ret i32 %r
}
