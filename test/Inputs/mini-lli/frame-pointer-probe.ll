; Prints 1 if %rbp points into @probe's own frame (the function keeps a frame
; pointer), else 0. x86-64 only.
declare i32 @printf(ptr, ...)
@fmt = private constant [4 x i8] c"%d\0A\00"

define i32 @probe() noinline {
  %local = alloca [16 x i8], align 16
  call void asm sideeffect "", "r,~{memory}"(ptr %local)
  %rbp = call i64 asm sideeffect "movq %rbp, $0", "=r"()
  %addr = ptrtoint ptr %local to i64
  %d = sub i64 %rbp, %addr
  %near = icmp ult i64 %d, 256
  %r = zext i1 %near to i32
  call i32 (ptr, ...) @printf(ptr @fmt, i32 %r)
  ret i32 0
}

; main's 4 KiB buffer keeps every frame above @probe's more than 256 bytes away,
; so only @probe's own frame pointer can be "near".
define i32 @main() {
  %gap = alloca [4096 x i8], align 16
  call void asm sideeffect "", "r,~{memory}"(ptr %gap)
  %r = call i32 @probe()
  ret i32 %r
}
