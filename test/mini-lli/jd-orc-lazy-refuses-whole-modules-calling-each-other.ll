; Question: under -jit-kind=orc-lazy, modules kept whole without stubs (here:
; they have aliases) in two JITDylibs that call each other's functions, which
; lli links, does mini-lli say in one line, before anything links, that it
; cannot (each code object would wait for the other to be ready: see
; lib/jit/program/JITDylibs.h) instead of waiting forever? -jit-kind=orc reaches the
; other JITDylib's functions through stubs and links them. The timeout makes
; a hang fail.
;
; mainf(1) = froma(1) + 1 = mainf(0) + 1 = froma(0) + 2 = 42.
; RUN: %python %inputs/mini-lli/expect-status.py --timeout=60 1 mini-lli -jit-kind=orc-lazy -jd a -extra-module %inputs/mini-lli/jd-alias-calls-main.ll %s 2>&1 | FileCheck %s
; RUN: %python %inputs/mini-lli/expect-status.py --timeout=60 1 mini-lli -jit-kind=orc-lazy -per-module-lazy -jd a -extra-module %inputs/mini-lli/jd-alias-calls-main.ll %s 2>&1 | FileCheck %s
; RUN: %python %inputs/mini-lli/expect-status.py --timeout=60 42 mini-lli -jit-kind=orc -jd a -extra-module %inputs/mini-lli/jd-alias-calls-main.ll %s
; RUN: %python %inputs/mini-lli/expect-status.py --timeout=60 42 %lli -jit-kind=orc-lazy -jd a -extra-module %inputs/mini-lli/jd-alias-calls-main.ll %s
; RUN: %python %inputs/mini-lli/expect-status.py --timeout=60 42 %lli -jit-kind=orc -jd a -extra-module %inputs/mini-lli/jd-alias-calls-main.ll %s
; CHECK: mini-lli: error: the -jd JITDylibs cannot be linked: their objects wait for each other (LLVM-C looks a symbol up only once everything it refers to is linked){{$}}
; CHECK-NOT: {{.}}

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
