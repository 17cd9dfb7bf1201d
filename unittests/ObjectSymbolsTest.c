/*===- unittests/ObjectSymbolsTest.c - lib/jit/program/ObjectSymbols.h ----===*/
/* The -jd cycle check reads -extra-objects and archives with these readers:
 * a local or nameless symbol must not count as a definition, the flags must
 * be the symbol table's, an archive's symbol table must name the right
 * member in each layout LLVM reads, and untrusted bytes -- any prefix of a
 * valid file, any byte changed -- must never be read outside the buffer
 * (each input is copied into a buffer of exactly its size, so ASan sees an
 * overrun). The objects and archives are built here byte by byte. */

#include "TestUtil.h"

#include "jit/program/ObjectSymbols.h"

#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*---- Building inputs ----*/

typedef struct {
  unsigned char Bytes[4096];
  size_t Size;
} Buf;

static size_t put(Buf *B, const void *Data, size_t N) {
  size_t At = B->Size;
  assert_true(B->Size + N <= sizeof(B->Bytes));
  memcpy(B->Bytes + B->Size, Data, N);
  B->Size += N;
  return At;
}

static void pad(Buf *B, size_t Align) {
  while (B->Size % Align)
    B->Bytes[B->Size++] = 0;
}

/* The object's one string table (symbol and section names). */
static const char Strings[] = "\0f\0h\0u\0loc\0.text\0.data\0.rela.text\0"
                              ".eh_frame\0.rela.eh_frame\0.debug_info\0"
                              ".rela.debug_info\0.strtab\0.symtab";

static unsigned str(const char *S) {
  for (unsigned I = 1; I < sizeof(Strings); ++I)
    if (!strcmp(Strings + I, S) && Strings[I - 1] == '\0')
      return I;
  fail();
  return 0;
}

static void sym(Buf *B, unsigned Name, unsigned char Bind, unsigned char Type,
                unsigned char Vis, uint16_t Shndx) {
  Elf64_Sym S = {0};
  S.st_name = Name;
  S.st_info = ELF64_ST_INFO(Bind, Type);
  S.st_other = Vis;
  S.st_shndx = Shndx;
  put(B, &S, sizeof(S));
}

static void rela(Buf *B, uint64_t Sym) {
  Elf64_Rela R = {0};
  R.r_info = ELF64_R_INFO(Sym, R_X86_64_64);
  put(B, &R, sizeof(R));
}

/* Sections of the object built below. */
enum {
  SecStrtab = 1,
  SecSymtab,
  SecText,
  SecData,
  SecRelaText,
  SecEHFrame,
  SecRelaEHFrame,
  SecDebug,
  SecRelaDebug,
  NumSecs
};

/* Symbols of the object built below. */
enum { SymLoc = 1, SymDataSection, SymF, SymH, SymU, SymBadName, SymNoName };

/* An ELF64 relocatable object. Symbols: local function "loc" and the
 * section symbol of .data, global function "f" (.text), weak hidden "h"
 * (.data), undefined "u", one named past the string table, one nameless.
 * .text refers to u (twice), .data (its section symbol), h and f; .eh_frame
 * to loc; .debug_info (not allocated) to u. */
