; An archive member: @getv = 5 (for jd-extra-archive-goes-to-its-jitdylib.ll).
define i32 @getv() {
  ret i32 5
}
