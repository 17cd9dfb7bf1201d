; Uses the main module's @helper and @counter and exports @froma and @adata
; (for jd-jitdylibs-use-each-others-code-and-data.ll).
@counter = external global i32
@adata = global i32 30

declare i32 @helper()

define i32 @froma() {
  %h = call i32 @helper()
  %c = load i32, ptr @counter
  %s = add i32 %h, %c
  ret i32 %s
}
