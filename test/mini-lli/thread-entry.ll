; Question: does -thread-entry run the named function on a new thread (entered
; through the Session), joined after main returns and before exit handlers?
;
; RUN: %python %inputs/mini-lli/expect-status.py 0 mini-lli -thread-entry=side %s | FileCheck %s
; RUN: %python %inputs/mini-lli/expect-status.py 0 mini-lli -thread-entry side -thread-entry side %s | FileCheck %s --check-prefix=TWO
;
; CHECK:     side thread in managed code: 1
; CHECK-NOT: side thread
; TWO-COUNT-2: side thread in managed code: 1

declare i32 @printf(ptr, ...)
declare ptr @orc_rt_Session_current()
declare i1 @orc_rt_Session_isInManagedCode(ptr)

@fmt = private constant [33 x i8] c"side thread in managed code: %d\0A\00"

define void @side() {
  %s = call ptr @orc_rt_Session_current()
  %in = call i1 @orc_rt_Session_isInManagedCode(ptr %s)
  %i = zext i1 %in to i32
  call i32 (ptr, ...) @printf(ptr @fmt, i32 %i)
  ret void
}

define i32 @main() {
  ret i32 0
}
