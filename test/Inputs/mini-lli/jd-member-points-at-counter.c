// An archive member whose variable points at the main JITDylib's @counter, so
// its object waits for main's variables; @member_get reads through it (for
// jd-refuses-objects-waiting-on-each-other-through-an-archive-member.ll).
extern int counter;
int *memberp = &counter;

int member_get(void) { return *memberp; }
