// The second module of test/parity/weak_alias.c (-extra-module / linked natively).
__attribute__((weak)) const char *who_handles(void) { return "weak default in weak_lib"; }
__attribute__((weak)) int tunable = 1;
__attribute__((weak)) const char *only_weak(void) { return "weak default in weak_lib"; }

const char *lib_calls_who_handles(void) { return who_handles(); }
int lib_reads_tunable(void) { return tunable; }

static int inc(int x) { return x + 1; }
static int dbl(int x) { return x * 2; }
static int neg(int x) { return -x; }
struct entry {
  const char *name;
  int (*fn)(int);
};
const struct entry lib_table[] = {{"inc", inc}, {"dbl", dbl}, {"neg", neg}};
const int lib_table_len = sizeof lib_table / sizeof lib_table[0];
static const char *const strings[] = {"alpha", "beta", "gamma"};
const char *const *lib_strings = strings;
