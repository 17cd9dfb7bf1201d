; Question: does tier 0 rewrite what FastISel gives up on -- a switch, a select
; of i1 (the form LLVM gives a && b and a || b), the min/max intrinsics -- into
; what it selects (lib/jit/ir/FastISelLowering.h), and compute the same? Each
; miss sent the rest of its block to SelectionDAG, several times slower to
; compile. The dumped tier-0 modules are given to llc with tier 0's settings
; (-O0, position-independent code in the small code model: under the JIT's
; default large model every call and every access to a global was a miss too),
; and FastISel misses nothing in them. The functions stay at tier 0 (the
; threshold is never reached).
;
; RUN: mini-lli -jit-kind=orc-tiered -tier-up-threshold=2147483647 %s | FileCheck %s --check-prefix=OUT
; RUN: mini-lli -jit-kind=orc-tiered -tier-up-threshold=2147483647 -orc-lazy-debug=mods-to-stdout %s > %t.dump
; RUN: %python %inputs/tiered/isel-misses.py %t.dump | FileCheck %s --check-prefix=ISEL
; RUN: llc -O0 -pass-remarks-missed=sdagisel %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=PLAIN
;
; OUT: classify: 10 11 15 7 2
; OUT-NEXT: 1 0
; OUT-NEXT: logic: 1 0 1 1 0 1
; OUT-NEXT: minmax: 2 50 17 77 9 20
;
; ISEL-NOT: FastISel missed
; ISEL: modules: {{[1-9]}}
;
; Without the rewrite (llc alone), each is missed:
; PLAIN-DAG: FastISel missed terminator:   switch
; PLAIN-DAG: FastISel missed:   {{.*}} = select i1
; PLAIN-DAG: FastISel missed call:   {{.*}} = call i32 @llvm.smin.i32

@fmt.c = private constant [26 x i8] c"classify: %d %d %d %d %d\0A\00"
@fmt.c2 = private constant [7 x i8] c"%d %d\0A\00"
@fmt.l = private constant [26 x i8] c"logic: %d %d %d %d %d %d\0A\00"
@fmt.m = private constant [27 x i8] c"minmax: %d %d %d %d %d %d\0A\00"
@bias = global i32 0

declare i32 @printf(ptr, ...)
declare i32 @llvm.smin.i32(i32, i32)
declare i32 @llvm.smax.i32(i32, i32)
declare i32 @llvm.umin.i32(i32, i32)
declare i32 @llvm.umax.i32(i32, i32)

define i32 @classify(i32 %x) noinline {
entry:
  %b = load i32, ptr @bias
  %y = add i32 %x, %b
  switch i32 %y, label %other [
    i32 0, label %c0
    i32 1, label %c1
    i32 5, label %c5
    i32 100, label %c100
    i32 -3, label %cm3
  ]
c0:
  ret i32 10
c1:
  ret i32 11
c5:
  ret i32 15
c100:
  ret i32 7
cm3:
  ret i32 2
other:
  %r = and i32 %y, 1
  ret i32 %r
}

; (a > 3 && b < 7) || a == b, as selects: both constant forms and the general one
define i32 @logic(i32 %a, i32 %b) noinline {
  %p = icmp sgt i32 %a, 3
  %q = icmp slt i32 %b, 7
  %e = icmp eq i32 %a, %b
  %and = select i1 %p, i1 %q, i1 false
  %or = select i1 %and, i1 true, i1 %e
  %odd = and i32 %a, 1
  %c = icmp ne i32 %odd, 0
  %mix = select i1 %c, i1 %or, i1 %q
  %r = zext i1 %mix to i32
  ret i32 %r
}

define i32 @minmax(i32 %x, i32 %k) noinline {
  switch i32 %k, label %umax [
    i32 0, label %clamp
    i32 1, label %umin
  ]
clamp:
  %lo = call i32 @llvm.smax.i32(i32 %x, i32 2)
  %v = call i32 @llvm.smin.i32(i32 %lo, i32 50)
  ret i32 %v
umin:
  %u = call i32 @llvm.umin.i32(i32 %x, i32 77)
  ret i32 %u
umax:
  %w = call i32 @llvm.umax.i32(i32 %x, i32 9)
  ret i32 %w
}

define i32 @main() {
  %c0 = call i32 @classify(i32 0)
  %c1 = call i32 @classify(i32 1)
  %c5 = call i32 @classify(i32 5)
  %c100 = call i32 @classify(i32 100)
  %cm3 = call i32 @classify(i32 -3)
  %c7 = call i32 @classify(i32 7)
  %c8 = call i32 @classify(i32 8)
  call i32 (ptr, ...) @printf(ptr @fmt.c, i32 %c0, i32 %c1, i32 %c5, i32 %c100, i32 %cm3)
  call i32 (ptr, ...) @printf(ptr @fmt.c2, i32 %c7, i32 %c8)
  %l0 = call i32 @logic(i32 5, i32 2)
  %l1 = call i32 @logic(i32 5, i32 9)
  %l2 = call i32 @logic(i32 2, i32 2)
  %l3 = call i32 @logic(i32 4, i32 3)
  %l4 = call i32 @logic(i32 1, i32 3)
  %l5 = call i32 @logic(i32 9, i32 9)
  call i32 (ptr, ...) @printf(ptr @fmt.l, i32 %l0, i32 %l1, i32 %l2, i32 %l3, i32 %l4, i32 %l5)
  %m0 = call i32 @minmax(i32 -8, i32 0)
  %m1 = call i32 @minmax(i32 99, i32 0)
  %m2 = call i32 @minmax(i32 17, i32 0)
  %m3 = call i32 @minmax(i32 -4, i32 1)
  %m4 = call i32 @minmax(i32 3, i32 2)
  %m5 = call i32 @minmax(i32 20, i32 1)
  call i32 (ptr, ...) @printf(ptr @fmt.m, i32 %m0, i32 %m1, i32 %m2, i32 %m3, i32 %m4, i32 %m5)
  ret i32 0
}
