"""Writes two C files for lazy-first-calls-into-two-modules-at-once: DIR/extra.c
defines e0..e{N-1}, DIR/main.c defines m0..m{N-1} and a main whose two threads,
released together by a barrier, call every e and every m once (each a first call,
so each compiles), and print the sum of the results."""
import os
import sys

out, n = sys.argv[1], int(sys.argv[2])


def fns(prefix):
    return "\n".join(
        "int %s%d(int x) { int s = 0; for (int k = 0; k < x; ++k) "
        "s += k * %d + (s >> 3); return s + %d; }" % (prefix, i, i + 1, i)
        for i in range(n))


def calls(prefix):
    return "".join("s += %s%d(10); " % (prefix, i) for i in range(n))


os.makedirs(out, exist_ok=True)
with open(os.path.join(out, "extra.c"), "w") as f:
    f.write(fns("e") + "\n")
with open(os.path.join(out, "main.c"), "w") as f:
    f.write("#include <pthread.h>\n#include <stdio.h>\n")
    f.write("".join("int e%d(int);\n" % i for i in range(n)))
    f.write(fns("m") + "\n")
    f.write("static pthread_barrier_t B;\n")
    for p in "em":
        f.write("static void *run_%s(void *a) { pthread_barrier_wait(&B); "
                "long s = 0; %sreturn (void *)s; }\n" % (p, calls(p)))
    f.write("int main(void) { pthread_barrier_init(&B, 0, 2); pthread_t A, C;\n"
            "  pthread_create(&A, 0, run_e, 0); pthread_create(&C, 0, run_m, 0);\n"
            "  void *r1, *r2; pthread_join(A, &r1); pthread_join(C, &r2);\n"
            "  printf(\"sum: %ld\\n\", (long)r1 + (long)r2); return 0; }\n")
