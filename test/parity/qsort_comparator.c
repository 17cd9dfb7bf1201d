// qsort, bsearch and tsearch/twalk calling back into JIT'd comparators and
// visitors from libc; the comparator is picked at run time from argv.
// Under -force-interpreter: qsort's comparator is interpreted code, which native qsort
// cannot call: SIGSEGV (lli-22 too).
// XFAIL: parity-interpreter
// RUN: %python %inputs/parity/compare.py --cc %clang --tool %parity-jit --out %t %s -- desc | FileCheck %s
// RUN: %python %inputs/parity/compare.py --cc %clang --tool %parity-jit --out %t.asc %s -- asc | FileCheck %s --check-prefix=ASC
// RUN: %python %inputs/parity/compare.py --cc %clang --tool %parity-jit --out %t.O0 --opt=-O0 --tool-arg=-O3 %s -- desc | FileCheck %s
#include <search.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct person {
  const char *name;
  int age;
};

static int calls;

static int cmp_int_asc(const void *a, const void *b) {
  int x = *(const int *)a, y = *(const int *)b;
  calls++;
  return (x > y) - (x < y);
}
static int cmp_int_desc(const void *a, const void *b) { return cmp_int_asc(b, a); }

static int cmp_person(const void *a, const void *b) {
  const struct person *p = a, *q = b;
  if (p->age != q->age)
    return p->age - q->age;
  return strcmp(p->name, q->name);
}

static int cmp_str(const void *a, const void *b) {
  return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static int cmp_tree(const void *a, const void *b) {
  return strcmp((const char *)a, (const char *)b);
}

static void visit(const void *node, VISIT which, int depth) {
  (void)depth;
  if (which == postorder || which == leaf)
    printf(" %s", *(const char *const *)node);
}

int main(int argc, char **argv) {
  int (*cmp)(const void *, const void *) =
      argc > 1 && strcmp(argv[1], "desc") == 0 ? cmp_int_desc : cmp_int_asc;

  int v[1000];
  unsigned seed = 12345;
  for (int i = 0; i < 1000; i++) {
    seed = seed * 1103515245u + 12345u;
    v[i] = (int)((seed >> 8) % 100000) - 50000;
  }
  calls = 0;
  qsort(v, 1000, sizeof v[0], cmp);
  int sorted = 1;
  for (int i = 1; i < 1000; i++)
    if (cmp(&v[i - 1], &v[i]) > 0)
      sorted = 0;
  // CHECK: ints sorted=1 comparator-called=1 first=49949 last=-49972
  // ASC: ints sorted=1 comparator-called=1 first=-49972 last=49949
  printf("ints sorted=%d comparator-called=%d first=%d last=%d\n", sorted, calls > 1000,
         v[0], v[999]);

  struct person people[] = {{"mallory", 40}, {"alice", 30}, {"bob", 30},
                            {"carol", 25},   {"dave", 40},  {"eve", 19}};
  size_t np = sizeof people / sizeof people[0];
  qsort(people, np, sizeof people[0], cmp_person);
  // CHECK-NEXT: people: eve/19 carol/25 alice/30 bob/30 dave/40 mallory/40
  printf("people:");
  for (size_t i = 0; i < np; i++)
    printf(" %s/%d", people[i].name, people[i].age);
  printf("\n");

  const char *words[] = {"pear", "apple", "fig", "banana", "cherry", "date"};
  qsort(words, 6, sizeof words[0], cmp_str);
  const char *key = "date";
  const char **hit = bsearch(&key, words, 6, sizeof words[0], cmp_str);
  const char *missing = "kiwi";
  // CHECK-NEXT: words: apple banana cherry date fig pear; date at 3; kiwi found=0
  printf("words: %s %s %s %s %s %s; date at %d; kiwi found=%d\n", words[0], words[1],
         words[2], words[3], words[4], words[5], (int)(hit - words),
         bsearch(&missing, words, 6, sizeof words[0], cmp_str) != NULL);

  void *root = NULL;
  const char *tw[] = {"m", "c", "x", "a", "e", "q", "z", "c"};
  for (int i = 0; i < 8; i++)
    tsearch(tw[i], &root, cmp_tree);
  // CHECK-NEXT: twalk: a c e m q x z
  printf("twalk:");
  twalk(root, visit);
  printf("\n");
  // CHECK-NEXT: parity: exit status 0
  // ASC: parity: exit status 0
  return 0;
}
