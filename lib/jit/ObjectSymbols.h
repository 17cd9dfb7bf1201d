/*===- lib/jit/ObjectSymbols.h - What an object file or archive defines ---===*/
/* The symbols of an ELF object (an -extra-object, an archive's member) and an
 * archive's symbol table, read from their bytes, for the -jd cycle check
 * (JITDylibs.h). LLVM-C's object API (llvm-c/Object.h) names a symbol and its
 * section but not its binding, visibility or type -- a `static` function, a
 * hidden variable and an exported function look alike there -- and it cannot
 * list an archive's members or symbol table; the check needs all of these.
 *
 * Formats: ELF64 little-endian objects (what LLVM 22 links on this host);
 * archives in GNU (`/`, `/SYM64/`, `//` long names), BSD (`__.SYMDEF`,
 * `#1/<len>` names) and Darwin64 (`__.SYMDEF_64`) layouts, regular or thin
 * (`!<thin>`), as LLVM's object::Archive reads them. Input is untrusted: every
 * offset is bounds-checked, nothing is read outside the buffer, and a
 * malformed file reads as "no symbols" (false), never a crash. No LLVM here
 * (unittests/ObjectSymbolsTest.c tests it alone). */

#ifndef ORC_RT_C_LIB_JIT_OBJECTSYMBOLS_H
#define ORC_RT_C_LIB_JIT_OBJECTSYMBOLS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum {
  orc_rt_jit_ObjectSymbol_Defined = 1,  /* else undefined (a reference) */
  orc_rt_jit_ObjectSymbol_Function = 2, /* STT_FUNC or STT_GNU_IFUNC */
  orc_rt_jit_ObjectSymbol_Hidden = 4,   /* STV_HIDDEN or STV_INTERNAL */
  orc_rt_jit_ObjectSymbol_Weak = 8      /* STB_WEAK */
};

/* Calls Sym for each global or weak symbol of the ELF64 little-endian object
 * in Buf, in symbol-table order: its name (Len bytes, not NUL-terminated in
 * the caller's view) and flags above. Local symbols (`static`, sections,
 * files) and nameless ones are skipped. False, with Sym never called, if Buf
 * is not such an object or its section or symbol tables do not fit in it; a
 * symbol whose name lies outside the string table is skipped. */
bool orc_rt_jit_forEachObjectSymbol(const void *Buf, size_t Size,
                                    void (*Sym)(void *Ctx, const char *Name,
                                                size_t Len, unsigned Flags),
                                    void *Ctx);

/* Calls Entry for each entry of the archive's symbol table (what LLVM's
 * archive generator pulls members by), in table order: the symbol's name and
 * the offset in Buf of the header of the member that defines it. False, with
 * Entry never called, if Buf is not an archive or its symbol table is
 * malformed; true without calls for an archive without one (whose members
 * LLVM never pulls). *Thin says whether it is a thin archive. */
bool orc_rt_jit_forEachArchiveSymbol(const void *Buf, size_t Size, bool *Thin,
                                     void (*Entry)(void *Ctx, const char *Name,
                                                   size_t Len, uint64_t Member),
                                     void *Ctx);

/* The member whose header is at offset Member of the archive in Buf: in a
 * regular archive its contents (*Data, *DataSize point into Buf); in a thin
 * one its path as stored (relative to the archive's directory unless it
 * starts with '/'). False if there is no valid member header there. */
bool orc_rt_jit_archiveMember(const void *Buf, size_t Size, uint64_t Member,
                              const char **Data, size_t *DataSize);

#endif
