/*===- lib/jit/controller/RemoteStart.c - What a remote program gets from crt and libc ===*/

#include "jit/controller/RemoteStart.h"
#include "jit/ir/EmuTLS.h"
#include "jit/support/Diag.h"
#include "jit/support/GrowArray.h"

#include <llvm-c/IRReader.h>

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The fixed part; REMOTE_MAIN (which calls the program's entry by its name)
 * and @run_dtors (one call per destructor) are appended. */
static const char Fixed[] =
    "@__dso_handle = weak global i8 0\n"
    "@environ = external global ptr\n"
    "@threads = internal global i64 0    ; the program's live threads\n"
    "@exiting = internal global i32 0    ; exit() has begun\n"
    "@.pthread_create = private constant [15 x i8] c\"pthread_create\\00\"\n"
    "@.exit = private constant [5 x i8] c\"exit\\00\"\n"
    "@.call_as_main = private constant [41 x i8] "
    "c\"orc_rt_ExecutorServices_callAsMainThread\\00\"\n"
    "\n"
    "declare i32 @__cxa_atexit(ptr, ptr, ptr)\n"
    "declare i32 @__cxa_at_quick_exit(ptr, ptr)\n"
    "declare i32 @__cxa_thread_atexit_impl(ptr, ptr, ptr)\n"
    "declare ptr @__emutls_get_address(ptr)\n"
    "declare ptr @dlsym(ptr, ptr)\n"
    "declare ptr @malloc(i64)\n"
    "declare void @free(ptr)\n"
    "declare i32 @usleep(i32)\n"
    "\n"
    "define weak i32 @atexit(ptr %f) {\n"
    "  %r = call i32 @__cxa_atexit(ptr %f, ptr null, ptr @__dso_handle)\n"
    "  ret i32 %r\n"
    "}\n"
    "\n"
    "define weak i32 @at_quick_exit(ptr %f) {\n"
    "  %r = call i32 @__cxa_at_quick_exit(ptr %f, ptr @__dso_handle)\n"
    "  ret i32 %r\n"
    "}\n"
    "\n"
    "; EmuTLS.h: another module's thread_local (its control variable), or the\n"
    "; executor's own (RTLD_DEFAULT is null).\n"
    "define weak ptr @" ORC_RT_JIT_TLS_ADDRESS "(ptr %ctl, ptr %name) {\n"
    "  %native = icmp eq ptr %ctl, null\n"
    "  br i1 %native, label %n, label %e\n"
    "e:\n"
    "  %a = call ptr @__emutls_get_address(ptr %ctl)\n"
    "  ret ptr %a\n"
    "n:\n"
    "  %b = call ptr @dlsym(ptr null, ptr %name)\n"
    "  ret ptr %b\n"
    "}\n"
    "\n"
    "define i32 @" REMOTE_REGISTER_DTORS "() {\n"
    "  %r = call i32 @__cxa_atexit(ptr @run_dtors, ptr null, "
    "ptr @__dso_handle)\n"
    "  ret i32 0\n"
    "}\n"
    "\n"
    "; exit, marked as begun: glibc's exit first runs the calling thread's\n"
    "; thread_local destructors, where @main_thread_gone must not mistake it\n"
    "; for pthread_exit.\n"
    "define weak void @exit(i32 %status) {\n"
    "  store atomic i32 1, ptr @exiting seq_cst, align 4\n"
    "  %real = call ptr @dlsym(ptr null, ptr @.exit)\n"
    "  call void %real(i32 %status)\n"
    "  unreachable\n"
    "}\n"
    "\n"
    "; A thread of the program: counted from pthread_create until its last\n"
    "; thread_local destructor (this one is registered first, so it runs\n"
    "; last), whether it returns or calls pthread_exit.\n"
    "define internal void @thread_gone(ptr %unused) {\n"
    "  %old = atomicrmw sub ptr @threads, i64 1 seq_cst\n"
    "  ret void\n"
    "}\n"
    "\n"
    "define internal ptr @thread_start(ptr %box) {\n"
    "  %reg = call i32 @__cxa_thread_atexit_impl(ptr @thread_gone, ptr null, "
    "ptr @__dso_handle)\n"
    "  %fn = load ptr, ptr %box\n"
    "  %argp = getelementptr inbounds ptr, ptr %box, i64 1\n"
    "  %arg = load ptr, ptr %argp\n"
    "  call void @free(ptr %box)\n"
    "  %r = call ptr %fn(ptr %arg)\n"
    "  ret ptr %r\n"
    "}\n"
    "\n"
    "define weak i32 @pthread_create(ptr %t, ptr %attr, ptr %fn, ptr %arg) {\n"
    "  %box = call ptr @malloc(i64 16)\n"
    "  %nomem = icmp eq ptr %box, null\n"
    "  br i1 %nomem, label %again, label %start\n"
    "again:\n"
    "  ret i32 11 ; EAGAIN\n"
    "start:\n"
    "  store ptr %fn, ptr %box\n"
    "  %argp = getelementptr inbounds ptr, ptr %box, i64 1\n"
    "  store ptr %arg, ptr %argp\n"
    "  %old = atomicrmw add ptr @threads, i64 1 seq_cst\n"
    "  %real = call ptr @dlsym(ptr null, ptr @.pthread_create)\n"
    "  %r = call i32 %real(ptr %t, ptr %attr, ptr @thread_start, ptr %box)\n"
    "  %ok = icmp eq i32 %r, 0\n"
    "  br i1 %ok, label %done, label %failed\n"
    "failed:\n"
    "  %undo = atomicrmw sub ptr @threads, i64 1 seq_cst\n"
    "  call void @free(ptr %box)\n"
    "  br label %done\n"
    "done:\n"
    "  ret i32 %r\n"
    "}\n"
    "\n"
    "; main's thread ends without exit: main called pthread_exit. As "
    "natively,\n"
    "; the process lives on until the program's last thread has ended.\n"
    "define internal void @main_thread_gone(ptr %unused) {\n"
    "  %x = load atomic i32, ptr @exiting seq_cst, align 4\n"
    "  %by_exit = icmp ne i32 %x, 0\n"
    "  br i1 %by_exit, label %out, label %wait\n"
    "wait:\n"
    "  %n = load atomic i64, ptr @threads seq_cst, align 8\n"
    "  %none = icmp eq i64 %n, 0\n"
    "  br i1 %none, label %end, label %sleep\n"
    "sleep:\n"
    "  %s = call i32 @usleep(i32 1000)\n"
    "  br label %wait\n"
    "end:\n"
    "  call void @exit(i32 0)\n"
    "  unreachable\n"
    "out:\n"
    "  ret void\n"
    "}\n";

typedef struct {
  char *Data;
  size_t Size, Cap;
  bool Failed;
} Text;

static void append(Text *T, const char *Fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void append(Text *T, const char *Fmt, ...) {
  va_list Args;
  va_start(Args, Fmt);
  int N = vsnprintf(NULL, 0, Fmt, Args);
  va_end(Args);
  if (T->Failed || N < 0 ||
      !orc_rt_jit_growArray(&T->Data, &T->Cap, T->Size + (size_t)N + 1, 1)) {
    T->Failed = true;
    return;
  }
  va_start(Args, Fmt);
  vsnprintf(T->Data + T->Size, (size_t)N + 1, Fmt, Args);
  va_end(Args);
  T->Size += (size_t)N;
}

/* @"Name", with IR's escapes for '"', '\\' and bytes outside printable
 * ASCII. */
static void appendName(Text *T, const char *Name) {
  append(T, "@\"");
  for (const unsigned char *P = (const unsigned char *)Name; *P; ++P) {
    if (*P == '"' || *P == '\\' || *P < 0x20 || *P > 0x7e)
      append(T, "\\%02X", *P);
    else
      append(T, "%c", *P);
  }
  append(T, "\"");
}

orc_rt_ErrorRef orc_rt_jit_remoteStartModule(LLVMContextRef C,
                                             const char *Entry,
                                             const orc_rt_jit_InitList *Dtors,
                                             LLVMModuleRef *Out) {
  Text T = {NULL, 0, 0, false};
  /* An executor that offers orc_rt_ExecutorServices_callAsMainThread
   * (orc-executor) catches main's pthread_exit itself and returns once the
   * program's last thread has ended: then exit(0) follows here, and main's
   * thread-exit handler is not needed (it would run only when the executor's
   * thread ends). Elsewhere (lli-child-target, llvm-jitlink-executor) the
   * handler does it. The box is {argc, argv, main's result (0 until main
   * returns)}. */
  append(&T,
         "%s\ndefine internal void @call_entry(ptr %%box) {\n"
         "  %%argc = load i32, ptr %%box\n"
         "  %%argvp = getelementptr inbounds {i32, ptr, i32}, ptr %%box, "
         "i32 0, i32 1\n"
         "  %%argv = load ptr, ptr %%argvp\n"
         "  %%env = load ptr, ptr @environ\n"
         "  %%r = call i32 ",
         Fixed);
  appendName(&T, Entry);
  append(&T, "(i32 %%argc, ptr %%argv, ptr %%env)\n"
             "  %%rp = getelementptr inbounds {i32, ptr, i32}, ptr %%box, "
             "i32 0, i32 2\n"
             "  store i32 %%r, ptr %%rp\n"
             "  ret void\n}\n\n"
             "define i32 @" REMOTE_MAIN "(i32 %%argc, ptr %%argv) {\n"
             "  %%box = alloca {i32, ptr, i32}\n"
             "  store i32 %%argc, ptr %%box\n"
             "  %%argvp = getelementptr inbounds {i32, ptr, i32}, ptr %%box, "
             "i32 0, i32 1\n"
             "  store ptr %%argv, ptr %%argvp\n"
             "  %%rp = getelementptr inbounds {i32, ptr, i32}, ptr %%box, "
             "i32 0, i32 2\n"
             "  store i32 0, ptr %%rp\n"
             "  %%cam = call ptr @dlsym(ptr null, ptr @.call_as_main)\n"
             "  %%caught = icmp ne ptr %%cam, null\n"
             "  br i1 %%caught, label %%executor, label %%native\n"
             "executor:\n"
             "  %%end = call i32 %%cam(ptr @call_entry, ptr %%box)\n"
             "  br label %%done\n"
             "native:\n"
             "  %%reg = call i32 @__cxa_thread_atexit_impl("
             "ptr @main_thread_gone, ptr null, ptr @__dso_handle)\n"
             "  call void @call_entry(ptr %%box)\n"
             "  br label %%done\n"
             "done:\n"
             "  %%r = load i32, ptr %%rp\n"
             "  call void @exit(i32 %%r)\n"
             "  unreachable\n}\n\ndeclare i32 ");
  appendName(&T, Entry);
  append(&T, "(i32, ptr, ptr)\n\n");
  /* Highest priority number first, the last of equal ones first, as
   * .fini_array runs. */
  append(&T, "define internal void @run_dtors(ptr %%unused) {\n");
  for (size_t I = Dtors->Size; I-- > 0;) {
    append(&T, "  call void ");
    appendName(&T, Dtors->Items[I].Symbol);
    append(&T, "()\n");
  }
  append(&T, "  ret void\n}\n");
  for (size_t I = 0; I < Dtors->Size; ++I) {
    bool Seen = !strcmp(Dtors->Items[I].Symbol, Entry);
    for (size_t K = 0; K < I && !Seen; ++K)
      Seen = !strcmp(Dtors->Items[K].Symbol, Dtors->Items[I].Symbol);
    if (Seen) /* declared once */
      continue;
    append(&T, "declare void ");
    appendName(&T, Dtors->Items[I].Symbol);
    append(&T, "()\n");
  }
  if (T.Failed) {
    free(T.Data);
    return orc_rt_Error_create("out of memory");
  }
  LLVMMemoryBufferRef Buf = LLVMCreateMemoryBufferWithMemoryRangeCopy(
      T.Data, T.Size, "<mini-lli remote start>");
  free(T.Data);
  char *Msg = NULL;
  if (LLVMParseIRInContext(C, Buf, Out, &Msg)) /* takes Buf */
    return orc_rt_jit_fromDiagnostic(Msg);
  return NULL;
}
