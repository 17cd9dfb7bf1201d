; Question: does -orc-lazy-debug print what lli prints about each module the
; JIT compiles, in lli's format, with the user's function names (not
; mini-lli's renamed ones): the whole module with -jit-kind=orc, only what is
; called with orc-lazy, the whole module with -per-module-lazy?
;
; RUN: mini-lli -orc-lazy-debug=funcs-to-stdout %s | FileCheck %s --check-prefix=EAGER
; EAGER:      [ ctor unused helper main ]
; EAGER-NEXT: ctor
; EAGER-NEXT: helper
;
; RUN: mini-lli -jit-kind=orc-lazy -orc-lazy-debug=funcs-to-stdout %s | FileCheck %s --check-prefix=LAZY
; RUN: %lli -jit-kind=orc-lazy -orc-lazy-debug=funcs-to-stdout %s | FileCheck %s --check-prefix=LAZY
; LAZY-NOT: unused
; LAZY:     [ {{.*}}ctor{{.*}} ]
; LAZY:     [ main ]
; LAZY:     [ helper ]
; LAZY-NOT: unused
;
; RUN: mini-lli -jit-kind=orc-lazy -per-module-lazy -orc-lazy-debug=funcs-to-stdout %s | FileCheck %s --check-prefix=WHOLE
; WHOLE: unused
;
; RUN: mini-lli -orc-lazy-debug=mods-to-stdout %s | FileCheck %s --check-prefix=MODS
; MODS:      ----- Module Start -----
; MODS:      define void @unused()
; MODS:      ----- Module End -----
;
; RUN: rm -rf %t && mkdir %t && cp %s %t/prog.ll
; RUN: cd %t && mini-lli -orc-lazy-debug=mods-to-disk prog.ll
; RUN: FileCheck %s --check-prefix=DISK < %t/prog.ll.ll
; DISK: define void @unused()
;
; (jit-debug-descriptor and jit-debug-objects: orc-lazy-debug-jit-descriptor.ll.)

@llvm.global_ctors = appending global [1 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 65535, ptr @ctor, ptr null }]
@c = private constant [5 x i8] c"ctor\00"
@h = private constant [7 x i8] c"helper\00"

declare i32 @puts(ptr)

define internal void @ctor() {
  call i32 @puts(ptr @c)
  ret void
}

define void @unused() {
  ret void
}

define void @helper() {
  call i32 @puts(ptr @h)
  ret void
}

define i32 @main() {
  call void @helper()
  ret i32 0
}
