; Question: does the program see argv (argv[0] = the input path, or
; -fake-argv0) and argc as under lli, and is the exit status main's return?
;
; RUN: %python %inputs/mini-lli/expect-status.py 3 mini-lli %s a "b c" | FileCheck %s --check-prefix=PATH -DINPUT=%s
; RUN: %python %inputs/mini-lli/expect-status.py 3 mini-lli -fake-argv0=prog %s a "b c" | FileCheck %s --check-prefix=FAKE
; RUN: %python %inputs/mini-lli/expect-status.py 3 mini-lli --fake-argv0 prog %s a "b c" | FileCheck %s --check-prefix=FAKE
; lli 22 ignores -fake-argv0 under its ORC JITs; without it, both agree:
; RUN: %python %inputs/mini-lli/expect-status.py 3 %lli %s a "b c" | FileCheck %s --check-prefix=PATH -DINPUT=%s
; Options after the input belong to the program:
; RUN: %python %inputs/mini-lli/expect-status.py 2 mini-lli %s -O0 | FileCheck %s --check-prefix=OPT
;
; PATH:      argc=3
; PATH-NEXT: argv[0]=[[INPUT]]
; PATH-NEXT: argv[1]=a
; PATH-NEXT: argv[2]=b c
; FAKE:      argc=3
; FAKE-NEXT: argv[0]=prog
; OPT:       argv[1]=-O0

@fmt.argc = private constant [9 x i8] c"argc=%d\0A\00"
@fmt.argv = private constant [14 x i8] c"argv[%d]=%s\0A\00\00"

declare i32 @printf(ptr, ...)

define i32 @main(i32 %argc, ptr %argv) {
entry:
  call i32 (ptr, ...) @printf(ptr @fmt.argc, i32 %argc)
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %next, %loop ]
  %p = getelementptr ptr, ptr %argv, i32 %i
  %s = load ptr, ptr %p
  call i32 (ptr, ...) @printf(ptr @fmt.argv, i32 %i, ptr %s)
  %next = add i32 %i, 1
  %done = icmp eq i32 %next, %argc
  br i1 %done, label %exit, label %loop
exit:
  ret i32 %argc
}
