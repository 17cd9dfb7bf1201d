/* Uses libc, libm and pthreads through process symbols. */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

static void *body(void *Arg) { return Arg; }

int main(void) {
  volatile double Two = 2.0;
  pthread_t T;
  void *R = NULL;
  pthread_create(&T, NULL, body, (void *)7L);
  pthread_join(T, &R);
  printf("sqrt %f, strlen %zu, thread joined %ld\n", sqrt(Two),
         strlen("hello"), (long)R);
  return 0;
}
