; Question: when two -jd JITDylibs export the same name, does each module see
; its own JITDylib's definition and the main JITDylib the one named first, as
; in lli (no duplicate definition)? In every mode, and from the object cache.
;
; one() = jd a's val = 1, two() = jd b's val = 20, main's val = a's: 1 + 20 +
; 10 * 1 = 31.
; RUN: %python %inputs/mini-lli/expect-status.py 31 mini-lli -jd a -extra-module %inputs/mini-lli/jd-val-1.ll -jd b -extra-module %inputs/mini-lli/jd-val-20.ll %s
; RUN: %python %inputs/mini-lli/expect-status.py 31 mini-lli -jit-kind=orc-lazy -jd a -extra-module %inputs/mini-lli/jd-val-1.ll -jd b -extra-module %inputs/mini-lli/jd-val-20.ll %s
; RUN: %python %inputs/mini-lli/expect-status.py 31 mini-lli -jit-kind=orc-tiered -jd a -extra-module %inputs/mini-lli/jd-val-1.ll -jd b -extra-module %inputs/mini-lli/jd-val-20.ll %s
; RUN: %python %inputs/mini-lli/expect-status.py 31 mini-lli -jit-kind=orc-lazy -per-module-lazy -jd a -extra-module %inputs/mini-lli/jd-val-1.ll -jd b -extra-module %inputs/mini-lli/jd-val-20.ll %s
; RUN: %python %inputs/mini-lli/expect-status.py 31 mini-lli -compile-threads=2 -jd a -extra-module %inputs/mini-lli/jd-val-1.ll -jd b -extra-module %inputs/mini-lli/jd-val-20.ll %s
; RUN: %python %inputs/mini-lli/expect-status.py 31 %lli -jit-kind=orc -jd a -extra-module %inputs/mini-lli/jd-val-1.ll -jd b -extra-module %inputs/mini-lli/jd-val-20.ll %s
; RUN: %python %inputs/mini-lli/expect-status.py 31 %lli -jit-kind=orc-lazy -jd a -extra-module %inputs/mini-lli/jd-val-1.ll -jd b -extra-module %inputs/mini-lli/jd-val-20.ll %s
;
; The other order: b is named first.
; RUN: %python %inputs/mini-lli/expect-status.py 221 mini-lli -jd b -jd a -extra-module %inputs/mini-lli/jd-val-1.ll -jd b -extra-module %inputs/mini-lli/jd-val-20.ll %s
; RUN: %python %inputs/mini-lli/expect-status.py 221 %lli -jd b -jd a -extra-module %inputs/mini-lli/jd-val-1.ll -jd b -extra-module %inputs/mini-lli/jd-val-20.ll %s
;
; mini-lli's object cache: written, then read (the same answers).
; RUN: rm -rf %t.cache
; RUN: %python %inputs/mini-lli/expect-status.py 31 mini-lli -object-cache-dir=%t.cache -jd a -extra-module %inputs/mini-lli/jd-val-1.ll -jd b -extra-module %inputs/mini-lli/jd-val-20.ll %s
; RUN: %python %inputs/mini-lli/expect-status.py 31 mini-lli -object-cache-dir=%t.cache -jd a -extra-module %inputs/mini-lli/jd-val-1.ll -jd b -extra-module %inputs/mini-lli/jd-val-20.ll %s
;
; Without -jd they are one JITDylib: a duplicate definition, in lli too.
; RUN: not mini-lli -extra-module %inputs/mini-lli/jd-val-1.ll -extra-module %inputs/mini-lli/jd-val-20.ll %s 2>&1 | FileCheck %s --check-prefix=DUP
; RUN: not %lli -extra-module %inputs/mini-lli/jd-val-1.ll -extra-module %inputs/mini-lli/jd-val-20.ll %s 2>&1 | FileCheck %s --check-prefix=DUP
; DUP: duplicate definition of symbol 'val'

declare i32 @one()
declare i32 @two()
declare i32 @val()

define i32 @main() {
  %a = call i32 @one()
  %b = call i32 @two()
  %c = call i32 @val()
  %s = add i32 %a, %b
  %t = mul i32 %c, 10
  %r = add i32 %s, %t
  ret i32 %r
}
