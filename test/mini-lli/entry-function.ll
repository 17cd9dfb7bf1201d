; Question: does -entry-function pick the function run as main (every option
; form), receiving argc/argv like main?
;
; RUN: %python %inputs/mini-lli/expect-status.py 12 mini-lli -entry-function=alt %s x
; RUN: %python %inputs/mini-lli/expect-status.py 12 mini-lli -entry-function alt %s x
; RUN: %python %inputs/mini-lli/expect-status.py 12 mini-lli --entry-function=alt %s x
; RUN: %python %inputs/mini-lli/expect-status.py 12 mini-lli --entry-function alt %s x
; RUN: %python %inputs/mini-lli/expect-status.py 12 %lli -entry-function=alt %s x
; RUN: %python %inputs/mini-lli/expect-status.py 1 mini-lli %s x

define i32 @main(i32 %argc, ptr %argv) {
  ret i32 1
}

define i32 @alt(i32 %argc, ptr %argv) {
  %r = add i32 %argc, 10
  ret i32 %r
}
