; Inline assembly (a nop) in main. Exits 7.
define i32 @main() {
  call void asm sideeffect "nop", ""()
  ret i32 7
}
