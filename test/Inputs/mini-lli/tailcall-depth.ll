; main calls f; f and g call each other 1000 times, always as fastcc tail
; calls. f passes g two arguments on the stack that f did not get itself, so
; only a guaranteed tail call (-tailcallopt) can reuse f's frame: otherwise
; the stack grows by a frame per round. Prints how far it grew: "flat" or
; "deep".
declare ptr @llvm.frameaddress.p0(i32)
declare i32 @puts(ptr)
@flat = private constant [5 x i8] c"flat\00"
@deep = private constant [5 x i8] c"deep\00"

define ptr @here() noinline {
  %p = call ptr @llvm.frameaddress.p0(i32 0)
  ret ptr %p
}

define fastcc ptr @f(i64 %n, i64 %a, i64 %b, i64 %c, i64 %d, i64 %e) noinline {
  %z = icmp eq i64 %n, 0
  br i1 %z, label %done, label %more
done:
  %p = call ptr @here()
  ret ptr %p
more:
  %m = sub i64 %n, 1
  %r = tail call fastcc ptr @g(i64 %m, i64 %a, i64 %b, i64 %c, i64 %d, i64 %e, i64 1, i64 2)
  ret ptr %r
}

define fastcc ptr @g(i64 %n, i64 %a, i64 %b, i64 %c, i64 %d, i64 %e, i64 %x, i64 %y) noinline {
  %r = tail call fastcc ptr @f(i64 %n, i64 %a, i64 %b, i64 %c, i64 %d, i64 %e)
  ret ptr %r
}

define i32 @main() {
  %top = call ptr @here()
  %bottom = call fastcc ptr @f(i64 1000, i64 0, i64 0, i64 0, i64 0, i64 0)
  %t = ptrtoint ptr %top to i64
  %b = ptrtoint ptr %bottom to i64
  %d = sub i64 %t, %b
  %big = icmp ugt i64 %d, 4096
  %s = select i1 %big, ptr @deep, ptr @flat
  call i32 @puts(ptr %s)
  ret i32 0
}
