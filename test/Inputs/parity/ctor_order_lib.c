// The second module of test/parity/ctor_order_modules.c. Not a test by itself.
#include <stdio.h>

static int seq;
void lib_note(const char *what) { printf("%d %s\n", ++seq, what); }

__attribute__((constructor)) static void lib_ctor(void) { lib_note("lib module ctor"); }
__attribute__((constructor(150))) static void lib_ctor_150(void) { lib_note("lib module ctor 150"); }
__attribute__((destructor)) static void lib_dtor(void) { lib_note("lib module dtor"); }
