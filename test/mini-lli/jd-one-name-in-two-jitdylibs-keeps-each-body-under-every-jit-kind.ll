; Question: when two -jd JITDylibs each define a function of one name and hand
; out its address, does a call through each address reach its own
; JITDylib's body, both addresses taken before either function is first
; called, under every JIT kind as in lli? And under orc-tiered, is each
; tiered as a function of its own? (-jd was refused there; bodies were told
; apart by name alone, which would have left b's val uncounted, at tier 0
; for good: five functions reach tier 0 here, both vals among them.)
;
; 1 + 10 * 20 = 201.
; RUN: %python %inputs/mini-lli/expect-status.py --timeout=60 201 mini-lli -jd a -extra-module %inputs/mini-lli/jd-val-1-address.ll -jd b -extra-module %inputs/mini-lli/jd-val-20-address.ll %s
; RUN: %python %inputs/mini-lli/expect-status.py --timeout=60 201 mini-lli -jit-kind=orc-lazy -jd a -extra-module %inputs/mini-lli/jd-val-1-address.ll -jd b -extra-module %inputs/mini-lli/jd-val-20-address.ll %s
; RUN: %python %inputs/mini-lli/expect-status.py --timeout=60 201 mini-lli -jit-kind=orc-tiered -tiered-stats -jd a -extra-module %inputs/mini-lli/jd-val-1-address.ll -jd b -extra-module %inputs/mini-lli/jd-val-20-address.ll %s 2>&1 | FileCheck %s
; CHECK: mini-lli: tiered: tier 0: 5 functions compiled in
; RUN: %python %inputs/mini-lli/expect-status.py --timeout=60 201 mini-lli -jit-kind=orc-tiered -jd a -extra-module %inputs/mini-lli/jd-val-1-address.ll -jd b -extra-module %inputs/mini-lli/jd-val-20-address.ll %s
; RUN: %python %inputs/mini-lli/expect-status.py --timeout=60 201 mini-lli -jit-kind=orc-tiered -tier-up-threshold=1 -jd a -extra-module %inputs/mini-lli/jd-val-1-address.ll -jd b -extra-module %inputs/mini-lli/jd-val-20-address.ll %s
; RUN: %python %inputs/mini-lli/expect-status.py --timeout=60 201 %lli -jit-kind=orc-lazy -jd a -extra-module %inputs/mini-lli/jd-val-1-address.ll -jd b -extra-module %inputs/mini-lli/jd-val-20-address.ll %s

declare ptr @geta()
declare ptr @getb()

define i32 @main() {
  %pa = call ptr @geta()
  %pb = call ptr @getb()
  %a = call i32 %pa()
  %b = call i32 %pb()
  %t = mul i32 %b, 10
  %r = add i32 %a, %t
  ret i32 %r
}
