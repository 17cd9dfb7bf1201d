; Question: malformed IR gives file:line:col and the parser's message, status 1.
;
; RUN: %python %inputs/mini-lli/expect-status.py 1 mini-lli %s 2>&1 | FileCheck %s -DFILE=%s
; RUN: cat %s | %python %inputs/mini-lli/expect-status.py 1 mini-lli - 2>&1 | FileCheck %s -DFILE="<stdin>"
; RUN: %python %inputs/mini-lli/expect-status.py 1 mini-lli -extra-module=%s %inputs/mini-lli/uses-extra.ll 2>&1 | FileCheck %s -DFILE=%s
;
; CHECK: mini-lli: error: [[FILE]]:11:20: use of undefined value '%y'
; CHECK-NEXT: {{^}}  %r = add i32 %x, %y

define i32 @main(i32 %x) {
  %r = add i32 %x, %y
  ret i32 %r
}
