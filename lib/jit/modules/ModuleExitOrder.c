/*===- lib/jit/modules/ModuleExitOrder.c - The order dlopen'ed modules go in ===*/
/* Reldeps and glibc's _dl_fini order for dlopen'ed modules; see the header. */

#include "jit/modules/ModuleExitOrder.h"
#include "jit/support/GrowArray.h"

#include <stdlib.h>

void orc_rt_jit_ExitOrderNode_addDep(orc_rt_jit_ExitOrderNode *M,
                                     const orc_rt_jit_ExitOrderNode *From) {
  if (M == From)
    return;
  for (size_t I = 0; I < M->NumDeps; ++I)
    if (M->Deps[I] == From->Serial)
      return;
  /* On failure only the order the modules go in suffers. */
  if (orc_rt_jit_growArray(&M->Deps, &M->DepCap, M->NumDeps + 1,
                           sizeof(*M->Deps)))
    M->Deps[M->NumDeps++] = From->Serial;
}

bool orc_rt_jit_ExitOrderNode_uses(const orc_rt_jit_ExitOrderNode *N,
                                   const orc_rt_jit_ExitOrderNode *M) {
  for (size_t I = 0; N != M && I < N->NumDeps; ++I)
    if (N->Deps[I] == M->Serial)
      return true;
  return false;
}

void orc_rt_jit_ExitOrderNode_dispose(orc_rt_jit_ExitOrderNode *M) {
  free(M->Deps);
}

static orc_rt_jit_ExitOrderNode *
findSerial(orc_rt_jit_ExitOrderNode *const *ByAge, size_t N,
           unsigned long Serial) {
  for (size_t I = 0; I < N; ++I)
    if (ByAge[I]->Serial == Serial)
      return ByAge[I];
  return NULL;
}

static void visit(orc_rt_jit_ExitOrderNode *M,
                  orc_rt_jit_ExitOrderNode *const *ByAge, size_t N,
                  orc_rt_jit_ExitOrderNode ***Head) {
  if (M->Visited)
    return;
  M->Visited = true;
  for (size_t I = 0; I < M->NumDeps; ++I) {
    orc_rt_jit_ExitOrderNode *D = findSerial(ByAge, N, M->Deps[I]);
    if (D)
      visit(D, ByAge, N, Head);
  }
  *--*Head = M;
}

void orc_rt_jit_ExitOrder_sort(orc_rt_jit_ExitOrderNode **Out,
                               orc_rt_jit_ExitOrderNode *const *ByAge,
                               size_t N) {
  for (size_t I = 0; I < N; ++I)
    ByAge[I]->Visited = false;
  orc_rt_jit_ExitOrderNode **Head = Out + N;
  for (size_t I = N; I-- > 0;)
    visit(ByAge[I], ByAge, N, &Head);
}
