; Question: does the -jd cycle check follow an object's sections, as JITLink
; tracks when a symbol is ready (by its block: a symbol waits for what its
; own section refers to, not for the rest of the object), so that objects
; that only look as if they wait on each other link, as in lli? Here main's
; @mp points at a's @adata, a's @pa at the object's @objv, and the object's
; code reads main's @counter: @objv's section uses nothing, so nothing waits
; in a circle. With a pointer to @counter in @objv's section, the circle is
; real: refused in one line (lli links). The timeouts make a hang fail.
;
; *mp + **pa + objf() = 40 + 2 + 0.
; RUN: rm -rf %t && mkdir %t
; RUN: %clang -c %inputs/mini-lli/jd-object-code-uses-counter.c -o %t/apart.o
; RUN: %clang -c -DSAME_DATA %inputs/mini-lli/jd-object-code-uses-counter.c -o %t/same.o
; RUN: %python %inputs/mini-lli/expect-status.py --timeout=60 42 mini-lli -jd a -extra-module %inputs/mini-lli/jd-adata-and-pointer-to-objv.ll -extra-object %t/apart.o %s
; RUN: %python %inputs/mini-lli/expect-status.py --timeout=60 42 mini-lli -jit-kind=orc-lazy -jd a -extra-module %inputs/mini-lli/jd-adata-and-pointer-to-objv.ll -extra-object %t/apart.o %s
; RUN: %python %inputs/mini-lli/expect-status.py --timeout=60 42 mini-lli -jit-kind=orc-tiered -jd a -extra-module %inputs/mini-lli/jd-adata-and-pointer-to-objv.ll -extra-object %t/apart.o %s
; RUN: %python %inputs/mini-lli/expect-status.py --timeout=60 42 %lli -jit-kind=orc -jd a -extra-module %inputs/mini-lli/jd-adata-and-pointer-to-objv.ll -extra-object %t/apart.o %s
; RUN: %python %inputs/mini-lli/expect-status.py --timeout=60 42 %lli -jit-kind=orc-lazy -jd a -extra-module %inputs/mini-lli/jd-adata-and-pointer-to-objv.ll -extra-object %t/apart.o %s
;
; RUN: %python %inputs/mini-lli/expect-status.py --timeout=60 1 mini-lli -jd a -extra-module %inputs/mini-lli/jd-adata-and-pointer-to-objv.ll -extra-object %t/same.o %s 2>&1 | FileCheck %s
; RUN: %python %inputs/mini-lli/expect-status.py --timeout=60 1 mini-lli -jit-kind=orc-lazy -jd a -extra-module %inputs/mini-lli/jd-adata-and-pointer-to-objv.ll -extra-object %t/same.o %s 2>&1 | FileCheck %s
; RUN: %python %inputs/mini-lli/expect-status.py --timeout=60 1 mini-lli -jit-kind=orc-tiered -jd a -extra-module %inputs/mini-lli/jd-adata-and-pointer-to-objv.ll -extra-object %t/same.o %s 2>&1 | FileCheck %s
; RUN: %python %inputs/mini-lli/expect-status.py --timeout=60 42 %lli -jit-kind=orc-lazy -jd a -extra-module %inputs/mini-lli/jd-adata-and-pointer-to-objv.ll -extra-object %t/same.o %s
; CHECK: mini-lli: error: the -jd JITDylibs cannot be linked: their objects wait for each other (LLVM-C looks a symbol up only once everything it refers to is linked){{$}}
; CHECK-NOT: {{.}}

@counter = global i32 0
@adata = external global i32
@pa = external global ptr
@mp = global ptr @adata

declare i32 @objf()

define i32 @main() {
  %p = load ptr, ptr @mp
  %a = load i32, ptr %p
  %q = load ptr, ptr @pa
  %o = load i32, ptr %q
  %f = call i32 @objf()
  %s = add i32 %a, %o
  %r = add i32 %s, %f
  ret i32 %r
}
