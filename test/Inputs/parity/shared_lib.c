// Built into a shared library for test/parity/shared_library.c (linked
// natively, -dlopen for the JIT). Not a test by itself.
#include <stdio.h>
#include <stdlib.h>

int shlib_counter;

__attribute__((constructor)) static void lib_ctor(void) {
  shlib_counter = 100;
  printf("library constructor\n");
}
__attribute__((destructor)) static void lib_dtor(void) {
  printf("library destructor\n");
  fflush(stdout);
}

int shlib_apply(int (*fn)(int), int x) {
  shlib_counter++;
  return fn(x);
}

static void lib_handler(void) { printf("library handler (counter %d)\n", shlib_counter); }
void shlib_register_exit_handler(void) { atexit(lib_handler); }
