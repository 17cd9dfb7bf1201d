// Question: a missing, unreadable or malformed file, or a module that fails
// to link: does dlopen return NULL with a dlerror() naming the file and the
// reason, leave nothing behind (no constructor ran, the same file loads once
// fixed, a good module still loads) and let the program go on? Real shared
// libraries still go to the real dlopen.
//
// RUN: rm -rf %t.dir && mkdir %t.dir
// RUN: %clang -S -emit-llvm -O1 -DPLUGIN_GOOD %s -o %t.dir/good.ll
// RUN: %clang -S -emit-llvm -O1 -DPLUGIN_UNDEF %s -o %t.dir/undef.ll
// RUN: %clang -c -emit-llvm -O1 -DPLUGIN_GOOD %s -o %t.dir/good.bc
// RUN: head -c 100 %t.dir/good.bc > %t.dir/truncated.bc
// RUN: printf 'define i32 @f( {\n' > %t.dir/syntax.ll
// RUN: printf '\001\002\000\003garbage' > %t.dir/garbage.bc
// RUN: %clang -shared -fPIC -DPLUGIN_GOOD %s -o %t.dir/native.so
// RUN: %clang -S -emit-llvm -O1 %s -o %t.ll
// RUN: cd %t.dir && mini-lli %t.ll 2>&1 | FileCheck %s
// RUN: cd %t.dir && mini-lli -jit-kind=orc-lazy %t.ll 2>&1 | FileCheck %s
//
// CHECK:      missing.ll: NULL: missing.ll: cannot open module: No such file or directory
// CHECK-NEXT: a directory: NULL: {{.*}}: cannot read module: Is a directory
// CHECK-NEXT: syntax.ll: NULL: syntax.ll:2:1: expected type
// CHECK-NEXT: garbage.bc: NULL: garbage.bc: not an LLVM IR module (neither bitcode nor text)
// CHECK-NEXT: truncated.bc: NULL: truncated.bc: {{.+}}
// CHECK-NEXT: undef.ll: NULL: undef.ll: Symbols not found: [ no_such_function ]
// CHECK-NEXT: undef.ll again: NULL: undef.ll: Symbols not found: [ no_such_function ]
// CHECK-NEXT: good: ctor
// CHECK-NEXT: good.ll: loaded, answer 42
// CHECK-NEXT: good: ctor
// CHECK-NEXT: good.bc: loaded, answer 42
// CHECK-NEXT: good: ctor
// CHECK-NEXT: native.so: loaded, answer 42
// CHECK-NEXT: missing.so: NULL: missing.so: cannot open shared object file: No such file or directory
// CHECK-NEXT: dlerror again: (null)
// CHECK-NEXT: main: done

#include <stdio.h>

#ifdef PLUGIN_GOOD
__attribute__((constructor)) static void ctor(void) { printf("good: ctor\n"); }
int answer(void) { return 42; }
#elif defined(PLUGIN_UNDEF)
__attribute__((constructor)) static void ctor(void) { printf("undef: ctor?\n"); }
int no_such_function(void);
int answer(void) { return no_such_function(); }
#else
#include <dlfcn.h>
static void try(const char *What, const char *Path) {
  void *H = dlopen(Path, RTLD_NOW);
  if (!H) {
    printf("%s: NULL: %s\n", What, dlerror());
    return;
  }
  int (*F)(void) = (int (*)(void))dlsym(H, "answer");
  printf("%s: loaded, answer %d\n", What, F ? F() : -1);
  dlclose(H);
}
int main(void) {
  try("missing.ll", "missing.ll");
  try("a directory", "./");
  try("syntax.ll", "syntax.ll");
  try("garbage.bc", "garbage.bc");
  try("truncated.bc", "truncated.bc");
  try("undef.ll", "undef.ll");
  try("undef.ll again", "undef.ll");
  try("good.ll", "good.ll");
  try("good.bc", "good.bc");
  try("native.so", "./native.so");
  try("missing.so", "missing.so");
  printf("dlerror again: %s\n", dlerror());
  printf("main: done\n");
  return 0;
}
#endif
