; Question: from bitcode, whose bodies orc-tiered reads on first call and
; moves into a module of their own, does a body whose code takes the address
; of a label of another function (which stays behind when the body moves)
; end the run with an error that says why and what to do, and not with a
; crash or a link error? -jit-kind=orc, and orc-tiered from textual IR, see
; every body first and compile such a module whole.
;
; RUN: llvm-as %s -o %t.bc
; RUN: mini-lli -jit-kind=orc %t.bc | FileCheck %s --check-prefix=WHOLE
; RUN: mini-lli -jit-kind=orc-tiered %s | FileCheck %s --check-prefix=WHOLE
; RUN: not mini-lli -jit-kind=orc-tiered %t.bc 2>&1 | FileCheck %s --check-prefix=REFUSED
;
; WHOLE: 2
; REFUSED: mini-lli: error: {{.*}}.bc: function main: its code uses a constant that cannot move into a module of its own (another function's label address, say); such a module is compiled from textual IR

@fmt = private constant [4 x i8] c"%d\0A\00"

declare i32 @printf(ptr, ...)

define i32 @target(ptr %to) {
entry:
  indirectbr ptr %to, [label %one, label %two]
one:
  ret i32 1
two:
  ret i32 2
}

define i32 @main() {
  %r = call i32 @target(ptr blockaddress(@target, %two))
  %p = call i32 (ptr, ...) @printf(ptr @fmt, i32 %r)
  ret i32 0
}
