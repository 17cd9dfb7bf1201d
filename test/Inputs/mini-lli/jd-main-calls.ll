; main returns the exported @sum_from_user (its status: 42).
declare i32 @sum_from_user()

define i32 @main(i32 %argc, ptr %argv) {
  %s = call i32 @sum_from_user()
  ret i32 %s
}
