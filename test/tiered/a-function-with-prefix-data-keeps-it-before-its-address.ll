; Question: under orc-tiered, does a function with prefix data (IR's
; `prefix`: what GHC's tables-next-to-code and the sanitizers' type data are
; made of) whose address escapes keep that data just before the address the
; program reads it through? Its front (TierFronts.h) had the neighbouring
; front's jump there. See
; a-function-whose-address-carries-data-keeps-its-own-address.c.
;
; RUN: mini-lli -jit-kind=orc-tiered %s | FileCheck %s
; RUN: mini-lli -jit-kind=orc-tiered -tier-up-threshold=1 %s | FileCheck %s
; RUN: mini-lli -jit-kind=orc %s | FileCheck %s
;
; CHECK: prefix=123456789abcdef

@fmt = private constant [13 x i8] c"prefix=%llx\0A\00"

declare i32 @printf(ptr, ...)

define i32 @f(i32 %x) prefix i64 81985529216486895 {
  %r = add i32 %x, 1
  ret i32 %r
}

define i32 @main() {
  %p = getelementptr i8, ptr @f, i64 -8
  %v = load i64, ptr %p
  call i32 (ptr, ...) @printf(ptr @fmt, i64 %v)
  ret i32 0
}
