; How many frames glibc's backtrace() finds from a function that main calls.
; It walks through a JIT'd frame only if that frame has unwind tables: with
; them it reaches main and the frames of the tool that called main (more than
; 3); without them it stops at the first JIT'd frame.
declare i32 @backtrace(ptr, i32)
declare i32 @printf(ptr, ...)
@fmt = private constant [13 x i8] c"frames %s 3\0A\00"
@more = private constant [5 x i8] c"over\00"
@less = private constant [8 x i8] c"at most\00"

define i32 @count() noinline {
  %buf = alloca [64 x ptr]
  %n = call i32 @backtrace(ptr %buf, i32 64)
  ret i32 %n
}

define i32 @main() {
  %n = call i32 @count()
  %big = icmp sgt i32 %n, 3
  %s = select i1 %big, ptr @more, ptr @less
  call i32 (ptr, ...) @printf(ptr @fmt, ptr %s)
  ret i32 0
}
