; Question: IR that parses but does not verify is rejected with the verifier's
; message (never handed to the code generator), status 1.
;
; RUN: %python %inputs/mini-lli/expect-status.py 1 mini-lli %s 2>&1 | FileCheck %s -DFILE=%s
;
; CHECK: mini-lli: error: [[FILE]]: invalid module: Instruction does not dominate all uses!

define i32 @main() {
entry:
  br label %b
a:
  %x = add i32 1, 1
  br label %b
b:
  ret i32 %x
}
