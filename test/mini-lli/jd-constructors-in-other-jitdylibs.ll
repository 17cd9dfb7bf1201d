; Question: do the constructors, atexit and __cxa_atexit handlers and
; destructors of a module in another JITDylib (lli's -jd) run around main as
; those of the main JITDylib do, in the same order, with -jit-kind=orc and
; orc-lazy, as lli-22 runs them? (LLVM 22's
; llvm/test/ExecutionEngine/OrcLazy/global-ctors-and-dtors.ll asks the same.)
;
; RUN: mini-lli -jit-kind=orc-lazy -orc-lazy-debug=funcs-to-stdout -extra-module %s %inputs/mini-lli/noop-main.ll | FileCheck %s
; RUN: mini-lli -jit-kind=orc-lazy -orc-lazy-debug=funcs-to-stdout -jd extra -extra-module %s -jd main %inputs/mini-lli/noop-main.ll | FileCheck %s
; RUN: %lli -jit-kind=orc-lazy -orc-lazy-debug=funcs-to-stdout -jd extra -extra-module %s -jd main %inputs/mini-lli/noop-main.ll | FileCheck %s
; (lli lists the functions it compiles for its own init and exit machinery
; in between.)
; CHECK: first constructor
; CHECK: second constructor
; CHECK: [ {{.*}}main{{.*}} ]
; CHECK: atexit handler
; CHECK: __cxa_atexit handler
; CHECK: destructor
;
; RUN: mini-lli -jd extra -extra-module %s %inputs/mini-lli/noop-main.ll | FileCheck %s --check-prefix=EAGER
; RUN: %lli -jd extra -extra-module %s %inputs/mini-lli/noop-main.ll | FileCheck %s --check-prefix=EAGER
; EAGER:      first constructor
; EAGER-NEXT: second constructor
; EAGER-NEXT: atexit handler
; EAGER-NEXT: __cxa_atexit handler
; EAGER-NEXT: destructor

@obj = global i8 0
@__dso_handle = external hidden global i8
@llvm.global_ctors = appending global [2 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 65535, ptr @second_ctor, ptr null }, { i32, ptr, ptr } { i32 1000, ptr @first_ctor, ptr null }]
@llvm.global_dtors = appending global [1 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 65535, ptr @dtor, ptr null }]
@s.first = private constant [18 x i8] c"first constructor\00"
@s.second = private constant [19 x i8] c"second constructor\00"
@s.atexit = private constant [15 x i8] c"atexit handler\00"
@s.cxa = private constant [21 x i8] c"__cxa_atexit handler\00"
@s.dtor = private constant [11 x i8] c"destructor\00"

declare i32 @puts(ptr)
declare i32 @atexit(ptr)
declare i32 @__cxa_atexit(ptr, ptr, ptr)

define internal void @first_ctor() {
  call i32 @puts(ptr @s.first)
  ret void
}

define internal void @second_ctor() {
  call i32 @puts(ptr @s.second)
  call i32 @__cxa_atexit(ptr @cxa_handler, ptr @obj, ptr @__dso_handle)
  call i32 @atexit(ptr @atexit_handler)
  ret void
}

define void @cxa_handler(ptr %p) {
  call i32 @puts(ptr @s.cxa)
  ret void
}

define void @atexit_handler() {
  call i32 @puts(ptr @s.atexit)
  ret void
}

define void @dtor() {
  call i32 @puts(ptr @s.dtor)
  ret void
}
