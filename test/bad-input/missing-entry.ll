; Question: a missing entry function is named, status 1, nothing runs.
;
; RUN: %python %inputs/mini-lli/expect-status.py 1 mini-lli -entry-function=nope %s 2>&1 | FileCheck %s --check-prefix=NOPE
; RUN: %python %inputs/mini-lli/expect-status.py 1 mini-lli %s 2>&1 | FileCheck %s --check-prefix=MAIN
;
; NOPE: mini-lli: error: Symbols not found: [ nope ]
; MAIN: mini-lli: error: Symbols not found: [ main ]
; NOPE-NOT: ctor ran
; MAIN-NOT: ctor ran

declare i32 @puts(ptr)
@msg = private constant [9 x i8] c"ctor ran\00"
@llvm.global_ctors = appending global [1 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 65535, ptr @ctor, ptr null }]

define internal void @ctor() {
  call i32 @puts(ptr @msg)
  ret void
}

define i32 @not_main() {
  ret i32 0
}
