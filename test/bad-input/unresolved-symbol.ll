; Question: references to symbols defined nowhere are named in the error,
; status 1, and nothing runs.
;
; RUN: %python %inputs/mini-lli/expect-status.py 1 mini-lli %s 2>&1 | FileCheck %s
; RUN: %python %inputs/mini-lli/expect-status.py 1 mini-lli -jit-kind=orc-lazy %s 2>&1 | FileCheck %s --check-prefix=LAZY
;
; CHECK: mini-lli: error: {{.*}}Symbols not found: [ {{.*}}missing_{{one|two}}
; CHECK-NOT: main ran
; In lazy mode the failure happens on the first call, inside main:
; LAZY: main ran
; LAZY: mini-lli: error: {{.*}}Symbols not found: [ {{.*}}missing_{{one|two}}

declare void @missing_one()
declare i32 @missing_two(i32)
declare i32 @puts(ptr)
@msg = private constant [9 x i8] c"main ran\00"

define i32 @use_missing() {
  call void @missing_one()
  %r = call i32 @missing_two(i32 1)
  ret i32 %r
}

define i32 @main() {
  call i32 @puts(ptr @msg)
  %r = call i32 @use_missing()
  ret i32 %r
}
