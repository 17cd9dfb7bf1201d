; Question: when the objects of two JITDylibs wait on each other through an
; -extra-object (JITDylib a's @pa points at main's @mp, which points at the
; object's @objp, which points at a's @adata), which lli links, does mini-lli
; say in one line, before anything links, that it cannot (LLVM-C looks a
; symbol up only once everything it refers to is linked, see
; lib/jit/program/JITDylibs.h) instead of waiting forever, under orc and orc-lazy?
; The wait comes once main calls a's @froma: under orc too this used to
; hang. The timeouts make a hang fail.
;
; RUN: rm -rf %t && mkdir %t
; RUN: %clang -c %inputs/mini-lli/jd-object-points-at-adata.c -o %t/obj.o
; RUN: %python %inputs/mini-lli/expect-status.py --timeout=60 1 mini-lli -jd a -extra-module %inputs/mini-lli/jd-adata-points-at-main.ll -extra-object %t/obj.o %s 2>&1 | FileCheck %s
; RUN: %python %inputs/mini-lli/expect-status.py --timeout=60 1 mini-lli -compile-threads=2 -jd a -extra-module %inputs/mini-lli/jd-adata-points-at-main.ll -extra-object %t/obj.o %s 2>&1 | FileCheck %s
; RUN: %python %inputs/mini-lli/expect-status.py --timeout=60 1 mini-lli -jit-kind=orc-lazy -jd a -extra-module %inputs/mini-lli/jd-adata-points-at-main.ll -extra-object %t/obj.o %s 2>&1 | FileCheck %s
; RUN: %python %inputs/mini-lli/expect-status.py --timeout=60 1 mini-lli -jit-kind=orc-lazy -per-module-lazy -jd a -extra-module %inputs/mini-lli/jd-adata-points-at-main.ll -extra-object %t/obj.o %s 2>&1 | FileCheck %s
; RUN: %python %inputs/mini-lli/expect-status.py --timeout=60 42 %lli -jit-kind=orc -jd a -extra-module %inputs/mini-lli/jd-adata-points-at-main.ll -extra-object %t/obj.o %s
; RUN: %python %inputs/mini-lli/expect-status.py --timeout=60 42 %lli -jit-kind=orc-lazy -jd a -extra-module %inputs/mini-lli/jd-adata-points-at-main.ll -extra-object %t/obj.o %s
;
; With lli's object cache (one object per module) too.
; RUN: mkdir %t/cache
; RUN: %python %inputs/mini-lli/expect-status.py --timeout=60 1 mini-lli -enable-cache-manager -object-cache-dir=%t/cache -jd a -extra-module %inputs/mini-lli/jd-adata-points-at-main.ll -extra-object %t/obj.o %s 2>&1 | FileCheck %s
; RUN: %python %inputs/mini-lli/expect-status.py --timeout=60 1 mini-lli -jit-kind=orc-lazy -enable-cache-manager -object-cache-dir=%t/cache -jd a -extra-module %inputs/mini-lli/jd-adata-points-at-main.ll -extra-object %t/obj.o %s 2>&1 | FileCheck %s
;
; In one JITDylib the same objects link.
; RUN: %python %inputs/mini-lli/expect-status.py --timeout=60 42 mini-lli -extra-module %inputs/mini-lli/jd-adata-points-at-main.ll -extra-object %t/obj.o %s
; RUN: %python %inputs/mini-lli/expect-status.py --timeout=60 42 mini-lli -jit-kind=orc-lazy -extra-module %inputs/mini-lli/jd-adata-points-at-main.ll -extra-object %t/obj.o %s
;
; CHECK: mini-lli: error: the -jd JITDylibs cannot be linked: their objects wait for each other (LLVM-C looks a symbol up only once everything it refers to is linked){{$}}
; CHECK-NOT: {{.}}

@objp = external global ptr
@mp = global ptr @objp

declare i32 @froma()

define i32 @main() {
  %v = call i32 @froma()
  ret i32 %v
}
