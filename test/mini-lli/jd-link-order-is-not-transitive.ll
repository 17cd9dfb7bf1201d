; Question: does a -jd module see only its own JITDylib, the process and the
; main JITDylib -- not another -jd JITDylib the main one links against -- as
; in lli?
;
; jd a's froma calls jd b's fromb: not found.
; RUN: %python %inputs/mini-lli/expect-status.py 1 mini-lli -jd a -extra-module %inputs/mini-lli/jd-calls-fromb.ll -jd b -extra-module %inputs/mini-lli/jd-defines-fromb.ll %s 2>&1 | FileCheck %s
; RUN: %python %inputs/mini-lli/expect-status.py 1 mini-lli -jit-kind=orc-lazy -jd a -extra-module %inputs/mini-lli/jd-calls-fromb.ll -jd b -extra-module %inputs/mini-lli/jd-defines-fromb.ll %s 2>&1 | FileCheck %s
; RUN: %python %inputs/mini-lli/expect-status.py 1 mini-lli -jit-kind=orc-tiered -jd a -extra-module %inputs/mini-lli/jd-calls-fromb.ll -jd b -extra-module %inputs/mini-lli/jd-defines-fromb.ll %s 2>&1 | FileCheck %s
; RUN: not %lli -jd a -extra-module %inputs/mini-lli/jd-calls-fromb.ll -jd b -extra-module %inputs/mini-lli/jd-defines-fromb.ll %s 2>&1 | FileCheck %s
; RUN: not %lli -jit-kind=orc-lazy -jd a -extra-module %inputs/mini-lli/jd-calls-fromb.ll -jd b -extra-module %inputs/mini-lli/jd-defines-fromb.ll %s 2>&1 | FileCheck %s
; CHECK: Symbols not found: [ fromb ]
;
; In one JITDylib they are found.
; RUN: %python %inputs/mini-lli/expect-status.py 5 mini-lli -jd a -extra-module %inputs/mini-lli/jd-calls-fromb.ll -extra-module %inputs/mini-lli/jd-defines-fromb.ll %s
; RUN: %python %inputs/mini-lli/expect-status.py 5 %lli -jd a -extra-module %inputs/mini-lli/jd-calls-fromb.ll -extra-module %inputs/mini-lli/jd-defines-fromb.ll %s

declare i32 @froma()

define i32 @main() {
  %x = call i32 @froma()
  ret i32 %x
}