static void buildObject(Buf *B) {
  B->Size = 0;
  Elf64_Ehdr E = {0};
  size_t EAt = put(B, &E, sizeof(E));
  size_t StrAt = put(B, Strings, sizeof(Strings));
  pad(B, 8);
  size_t SymAt = B->Size;
  sym(B, 0, STB_LOCAL, STT_NOTYPE, STV_DEFAULT, SHN_UNDEF);
  sym(B, str("loc"), STB_LOCAL, STT_FUNC, STV_DEFAULT, SecText);
  sym(B, 0, STB_LOCAL, STT_SECTION, STV_DEFAULT, SecData);
  sym(B, str("f"), STB_GLOBAL, STT_FUNC, STV_DEFAULT, SecText);
  sym(B, str("h"), STB_WEAK, STT_OBJECT, STV_HIDDEN, SecData);
  sym(B, str("u"), STB_GLOBAL, STT_NOTYPE, STV_DEFAULT, SHN_UNDEF);
  sym(B, 1000, STB_GLOBAL, STT_FUNC, STV_DEFAULT, SecText);
  sym(B, 0, STB_GLOBAL, STT_FUNC, STV_DEFAULT, SecText);
  size_t SymSize = B->Size - SymAt;
  size_t TextAt = put(B, "\xc3\0\0\0\0\0\0\0", 8);
  size_t DataAt = put(B, "\0\0\0\0\0\0\0\0", 8);
  size_t RelaTextAt = B->Size;
  rela(B, SymU), rela(B, SymDataSection), rela(B, SymU), rela(B, SymH);
  rela(B, SymF);
  size_t RelaTextSize = B->Size - RelaTextAt;
  size_t EHAt = put(B, "\0\0\0\0\0\0\0\0", 8);
  size_t RelaEHAt = B->Size;
  rela(B, SymLoc);
  size_t DebugAt = put(B, "\0\0\0\0\0\0\0\0", 8);
  size_t RelaDebugAt = B->Size;
  rela(B, SymU);
  Elf64_Shdr S[NumSecs] = {{0}};
  S[SecStrtab] = (Elf64_Shdr){.sh_name = str(".strtab"),
                              .sh_type = SHT_STRTAB,
                              .sh_offset = StrAt,
                              .sh_size = sizeof(Strings)};
  S[SecSymtab] = (Elf64_Shdr){.sh_name = str(".symtab"),
                              .sh_type = SHT_SYMTAB,
                              .sh_offset = SymAt,
                              .sh_size = SymSize,
                              .sh_link = SecStrtab,
                              .sh_info = SymF,
                              .sh_entsize = sizeof(Elf64_Sym)};
  S[SecText] = (Elf64_Shdr){.sh_name = str(".text"),
                            .sh_type = SHT_PROGBITS,
                            .sh_flags = SHF_ALLOC | SHF_EXECINSTR,
                            .sh_offset = TextAt,
                            .sh_size = 8};
  S[SecData] = (Elf64_Shdr){.sh_name = str(".data"),
                            .sh_type = SHT_PROGBITS,
                            .sh_flags = SHF_ALLOC | SHF_WRITE,
                            .sh_offset = DataAt,
                            .sh_size = 8};
  S[SecRelaText] = (Elf64_Shdr){.sh_name = str(".rela.text"),
                                .sh_type = SHT_RELA,
                                .sh_offset = RelaTextAt,
                                .sh_size = RelaTextSize,
                                .sh_link = SecSymtab,
                                .sh_info = SecText,
                                .sh_entsize = sizeof(Elf64_Rela)};
  S[SecEHFrame] = (Elf64_Shdr){.sh_name = str(".eh_frame"),
                               .sh_type = SHT_X86_64_UNWIND,
                               .sh_flags = SHF_ALLOC,
                               .sh_offset = EHAt,
                               .sh_size = 8};
  S[SecRelaEHFrame] = (Elf64_Shdr){.sh_name = str(".rela.eh_frame"),
                                   .sh_type = SHT_RELA,
                                   .sh_offset = RelaEHAt,
                                   .sh_size = sizeof(Elf64_Rela),
                                   .sh_link = SecSymtab,
                                   .sh_info = SecEHFrame,
                                   .sh_entsize = sizeof(Elf64_Rela)};
  S[SecDebug] = (Elf64_Shdr){.sh_name = str(".debug_info"),
                             .sh_type = SHT_PROGBITS,
                             .sh_offset = DebugAt,
                             .sh_size = 8};
  S[SecRelaDebug] = (Elf64_Shdr){.sh_name = str(".rela.debug_info"),
                                 .sh_type = SHT_RELA,
                                 .sh_offset = RelaDebugAt,
                                 .sh_size = sizeof(Elf64_Rela),
                                 .sh_link = SecSymtab,
                                 .sh_info = SecDebug,
                                 .sh_entsize = sizeof(Elf64_Rela)};
  size_t ShAt = put(B, S, sizeof(S));
  memcpy(E.e_ident, ELFMAG, SELFMAG);
  E.e_ident[EI_CLASS] = ELFCLASS64;
  E.e_ident[EI_DATA] = ELFDATA2LSB;
  E.e_ident[EI_VERSION] = EV_CURRENT;
  E.e_type = ET_REL;
  E.e_machine = EM_X86_64;
  E.e_version = EV_CURRENT;
  E.e_ehsize = sizeof(Elf64_Ehdr);
  E.e_shoff = ShAt;
  E.e_shentsize = sizeof(Elf64_Shdr);
  E.e_shnum = NumSecs;
  E.e_shstrndx = SecStrtab;
  memcpy(B->Bytes + EAt, &E, sizeof(E));
}

