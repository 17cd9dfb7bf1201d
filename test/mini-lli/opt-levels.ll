; Question: is every code generation level accepted in every form lli accepts,
; and does the program run the same at each?
;
; RUN: %python %inputs/mini-lli/expect-status.py 55 mini-lli -O0 %s
; RUN: %python %inputs/mini-lli/expect-status.py 55 mini-lli -O1 %s
; RUN: %python %inputs/mini-lli/expect-status.py 55 mini-lli -O2 %s
; RUN: %python %inputs/mini-lli/expect-status.py 55 mini-lli -O3 %s
; RUN: %python %inputs/mini-lli/expect-status.py 55 mini-lli --O3 %s
; RUN: %python %inputs/mini-lli/expect-status.py 55 mini-lli -O=1 %s
; RUN: %python %inputs/mini-lli/expect-status.py 55 mini-lli -O 0 %s
; RUN: %python %inputs/mini-lli/expect-status.py 55 mini-lli -jit-kind=orc-lazy -O0 %s
; RUN: %python %inputs/mini-lli/expect-status.py 55 mini-lli -passes='default<O2>' %s
; RUN: %python %inputs/mini-lli/expect-status.py 55 mini-lli -passes=instcombine,simplifycfg -O3 %s

define i32 @main() {
entry:
  br label %loop
loop:
  %i = phi i32 [ 1, %entry ], [ %i.next, %loop ]
  %sum = phi i32 [ 0, %entry ], [ %sum.next, %loop ]
  %sum.next = add i32 %sum, %i
  %i.next = add i32 %i, 1
  %done = icmp sgt i32 %i.next, 10
  br i1 %done, label %exit, label %loop
exit:
  ret i32 %sum.next
}
