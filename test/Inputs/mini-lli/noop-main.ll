; An entry that does nothing: for tests about what runs around it.
define i32 @main(i32 %argc, ptr %argv) {
  ret i32 0
}
