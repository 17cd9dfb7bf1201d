// An archive member of JITDylib a: @memv = 40, and @member_f, which calls
// main's @mainf (for jd-functions-whose-address-is-taken-are-reached-through-a-stub.ll).
int mainf(void);
int memv = 40;
int member_f(void) { return mainf() - 38; }
