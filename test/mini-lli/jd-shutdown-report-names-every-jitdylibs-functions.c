// Question: does the -shutdown-timeout report name a live entry into a -jd
// module's function (looked up in that module's JITDylib, where its hidden
// name is found), in every mode?
//
// RUN: %clang -S -emit-llvm -O1 %inputs/mini-lli/jd-spinner.c -o %t.jd.ll
// RUN: %clang -S -emit-llvm -O1 %s -o %t.ll
// RUN: %python %inputs/mini-lli/expect-status.py 6 mini-lli -shutdown-timeout=0.3 -jd lib -extra-module %t.jd.ll %t.ll 2>&1 | FileCheck %s
// RUN: %python %inputs/mini-lli/expect-status.py 6 mini-lli -shutdown-timeout=0.3 -jit-kind=orc-lazy -jd lib -extra-module %t.jd.ll %t.ll 2>&1 | FileCheck %s
//
// CHECK:      mini-lli: warning: shutdown timed out
// CHECK-NEXT:   thread {{[0-9]+}}: entered through 'spin_in_jd', inside for
// CHECK-NEXT: mini-lli: 1 live entry; ending the process with the program's status

void start_spinner(void);

int main(void) {
  start_spinner();
  return 6;
}