/* An ar member header: name padded with spaces, the size, "`\n". */
static size_t header(Buf *B, const char *Name, size_t Size) {
  char H[61];
  snprintf(H, sizeof(H), "%-16s%-12s%-6s%-6s%-8s%-10zu`\n", Name, "0", "0", "0",
           "644", Size);
  return put(B, H, 60);
}

/* Writes V in W bytes, big- or little-endian. */
static void be(unsigned char *P, unsigned W, uint64_t V) {
  for (unsigned I = W; I--; V >>= 8)
    P[I] = (unsigned char)V;
}

static void le(unsigned char *P, unsigned W, uint64_t V) {
  for (unsigned I = 0; I < W; ++I, V >>= 8)
    P[I] = (unsigned char)V;
}

enum { Gnu, Gnu64, Thin, Bsd, Darwin64, NoTable, NumKinds };

/* An archive of two members, "a-very-long-member-name.o" (data "AAAA",
 * defines f and x) and "b.o" (data "BBB", defines g), in one of the layouts
 * above. *MemberA, *MemberB: their headers' offsets. */
static void buildArchive(Buf *B, int Kind, uint32_t *MemberA,
                         uint32_t *MemberB) {
  B->Size = 0;
  put(B, Kind == Thin ? "!<thin>\n" : "!<arch>\n", 8);
  static const char Long[] = "a-very-long-member-name.o/\n";
  bool GnuLike = Kind == Gnu || Kind == Gnu64 || Kind == Thin;
  bool BsdLike = Kind == Bsd || Kind == Darwin64;
  unsigned W = Kind == Gnu64 || Kind == Darwin64 ? 8 : 4;
  size_t TableAt = 0;
  unsigned char Table[128] = {0};
  size_t TableSize = 0;
  if (GnuLike) {
    /* count, 3 offsets (patched below), "f\0x\0g\0" */
    TableSize = W + 3 * W + 6;
    be(Table, W, 3);
    memcpy(Table + 4 * W, "f\0x\0g\0", 6);
    header(B, W == 8 ? "/SYM64/" : "/", TableSize);
    TableAt = put(B, Table, TableSize);
    pad(B, 2);
    header(B, "//", sizeof(Long) - 1);
    put(B, Long, sizeof(Long) - 1);
    pad(B, 2);
  } else if (BsdLike) {
    /* the pairs' byte count, 3 pairs (string offset, member offset: patched
     * below), the strings' byte count, the strings */
    TableSize = W + 3 * 2 * W + W + 8;
    le(Table, W, 3 * 2 * W);
    le(Table + W, W, 0), le(Table + 3 * W, W, 2), le(Table + 5 * W, W, 4);
    le(Table + 7 * W, W, 8);
    memcpy(Table + 8 * W, "f\0x\0g\0\0\0", 8);
    header(B, "#1/16", 16 + TableSize);
    put(B, W == 8 ? "__.SYMDEF_64\0\0\0\0" : "__.SYMDEF\0\0\0\0\0\0\0", 16);
    TableAt = put(B, Table, TableSize);
    pad(B, 2);
  }
  if (BsdLike) {
    *MemberA = (uint32_t)header(B, "#1/28", 28 + 4);
    put(B, "a-very-long-member-name.o\0\0\0", 28);
  } else if (Kind == NoTable) {
    *MemberA = (uint32_t)header(B, "a.o/", 4);
  } else {
    *MemberA = (uint32_t)header(B, "/0", 4);
  }
  bool Contents = Kind != Thin;
  if (Contents)
    put(B, "AAAA", 4);
  *MemberB = (uint32_t)header(B, BsdLike ? "b.o" : "b.o/", 3);
  if (Contents)
    put(B, "BBB", 3), pad(B, 2);
  /* The table's member offsets: f, x in A; g in B. */
  uint32_t Of[3] = {*MemberA, *MemberA, *MemberB};
  for (unsigned K = 0; K < 3; ++K)
    if (GnuLike)
      be(B->Bytes + TableAt + W + K * W, W, Of[K]);
    else if (BsdLike)
      le(B->Bytes + TableAt + W + K * 2 * W + W, W, Of[K]);
}

/* Copies N bytes of B into a buffer of exactly that size. */
static unsigned char *exact(const unsigned char *B, size_t N) {
  unsigned char *P = malloc(N ? N : 1);
  assert_non_null(P);
  memcpy(P, B, N);
  return P;
}

