; Question: are the archive members that would wait on each other across two
; JITDylibs (main's archive's @xp points at a's member's @ydata, whose @yp
; points back at @xdata) refused only when something pulls them in, as a
; link pulls them (LLVM links a member when a symbol of the archive's symbol
; table is looked up), and otherwise left alone, as lli runs both?
;
; RUN: rm -rf %t && mkdir %t
; RUN: %clang -c %inputs/mini-lli/jd-xp-points-at-ydata.c -o %t/x.o
; RUN: %clang -c %inputs/mini-lli/jd-yp-points-at-xdata.c -o %t/y.o
; RUN: llvm-ar rcs %t/x.a %t/x.o
; RUN: llvm-ar rcs %t/y.a %t/y.o
;
; Nothing uses them: 42.
; RUN: echo 'define i32 @main() { ret i32 42 }' > %t/unused.ll
; RUN: %python %inputs/mini-lli/expect-status.py --timeout=60 42 mini-lli -extra-archive %t/x.a -jd a -extra-archive %t/y.a %t/unused.ll
; RUN: %python %inputs/mini-lli/expect-status.py --timeout=60 42 mini-lli -jit-kind=orc-lazy -extra-archive %t/x.a -jd a -extra-archive %t/y.a %t/unused.ll
; RUN: %python %inputs/mini-lli/expect-status.py --timeout=60 42 mini-lli -jit-kind=orc-tiered -extra-archive %t/x.a -jd a -extra-archive %t/y.a %t/unused.ll
; RUN: %python %inputs/mini-lli/expect-status.py --timeout=60 42 %lli -extra-archive %t/x.a -jd a -extra-archive %t/y.a %t/unused.ll
;
; main reads *xp = ydata = 2: refused (lli links).
; RUN: %python %inputs/mini-lli/expect-status.py --timeout=60 1 mini-lli -extra-archive %t/x.a -jd a -extra-archive %t/y.a %s 2>&1 | FileCheck %s
; RUN: %python %inputs/mini-lli/expect-status.py --timeout=60 1 mini-lli -jit-kind=orc-lazy -extra-archive %t/x.a -jd a -extra-archive %t/y.a %s 2>&1 | FileCheck %s
; RUN: %python %inputs/mini-lli/expect-status.py --timeout=60 1 mini-lli -jit-kind=orc-tiered -extra-archive %t/x.a -jd a -extra-archive %t/y.a %s 2>&1 | FileCheck %s
; RUN: %python %inputs/mini-lli/expect-status.py --timeout=60 2 %lli -jit-kind=orc -extra-archive %t/x.a -jd a -extra-archive %t/y.a %s
; RUN: %python %inputs/mini-lli/expect-status.py --timeout=60 2 %lli -jit-kind=orc-lazy -extra-archive %t/x.a -jd a -extra-archive %t/y.a %s
; CHECK: mini-lli: error: the -jd JITDylibs cannot be linked: their objects wait for each other (LLVM-C looks a symbol up only once everything it refers to is linked){{$}}
; CHECK-NOT: {{.}}
;
; Both archives in one JITDylib: 2.
; RUN: %python %inputs/mini-lli/expect-status.py --timeout=60 2 mini-lli -jd a -extra-archive %t/x.a -extra-archive %t/y.a %s
; RUN: %python %inputs/mini-lli/expect-status.py --timeout=60 2 mini-lli -jit-kind=orc-lazy -extra-archive %t/x.a -extra-archive %t/y.a %s
; RUN: %python %inputs/mini-lli/expect-status.py --timeout=60 2 mini-lli -jit-kind=orc-tiered -extra-archive %t/x.a -extra-archive %t/y.a %s

@xp = external global ptr

define i32 @main() {
  %p = load ptr, ptr @xp
  %v = load i32, ptr %p
  ret i32 %v
}
