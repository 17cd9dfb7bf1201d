// An archive member: @xp points at @ydata, which another JITDylib's archive
// member defines (for jd-archive-members-count-once-pulled-in.ll).
extern int ydata;
int xdata = 40;
int *xp = &ydata;