/*---- Recording what the readers report ----*/

typedef struct {
  char Names[16][32];
  unsigned Flags[16];
  uint64_t Members[16];
  size_t From[16], To[16];
  size_t N;
} Seen;

static void seeName(Seen *S, const char *Name, size_t Len) {
  assert_true(S->N < 16 && Len < 32);
  memcpy(S->Names[S->N], Name, Len);
  S->Names[S->N][Len] = '\0';
}

static void seeSymbol(void *Ctx, const char *Name, size_t Len, unsigned Flags,
                      size_t Section) {
  Seen *S = Ctx;
  seeName(S, Name, Len);
  S->Flags[S->N] = Flags;
  S->To[S->N++] = Section;
}

static void seeReference(void *Ctx, size_t From, const char *Name, size_t Len,
                         unsigned Flags, size_t To) {
  Seen *S = (Seen *)Ctx + 1; /* references go to the second record */
  seeName(S, Name, Len);
  S->Flags[S->N] = Flags;
  S->From[S->N] = From;
  S->To[S->N++] = To;
}

static void seeEntry(void *Ctx, const char *Name, size_t Len, uint64_t Member) {
  Seen *S = Ctx;
  seeName(S, Name, Len);
  S->Members[S->N++] = Member;
}

static void ignoreSymbol(void *Ctx, const char *Name, size_t Len,
                         unsigned Flags, size_t Section) {
  (void)Flags;
  assert_true(Len > 0);
  assert_true(strnlen(Name, Len) == Len);
  assert_true(Section < *(size_t *)Ctx);
}

static void ignoreReference(void *Ctx, size_t From, const char *Name,
                            size_t Len, unsigned Flags, size_t To) {
  (void)Flags;
  assert_true(strnlen(Name, Len) == Len);
  assert_true(From > 0 && From < *(size_t *)Ctx && To < *(size_t *)Ctx);
}

static const orc_rt_jit_ObjectVisitor Ignore = {ignoreSymbol, ignoreReference};

/* Reads P; the callbacks check what they get against the section count,
 * which the reader sets before its first call. */
static bool readIgnoring(const unsigned char *P, size_t N) {
  size_t NumSections = 0;
  return orc_rt_jit_readObject(P, N, &Ignore, &NumSections, &NumSections);
}

static void ignoreEntry(void *Ctx, const char *Name, size_t Len,
                        uint64_t Member) {
  (void)Ctx, (void)Member;
  assert_true(strnlen(Name, Len) == Len);
}

/*---- Objects ----*/

static void objectSymbolsAndReferences(void **State) {
  (void)State;
  Buf B;
  buildObject(&B);
  unsigned char *P = exact(B.Bytes, B.Size);
  Seen S[2];
  memset(S, 0, sizeof(S));
  static const orc_rt_jit_ObjectVisitor V = {seeSymbol, seeReference};
  size_t NumSections = 0;
  assert_true(orc_rt_jit_readObject(P, B.Size, &V, S, &NumSections));
  assert_int_equal(NumSections, NumSecs);
  /* Not "loc" nor .data's symbol (local), nor those without a name. */
  enum {
    Defined = orc_rt_jit_ObjectSymbol_Defined,
    Function = orc_rt_jit_ObjectSymbol_Function,
    Hidden = orc_rt_jit_ObjectSymbol_Hidden,
    Weak = orc_rt_jit_ObjectSymbol_Weak,
    Local = orc_rt_jit_ObjectSymbol_Local
  };
  assert_int_equal(S[0].N, 3);
  assert_string_equal(S[0].Names[0], "f");
  assert_int_equal(S[0].Flags[0], Defined | Function);
  assert_int_equal(S[0].To[0], SecText);
  assert_string_equal(S[0].Names[1], "h");
  assert_int_equal(S[0].Flags[1], Defined | Hidden | Weak);
  assert_int_equal(S[0].To[1], SecData);
  assert_string_equal(S[0].Names[2], "u");
  assert_int_equal(S[0].Flags[2], 0);
  assert_int_equal(S[0].To[2], 0);
  /* .text's references, u once; .eh_frame's, and back from .text; none
   * from .debug_info. */
  const Seen *R = &S[1];
  assert_int_equal(R->N, 6);
  assert_string_equal(R->Names[0], "u");
  assert_int_equal(R->From[0], SecText);
  assert_int_equal(R->To[0], 0);
  assert_int_equal(R->Flags[0], 0);
  assert_string_equal(R->Names[1], "");
  assert_int_equal(R->Flags[1], Defined | Local);
  assert_int_equal(R->From[1], SecText);
  assert_int_equal(R->To[1], SecData);
  assert_string_equal(R->Names[2], "h");
  assert_int_equal(R->To[2], SecData);
  assert_int_equal(R->Flags[2], Defined | Hidden | Weak);
  assert_string_equal(R->Names[3], "f");
  assert_int_equal(R->From[3], SecText);
  assert_int_equal(R->To[3], SecText);
  assert_string_equal(R->Names[4], "loc");
  assert_int_equal(R->From[4], SecEHFrame);
  assert_int_equal(R->To[4], SecText);
  assert_int_equal(R->Flags[4], Defined | Function | Local);
  assert_string_equal(R->Names[5], "");
  assert_int_equal(R->From[5], SecText);
  assert_int_equal(R->To[5], SecEHFrame);
  free(P);
}

