; For jd-whole-modules-calling-each-other-link.ll: a module of
; JITDylib a that orc-lazy keeps whole (it has an alias) and calls main's
; @mainf, which calls back through @froma_alias.
declare i32 @mainf(i32)

@froma_alias = alias i32 (i32), ptr @froma

define i32 @froma(i32 %n) {
  %z = icmp eq i32 %n, 0
  br i1 %z, label %done, label %rec
done:
  ret i32 40
rec:
  %m = sub i32 %n, 1
  %r = call i32 @mainf(i32 %m)
  ret i32 %r
}
