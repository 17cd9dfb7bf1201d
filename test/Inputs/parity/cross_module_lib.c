// The second module of test/parity/cross_module.c: passed to the driver with
// -extra-module, linked into the native binary. Not a test by itself.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef long (*binop)(long, long);

int lib_initialised;
long shared_total;

__attribute__((constructor)) static void lib_init(void) { lib_initialised = 1; }

static long op_add(long a, long b) { return a + b; }
static long op_mul(long a, long b) { return a * b; }
static long op_pow(long a, long b) {
  long r = 1;
  while (b-- > 0)
    r *= a;
  return r;
}

const binop lib_ops[] = {op_add, op_mul, op_pow};
const char *const lib_op_names[] = {"add", "mul", "pow"};
int lib_op_count = 3;

binop lib_lookup(const char *name) {
  for (int i = 0; i < lib_op_count; i++)
    if (strcmp(lib_op_names[i], name) == 0)
      return lib_ops[i];
  return NULL;
}

long lib_apply(binop f, long a, long b) { return f(a, b); }

static struct {
  long (*cb)(long);
  const char *tag;
} callbacks[8];
static int ncallbacks;

void lib_register(long (*cb)(long), const char *tag) {
  callbacks[ncallbacks].cb = cb;
  callbacks[ncallbacks].tag = tag;
  ncallbacks++;
}

long lib_run_all(long x) {
  long acc = 0;
  for (int i = 0; i < ncallbacks; i++) {
    long r = callbacks[i].cb(x);
    shared_total += r;
    if (x != 0)
      printf("lib calls %s(%ld) = %ld (total now %ld)\n", callbacks[i].tag, x, r, shared_total);
    acc += r;
  }
  return acc;
}

long main_square(long x);
void *lib_address_of_main_square(void) { return (void *)main_square; }

static int (*user_cmp)(const void *, const void *);
static int reversed(const void *a, const void *b) { return user_cmp(b, a); }
void lib_sort_desc(int *v, int n, int (*cmp)(const void *, const void *)) {
  user_cmp = cmp;
  qsort(v, (size_t)n, sizeof *v, reversed);
}
