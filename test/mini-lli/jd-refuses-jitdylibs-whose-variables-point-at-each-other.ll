; Question: when the variables of two JITDylibs point at each other's
; variables (@pb = @pa here, @pa = @pb in JITDylib a), which lli links, does
; mini-lli say in one line, before anything links, that it cannot (each data
; object would wait for the other to be ready: LLVM-C looks a symbol up only
; once everything it refers to is linked, see lib/jit/program/JITDylibs.h) instead of
; waiting forever, under every JIT kind? The timeout makes a hang fail.
;
; RUN: %python %inputs/mini-lli/expect-status.py --timeout=60 1 mini-lli -jd a -extra-module %inputs/mini-lli/jd-variable-points-at-main-variable.ll %s 2>&1 | FileCheck %s
; RUN: %python %inputs/mini-lli/expect-status.py --timeout=60 1 mini-lli -jit-kind=orc-lazy -jd a -extra-module %inputs/mini-lli/jd-variable-points-at-main-variable.ll %s 2>&1 | FileCheck %s
; RUN: %python %inputs/mini-lli/expect-status.py --timeout=60 1 mini-lli -jit-kind=orc-tiered -jd a -extra-module %inputs/mini-lli/jd-variable-points-at-main-variable.ll %s 2>&1 | FileCheck %s
; RUN: %python %inputs/mini-lli/expect-status.py --timeout=60 1 mini-lli -jit-kind=orc-lazy -per-module-lazy -jd a -extra-module %inputs/mini-lli/jd-variable-points-at-main-variable.ll %s 2>&1 | FileCheck %s
; RUN: %python %inputs/mini-lli/expect-status.py --timeout=60 42 %lli -jit-kind=orc -jd a -extra-module %inputs/mini-lli/jd-variable-points-at-main-variable.ll %s
; RUN: %python %inputs/mini-lli/expect-status.py --timeout=60 42 %lli -jit-kind=orc-lazy -jd a -extra-module %inputs/mini-lli/jd-variable-points-at-main-variable.ll %s
; Without -jd the same modules link, as one JITDylib:
; RUN: %python %inputs/mini-lli/expect-status.py --timeout=60 42 mini-lli -extra-module %inputs/mini-lli/jd-variable-points-at-main-variable.ll %s
; CHECK: mini-lli: error: the -jd JITDylibs cannot be linked: their objects wait for each other (LLVM-C looks a symbol up only once everything it refers to is linked){{$}}
; CHECK-NOT: {{.}}

@pa = external global ptr
@pb = global ptr @pa

define i32 @main() {
  %p = load ptr, ptr @pb
  %q = load ptr, ptr %p
  %ok = icmp eq ptr %q, @pb
  %r = select i1 %ok, i32 42, i32 1
  ret i32 %r
}
