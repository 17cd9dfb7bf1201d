; A static constructor sets main's exit status to 3 (for lli-cache-manager.test).
@llvm.global_ctors = appending global [1 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 65535, ptr @c, ptr null }]
@x = global i32 5

define internal void @c() {
  store i32 3, ptr @x
  ret void
}

define i32 @main() {
  %v = load i32, ptr @x
  ret i32 %v
}
