; Question: are the entry point and -thread-entry looked up in the main
; JITDylib alone (not in the -jd ones it links against), as in lli?
;
; RUN: %python %inputs/mini-lli/expect-status.py 1 mini-lli -jd a -extra-module %inputs/mini-lli/jd-defines-main.ll %s 2>&1 | FileCheck %s --check-prefix=MAIN
; RUN: %python %inputs/mini-lli/expect-status.py 1 mini-lli -jit-kind=orc-lazy -jd a -extra-module %inputs/mini-lli/jd-defines-main.ll %s 2>&1 | FileCheck %s --check-prefix=MAIN
; RUN: %python %inputs/mini-lli/expect-status.py 1 mini-lli -jit-kind=orc-tiered -jd a -extra-module %inputs/mini-lli/jd-defines-main.ll %s 2>&1 | FileCheck %s --check-prefix=MAIN
; RUN: not %lli -jd a -extra-module %inputs/mini-lli/jd-defines-main.ll %s 2>&1 | FileCheck %s --check-prefix=MAIN
; MAIN: Symbols not found: [ main ]
; RUN: %python %inputs/mini-lli/expect-status.py 1 mini-lli -entry-function=jd_entry -jd a -extra-module %inputs/mini-lli/jd-defines-main.ll %s 2>&1 | FileCheck %s --check-prefix=ENTRY
; RUN: not %lli -entry-function=jd_entry -jd a -extra-module %inputs/mini-lli/jd-defines-main.ll %s 2>&1 | FileCheck %s --check-prefix=ENTRY
; ENTRY: Symbols not found: [ jd_entry ]
; RUN: %python %inputs/mini-lli/expect-status.py 1 mini-lli -jit-kind=orc-lazy -thread-entry=jd_entry -jd a -extra-module %inputs/mini-lli/jd-defines-main.ll %inputs/mini-lli/noop-main.ll 2>&1 | FileCheck %s --check-prefix=ENTRY
; RUN: %python %inputs/mini-lli/expect-status.py 1 mini-lli -jit-kind=orc-tiered -thread-entry=jd_entry -jd a -extra-module %inputs/mini-lli/jd-defines-main.ll %inputs/mini-lli/noop-main.ll 2>&1 | FileCheck %s --check-prefix=ENTRY
; RUN: not %lli -jit-kind=orc-lazy -thread-entry=jd_entry -jd a -extra-module %inputs/mini-lli/jd-defines-main.ll %inputs/mini-lli/noop-main.ll 2>&1 | FileCheck %s --check-prefix=ENTRY
;
; With -jd main the module is the main JITDylib's: its main runs.
; RUN: %python %inputs/mini-lli/expect-status.py 3 mini-lli -jd main -extra-module %inputs/mini-lli/jd-defines-main.ll %s
; RUN: %python %inputs/mini-lli/expect-status.py 3 %lli -jd main -extra-module %inputs/mini-lli/jd-defines-main.ll %s
; RUN: %python %inputs/mini-lli/expect-status.py 4 mini-lli -entry-function=jd_entry -jd main -extra-module %inputs/mini-lli/jd-defines-main.ll %s
; RUN: %python %inputs/mini-lli/expect-status.py 4 %lli -entry-function=jd_entry -jd main -extra-module %inputs/mini-lli/jd-defines-main.ll %s

; No entry point here.
define i32 @unused() {
  ret i32 0
}
