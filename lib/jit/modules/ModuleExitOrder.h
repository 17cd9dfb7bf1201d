/*===- lib/jit/modules/ModuleExitOrder.h - The order dlopen'ed modules go in ===*/
/* Which dlopen'ed module goes before which, as in glibc. Each loaded module
 * records the modules it bound symbols from (glibc's reldeps, l_reldeps):
 *
 *   dlclose   a module another loaded module uses stays loaded at count zero
 *             until that one is unloaded (orc_rt_jit_ExitOrderNode_uses);
 *   exit      the modules still loaded are finalized in _dl_fini's order
 *             (orc_rt_jit_ExitOrder_sort).
 *
 * The loader (host/HostModule.c) embeds one node in its record of each
 * module and guards the nodes with its own lock: nothing here locks or allocates beyond
 * a node's list of dependencies. */

#ifndef ORC_RT_C_LIB_JIT_MODULES_MODULEEXITORDER_H
#define ORC_RT_C_LIB_JIT_MODULES_MODULEEXITORDER_H

#include <stdbool.h>
#include <stddef.h>

/* Zero-initialised, then given its Serial, is a module that bound nothing. */
typedef struct {
  unsigned long Serial; /* load order: a later load has a greater one */
  /* The modules it bound symbols from (glibc's reldeps), by Serial. They
   * only order the modules; an unloaded one's Serial just matches no node. */
  unsigned long *Deps;
  size_t NumDeps, DepCap;
  bool Visited; /* by orc_rt_jit_ExitOrder_sort */
} orc_rt_jit_ExitOrderNode;

/* M bound a symbol of From's (nothing if From is M). Out of memory, the
 * dependency is not recorded: only the order depends on it. */
void orc_rt_jit_ExitOrderNode_addDep(orc_rt_jit_ExitOrderNode *M,
                                     const orc_rt_jit_ExitOrderNode *From);

/* N bound a symbol of M's (never true if N is M). */
bool orc_rt_jit_ExitOrderNode_uses(const orc_rt_jit_ExitOrderNode *N,
                                   const orc_rt_jit_ExitOrderNode *M);

/* Frees M's list of dependencies. */
void orc_rt_jit_ExitOrderNode_dispose(orc_rt_jit_ExitOrderNode *M);

/* Writes to Out the N nodes of ByAge (the loaded modules, oldest first) in
 * glibc's _dl_fini order (_dl_sort_maps for fini): the order they were
 * loaded, except that a module comes before those it bound symbols from --
 * a depth-first walk from the newest back that fills Out from its end, each
 * module placed after what it reaches. A module opened by another's constructor was loaded after it, so
 * it comes after it. Dependencies on modules not in ByAge are ignored. */
void orc_rt_jit_ExitOrder_sort(orc_rt_jit_ExitOrderNode **Out,
                               orc_rt_jit_ExitOrderNode *const *ByAge,
                               size_t N);

#endif
