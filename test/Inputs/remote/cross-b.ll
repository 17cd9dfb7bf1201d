; Module B of cross-modules-weak-and-pic.test.
@maybe_b = global i32 12

declare i32 @a_add(i32)

define i32 @b_calls_back(i32 %x) {
  %y = mul i32 %x, 5
  %r = call i32 @a_add(i32 %y)
  ret i32 %r
}
