@g = global i32 7
define i32 @get() {
  %v = load i32, ptr @g
  ret i32 %v
}
define void @set(i32 %x) {
  store i32 %x, ptr @g
  ret void
}
