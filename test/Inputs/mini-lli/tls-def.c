/* Defines a thread_local used by test/mini-lli/thread-local.c from another
 * module. */
_Thread_local int shared_tls = 100;
int bump_shared_tls(void) { return ++shared_tls; }
