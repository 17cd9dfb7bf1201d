/*===- tools/mini-lli/SanitizerDefaults.c - Sanitizer runtime defaults ----===*/
/* In a TSan build, do not report the JIT'd program's threads that were never
 * joined as leaks: leaving a worker behind when main returns is exactly what
 * mini-lli drains, and the program, not the driver, owns those threads. (The
 * JIT'd code itself is not instrumented.) Unused in other builds. */

const char *__tsan_default_options(void);

__attribute__((visibility("default"), used)) const char *
__tsan_default_options(void) {
  return "report_thread_leaks=0";
}
