; Question: from bitcode, does orc-tiered read a function's body only when it
; is first called (a body never called costs nothing: lib/jit/ir/Module.h,
; orc_rt_jit_parseModuleLazily), and verify each one it reads, so that an
; invalid body ends the run with an error that names the file and the
; function, as -jit-kind=orc names the file of an invalid module, and not
; with a crash?
;
; @broken's body is invalid IR (a use its definition does not dominate);
; llvm-as -disable-verify writes it all the same. -jit-kind=orc reads the
; whole module first and refuses it. orc-tiered runs the program, which calls
; @broken only when it is given an argument.
;
; RUN: llvm-as -disable-verify %s -o %t.bc
; RUN: not mini-lli -jit-kind=orc %t.bc 2>&1 | FileCheck %s --check-prefix=WHOLE
; RUN: mini-lli -jit-kind=orc-tiered %t.bc | FileCheck %s --check-prefix=RUNS
; RUN: not mini-lli -jit-kind=orc-tiered %t.bc call-broken 2>&1 | FileCheck %s --check-prefix=CALLED
;
; WHOLE: mini-lli: error: {{.*}}.bc: invalid module: Instruction does not dominate all uses!
; RUNS: fine: 42
; CALLED: mini-lli: error: {{.*}}.bc: invalid function broken: Instruction does not dominate all uses!

@fmt = private constant [10 x i8] c"fine: %d\0A\00"

declare i32 @printf(ptr, ...)

define i32 @broken(i32 %x) {
  %a = add i32 %b, 1
  %b = add i32 %x, 1
  ret i32 %a
}

define i32 @fine() {
  ret i32 42
}

define i32 @main(i32 %argc, ptr %argv) {
  %v = call i32 @fine()
  %p = call i32 (ptr, ...) @printf(ptr @fmt, i32 %v)
  %given = icmp sgt i32 %argc, 1
  br i1 %given, label %call, label %done
call:
  %w = call i32 @broken(i32 %v)
  ret i32 %w
done:
  ret i32 0
}
