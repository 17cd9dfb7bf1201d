; Question: with lli's -jd, does a module see the hidden symbols of the modules
; in its own JITDylib only (a reference to another JITDylib's hidden symbol is
; not found), and the exported symbols of every JITDylib, with -jit-kind=orc
; and orc-lazy, as lli-22 does? (LLVM 22's
; llvm/test/ExecutionEngine/OrcLazy/hidden-visibility.ll asks the first half.)
;
; One JITDylib: this module uses the hidden @foo and @bar of another module.
; RUN: %python %inputs/mini-lli/expect-status.py 42 mini-lli -extra-module %inputs/mini-lli/jd-hidden-defs.ll %s
; RUN: %python %inputs/mini-lli/expect-status.py 42 mini-lli -jit-kind=orc-lazy -extra-module %inputs/mini-lli/jd-hidden-defs.ll %s
; RUN: %python %inputs/mini-lli/expect-status.py 42 %lli -jit-kind=orc-lazy -extra-module %inputs/mini-lli/jd-hidden-defs.ll %s
; -jd main names the input's JITDylib: the same.
; RUN: %python %inputs/mini-lli/expect-status.py 42 mini-lli -jd main -extra-module %inputs/mini-lli/jd-hidden-defs.ll %s
;
; In another JITDylib they are not found.
; RUN: %python %inputs/mini-lli/expect-status.py 1 mini-lli -jd libFoo -extra-module %inputs/mini-lli/jd-hidden-defs.ll %s 2>&1 | FileCheck %s --check-prefix=HIDDEN
; RUN: %python %inputs/mini-lli/expect-status.py 1 mini-lli -jit-kind=orc-lazy -jd libFoo -extra-module %inputs/mini-lli/jd-hidden-defs.ll %s 2>&1 | FileCheck %s --check-prefix=HIDDEN
; RUN: not %lli -jit-kind=orc-lazy -jd libFoo -extra-module %inputs/mini-lli/jd-hidden-defs.ll %s 2>&1 | FileCheck %s --check-prefix=HIDDEN
; HIDDEN: Symbols not found: [ {{.*}}{{foo|bar}}
; HIDDEN-NOT: __mini_lli
;
; Within a named JITDylib its modules see each other's hidden symbols, and
; its exported ones are seen from the main JITDylib; a hidden symbol of the
; same name in another JITDylib is another symbol.
; RUN: %python %inputs/mini-lli/expect-status.py 42 mini-lli -jd libFoo -extra-module %inputs/mini-lli/jd-hidden-defs.ll -extra-module %inputs/mini-lli/jd-hidden-user.ll -jd other -extra-module %inputs/mini-lli/jd-own-hidden-foo.ll %inputs/mini-lli/jd-main-calls.ll
; RUN: %python %inputs/mini-lli/expect-status.py 42 mini-lli -jit-kind=orc-lazy -jd libFoo -extra-module %inputs/mini-lli/jd-hidden-defs.ll -extra-module %inputs/mini-lli/jd-hidden-user.ll -jd other -extra-module %inputs/mini-lli/jd-own-hidden-foo.ll %inputs/mini-lli/jd-main-calls.ll
; RUN: %python %inputs/mini-lli/expect-status.py 42 %lli -jit-kind=orc-lazy -jd libFoo -extra-module %inputs/mini-lli/jd-hidden-defs.ll -extra-module %inputs/mini-lli/jd-hidden-user.ll -jd other -extra-module %inputs/mini-lli/jd-own-hidden-foo.ll %inputs/mini-lli/jd-main-calls.ll
; ... but not when the user is in a third JITDylib.
; RUN: %python %inputs/mini-lli/expect-status.py 1 mini-lli -jd libFoo -extra-module %inputs/mini-lli/jd-hidden-defs.ll -jd other -extra-module %inputs/mini-lli/jd-hidden-user.ll %inputs/mini-lli/jd-main-calls.ll 2>&1 | FileCheck %s --check-prefix=HIDDEN
; RUN: not %lli -jd libFoo -extra-module %inputs/mini-lli/jd-hidden-defs.ll -jd other -extra-module %inputs/mini-lli/jd-hidden-user.ll %inputs/mini-lli/jd-main-calls.ll 2>&1 | FileCheck %s --check-prefix=HIDDEN
;
; MCJIT and the interpreter have no JITDylibs: refused in one line.
; RUN: %python %inputs/mini-lli/expect-status.py 1 mini-lli -jit-kind=mcjit -jd libFoo -extra-module %inputs/mini-lli/jd-hidden-defs.ll %s 2>&1 | FileCheck %s --check-prefix=ENGINE
; RUN: %python %inputs/mini-lli/expect-status.py 1 mini-lli -force-interpreter -jd libFoo -extra-module %inputs/mini-lli/jd-hidden-defs.ll %s 2>&1 | FileCheck %s --check-prefix=ENGINE
; ENGINE: mini-lli: error: -jd requires -jit-kind=orc or orc-lazy
;
; mini-lli's -jd renames the IR, which lli's object cache would keep under the
; input's name: refused.
; RUN: %python %inputs/mini-lli/expect-status.py 1 mini-lli -enable-cache-manager -jd libFoo -extra-module %inputs/mini-lli/jd-hidden-defs.ll %s 2>&1 | FileCheck %s --check-prefix=CACHE
; CACHE: mini-lli: error: -jd cannot be combined with -enable-cache-manager in mini-lli

@bar = external global i32
declare i32 @foo()

define i32 @main(i32 %argc, ptr %argv) {
entry:
  %0 = call i32 @foo()
  %1 = load i32, ptr @bar
  %2 = add i32 %0, %1
  ret i32 %2
}
