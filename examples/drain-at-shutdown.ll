; examples/drain-at-shutdown.ll -- run it with:  build/bin/mini-lli -trace-shutdown examples/drain-at-shutdown.ll
; (scripts/run-example.sh does). Compiled by clang-22 -S -emit-llvm -O1 from this C:
;
;   /* examples/drain-at-shutdown: a plain C program that returns from main while a
;    * worker thread is still inside JIT'd code. Under stock lli this crashes or
;    * cuts the worker off; under mini-lli the worker (started with the driver's
;    * pthread_create) holds a Session token, so shutdown waits for it: the worker
;    * finishes and prints, then the JIT and its code memory are freed, and the
;    * status is main's. */
;   #include <pthread.h>
;   #include <stdatomic.h>
;   #include <stdio.h>
;   #include <unistd.h>
;   
;   static atomic_int Started;
;   
;   static void *worker(void *Arg) {
;     (void)Arg;
;     atomic_store(&Started, 1);
;     printf("worker: inside JIT'd code, working for 300 ms...\n");
;     fflush(stdout);
;     usleep(300 * 1000);
;     printf("worker: done; main returned long ago, my code is still here\n");
;     fflush(stdout);
;     return NULL;
;   }
;   
;   int main(void) {
;     pthread_t T;
;     pthread_create(&T, NULL, worker, NULL);
;     while (!atomic_load(&Started))
;       usleep(1000);
;     printf("main: returning 0 without joining the worker\n");
;     fflush(stdout);
;     return 0;
;   }

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@Started = internal unnamed_addr global i32 0, align 4
@stdout = external local_unnamed_addr global ptr, align 8
@str = private unnamed_addr constant [45 x i8] c"main: returning 0 without joining the worker\00", align 1
@str.3 = private unnamed_addr constant [49 x i8] c"worker: inside JIT'd code, working for 300 ms...\00", align 1
@str.4 = private unnamed_addr constant [60 x i8] c"worker: done; main returned long ago, my code is still here\00", align 1

; Function Attrs: nounwind uwtable
define dso_local noundef i32 @main() local_unnamed_addr #0 {
entry:
  %T = alloca i64, align 8
  call void @llvm.lifetime.start.p0(ptr nonnull %T) #6
  %call = call i32 @pthread_create(ptr noundef nonnull %T, ptr noundef null, ptr noundef nonnull @worker, ptr noundef null) #6
  %0 = load atomic i32, ptr @Started seq_cst, align 4
  %tobool.not4 = icmp eq i32 %0, 0
  br i1 %tobool.not4, label %while.body, label %while.end

while.body:                                       ; preds = %entry, %while.body
  %call1 = call i32 @usleep(i32 noundef 1000) #6
  %1 = load atomic i32, ptr @Started seq_cst, align 4
  %tobool.not = icmp eq i32 %1, 0
  br i1 %tobool.not, label %while.body, label %while.end, !llvm.loop !9

while.end:                                        ; preds = %while.body, %entry
  %puts = call i32 @puts(ptr nonnull dereferenceable(1) @str)
  %2 = load ptr, ptr @stdout, align 8, !tbaa !12
  %call3 = call i32 @fflush(ptr noundef %2)
  call void @llvm.lifetime.end.p0(ptr nonnull %T) #6
  ret i32 0
}

; Function Attrs: mustprogress nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.start.p0(ptr captures(none)) #1

; Function Attrs: nounwind
declare i32 @pthread_create(ptr noundef, ptr noundef, ptr noundef, ptr noundef) local_unnamed_addr #2

; Function Attrs: nounwind uwtable
define internal noalias noundef ptr @worker(ptr readnone captures(none) %Arg) #0 {
entry:
  store atomic i32 1, ptr @Started seq_cst, align 4
  %puts = tail call i32 @puts(ptr nonnull dereferenceable(1) @str.3)
  %0 = load ptr, ptr @stdout, align 8, !tbaa !12
  %call1 = tail call i32 @fflush(ptr noundef %0)
  %call2 = tail call i32 @usleep(i32 noundef 300000) #6
  %puts5 = tail call i32 @puts(ptr nonnull dereferenceable(1) @str.4)
  %1 = load ptr, ptr @stdout, align 8, !tbaa !12
  %call4 = tail call i32 @fflush(ptr noundef %1)
  ret ptr null
}

declare i32 @usleep(i32 noundef) local_unnamed_addr #3

; Function Attrs: nofree nounwind
declare noundef i32 @fflush(ptr noundef captures(none)) local_unnamed_addr #4

; Function Attrs: mustprogress nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.end.p0(ptr captures(none)) #1

; Function Attrs: nofree nounwind
declare noundef i32 @puts(ptr noundef readonly captures(none)) local_unnamed_addr #5

attributes #0 = { nounwind uwtable "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #1 = { mustprogress nocallback nofree nosync nounwind willreturn memory(argmem: readwrite) }
attributes #2 = { nounwind "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #3 = { "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #4 = { nofree nounwind "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #5 = { nofree nounwind }
attributes #6 = { nounwind }

!llvm.module.flags = !{!0, !1, !2, !3}
!llvm.errno.tbaa = !{!5}

!0 = !{i32 1, !"wchar_size", i32 4}
!1 = !{i32 8, !"PIC Level", i32 2}
!2 = !{i32 7, !"PIE Level", i32 2}
!3 = !{i32 7, !"uwtable", i32 2}
!5 = !{!6, !6, i64 0}
!6 = !{!"int", !7, i64 0}
!7 = !{!"omnipotent char", !8, i64 0}
!8 = !{!"Simple C/C++ TBAA"}
!9 = distinct !{!9, !10, !11}
!10 = !{!"llvm.loop.mustprogress"}
!11 = !{!"llvm.loop.unroll.disable"}
!12 = !{!13, !13, i64 0}
!13 = !{!"p1 _ZTS8_IO_FILE", !14, i64 0}
!14 = !{!"any pointer", !7, i64 0}
