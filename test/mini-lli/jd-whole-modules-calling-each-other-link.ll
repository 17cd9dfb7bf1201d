; Question: under -jit-kind=orc-lazy, do modules kept whole without stubs of
; their own (here: they have aliases) in two JITDylibs that call each other's
; functions link and run, as in lli? A call reaches the other JITDylib's
; function through a stub (as under -jit-kind=orc), so neither code object
; waits for the other (mini-lli used to refuse them). The timeout makes a
; hang fail.
;
; mainf(1) = froma(1) + 1 = mainf(0) + 1 = froma(0) + 2 = 42.
; RUN: %python %inputs/mini-lli/expect-status.py --timeout=60 42 mini-lli -jit-kind=orc-lazy -jd a -extra-module %inputs/mini-lli/jd-alias-calls-main.ll %s
; RUN: %python %inputs/mini-lli/expect-status.py --timeout=60 42 mini-lli -jit-kind=orc-tiered -jd a -extra-module %inputs/mini-lli/jd-alias-calls-main.ll %s
; RUN: %python %inputs/mini-lli/expect-status.py --timeout=60 42 mini-lli -jit-kind=orc-lazy -per-module-lazy -jd a -extra-module %inputs/mini-lli/jd-alias-calls-main.ll %s
; RUN: %python %inputs/mini-lli/expect-status.py --timeout=60 42 mini-lli -jit-kind=orc-lazy -compile-threads=2 -jd a -extra-module %inputs/mini-lli/jd-alias-calls-main.ll %s
; RUN: %python %inputs/mini-lli/expect-status.py --timeout=60 42 mini-lli -jit-kind=orc -jd a -extra-module %inputs/mini-lli/jd-alias-calls-main.ll %s
; RUN: %python %inputs/mini-lli/expect-status.py --timeout=60 42 %lli -jit-kind=orc-lazy -jd a -extra-module %inputs/mini-lli/jd-alias-calls-main.ll %s
; RUN: %python %inputs/mini-lli/expect-status.py --timeout=60 42 %lli -jit-kind=orc -jd a -extra-module %inputs/mini-lli/jd-alias-calls-main.ll %s

declare i32 @froma_alias(i32)

@mainf_alias = alias i32 (i32), ptr @mainf

define i32 @mainf(i32 %n) {
  %r = call i32 @froma_alias(i32 %n)
  %s = add i32 %r, 1
  ret i32 %s
}

define i32 @main() {
  %r = call i32 @mainf(i32 1)
  ret i32 %r
}