static void notAnObject(void **State) {
  (void)State;
  Buf B;
  static const orc_rt_jit_ObjectVisitor V = {seeSymbol, seeReference};
  Seen S[2];
  memset(S, 0, sizeof(S));
  size_t NumSections = 0;
  buildObject(&B);
  B.Bytes[EI_CLASS] = ELFCLASS32;
  assert_false(orc_rt_jit_readObject(B.Bytes, B.Size, &V, S, &NumSections));
  buildObject(&B);
  B.Bytes[0] = '!';
  assert_false(orc_rt_jit_readObject(B.Bytes, B.Size, &V, S, &NumSections));
  assert_int_equal(S[0].N + S[1].N, 0);
}

static void everyObjectPrefixStaysInside(void **State) {
  (void)State;
  Buf B;
  buildObject(&B);
  for (size_t N = 0; N < B.Size; ++N) {
    unsigned char *P = exact(B.Bytes, N);
    /* The section table is last: no prefix holds it. */
    assert_false(readIgnoring(P, N));
    free(P);
  }
}

static void everyObjectByteChangedStaysInside(void **State) {
  (void)State;
  Buf B;
  buildObject(&B);
  static const unsigned char Values[] = {0x00, 0x01, 0x7f, 0x80, 0xff};
  for (size_t I = 0; I < B.Size; ++I)
    for (size_t V = 0; V < sizeof(Values); ++V) {
      unsigned char *P = exact(B.Bytes, B.Size);
      P[I] = Values[V];
      readIgnoring(P, B.Size);
      free(P);
    }
}

/*---- Archives ----*/

static void checkTable(int Kind) {
  Buf B;
  uint32_t A, Bm;
  buildArchive(&B, Kind, &A, &Bm);
  unsigned char *P = exact(B.Bytes, B.Size);
  Seen S;
  memset(&S, 0, sizeof(S));
  bool IsThin = Kind != Thin; /* each layout must set it */
  assert_true(
      orc_rt_jit_forEachArchiveSymbol(P, B.Size, &IsThin, seeEntry, &S));
  assert_int_equal(IsThin, Kind == Thin);
  assert_int_equal(S.N, 3);
  assert_string_equal(S.Names[0], "f");
  assert_int_equal(S.Members[0], A);
  assert_string_equal(S.Names[1], "x");
  assert_int_equal(S.Members[1], A);
  assert_string_equal(S.Names[2], "g");
  assert_int_equal(S.Members[2], Bm);
  const char *Data;
  size_t Size;
  assert_true(orc_rt_jit_archiveMember(P, B.Size, A, &Data, &Size));
  if (Kind == Thin) { /* the long name, without its "/\n" */
    assert_int_equal(Size, strlen("a-very-long-member-name.o"));
    assert_memory_equal(Data, "a-very-long-member-name.o", Size);
  } else {
    assert_int_equal(Size, 4);
    assert_memory_equal(Data, "AAAA", 4);
  }
  assert_true(orc_rt_jit_archiveMember(P, B.Size, Bm, &Data, &Size));
  if (Kind == Thin) {
    assert_int_equal(Size, 3);
    assert_memory_equal(Data, "b.o", 3);
  } else {
    assert_int_equal(Size, 3);
    assert_memory_equal(Data, "BBB", 3);
  }
  /* Not at a member's header. */
  assert_false(orc_rt_jit_archiveMember(P, B.Size, A + 1, &Data, &Size));
  assert_false(orc_rt_jit_archiveMember(P, B.Size, 0, &Data, &Size));
  assert_false(orc_rt_jit_archiveMember(P, B.Size, B.Size, &Data, &Size));
  free(P);
}

