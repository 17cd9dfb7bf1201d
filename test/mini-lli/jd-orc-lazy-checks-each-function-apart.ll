; Question: under orc-lazy, where each function body is compiled apart and a
; function only ever called gets a stub, does the -jd cycle check take each
; function apart too, so that what only looks circular links, as in lli?
; Here main's @tbl points at @f (no stub: its address is taken), @f calls @g
; (through its stub), @g reads a's @x, and a's @ap points back at @tbl: @f's
; code waits for @g's stub, not for @g's code, so nothing waits in a circle.
; Under orc a module's code is one object, @f and @g together: that circle
; is real, and refused in one line (lli links both). The timeouts make a
; hang fail.
;
; RUN: %python %inputs/mini-lli/expect-status.py --timeout=60 42 mini-lli -jit-kind=orc-lazy -jd a -extra-module %inputs/mini-lli/jd-x-and-pointer-to-tbl.ll %s
; RUN: %python %inputs/mini-lli/expect-status.py --timeout=60 42 mini-lli -jit-kind=orc-tiered -jd a -extra-module %inputs/mini-lli/jd-x-and-pointer-to-tbl.ll %s
; RUN: %python %inputs/mini-lli/expect-status.py --timeout=60 42 %lli -jit-kind=orc-lazy -jd a -extra-module %inputs/mini-lli/jd-x-and-pointer-to-tbl.ll %s
; RUN: %python %inputs/mini-lli/expect-status.py --timeout=60 1 mini-lli -jit-kind=orc -jd a -extra-module %inputs/mini-lli/jd-x-and-pointer-to-tbl.ll %s 2>&1 | FileCheck %s
; RUN: %python %inputs/mini-lli/expect-status.py --timeout=60 1 mini-lli -jit-kind=orc-lazy -per-module-lazy -jd a -extra-module %inputs/mini-lli/jd-x-and-pointer-to-tbl.ll %s 2>&1 | FileCheck %s
; RUN: %python %inputs/mini-lli/expect-status.py --timeout=60 42 %lli -jit-kind=orc -jd a -extra-module %inputs/mini-lli/jd-x-and-pointer-to-tbl.ll %s
; CHECK: mini-lli: error: the -jd JITDylibs cannot be linked: their objects wait for each other (LLVM-C looks a symbol up only once everything it refers to is linked){{$}}
; CHECK-NOT: {{.}}

@tbl = global ptr @f
@x = external global i32

define i32 @f() {
  %v = call i32 @g()
  ret i32 %v
}

define i32 @g() {
  %v = load i32, ptr @x
  ret i32 %v
}

define i32 @main() {
  %p = load ptr, ptr @tbl
  %v = call i32 %p()
  ret i32 %v
}
