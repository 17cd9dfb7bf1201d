// An archive member: @yp points at @xdata, which another JITDylib's archive
// member defines (for jd-archive-members-count-once-pulled-in.ll).
extern int xdata;
int ydata = 2;
int *yp = &xdata;
