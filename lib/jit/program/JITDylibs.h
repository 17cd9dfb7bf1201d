/*===- lib/jit/program/JITDylibs.h - lli's -jd: JITDylibs linked with main ===*/
/* lli's -jd <name> puts the -extra-modules and -extra-archives after it in a
 * JITDylib of that name (`-jd main` is the input's). As in lli, a named
 * JITDylib's link order is: itself (its modules, then its archives), the
 * platform (mini-lli's definitions, ProgramRuntime.h), the process, the main
 * JITDylib's exported symbols; the main JITDylib's ends, after its own
 * generators, with the exported symbols of each named JITDylib in the order
 * they were named. A link order is not transitive (a named JITDylib does not
 * see another's symbols), and the entry point and -thread-entry are looked up
 * in the main JITDylib alone. With -jit-kind=mcjit and -force-interpreter
 * (no JITDylibs) lli ignores -jd, and so does mini-lli.
 *
 * LLVM-C cannot set a link order: each JITDylib gets a definition generator
 * that gives a lookup made from inside it (its modules' links, the driver:
 * MatchAllSymbols) the same answers, and a lookup from another JITDylib
 * (MatchExportedSymbolsOnly) none. Which JITDylib exports what comes from the
 * modules' IR, the -extra-objects' symbol tables and, for each archive, the
 * names its symbol table maps to a member (ObjectSymbols.h): within one
 * JITDylib its modules' and objects' definitions come first, then its
 * archives in order, as ORC's lookup finds them. A symbol of another
 * JITDylib is reached through a reexport: for a function without a stub of
 * its own (all under -jit-kind=orc; an object's; under orc-lazy one whose
 * address is taken, or of a module kept whole: Jit.h's
 * orc_rt_jit_StubsCallback says which got one), a lazy-reexport stub, so a
 * call never waits for another JITDylib's code; otherwise a unit that looks
 * the symbol up when something needs it (a variable, or orc-lazy's stub,
 * which keeps one address).
 *
 * LLVM-C's lookups return a symbol only once it is ready (its object linked
 * and everything that object depends on too), where ORC's own link order
 * needs it resolved only. So a module's variables are compiled apart from its
 * code (CodeGen.h's DataApart; with orc-lazy the split does it), and code
 * that uses another JITDylib's variable waits for that object alone. Left,
 * and refused before anything links: what would wait, through another
 * JITDylib's variable, for itself -- a cycle of "waits for" through such a
 * variable among what would be linked: a module's variables, its code (one
 * object, or each function apart when orc-lazy compiles the bodies apart),
 * or the whole module with lli's cache; each -extra-object and each archive
 * member that a reference pulls in, by section, as JITLink tracks readiness
 * by block (a symbol waits for what its own section refers to, and for its
 * object's link, which waits only for other JITDylibs' symbols). Examples:
 * two JITDylibs whose variables' initializers point at each other's
 * variables, directly or through a member or an -extra-object; two that use
 * each other's variables with lli's cache (one object per module). lli links
 * them all. Modules count whether or not anything uses them. Jit.c's
 * waitsForItself stays as a backstop under -jit-kind=orc: a lookup of the
 * driver's that does not finish ends the run in the same words. */

#ifndef ORC_RT_C_LIB_JIT_PROGRAM_JITDYLIBS_H
#define ORC_RT_C_LIB_JIT_PROGRAM_JITDYLIBS_H

#include "jit/lli/Options.h"
#include "jit/program/Jit.h"

#include "orc-rt-c/Error.h"

#include <llvm-c/Core.h>
#include <llvm-c/Orc.h>

typedef struct orc_rt_jit_JITDylibs orc_rt_jit_JITDylibs;

/* Creates the named JITDylibs, in the order of the -jd options. *Out is NULL
 * without -jd or without JITDylibs (mcjit, interpreter). */
orc_rt_ErrorRef orc_rt_jit_JITDylibs_create(orc_rt_jit_JITDylibs **Out,
                                            orc_rt_jit_Jit *J,
                                            const orc_rt_jit_Options *O);

/* The JITDylib of module Index (0: the input, I + 1: -extra-module I) or of
 * -extra-archive I; NULL for the main one (and if D is NULL). */
LLVMOrcJITDylibRef orc_rt_jit_JITDylibs_ofModule(orc_rt_jit_JITDylibs *D,
                                                 unsigned Index);
LLVMOrcJITDylibRef orc_rt_jit_JITDylibs_ofArchive(orc_rt_jit_JITDylibs *D,
                                                  size_t I);

/* Records what module Index (in IR, before it is added) exports. */
orc_rt_ErrorRef orc_rt_jit_JITDylibs_noteModule(orc_rt_jit_JITDylibs *D,
                                                unsigned Index,
                                                LLVMModuleRef M);

/* Records, for module Index added for orc-lazy (Jit.h's
 * orc_rt_jit_StubsCallback), which functions got a stub of their own (a
 * function not named here has none) and whether each body is compiled apart
 * (else the module's functions are one object). */
orc_rt_ErrorRef orc_rt_jit_JITDylibs_noteStubs(orc_rt_jit_JITDylibs *D,
                                               unsigned Index,
                                               const char *const *Names,
                                               size_t N, bool BodiesApart);

/* Links the JITDylibs as above: call once every module, archive and the
 * process symbols are added (the generators go last), before any lookup.
 * Reads the -extra-objects and archives again for their symbols. Fails if
 * objects would wait for each other (above). */
orc_rt_ErrorRef orc_rt_jit_JITDylibs_link(orc_rt_jit_JITDylibs *D);

/* After the JIT is freed. */
void orc_rt_jit_JITDylibs_dispose(orc_rt_jit_JITDylibs *D);

#endif
