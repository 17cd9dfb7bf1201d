; Question: with lli's object cache (one object per module, code and
; variables together), when modules of two JITDylibs use each other's
; variables both ways, which lli links, does mini-lli say in one line that it
; cannot (LLVM-C looks a symbol up only once everything it refers to is
; linked: see lib/jit/program/JITDylibs.h) instead of waiting forever, under both
; orc JIT kinds? Without the cache the variables are compiled apart and it
; links: jd-jitdylibs-use-each-others-code-and-data.ll. The timeout makes a
; hang fail.
;
; RUN: rm -rf %t.cache %t.lli-cache && mkdir %t.cache %t.lli-cache
; RUN: %python %inputs/mini-lli/expect-status.py --timeout=60 1 mini-lli -enable-cache-manager -object-cache-dir=%t.cache -jd a -extra-module %inputs/mini-lli/jd-uses-main-code-and-data.ll %s 2>&1 | FileCheck %s
; RUN: %python %inputs/mini-lli/expect-status.py --timeout=60 1 mini-lli -jit-kind=orc-lazy -enable-cache-manager -object-cache-dir=%t.cache -jd a -extra-module %inputs/mini-lli/jd-uses-main-code-and-data.ll %s 2>&1 | FileCheck %s
; RUN: %python %inputs/mini-lli/expect-status.py --timeout=60 42 %lli -enable-cache-manager -object-cache-dir=%t.lli-cache -jd a -extra-module %inputs/mini-lli/jd-uses-main-code-and-data.ll %s
; RUN: %python %inputs/mini-lli/expect-status.py --timeout=60 42 %lli -jit-kind=orc-lazy -enable-cache-manager -object-cache-dir=%t.lli-cache -jd a -extra-module %inputs/mini-lli/jd-uses-main-code-and-data.ll %s
; CHECK: mini-lli: error: the -jd JITDylibs cannot be linked: their objects wait for each other (LLVM-C looks a symbol up only once everything it refers to is linked){{$}}
; CHECK-NOT: {{.}}

@counter = global i32 5
@adata = external global i32

declare i32 @froma()

define i32 @helper() {
  ret i32 7
}

define i32 @main() {
  %a = call i32 @froma()
  %d = load i32, ptr @adata
  %s = add i32 %a, %d
  ret i32 %s
}
