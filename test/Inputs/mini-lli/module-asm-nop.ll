; Module-level inline assembly (a nop). Exits 7.
module asm "nop"

define i32 @main() {
  ret i32 7
}
