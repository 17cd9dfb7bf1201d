; A module of JITDylib a: @x = 42, and @ap, which points at main's @tbl (for
; jd-orc-lazy-checks-each-function-apart.ll).
@x = global i32 42
@tbl = external global ptr
@ap = global ptr @tbl
