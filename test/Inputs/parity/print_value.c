/* For test/parity/compile-cache-reuses-only-identical-compiles.test: prints VALUE
   from whichever <value.h> the include path finds first. */
#include <stdio.h>
#include <value.h>

int main(void) {
  printf("value %d\n", VALUE);
  return 0;
}
