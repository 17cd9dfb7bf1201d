/*===- lib/jit/program/ObjectSymbols.h - What an object or archive defines ===*/
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
  orc_rt_jit_ObjectSymbol_Weak = 8,     /* STB_WEAK */
  orc_rt_jit_ObjectSymbol_Local = 16    /* STB_LOCAL: seen by its file only */
};

/* What an object says. JITLink links an object as blocks -- here, its
 * sections -- and a symbol is ready once its section and every section it
 * refers to (through relocations, and from code to its .eh_frame entry) is;
 * so the cycle check needs each symbol's section and each section's
 * references. Section indices are the file's (1 .. NumSections - 1); 0 means
 * none. */
typedef struct {
  /* Each global or weak symbol with a name, in symbol-table order: its
   * flags and the section that defines it (0: undefined, or in no section:
   * absolute, common). */
  void (*Symbol)(void *Ctx, const char *Name, size_t Len, unsigned Flags,
                 size_t Section);
  /* Allocated section From refers to a symbol (a relocation; once per
   * section and symbol): its name (Len 0 if none), flags and defining
   * section To (0: none). And from each section .eh_frame describes to
   * .eh_frame (Name empty, Flags Local), as JITLink keeps the entry alive
   * from the code. May be NULL. */
  void (*Reference)(void *Ctx, size_t From, const char *Name, size_t Len,
                    unsigned Flags, size_t To);
} orc_rt_jit_ObjectVisitor;

/* Reads the ELF64 little-endian object in Buf: *NumSections, then V's
 * calls. False, with no call, if Buf is not such an object or its section
 * or symbol tables do not fit in it; a symbol whose name lies outside the
 * string table has none, a relocation section that does not fit is
 * skipped. Allocates a little (without it, references may repeat). */
bool orc_rt_jit_readObject(const void *Buf, size_t Size,
                           const orc_rt_jit_ObjectVisitor *V, void *Ctx,
                           size_t *NumSections);

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
