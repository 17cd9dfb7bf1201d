; Question: do modules in two JITDylibs that call each other's functions and
; use each other's variables both ways link and run, as in lli, in every mode
; (LLVM-C cannot set a link order; mini-lli must not wait on itself)?
;
; froma() = helper() + counter = 7 + 5; main adds adata: 12 + 30.
; RUN: %python %inputs/mini-lli/expect-status.py 42 mini-lli -jd a -extra-module %inputs/mini-lli/jd-uses-main-code-and-data.ll %s
; RUN: %python %inputs/mini-lli/expect-status.py 42 mini-lli -compile-threads=2 -jd a -extra-module %inputs/mini-lli/jd-uses-main-code-and-data.ll %s
; RUN: %python %inputs/mini-lli/expect-status.py 42 mini-lli -jit-kind=orc-lazy -jd a -extra-module %inputs/mini-lli/jd-uses-main-code-and-data.ll %s
; RUN: %python %inputs/mini-lli/expect-status.py 42 mini-lli -jit-kind=orc-tiered -jd a -extra-module %inputs/mini-lli/jd-uses-main-code-and-data.ll %s
; RUN: %python %inputs/mini-lli/expect-status.py 42 mini-lli -jit-kind=orc-lazy -per-module-lazy -jd a -extra-module %inputs/mini-lli/jd-uses-main-code-and-data.ll %s
; RUN: %python %inputs/mini-lli/expect-status.py 42 mini-lli -jit-linker=rtdyld -jd a -extra-module %inputs/mini-lli/jd-uses-main-code-and-data.ll %s
; RUN: %python %inputs/mini-lli/expect-status.py 42 %lli -jit-kind=orc -jd a -extra-module %inputs/mini-lli/jd-uses-main-code-and-data.ll %s
; RUN: %python %inputs/mini-lli/expect-status.py 42 %lli -jit-kind=orc-lazy -jd a -extra-module %inputs/mini-lli/jd-uses-main-code-and-data.ll %s

@counter = global i32 5
@adata = external global i32

declare i32 @froma()

define i32 @helper() {
  ret i32 7
}

define i32 @main() {
  %a = call i32 @froma()
  %d = load i32, ptr @adata
  %s = add i32 %a, %d
  ret i32 %s
}
