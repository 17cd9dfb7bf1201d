; examples/jit-host-plugin.ll - a module for examples/jit-host.c: a constructor,
; a destructor, a call back into the host, and `run`, which the host looks up.

declare void @host_print(ptr)

@loaded = private constant [25 x i8] c"loaded (constructor ran)\00"
@unloaded = private constant [27 x i8] c"unloading (destructor ran)\00"
@calls = global i32 0

define internal void @ctor() {
  call void @host_print(ptr @loaded)
  ret void
}

define internal void @dtor() {
  call void @host_print(ptr @unloaded)
  ret void
}

; run(n) = n * 3, and counts its calls in @calls.
define i32 @run(i32 %n) {
  %c = load i32, ptr @calls
  %c1 = add i32 %c, 1
  store i32 %c1, ptr @calls
  %r = mul i32 %n, 3
  ret i32 %r
}

@llvm.global_ctors = appending global [1 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 65535, ptr @ctor, ptr null }]
@llvm.global_dtors = appending global [1 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 65535, ptr @dtor, ptr null }]
