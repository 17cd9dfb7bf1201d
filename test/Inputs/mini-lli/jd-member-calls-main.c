// An archive member of JITDylib a: @getv() = main's @counter + main's
// @mainf(1) (for jd-calls-through-archive-members-link.ll).
extern int counter;
int mainf(int);

int getv(void) { return counter + mainf(1); }
