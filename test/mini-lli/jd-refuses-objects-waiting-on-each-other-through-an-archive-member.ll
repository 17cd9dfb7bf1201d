; Question: when the objects of two JITDylibs wait on each other through a
; member of an -extra-archive (here @mainp points at the member's @memberp,
; which points at main's @counter), which lli links, does mini-lli say in one
; line, before anything links, that it cannot (LLVM-C looks a symbol up only
; once everything it refers to is linked, see lib/jit/program/JITDylibs.h) instead of
; waiting forever, under orc and orc-lazy? The check reads the archive's
; symbol table and the member's symbols; the timeouts make a hang fail.
;
; RUN: rm -rf %t && mkdir %t
; RUN: %clang -c %inputs/mini-lli/jd-member-points-at-counter.c -o %t/member.o
; RUN: llvm-ar rcs %t/member.a %t/member.o
;
; The wait comes as main is looked up.
; RUN: %python %inputs/mini-lli/expect-status.py --timeout=60 1 mini-lli -jd a -extra-archive %t/member.a %s 2>&1 | FileCheck %s
; RUN: %python %inputs/mini-lli/expect-status.py --timeout=60 1 mini-lli -jit-kind=orc-lazy -jd a -extra-archive %t/member.a %s 2>&1 | FileCheck %s
; RUN: %python %inputs/mini-lli/expect-status.py --timeout=60 1 mini-lli -jit-kind=orc-tiered -jd a -extra-archive %t/member.a %s 2>&1 | FileCheck %s
; RUN: %python %inputs/mini-lli/expect-status.py --timeout=60 1 mini-lli -jit-kind=orc-lazy -per-module-lazy -jd a -extra-archive %t/member.a %s 2>&1 | FileCheck %s
; RUN: %python %inputs/mini-lli/expect-status.py --timeout=60 42 %lli -jit-kind=orc -jd a -extra-archive %t/member.a %s
; RUN: %python %inputs/mini-lli/expect-status.py --timeout=60 42 %lli -jit-kind=orc-lazy -jd a -extra-archive %t/member.a %s
;
; The wait comes only once main runs (a's @froma, reached through a stub,
; calls the member): under orc too it used to hang.
; RUN: %python %inputs/mini-lli/expect-status.py --timeout=60 1 mini-lli -jd a -extra-module %inputs/mini-lli/jd-calls-member-get.ll -extra-archive %t/member.a %inputs/mini-lli/jd-late-cycle-main.ll 2>&1 | FileCheck %s
; RUN: %python %inputs/mini-lli/expect-status.py --timeout=60 1 mini-lli -jit-kind=orc-lazy -jd a -extra-module %inputs/mini-lli/jd-calls-member-get.ll -extra-archive %t/member.a %inputs/mini-lli/jd-late-cycle-main.ll 2>&1 | FileCheck %s
; RUN: %python %inputs/mini-lli/expect-status.py --timeout=60 1 mini-lli -jit-kind=orc-tiered -jd a -extra-module %inputs/mini-lli/jd-calls-member-get.ll -extra-archive %t/member.a %inputs/mini-lli/jd-late-cycle-main.ll 2>&1 | FileCheck %s
; RUN: %python %inputs/mini-lli/expect-status.py --timeout=60 42 %lli -jit-kind=orc -jd a -extra-module %inputs/mini-lli/jd-calls-member-get.ll -extra-archive %t/member.a %inputs/mini-lli/jd-late-cycle-main.ll
; RUN: %python %inputs/mini-lli/expect-status.py --timeout=60 42 %lli -jit-kind=orc-lazy -jd a -extra-module %inputs/mini-lli/jd-calls-member-get.ll -extra-archive %t/member.a %inputs/mini-lli/jd-late-cycle-main.ll
;
; Every archive layout LLVM reads: BSD and Darwin symbol tables, a thin
; archive (whose member is read from its file).
; RUN: llvm-ar rcs --format=bsd %t/member-bsd.a %t/member.o
; RUN: llvm-ar rcs --format=darwin %t/member-darwin.a %t/member.o
; RUN: llvm-ar rcs --thin %t/member-thin.a %t/member.o
; RUN: %python %inputs/mini-lli/expect-status.py --timeout=60 1 mini-lli -jit-kind=orc-lazy -jd a -extra-archive %t/member-bsd.a %s 2>&1 | FileCheck %s
; RUN: %python %inputs/mini-lli/expect-status.py --timeout=60 1 mini-lli -jit-kind=orc-tiered -jd a -extra-archive %t/member-bsd.a %s 2>&1 | FileCheck %s
; RUN: %python %inputs/mini-lli/expect-status.py --timeout=60 1 mini-lli -jit-kind=orc-lazy -jd a -extra-archive %t/member-darwin.a %s 2>&1 | FileCheck %s
; RUN: %python %inputs/mini-lli/expect-status.py --timeout=60 1 mini-lli -jit-kind=orc-tiered -jd a -extra-archive %t/member-darwin.a %s 2>&1 | FileCheck %s
; RUN: %python %inputs/mini-lli/expect-status.py --timeout=60 1 mini-lli -jit-kind=orc-lazy -jd a -extra-archive %t/member-thin.a %s 2>&1 | FileCheck %s
; RUN: %python %inputs/mini-lli/expect-status.py --timeout=60 1 mini-lli -jit-kind=orc-tiered -jd a -extra-archive %t/member-thin.a %s 2>&1 | FileCheck %s
; RUN: %python %inputs/mini-lli/expect-status.py --timeout=60 42 %lli -jit-kind=orc-lazy -jd a -extra-archive %t/member-thin.a %s
;
; An archive without a symbol table: LLVM pulls no member, in lli as in
; mini-lli, so nothing waits.
; RUN: llvm-ar rcS %t/member-nosymtab.a %t/member.o
; RUN: %python %inputs/mini-lli/expect-status.py --timeout=60 1 mini-lli -jit-kind=orc-lazy -jd a -extra-archive %t/member-nosymtab.a %s 2>&1 | FileCheck %s --check-prefix=MISSING
; RUN: %python %inputs/mini-lli/expect-status.py --timeout=60 1 mini-lli -jit-kind=orc-tiered -jd a -extra-archive %t/member-nosymtab.a %s 2>&1 | FileCheck %s --check-prefix=MISSING
; RUN: not %lli -jit-kind=orc-lazy -jd a -extra-archive %t/member-nosymtab.a %s 2>&1 | FileCheck %s --check-prefix=MISSING
; MISSING: Symbols not found: [ memberp ]
;
; In one JITDylib the same objects link.
; RUN: %python %inputs/mini-lli/expect-status.py --timeout=60 42 mini-lli -extra-archive %t/member.a %s
; RUN: %python %inputs/mini-lli/expect-status.py --timeout=60 42 mini-lli -jit-kind=orc-lazy -extra-archive %t/member.a %s
; RUN: %python %inputs/mini-lli/expect-status.py --timeout=60 42 mini-lli -jit-kind=orc-tiered -extra-archive %t/member.a %s
;
; CHECK: mini-lli: error: the -jd JITDylibs cannot be linked: their objects wait for each other (LLVM-C looks a symbol up only once everything it refers to is linked){{$}}
; CHECK-NOT: {{.}}

@counter = global i32 42
@mainp = global ptr @memberp
@memberp = external global ptr

define i32 @main() {
  %p = load ptr, ptr @mainp
  %q = load ptr, ptr %p
  %v = load i32, ptr %q
  ret i32 %v
}