static void gnuArchiveTable(void **State) {
  (void)State;
  checkTable(Gnu);
}

static void thinArchiveTableAndPaths(void **State) {
  (void)State;
  checkTable(Thin);
}

static void gnu64ArchiveTable(void **State) {
  (void)State;
  checkTable(Gnu64);
}

static void bsdArchiveTable(void **State) {
  (void)State;
  checkTable(Bsd);
}

static void darwin64ArchiveTable(void **State) {
  (void)State;
  checkTable(Darwin64);
}

static void archiveWithoutTableHasNoEntries(void **State) {
  (void)State;
  Buf B;
  uint32_t A, Bm;
  buildArchive(&B, NoTable, &A, &Bm);
  Seen S = {0};
  bool Thin;
  assert_true(
      orc_rt_jit_forEachArchiveSymbol(B.Bytes, B.Size, &Thin, seeEntry, &S));
  assert_int_equal(S.N, 0);
  assert_true(
      orc_rt_jit_forEachArchiveSymbol("!<arch>\n", 8, &Thin, seeEntry, &S));
  assert_false(
      orc_rt_jit_forEachArchiveSymbol("!<arch", 6, &Thin, seeEntry, &S));
  buildObject(&B);
  assert_false(
      orc_rt_jit_forEachArchiveSymbol(B.Bytes, B.Size, &Thin, seeEntry, &S));
  assert_int_equal(S.N, 0);
}

static void readArchive(const unsigned char *P, size_t N) {
  bool Thin = false;
  orc_rt_jit_forEachArchiveSymbol(P, N, &Thin, ignoreEntry, NULL);
  /* Every offset a member could start at: contents (or a thin member's
   * path) inside the buffer. */
  for (uint64_t Off = 0; Off <= N + 1; ++Off) {
    const char *Data;
    size_t Size;
    if (orc_rt_jit_archiveMember(P, N, Off, &Data, &Size))
      assert_true(Data >= (const char *)P && Size <= N &&
                  Data + Size <= (const char *)P + N);
  }
}

static void everyArchivePrefixStaysInside(void **State) {
  (void)State;
  for (int Kind = Gnu; Kind < NumKinds; ++Kind) {
    Buf B;
    uint32_t A, Bm;
    buildArchive(&B, Kind, &A, &Bm);
    for (size_t N = 0; N <= B.Size; ++N) {
      unsigned char *P = exact(B.Bytes, N);
      readArchive(P, N);
      free(P);
    }
  }
}

static void everyArchiveByteChangedStaysInside(void **State) {
  (void)State;
  static const unsigned char Values[] = {0x00, ' ', '/', '9', 0xff};
  for (int Kind = Gnu; Kind < NumKinds; ++Kind) {
    Buf B;
    uint32_t A, Bm;
    buildArchive(&B, Kind, &A, &Bm);
    for (size_t I = 0; I < B.Size; ++I)
      for (size_t V = 0; V < sizeof(Values); ++V) {
        unsigned char *P = exact(B.Bytes, B.Size);
        P[I] = Values[V];
        readArchive(P, B.Size);
        free(P);
      }
  }
}

int main(void) {
  const struct CMUnitTest Tests[] = {
      cmocka_unit_test(objectSymbolsAndReferences),
      cmocka_unit_test(notAnObject),
      cmocka_unit_test(everyObjectPrefixStaysInside),
      cmocka_unit_test(everyObjectByteChangedStaysInside),
      cmocka_unit_test(gnuArchiveTable),
      cmocka_unit_test(thinArchiveTableAndPaths),
      cmocka_unit_test(gnu64ArchiveTable),
      cmocka_unit_test(bsdArchiveTable),
      cmocka_unit_test(darwin64ArchiveTable),
      cmocka_unit_test(archiveWithoutTableHasNoEntries),
      cmocka_unit_test(everyArchivePrefixStaysInside),
      cmocka_unit_test(everyArchiveByteChangedStaysInside),
  };
  return cmocka_run_group_tests(Tests, NULL, NULL);
}
