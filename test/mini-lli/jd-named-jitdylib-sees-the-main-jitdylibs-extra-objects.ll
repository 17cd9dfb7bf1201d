; Question: does a module of a named JITDylib find the exported symbols of the
; main JITDylib's -extra-objects (lli puts every -extra-object there), and
; not their hidden ones, as in lli, under orc and orc-lazy?
;
; RUN: rm -rf %t && mkdir %t
; RUN: %clang -c %inputs/mini-lli/jd-object-defines-objv.c -o %t/obj.o
;
; This module is JITDylib a's: froma() = objv + objf() = 40 + 2.
; RUN: echo 'declare i32 @froma()' > %t/main.ll
; RUN: echo 'define i32 @main() { %%v = call i32 @froma() ret i32 %%v }' >> %t/main.ll
; RUN: %python %inputs/mini-lli/expect-status.py --timeout=60 42 mini-lli -jd a -extra-module %s -extra-object %t/obj.o %t/main.ll
; RUN: %python %inputs/mini-lli/expect-status.py --timeout=60 42 mini-lli -jit-kind=orc-lazy -jd a -extra-module %s -extra-object %t/obj.o %t/main.ll
; RUN: %python %inputs/mini-lli/expect-status.py --timeout=60 42 mini-lli -jit-kind=orc-tiered -jd a -extra-module %s -extra-object %t/obj.o %t/main.ll
; RUN: %python %inputs/mini-lli/expect-status.py --timeout=60 42 %lli -jit-kind=orc -jd a -extra-module %s -extra-object %t/obj.o %t/main.ll
; RUN: %python %inputs/mini-lli/expect-status.py --timeout=60 42 %lli -jit-kind=orc-lazy -jd a -extra-module %s -extra-object %t/obj.o %t/main.ll
;
; The object's hidden @objh is not seen from JITDylib a.
; RUN: echo '@objh = external global i32' > %t/hidden.ll
; RUN: echo 'define i32 @froma() { %%v = load i32, ptr @objh ret i32 %%v }' >> %t/hidden.ll
; RUN: %python %inputs/mini-lli/expect-status.py --timeout=60 1 mini-lli -jd a -extra-module %t/hidden.ll -extra-object %t/obj.o %t/main.ll 2>&1 | FileCheck %s --check-prefix=HIDDEN
; RUN: %python %inputs/mini-lli/expect-status.py --timeout=60 1 mini-lli -jit-kind=orc-lazy -jd a -extra-module %t/hidden.ll -extra-object %t/obj.o %t/main.ll 2>&1 | FileCheck %s --check-prefix=HIDDEN
; RUN: %python %inputs/mini-lli/expect-status.py --timeout=60 1 mini-lli -jit-kind=orc-tiered -jd a -extra-module %t/hidden.ll -extra-object %t/obj.o %t/main.ll 2>&1 | FileCheck %s --check-prefix=HIDDEN
; RUN: not %lli -jd a -extra-module %t/hidden.ll -extra-object %t/obj.o %t/main.ll 2>&1 | FileCheck %s --check-prefix=HIDDEN
; HIDDEN: Symbols not found: [ objh ]
;
; From the main JITDylib it is: 7.
; RUN: %python %inputs/mini-lli/expect-status.py --timeout=60 7 mini-lli -entry-function=froma -extra-object %t/obj.o %t/hidden.ll
; RUN: %python %inputs/mini-lli/expect-status.py --timeout=60 7 %lli -entry-function=froma -extra-object %t/obj.o %t/hidden.ll

@objv = external global i32
declare i32 @objf()

define i32 @froma() {
  %v = load i32, ptr @objv
  %f = call i32 @objf()
  %s = add i32 %v, %f
  ret i32 %s
}
