// Starts a thread in a function of its own that never returns (for
// jd-shutdown-report-names-every-jitdylibs-functions.c).
#include <pthread.h>
#include <stdatomic.h>
#include <unistd.h>

static atomic_int Started;

__attribute__((visibility("hidden"))) void *spin_in_jd(void *Arg) {
  (void)Arg;
  atomic_store(&Started, 1);
  for (;;)
    usleep(10 * 1000);
  return NULL;
}

void start_spinner(void) {
  pthread_t T;
  pthread_create(&T, NULL, spin_in_jd, NULL);
  while (!atomic_load(&Started))
    usleep(1000);
}
