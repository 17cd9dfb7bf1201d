// An -extra-object (the main JITDylib's) whose variable points at JITDylib
// a's @adata (for
// jd-refuses-objects-waiting-on-each-other-through-an-extra-object.ll).
extern int adata;
int *objp = &adata;
