// An -extra-object (the main JITDylib's): @objv = 40, @objf() = 2, and a
// hidden @objh (for jd-named-jitdylib-sees-the-main-jitdylibs-extra-objects.ll).
int objv = 40;
int objf(void) { return 2; }
__attribute__((visibility("hidden"))) int objh = 7;
