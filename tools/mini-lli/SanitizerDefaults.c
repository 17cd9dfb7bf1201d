/*===- tools/mini-lli/SanitizerDefaults.c - Sanitizer runtime defaults ----===*/
/* In a TSan build, do not report the JIT'd program's threads that were never
 * joined as leaks: leaving a worker behind when main returns is what programs
 * do (mini-lli ends the process with it, or drains it on request), and the
 * program, not the driver, owns those threads. Nor sleep at exit while other
 * threads run (TSan's atexit_sleep_ms, 1 s by default): the process must end
 * when the program's does, and the JIT'd code is not instrumented anyway.
 * Unused in other builds. */

const char *__tsan_default_options(void);

__attribute__((visibility("default"), used)) const char *
__tsan_default_options(void) {
  return "report_thread_leaks=0:atexit_sleep_ms=0";
}
