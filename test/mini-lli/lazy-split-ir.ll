; Question: does the per-function lazy split keep every kind of reference
; between the parts working? Each function body is moved into a module of its
; own, so what it refers to must be reached by name from there: internal
; functions and globals (given unique external names), constant-expression
; GEPs and casts of globals, a function whose address is taken (own part, own
; name), weak and linkonce_odr bodies, a thread_local, an extern_weak function
; that exists nowhere (must stay null, not fail to link), a recursive stubbed
; function, a call through dso_local_equivalent (which the LLVM-C API cannot
; rebuild: it becomes the function), and an uncalled function that refers to a
; symbol that exists nowhere (must never be compiled or linked in lazy mode).
;
; RUN: %python %inputs/mini-lli/expect-status.py 3 mini-lli -jit-kind=orc-lazy %s | FileCheck %s
; RUN: %python %inputs/mini-lli/expect-status.py 3 mini-lli -jit-kind=orc-lazy -O0 %s | FileCheck %s
; RUN: %python %inputs/mini-lli/expect-status.py 3 %lli -jit-kind=orc-lazy %s | FileCheck %s
; RUN: not mini-lli -jit-kind=orc %s 2>&1 | FileCheck %s --check-prefix=EAGER
;
; CHECK: table 30 40
; CHECK-NEXT: name split
; CHECK-NEXT: callback 14
; CHECK-NEXT: via table 9
; CHECK-NEXT: weak 1 odr 2
; CHECK-NEXT: tls 5
; CHECK-NEXT: extern_weak null
; CHECK-NEXT: fact 120
; CHECK-NEXT: count 3
; CHECK-NEXT: dso_local_equivalent 7
; EAGER: mini-lli: error: {{.*}}Symbols not found: [ {{.*}}no_such_symbol{{.*}} ]

declare i32 @printf(ptr, ...)
declare void @no_such_symbol()
declare extern_weak void @no_such_weak_function()

@.fmt.table = private unnamed_addr constant [16 x i8] c"table %d %d\0A\00\00\00\00"
@.fmt.name = private unnamed_addr constant [9 x i8] c"name %s\0A\00"
@.fmt.one = private unnamed_addr constant [8 x i8] c"%s %ld\0A\00"
@.fmt.two = private unnamed_addr constant [16 x i8] c"weak %d odr %d\0A\00"
@.str.callback = private unnamed_addr constant [9 x i8] c"callback\00"
@.str.via = private unnamed_addr constant [10 x i8] c"via table\00"
@.str.tls = private unnamed_addr constant [4 x i8] c"tls\00"
@.str.fact = private unnamed_addr constant [5 x i8] c"fact\00"
@.str.count = private unnamed_addr constant [6 x i8] c"count\00"
@.str.dle = private unnamed_addr constant [21 x i8] c"dso_local_equivalent\00"
@.str.ew = private unnamed_addr constant [19 x i8] c"extern_weak %s\0A\00\00\00\00"
@.str.null = private unnamed_addr constant [5 x i8] c"null\00"
@.str.nonnull = private unnamed_addr constant [8 x i8] c"nonnull\00"

%struct.pair = type { i32, [4 x i32] }
@pairs = internal global [2 x %struct.pair] [%struct.pair { i32 1, [4 x i32] [i32 10, i32 20, i32 30, i32 40] }, %struct.pair { i32 2, [4 x i32] [i32 50, i32 60, i32 70, i32 80] }]
@name = internal constant [12 x i8] c"lazy split\00\00"
@counter = internal global i32 0
@tls = internal thread_local global i32 5
; A function pointer in a global initializer: @square's address is taken.
@ops = internal global [2 x ptr] [ptr @square, ptr @add_one]

; Never called: compiling or linking it fails.
define void @never_called() {
  call void @no_such_symbol()
  ret void
}

define internal void @bump() {
  %c = load i32, ptr @counter
  %n = add i32 %c, 1
  store i32 %n, ptr @counter
  ret void
}

define internal i64 @square(i64 %x) {
  call void @bump()
  %r = mul i64 %x, %x
  ret i64 %r
}

define internal i64 @add_one(i64 %x) {
  %r = add i64 %x, 1
  ret i64 %r
}

define internal i64 @apply(ptr %f, i64 %x) {
  %r = call i64 %f(i64 %x)
  ret i64 %r
}

define weak i32 @weak_one() {
  ret i32 1
}

define linkonce_odr i32 @odr_two() {
  ret i32 2
}

define internal i32 @seven() {
  ret i32 7
}

define internal i64 @fact(i64 %n) {
  %z = icmp sle i64 %n, 1
  br i1 %z, label %base, label %rec
base:
  ret i64 1
rec:
  %m = sub i64 %n, 1
  %r = call i64 @fact(i64 %m)
  %p = mul i64 %n, %r
  ret i64 %p
}

define internal void @print_table() {
  ; Constant-expression GEPs (inbounds, nested through a struct) and a
  ; ptrtoint/inttoptr round trip of internal globals.
  %a = load i32, ptr getelementptr inbounds ([2 x %struct.pair], ptr @pairs, i64 0, i64 0, i32 1, i64 2)
  %b = load i32, ptr inttoptr (i64 add (i64 ptrtoint (ptr @pairs to i64), i64 16) to ptr)
  call i32 (ptr, ...) @printf(ptr @.fmt.table, i32 %a, i32 %b)
  call i32 (ptr, ...) @printf(ptr @.fmt.name, ptr getelementptr inbounds ([12 x i8], ptr @name, i64 0, i64 5))
  ret void
}

define i32 @main() {
  call void @print_table()
  %s = call i64 @apply(ptr @square, i64 3)
  %s1 = add i64 %s, 5
  call i32 (ptr, ...) @printf(ptr @.fmt.one, ptr @.str.callback, i64 %s1)
  %f = load ptr, ptr getelementptr inbounds ([2 x ptr], ptr @ops, i64 0, i64 0)
  %v = call i64 %f(i64 3)
  call i32 (ptr, ...) @printf(ptr @.fmt.one, ptr @.str.via, i64 %v)
  %w = call i32 @weak_one()
  %o = call i32 @odr_two()
  call i32 (ptr, ...) @printf(ptr @.fmt.two, i32 %w, i32 %o)
  %t = load i32, ptr @tls
  %t64 = sext i32 %t to i64
  call i32 (ptr, ...) @printf(ptr @.fmt.one, ptr @.str.tls, i64 %t64)
  %isnull = icmp eq ptr @no_such_weak_function, null
  %which = select i1 %isnull, ptr @.str.null, ptr @.str.nonnull
  call i32 (ptr, ...) @printf(ptr @.str.ew, ptr %which)
  %fa = call i64 @fact(i64 5)
  call i32 (ptr, ...) @printf(ptr @.fmt.one, ptr @.str.fact, i64 %fa)
  call void @bump()
  %c = load i32, ptr @counter
  %c64 = sext i32 %c to i64
  call i32 (ptr, ...) @printf(ptr @.fmt.one, ptr @.str.count, i64 %c64)
  %sv = call i32 dso_local_equivalent @seven()
  %sv64 = sext i32 %sv to i64
  call i32 (ptr, ...) @printf(ptr @.fmt.one, ptr @.str.dle, i64 %sv64)
  ret i32 %c
}
