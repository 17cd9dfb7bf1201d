; @a_getv returns what @getv its JITDylib sees returns.
declare i32 @getv()

define i32 @a_getv() {
  %v = call i32 @getv()
  ret i32 %v
}
