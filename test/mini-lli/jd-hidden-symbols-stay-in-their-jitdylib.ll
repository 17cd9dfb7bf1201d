; Question: with lli's -jd, does a module see the hidden symbols of the modules
; in its own JITDylib only (a reference to another JITDylib's hidden symbol is
; not found), and the exported symbols of every JITDylib, with -jit-kind=orc
; and orc-lazy, as lli-22 does? (LLVM 22's
; llvm/test/ExecutionEngine/OrcLazy/hidden-visibility.ll asks the first half.)
;
; One JITDylib: this module uses the hidden @foo and @bar of another module.
; RUN: %python %inputs/mini-lli/expect-status.py 42 mini-lli -extra-module %inputs/mini-lli/jd-hidden-defs.ll %s
; RUN: %python %inputs/mini-lli/expect-status.py 42 mini-lli -jit-kind=orc-lazy -extra-module %inputs/mini-lli/jd-hidden-defs.ll %s
; RUN: %python %inputs/mini-lli/expect-status.py 42 mini-lli -jit-kind=orc-tiered -extra-module %inputs/mini-lli/jd-hidden-defs.ll %s
; RUN: %python %inputs/mini-lli/expect-status.py 42 %lli -jit-kind=orc-lazy -extra-module %inputs/mini-lli/jd-hidden-defs.ll %s
; -jd main names the input's JITDylib: the same.
; RUN: %python %inputs/mini-lli/expect-status.py 42 mini-lli -jd main -extra-module %inputs/mini-lli/jd-hidden-defs.ll %s
;
; In another JITDylib they are not found.
; RUN: %python %inputs/mini-lli/expect-status.py 1 mini-lli -jd libFoo -extra-module %inputs/mini-lli/jd-hidden-defs.ll %s 2>&1 | FileCheck %s --check-prefix=HIDDEN
; RUN: %python %inputs/mini-lli/expect-status.py 1 mini-lli -jit-kind=orc-lazy -jd libFoo -extra-module %inputs/mini-lli/jd-hidden-defs.ll %s 2>&1 | FileCheck %s --check-prefix=HIDDEN
; RUN: %python %inputs/mini-lli/expect-status.py 1 mini-lli -jit-kind=orc-tiered -jd libFoo -extra-module %inputs/mini-lli/jd-hidden-defs.ll %s 2>&1 | FileCheck %s --check-prefix=HIDDEN
; RUN: not %lli -jit-kind=orc-lazy -jd libFoo -extra-module %inputs/mini-lli/jd-hidden-defs.ll %s 2>&1 | FileCheck %s --check-prefix=HIDDEN
; HIDDEN: Symbols not found: [ {{.*}}{{foo|bar}}
; HIDDEN-NOT: __mini_lli
; HIDDEN-NOT: <program>
;
; Within a named JITDylib its modules see each other's hidden symbols, and
; its exported ones are seen from the main JITDylib; a hidden symbol of the
; same name in another JITDylib is another symbol.
; RUN: %python %inputs/mini-lli/expect-status.py 42 mini-lli -jd libFoo -extra-module %inputs/mini-lli/jd-hidden-defs.ll -extra-module %inputs/mini-lli/jd-hidden-user.ll -jd other -extra-module %inputs/mini-lli/jd-own-hidden-foo.ll %inputs/mini-lli/jd-main-calls.ll
; RUN: %python %inputs/mini-lli/expect-status.py 42 mini-lli -jit-kind=orc-lazy -jd libFoo -extra-module %inputs/mini-lli/jd-hidden-defs.ll -extra-module %inputs/mini-lli/jd-hidden-user.ll -jd other -extra-module %inputs/mini-lli/jd-own-hidden-foo.ll %inputs/mini-lli/jd-main-calls.ll
; RUN: %python %inputs/mini-lli/expect-status.py 42 mini-lli -jit-kind=orc-tiered -jd libFoo -extra-module %inputs/mini-lli/jd-hidden-defs.ll -extra-module %inputs/mini-lli/jd-hidden-user.ll -jd other -extra-module %inputs/mini-lli/jd-own-hidden-foo.ll %inputs/mini-lli/jd-main-calls.ll
; RUN: %python %inputs/mini-lli/expect-status.py 42 %lli -jit-kind=orc-lazy -jd libFoo -extra-module %inputs/mini-lli/jd-hidden-defs.ll -extra-module %inputs/mini-lli/jd-hidden-user.ll -jd other -extra-module %inputs/mini-lli/jd-own-hidden-foo.ll %inputs/mini-lli/jd-main-calls.ll
; ... but not when the user is in a third JITDylib.
; RUN: %python %inputs/mini-lli/expect-status.py 1 mini-lli -jd libFoo -extra-module %inputs/mini-lli/jd-hidden-defs.ll -jd other -extra-module %inputs/mini-lli/jd-hidden-user.ll %inputs/mini-lli/jd-main-calls.ll 2>&1 | FileCheck %s --check-prefix=HIDDEN
; RUN: not %lli -jd libFoo -extra-module %inputs/mini-lli/jd-hidden-defs.ll -jd other -extra-module %inputs/mini-lli/jd-hidden-user.ll %inputs/mini-lli/jd-main-calls.ll 2>&1 | FileCheck %s --check-prefix=HIDDEN
;
; MCJIT and the interpreter have no JITDylibs: -jd is ignored (as lli-22 does
; under MCJIT; its interpreter ignores -extra-module altogether).
; RUN: %python %inputs/mini-lli/expect-status.py 42 mini-lli -jit-kind=mcjit -jd libFoo -extra-module %inputs/mini-lli/jd-hidden-defs.ll %s
; RUN: %python %inputs/mini-lli/expect-status.py 42 %lli -jit-kind=mcjit -jd libFoo -extra-module %inputs/mini-lli/jd-hidden-defs.ll %s
; RUN: %python %inputs/mini-lli/expect-status.py 42 mini-lli -force-interpreter -jd libFoo -extra-module %inputs/mini-lli/jd-hidden-defs.ll %s
;
; lli's object cache keeps a module's object whatever its JITDylib: the
; answers are the same.
; RUN: rm -rf %t.cache && mkdir %t.cache
; RUN: %python %inputs/mini-lli/expect-status.py 1 mini-lli -enable-cache-manager -object-cache-dir=%t.cache -jd libFoo -extra-module %inputs/mini-lli/jd-hidden-defs.ll %s 2>&1 | FileCheck %s --check-prefix=HIDDEN
; RUN: not %lli -enable-cache-manager -object-cache-dir=%t.cache -jd libFoo -extra-module %inputs/mini-lli/jd-hidden-defs.ll %s 2>&1 | FileCheck %s --check-prefix=HIDDEN
; RUN: %python %inputs/mini-lli/expect-status.py 42 mini-lli -enable-cache-manager -object-cache-dir=%t.cache -jd libFoo -extra-module %inputs/mini-lli/jd-hidden-defs.ll -extra-module %inputs/mini-lli/jd-hidden-user.ll %inputs/mini-lli/jd-main-calls.ll
; RUN: %python %inputs/mini-lli/expect-status.py 42 %lli -enable-cache-manager -object-cache-dir=%t.cache -jd libFoo -extra-module %inputs/mini-lli/jd-hidden-defs.ll -extra-module %inputs/mini-lli/jd-hidden-user.ll %inputs/mini-lli/jd-main-calls.ll

@bar = external global i32
declare i32 @foo()

define i32 @main(i32 %argc, ptr %argv) {
entry:
  %0 = call i32 @foo()
  %1 = load i32, ptr @bar
  %2 = add i32 %0, %1
  ret i32 %2
}
