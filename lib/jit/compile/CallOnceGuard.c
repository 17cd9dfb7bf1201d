/*===- lib/jit/compile/CallOnceGuard.c - call_once state across lazy compiles ===*/

#include "jit/compile/CallOnceGuard.h"

#include <llvm-c/Orc.h>

#include <dlfcn.h>
#include <stddef.h>

enum { MaxDepth = 16 };

typedef struct {
  void *Callable, *Call;
} OnceState;

/* Compilations nest (linking one module may compile another) on one thread. */
static _Thread_local OnceState Saved[MaxDepth];
static _Thread_local unsigned Depth;

/* This thread's std::__once_callable / std::__once_call, or NULL if libstdc++
 * is not in the process. */
static void **slot(const char *Name) { return dlsym(RTLD_DEFAULT, Name); }

/* The IR transform that runs after save (see installCallOnceGuard). */
static LLVMOrcIRTransformLayerTransformFunction Next;
static void *NextCtx;
/* The object transform that runs after restore. */
static LLVMOrcObjectTransformLayerTransformFunction ObjNext;
static void *ObjNextCtx;

void orc_rt_jit_CallOnce_save(void) {
  void **Callable = slot("_ZSt15__once_callable");
  void **Call = slot("_ZSt11__once_call");
  if (Depth < MaxDepth)
    Saved[Depth] =
        (OnceState){Callable ? *Callable : NULL, Call ? *Call : NULL};
  ++Depth;
}

void orc_rt_jit_CallOnce_restore(void) {
  if (!Depth)
    return;
  --Depth;
  if (Depth >= MaxDepth)
    return;
  void **Callable = slot("_ZSt15__once_callable");
  void **Call = slot("_ZSt11__once_call");
  if (Callable)
    *Callable = Saved[Depth].Callable;
  if (Call)
    *Call = Saved[Depth].Call;
}

static LLVMErrorRef save(void *Ctx, LLVMOrcThreadSafeModuleRef *ModInOut,
                         LLVMOrcMaterializationResponsibilityRef MR) {
  (void)Ctx;
  orc_rt_jit_CallOnce_save();
  return Next ? Next(NextCtx, ModInOut, MR) : NULL;
}

static LLVMErrorRef restore(void *Ctx, LLVMMemoryBufferRef *ObjInOut) {
  (void)Ctx;
  LLVMErrorRef Then = ObjNext ? ObjNext(ObjNextCtx, ObjInOut) : NULL;
  orc_rt_jit_CallOnce_restore();
  return Then;
}

void orc_rt_jit_installCallOnceGuard(
    LLVMOrcLLJITRef J, LLVMOrcIRTransformLayerTransformFunction Then,
    void *ThenCtx, LLVMOrcObjectTransformLayerTransformFunction ObjThen,
    void *ObjThenCtx) {
  Next = Then;
  NextCtx = ThenCtx;
  ObjNext = ObjThen;
  ObjNextCtx = ObjThenCtx;
  LLVMOrcIRTransformLayerSetTransform(LLVMOrcLLJITGetIRTransformLayer(J), save,
                                      NULL);
  LLVMOrcObjectTransformLayerSetTransform(LLVMOrcLLJITGetObjTransformLayer(J),
                                          restore, NULL);
}
