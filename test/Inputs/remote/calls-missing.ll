; Calls a function neither the program nor any executor defines.
declare i32 @no_such_function(i32)

define i32 @main() {
  %r = call i32 @no_such_function(i32 1)
  ret i32 %r
}
