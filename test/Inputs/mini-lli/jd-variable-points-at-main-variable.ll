; For jd-refuses-jitdylibs-whose-variables-point-at-each-other.ll: a
; variable of JITDylib a whose initializer is main's @pb.
@pb = external global ptr
@pa = global ptr @pb
