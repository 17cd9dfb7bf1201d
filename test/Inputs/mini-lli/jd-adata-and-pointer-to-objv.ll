; A module of JITDylib a: @adata = 40 and @pa, which points at the
; -extra-object's @objv (for jd-object-sections-wait-apart.ll).
@adata = global i32 40
@objv = external global i32
@pa = global ptr @objv
