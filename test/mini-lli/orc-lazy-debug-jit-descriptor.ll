; Question: with -orc-lazy-debug=jit-debug-descriptor, does mini-lli print, as
; lli does (on stderr), the GDB JIT interface's descriptor empty at start-up
; and then the entry registered for the program's object, with either linker
; and engine; and with jit-debug-objects, is that entry's debug object (the
; program's DWARF, its .text at the address it was loaded at) written to stdout?
; (LLVM 22's llvm/test/ExecutionEngine/OrcLazy/debug-descriptor.ll and
; debug-objects.ll ask the same of lli.)
;
; RUN: mini-lli --jit-linker=rtdyld --orc-lazy-debug=jit-debug-descriptor %s 2>&1 | FileCheck %s
; RUN: mini-lli --jit-linker=jitlink --orc-lazy-debug=jit-debug-descriptor %s 2>&1 | FileCheck %s
; RUN: mini-lli -jit-kind=orc-lazy --jit-linker=jitlink --orc-lazy-debug=jit-debug-descriptor %s 2>&1 | FileCheck %s
; RUN: mini-lli -jit-kind=orc-lazy --jit-linker=rtdyld --orc-lazy-debug=jit-debug-descriptor %s 2>&1 | FileCheck %s
; RUN: %lli --jit-linker=jitlink --orc-lazy-debug=jit-debug-descriptor %s 2>&1 | FileCheck %s
; CHECK:      jit_debug_descriptor 0x0000000000000000
; CHECK-NEXT: jit_debug_descriptor 0x
; CHECK-NOT:                         000000000000000
; CHECK-SAME:                                       {{[048c]}}
;
; Without the option nothing is printed.
; RUN: mini-lli %s 2>&1 | count 0
;
; RUN: mini-lli --jit-linker=rtdyld --orc-lazy-debug=jit-debug-objects %s | llvm-dwarfdump --diff - | FileCheck %s --check-prefix=DWARF
; RUN: mini-lli --jit-linker=jitlink --orc-lazy-debug=jit-debug-objects %s | llvm-dwarfdump --diff - | FileCheck %s --check-prefix=DWARF
; RUN: %lli --jit-linker=jitlink --orc-lazy-debug=jit-debug-objects %s | llvm-dwarfdump --diff - | FileCheck %s --check-prefix=DWARF
; DWARF: -:	file format elf64-x86-64
; DWARF: .debug_info contents:
; DWARF: DW_TAG_compile_unit
; DWARF:   DW_AT_producer	("orc-rt-c test")
; DWARF:   DW_AT_name	("answer.c")
; DWARF:   DW_AT_comp_dir	("/orc-rt-c")
; DWARF: DW_TAG_subprogram
; DWARF:   DW_AT_name	("main")
; DWARF:   DW_AT_decl_line	(3)
;
; The code's section (.text, or .ltext for the large code model) is given the
; address it was loaded at.
; RUN: mini-lli --jit-linker=rtdyld --orc-lazy-debug=jit-debug-objects %s | llvm-objdump --section-headers - | FileCheck %s --check-prefix=LOADED
; RUN: mini-lli --jit-linker=jitlink --orc-lazy-debug=jit-debug-objects %s | llvm-objdump --section-headers - | FileCheck %s --check-prefix=LOADED
; RUN: %lli --jit-linker=rtdyld --orc-lazy-debug=jit-debug-objects %s | llvm-objdump --section-headers - | FileCheck %s --check-prefix=LOADED
; LOADED: {{ \.l?text +0*[1-9a-f][0-9a-f]* +0*[1-9a-f][0-9a-f]* TEXT}}

define i32 @main() !dbg !3 {
entry:
  ret i32 0, !dbg !8
}

!llvm.module.flags = !{!0}
!llvm.dbg.cu = !{!2}

!0 = !{i32 2, !"Debug Info Version", i32 3}
!1 = !DIFile(filename: "answer.c", directory: "/orc-rt-c")
!2 = distinct !DICompileUnit(language: DW_LANG_C11, file: !1, producer: "orc-rt-c test", emissionKind: FullDebug)
!3 = distinct !DISubprogram(name: "main", scope: !1, file: !1, line: 3, type: !4, scopeLine: 3, unit: !2, retainedNodes: !7)
!4 = !DISubroutineType(types: !5)
!5 = !{!6}
!6 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!7 = !{}
!8 = !DILocation(line: 3, column: 14, scope: !3)
