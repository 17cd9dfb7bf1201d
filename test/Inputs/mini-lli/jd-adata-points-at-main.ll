; A module of JITDylib a whose variable @pa points at the main module's @mp;
; @froma reads @adata through @pa, @mp and the -extra-object's @objp (for
; jd-refuses-objects-waiting-on-each-other-through-an-extra-object.ll).
@adata = global i32 42
@mp = external global ptr
@pa = global ptr @mp

define i32 @froma() {
  %p = load ptr, ptr @pa
  %q = load ptr, ptr %p
  %r = load ptr, ptr %q
  %v = load i32, ptr %r
  ret i32 %v
}
