; Question: with -jit-kind=orc-lazy, is a function compiled only on its first
; call? @never_called refers to a symbol that exists nowhere: eager modes must
; fail to link it, lazy mode (per function, as lli's default) must not notice.
; -per-module-lazy compiles the whole module on the first call, so it fails.
;
; RUN: %python %inputs/mini-lli/expect-status.py 5 mini-lli -jit-kind=orc-lazy %s | FileCheck %s
; RUN: %python %inputs/mini-lli/expect-status.py 5 mini-lli --jit-kind orc-lazy %s | FileCheck %s
; RUN: %python %inputs/mini-lli/expect-status.py 5 %lli -jit-kind=orc-lazy %s | FileCheck %s
; RUN: not mini-lli -jit-kind=orc %s 2>&1 | FileCheck %s --check-prefix=EAGER
; RUN: not mini-lli %s 2>&1 | FileCheck %s --check-prefix=EAGER
; RUN: not mini-lli -jit-kind=orc-lazy -per-module-lazy %s 2>&1 | FileCheck %s --check-prefix=EAGER
;
; CHECK: called 5
; EAGER: mini-lli: error: {{.*}}Symbols not found: [ does_not_exist ]

declare i32 @printf(ptr, ...)
declare void @does_not_exist()

@fmt = private constant [11 x i8] c"called %d\0A\00"

define void @never_called() {
  call void @does_not_exist()
  ret void
}

define internal i32 @helper(i32 %x) {
  call i32 (ptr, ...) @printf(ptr @fmt, i32 %x)
  ret i32 %x
}

define i32 @main() {
  %r = call i32 @helper(i32 5)
  ret i32 %r
}
