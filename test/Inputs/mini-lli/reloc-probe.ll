; Prints the first two bytes of the code of @addr, which takes the address of
; a variable another module defines: the instruction that does it depends on
; the relocation model (an absolute address, or one read through the GOT)
; and on the code model the module was compiled with.
declare i32 @printf(ptr, ...)
@fmt = private constant [11 x i8] c"%02x %02x\0A\00"
@other = external global i32

define ptr @addr() noinline {
  ret ptr @other
}

define i32 @main() {
  %b0 = load i8, ptr @addr
  %p1 = getelementptr i8, ptr @addr, i64 1
  %b1 = load i8, ptr %p1
  %x0 = zext i8 %b0 to i32
  %x1 = zext i8 %b1 to i32
  call i32 (ptr, ...) @printf(ptr @fmt, i32 %x0, i32 %x1)
  ret i32 0
}
