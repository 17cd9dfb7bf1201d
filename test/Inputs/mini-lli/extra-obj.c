/* Compiled to an object, an archive member or a shared library by the tests. */
#include <stdio.h>
int extra_add(int A, int B) { return A + B; }
void extra_hello(void) { printf("hello from extra\n"); }
