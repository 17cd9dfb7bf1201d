// An -extra-object (the main JITDylib's): @objv = 2, a variable that uses
// nothing, in .data; @objf reads main's @counter, in .text. With -DSAME_DATA,
// .data also holds a pointer to @counter (for
// jd-object-sections-wait-apart.ll).
extern int counter;
int objv = 2;
#ifdef SAME_DATA
int *objq = &counter;
#endif
int objf(void) { return counter; }
