// A small real program rather than a feature probe: a recursive-descent
// calculator with variables, a chained hash table counting words (malloc,
// realloc, free, strdup), a sieve over a heap array, and a string builder.
// Under -force-interpreter: qsort's comparator is interpreted code, which native qsort
// cannot call: SIGSEGV (lli-22 too).
// XFAIL: parity-interpreter
// RUN: %python %inputs/parity/compare.py --cc %clang --tool %parity-jit --out %t %s -- "x = 6 * 7; y = (x - 2) / 8 + x % 5; x * y - 3" | FileCheck %s
// Non-PIC IR (absolute relocations; -no-pie only matters for the native link):
// RUN: %python %inputs/parity/compare.py --cc %clang --tool %parity-jit --out %t.nopic --cflag=-fno-pic --cflag=-no-pie %s -- "x = 6 * 7; y = (x - 2) / 8 + x % 5; x * y - 3" | FileCheck %s
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- calculator ---- */
static const char *src;
static long vars[26];
static void skip(void) { while (isspace((unsigned char)*src)) src++; }
static long expr(void);
static long primary(void) {
  skip();
  if (*src == '(') {
    src++;
    long v = expr();
    skip();
    if (*src == ')') src++;
    return v;
  }
  if (*src == '-') { src++; return -primary(); }
  if (isalpha((unsigned char)*src)) return vars[tolower((unsigned char)*src++) - 'a'];
  return strtol(src, (char **)&src, 10);
}
static long term(void) {
  long v = primary();
  for (;;) {
    skip();
    char op = *src;
    if (op != '*' && op != '/' && op != '%') return v;
    src++;
    long r = primary();
    v = op == '*' ? v * r : r == 0 ? 0 : op == '/' ? v / r : v % r;
  }
}
static long expr(void) {
  long v = term();
  for (;;) {
    skip();
    if (*src == '+') { src++; v += term(); }
    else if (*src == '-') { src++; v -= term(); }
    else return v;
  }
}
static long run(const char *program) {
  src = program;
  long last = 0;
  while (*src) {
    skip();
    if (isalpha((unsigned char)src[0])) {
      const char *save = src++;
      skip();
      if (*src == '=') {
        src++;
        last = vars[tolower((unsigned char)*save) - 'a'] = expr();
        goto next;
      }
      src = save;
    }
    last = expr();
  next:
    skip();
    if (*src == ';') src++;
    else if (*src) return -999999;
  }
  return last;
}

/* ---- word counts ---- */
struct node { char *word; int count; struct node *next; };
static struct node **table;
static size_t nbuckets = 4, nwords;
static size_t hash(const char *s) {
  size_t h = 5381;
  while (*s) h = h * 33 + (unsigned char)*s++;
  return h;
}
static void grow(void) {
  size_t nb = nbuckets * 2;
  struct node **t = calloc(nb, sizeof *t);
  for (size_t i = 0; i < nbuckets; i++)
    for (struct node *n = table[i], *next; n; n = next) {
      next = n->next;
      n->next = t[hash(n->word) % nb];
      t[hash(n->word) % nb] = n;
    }
  free(table);
  table = t;
  nbuckets = nb;
}
static void count(const char *w) {
  struct node **b = &table[hash(w) % nbuckets];
  for (struct node *n = *b; n; n = n->next)
    if (strcmp(n->word, w) == 0) { n->count++; return; }
  struct node *n = malloc(sizeof *n);
  n->word = strdup(w);
  n->count = 1;
  n->next = *b;
  *b = n;
  if (++nwords > nbuckets * 2) grow();
}
static int by_count(const void *a, const void *b) {
  const struct node *x = *(struct node *const *)a, *y = *(struct node *const *)b;
  return x->count != y->count ? y->count - x->count : strcmp(x->word, y->word);
}

int main(int argc, char **argv) {
  long r = run(argc > 1 ? argv[1] : "1+1");
  printf("calc: %ld (x=%ld y=%ld)\n", r, vars['x' - 'a'], vars['y' - 'a']);
  // CHECK: calc: 291 (x=42 y=7)

  table = calloc(nbuckets, sizeof *table);
  static const char text[] =
      "the quick brown fox jumps over the lazy dog the dog barks and the fox runs "
      "a quick brown dog and a lazy fox sleep over the hill while the quick fox waits";
  char *copy = strdup(text);
  for (char *w = strtok(copy, " "); w; w = strtok(NULL, " "))
    count(w);
  free(copy);
  struct node **all = malloc(nwords * sizeof *all);
  size_t k = 0;
  for (size_t i = 0; i < nbuckets; i++)
    for (struct node *n = table[i]; n; n = n->next)
      all[k++] = n;
  qsort(all, nwords, sizeof *all, by_count);
  printf("words: %zu distinct, buckets %zu, top:", nwords, nbuckets);
  for (size_t i = 0; i < 5; i++)
    printf(" %s=%d", all[i]->word, all[i]->count);
  printf("\n");
  // CHECK-NEXT: words: 16 distinct, buckets 8, top: the=6 fox=4 dog=3 quick=3 a=2
  for (size_t i = 0; i < nwords; i++) {
    free(all[i]->word);
    free(all[i]);
  }
  free(all);
  free(table);

  size_t limit = 200000;
  char *composite = calloc(limit + 1, 1);
  size_t primes = 0, last = 0;
  for (size_t i = 2; i <= limit; i++) {
    if (composite[i]) continue;
    primes++;
    last = i;
    for (size_t j = i * i; j <= limit; j += i) composite[j] = 1;
  }
  free(composite);
  printf("sieve: %zu primes up to %zu, largest %zu\n", primes, limit, last);
  // CHECK-NEXT: sieve: 17984 primes up to 200000, largest 199999

  size_t cap = 1, len = 0;
  char *sb = malloc(cap);
  for (int i = 0; i < 1000; i++) {
    char piece[16];
    int n = snprintf(piece, sizeof piece, "%d,", i * i);
    if (len + (size_t)n + 1 > cap) {
      while (len + (size_t)n + 1 > cap) cap *= 2;
      sb = realloc(sb, cap);
    }
    memcpy(sb + len, piece, (size_t)n + 1);
    len += (size_t)n;
  }
  printf("builder: len %zu cap %zu tail %s\n", len, cap, sb + len - 14);
  // CHECK-NEXT: builder: len 6537 cap 8192 tail 996004,998001,
  free(sb);
  // CHECK-NEXT: parity: exit status 35
  return (int)(r % 256);
}
