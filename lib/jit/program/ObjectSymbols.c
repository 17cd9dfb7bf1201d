/*===- lib/jit/program/ObjectSymbols.c - What an object or archive defines ===*/
/* See ObjectSymbols.h. Every read goes through readAt (bounds-checked,
 * unaligned: an archive's members are only 2-byte aligned). */

#include "jit/program/ObjectSymbols.h"

#include <elf.h>
#include <stdlib.h>
#include <string.h>

static bool readAt(const unsigned char *B, size_t Size, uint64_t Off, void *Out,
                   size_t N) {
  if (Off > Size || N > Size - Off)
    return false;
  memcpy(Out, B + Off, N);
  return true;
}

/* Whether [Off, Off + N) lies in the buffer. */
static bool fits(size_t Size, uint64_t Off, uint64_t N) {
  return Off <= Size && N <= Size - Off;
}

/*---- ELF ----*/

static bool hostIsLittleEndian(void) {
  const uint16_t One = 1;
  unsigned char First;
  memcpy(&First, &One, 1);
  return First == 1;
}

/* The section header table: where it is and how many entries (an object
 * with more than SHN_LORESERVE sections keeps the count in entry 0). */
static bool sectionTable(const unsigned char *B, size_t Size,
                         const Elf64_Ehdr *E, uint64_t *Num) {
  if (!E->e_shoff || E->e_shentsize != sizeof(Elf64_Shdr))
    return false;
  *Num = E->e_shnum;
  if (!*Num) {
    Elf64_Shdr First;
    if (!readAt(B, Size, E->e_shoff, &First, sizeof(First)))
      return false;
    *Num = First.sh_size;
  }
  return *Num && fits(Size, E->e_shoff, 0) &&
         *Num <= (Size - E->e_shoff) / sizeof(Elf64_Shdr);
}

/* A validated object: its section table and symbol table. */
typedef struct {
  const unsigned char *B;
  size_t Size;
  uint64_t ShOff, NumSections;
  uint64_t SymIndex; /* the symbol table's section */
  Elf64_Shdr Symtab, Strtab;
  bool HaveShndx; /* SHT_SYMTAB_SHNDX: sections of symbols past SHN_LORESERVE */
  Elf64_Shdr Shndx;
  uint64_t NumSyms;
} Object;

static void section(const Object *O, uint64_t I, Elf64_Shdr *S) {
  readAt(O->B, O->Size, O->ShOff + I * sizeof(Elf64_Shdr), S, sizeof(*S));
}

/* Symbol K: its name (Len 0 if none or not inside the string table), its
 * flags and the section that defines it (0: undefined, absolute, common). */
static void symbolAt(const Object *O, uint64_t K, const char **Name,
                     size_t *Len, unsigned *Flags, size_t *Section) {
  Elf64_Sym S;
  readAt(O->B, O->Size, O->Symtab.sh_offset + K * sizeof(Elf64_Sym), &S,
         sizeof(S));
  *Name = "";
  *Len = 0;
  if (S.st_name < O->Strtab.sh_size) {
    const char *N = (const char *)O->B + O->Strtab.sh_offset + S.st_name;
    size_t Room = (size_t)(O->Strtab.sh_size - S.st_name);
    size_t L = strnlen(N, Room);
    if (L < Room)
      *Name = N, *Len = L;
  }
  unsigned char Bind = ELF64_ST_BIND(S.st_info);
  unsigned char Type = ELF64_ST_TYPE(S.st_info);
  unsigned char Vis = ELF64_ST_VISIBILITY(S.st_other);
  *Flags = 0;
  if (S.st_shndx != SHN_UNDEF)
    *Flags |= orc_rt_jit_ObjectSymbol_Defined;
  if (Type == STT_FUNC || Type == STT_GNU_IFUNC)
    *Flags |= orc_rt_jit_ObjectSymbol_Function;
  if (Vis == STV_HIDDEN || Vis == STV_INTERNAL)
    *Flags |= orc_rt_jit_ObjectSymbol_Hidden;
  if (Bind == STB_WEAK)
    *Flags |= orc_rt_jit_ObjectSymbol_Weak;
  if (Bind != STB_GLOBAL && Bind != STB_WEAK && Bind != STB_GNU_UNIQUE)
    *Flags |= orc_rt_jit_ObjectSymbol_Local;
  uint64_t Sec = S.st_shndx;
  if (Sec == SHN_XINDEX) {
    uint32_t X = 0;
    if (O->HaveShndx && K < O->Shndx.sh_size / 4)
      readAt(O->B, O->Size, O->Shndx.sh_offset + K * 4, &X, 4);
    Sec = X;
  } else if (Sec >= SHN_LORESERVE) {
    Sec = 0; /* absolute, common: in no section of the file */
  }
  *Section = Sec < O->NumSections ? (size_t)Sec : 0;
}

static bool openObject(const void *Buf, size_t Size, Object *O) {
  memset(O, 0, sizeof(*O));
  O->B = Buf;
  O->Size = Size;
  Elf64_Ehdr E;
  if (!hostIsLittleEndian() || !readAt(O->B, Size, 0, &E, sizeof(E)) ||
      memcmp(E.e_ident, ELFMAG, SELFMAG) != 0 ||
      E.e_ident[EI_CLASS] != ELFCLASS64 || E.e_ident[EI_DATA] != ELFDATA2LSB ||
      !sectionTable(O->B, Size, &E, &O->NumSections))
    return false;
  O->ShOff = E.e_shoff;
  /* The (first) symbol table, its string table, its extended indices. */
  for (O->SymIndex = 0; O->SymIndex < O->NumSections; ++O->SymIndex) {
    section(O, O->SymIndex, &O->Symtab);
    if (O->Symtab.sh_type == SHT_SYMTAB)
      break;
  }
  if (O->SymIndex == O->NumSections)
    return true; /* no symbols */
  if (O->Symtab.sh_entsize != sizeof(Elf64_Sym) ||
      !fits(Size, O->Symtab.sh_offset, O->Symtab.sh_size) ||
      O->Symtab.sh_link >= O->NumSections)
    return false;
  section(O, O->Symtab.sh_link, &O->Strtab);
  if (!fits(Size, O->Strtab.sh_offset, O->Strtab.sh_size))
    return false;
  for (uint64_t I = 0; I < O->NumSections && !O->HaveShndx; ++I) {
    section(O, I, &O->Shndx);
    O->HaveShndx = O->Shndx.sh_type == SHT_SYMTAB_SHNDX &&
                   O->Shndx.sh_link == O->SymIndex &&
                   fits(Size, O->Shndx.sh_offset, O->Shndx.sh_size);
  }
  O->NumSyms = O->Symtab.sh_size / sizeof(Elf64_Sym);
  return true;
}

/* Whether section I is .eh_frame (by its name in the section-name table). */
static bool isEHFrame(const Object *O, const Elf64_Ehdr *E, uint64_t I) {
  uint64_t NamesAt = E->e_shstrndx;
  if (NamesAt == SHN_XINDEX) {
    Elf64_Shdr First;
    section(O, 0, &First);
    NamesAt = First.sh_link;
  }
  if (NamesAt >= O->NumSections)
    return false;
  Elf64_Shdr Names, S;
  section(O, NamesAt, &Names);
  section(O, I, &S);
  static const char Want[] = ".eh_frame";
  return fits(O->Size, Names.sh_offset, Names.sh_size) &&
         S.sh_name < Names.sh_size &&
         Names.sh_size - S.sh_name >= sizeof(Want) &&
         !memcmp(O->B + Names.sh_offset + S.sh_name, Want, sizeof(Want));
}

/* The relocations of relocation section R (of an allocated section), each
 * reported once per symbol. */
static void references(const Object *O, const Elf64_Ehdr *E,
                       const Elf64_Shdr *R, const orc_rt_jit_ObjectVisitor *V,
                       void *Ctx, uint64_t *LastFrom, unsigned char *EHSeen) {
  size_t EntSize =
      R->sh_type == SHT_RELA ? sizeof(Elf64_Rela) : sizeof(Elf64_Rel);
  Elf64_Shdr Target;
  if (R->sh_entsize != EntSize || R->sh_link != O->SymIndex ||
      R->sh_info == 0 || R->sh_info >= O->NumSections ||
      !fits(O->Size, R->sh_offset, R->sh_size))
    return;
  section(O, R->sh_info, &Target);
  if (!(Target.sh_flags & SHF_ALLOC))
    return; /* debug information: JITLink does not link it */
  size_t From = (size_t)R->sh_info;
  bool EH = isEHFrame(O, E, From);
  for (uint64_t Off = 0; Off + EntSize <= R->sh_size; Off += EntSize) {
    Elf64_Rel Rel; /* r_offset, r_info: the start of both layouts */
    readAt(O->B, O->Size, R->sh_offset + Off, &Rel, sizeof(Rel));
    uint64_t K = ELF64_R_SYM(Rel.r_info);
    if (!K || K >= O->NumSyms)
      continue;
    if (LastFrom) {
      if (LastFrom[K] == From)
        continue;
      LastFrom[K] = From;
    }
    const char *Name;
    size_t Len, To;
    unsigned Flags;
    symbolAt(O, K, &Name, &Len, &Flags, &To);
    V->Reference(Ctx, From, Name, Len, Flags, To);
    /* JITLink keeps an FDE alive from the code it describes. */
    if (EH && To && To != From && (!EHSeen || !EHSeen[To])) {
      if (EHSeen)
        EHSeen[To] = 1;
      V->Reference(Ctx, To, "", 0, orc_rt_jit_ObjectSymbol_Local, From);
    }
  }
}

bool orc_rt_jit_readObject(const void *Buf, size_t Size,
                           const orc_rt_jit_ObjectVisitor *V, void *Ctx,
                           size_t *NumSections) {
  Object O;
  if (!openObject(Buf, Size, &O))
    return false;
  *NumSections = (size_t)O.NumSections;
  Elf64_Ehdr E;
  readAt(O.B, Size, 0, &E, sizeof(E));
  for (uint64_t K = 1; K < O.NumSyms; ++K) { /* entry 0 is the null symbol */
    const char *Name;
    size_t Len, Section;
    unsigned Flags;
    symbolAt(&O, K, &Name, &Len, &Flags, &Section);
    if (Len && !(Flags & orc_rt_jit_ObjectSymbol_Local))
      V->Symbol(Ctx, Name, Len, Flags, Section);
  }
  if (!V->Reference || !O.NumSyms)
    return true;
  /* Without memory for these, references repeat: the same answers. */
  uint64_t *LastFrom = malloc((size_t)O.NumSyms * sizeof(*LastFrom));
  unsigned char *EHSeen = calloc((size_t)O.NumSections, 1);
  if (LastFrom)
    memset(LastFrom, 0xff, (size_t)O.NumSyms * sizeof(*LastFrom));
  for (uint64_t I = 0; I < O.NumSections; ++I) {
    Elf64_Shdr R;
    section(&O, I, &R);
    if (R.sh_type == SHT_RELA || R.sh_type == SHT_REL)
      references(&O, &E, &R, V, Ctx, LastFrom, EHSeen);
  }
  free(LastFrom);
  free(EHSeen);
  return true;
}

/*---- Archives ----*/

enum { HeaderSize = 60, MagicSize = 8 };

/* A member: its name field (trailing spaces dropped), where its contents
 * start and how long they are, as its header says (for a thin archive's
 * regular member, the file's: the contents are not in the archive). */
typedef struct {
  const char *Name;
  size_t NameLen;
  uint64_t Data, Size;
} Member;

static bool parseDecimal(const char *F, size_t N, uint64_t *Out) {
  size_t I = 0;
  uint64_t V = 0;
  for (; I < N && F[I] >= '0' && F[I] <= '9'; ++I) {
    if (V > (UINT64_MAX - 9) / 10)
      return false;
    V = V * 10 + (uint64_t)(F[I] - '0');
  }
  if (!I)
    return false;
  for (; I < N; ++I)
    if (F[I] != ' ')
      return false;
  *Out = V;
  return true;
}

static bool memberAt(const unsigned char *B, size_t Size, uint64_t Off,
                     Member *M) {
  if (!fits(Size, Off, HeaderSize))
    return false;
  const char *H = (const char *)B + Off;
  if (H[58] != '`' || H[59] != '\n' || !parseDecimal(H + 48, 10, &M->Size))
    return false;
  M->Name = H;
  M->NameLen = 16;
  while (M->NameLen && M->Name[M->NameLen - 1] == ' ')
    --M->NameLen;
  M->Data = Off + HeaderSize;
  /* BSD: "#1/<len>", the name follows the header, counted in the size. */
  uint64_t Len;
  if (M->NameLen > 3 && !memcmp(M->Name, "#1/", 3) &&
      parseDecimal(M->Name + 3, M->NameLen - 3, &Len)) {
    if (Len > M->Size || !fits(Size, M->Data, Len))
      return false;
    M->Name = (const char *)B + M->Data;
    M->NameLen = strnlen(M->Name, (size_t)Len);
    M->Data += Len;
    M->Size -= Len;
  }
  return true;
}

static bool named(const Member *M, const char *Name) {
  return M->NameLen == strlen(Name) && !memcmp(M->Name, Name, M->NameLen);
}

/* The header after M's (contents padded to an even offset). */
static uint64_t next(const Member *M) {
  uint64_t End = M->Data + M->Size;
  return End + (End & 1);
}

static uint64_t be(const unsigned char *P, unsigned N) {
  uint64_t V = 0;
  for (unsigned I = 0; I < N; ++I)
    V = V << 8 | P[I];
  return V;
}

static uint64_t le(const unsigned char *P, unsigned N) {
  uint64_t V = 0;
  for (unsigned I = N; I--;)
    V = V << 8 | P[I];
  return V;
}

static bool isThin(const unsigned char *B, size_t Size, bool *Thin) {
  if (Size < MagicSize)
    return false;
  *Thin = !memcmp(B, "!<thin>\n", MagicSize);
  return *Thin || !memcmp(B, "!<arch>\n", MagicSize);
}

typedef void EntryFn(void *Ctx, const char *Name, size_t Len, uint64_t Member);

/* GNU: a big-endian count, as many member offsets, then as many names. With
 * Entry NULL, only checks. */
static bool gnuTable(const unsigned char *T, uint64_t Size, unsigned W,
                     EntryFn *Entry, void *Ctx) {
  if (Size < W)
    return false;
  uint64_t Count = be(T, W);
  if (Count > (Size - W) / W)
    return false;
  uint64_t Str = W + Count * W;
  for (uint64_t I = 0; I < Count; ++I) {
    if (Str >= Size)
      return false;
    const char *Name = (const char *)T + Str;
    size_t Len = strnlen(Name, (size_t)(Size - Str));
    if (Len == Size - Str)
      return false;
    if (Entry)
      Entry(Ctx, Name, Len, be(T + W + I * W, W));
    Str += Len + 1;
  }
  return true;
}

/* BSD and Darwin64: a little-endian byte count of (string offset, member
 * offset) pairs, the pairs, the string table's byte count, the strings. */
static bool bsdTable(const unsigned char *T, uint64_t Size, unsigned W,
                     EntryFn *Entry, void *Ctx) {
  if (Size < W)
    return false;
  uint64_t Bytes = le(T, W);
  if (Bytes > Size - W || Size - W - Bytes < W)
    return false;
  uint64_t Count = Bytes / (2 * W);
  uint64_t StrBase = W + Bytes + W;
  uint64_t StrSize = le(T + W + Bytes, W);
  if (StrSize > Size - StrBase)
    return false;
  for (uint64_t I = 0; I < Count; ++I) {
    const unsigned char *Pair = T + W + I * 2 * W;
    uint64_t Strx = le(Pair, W);
    if (Strx >= StrSize)
      return false;
    const char *Name = (const char *)T + StrBase + Strx;
    size_t Len = strnlen(Name, (size_t)(StrSize - Strx));
    if (Len == StrSize - Strx)
      return false;
    if (Entry)
      Entry(Ctx, Name, Len, le(Pair + W, W));
  }
  return true;
}

bool orc_rt_jit_forEachArchiveSymbol(const void *Buf, size_t Size, bool *Thin,
                                     EntryFn *Entry, void *Ctx) {
  const unsigned char *B = Buf;
  if (!isThin(B, Size, Thin))
    return false;
  if (Size == MagicSize)
    return true; /* empty */
  Member M;
  if (!memberAt(B, Size, MagicSize, &M))
    return false;
  bool (*Table)(const unsigned char *, uint64_t, unsigned, EntryFn *, void *);
  unsigned W;
  if (named(&M, "/"))
    Table = gnuTable, W = 4;
  else if (named(&M, "/SYM64/"))
    Table = gnuTable, W = 8;
  else if (named(&M, "__.SYMDEF") || named(&M, "__.SYMDEF SORTED"))
    Table = bsdTable, W = 4;
  else if (named(&M, "__.SYMDEF_64") || named(&M, "__.SYMDEF_64 SORTED"))
    Table = bsdTable, W = 8;
  else
    return true; /* no symbol table: LLVM pulls no member */
  if (!fits(Size, M.Data, M.Size))
    return false;
  const unsigned char *T = B + M.Data;
  if (!Table(T, M.Size, W, NULL, NULL))
    return false;
  Table(T, M.Size, W, Entry, Ctx);
  return true;
}

/* A GNU long name "/<offset>": the name at that offset of the "//" member,
 * which follows the symbol table, ending at "/\n". */
static bool longName(const unsigned char *B, size_t Size, Member *M) {
  uint64_t At;
  if (M->NameLen < 2 || M->Name[0] != '/' ||
      !parseDecimal(M->Name + 1, M->NameLen - 1, &At))
    return true; /* not a long name */
  Member S;
  uint64_t Off = MagicSize;
  for (int I = 0; I < 2; ++I) { /* "/" or "/SYM64/", then "//" */
    if (!memberAt(B, Size, Off, &S) || !fits(Size, S.Data, S.Size))
      return false;
    if (named(&S, "//"))
      break;
    if (!named(&S, "/") && !named(&S, "/SYM64/"))
      return false;
    Off = next(&S);
  }
  if (!named(&S, "//") || At >= S.Size)
    return false;
  const char *Name = (const char *)B + S.Data + At;
  size_t Room = (size_t)(S.Size - At), Len = 0;
  while (Len < Room && Name[Len] != '\n' && Name[Len] != '\0')
    ++Len;
  if (Len && Name[Len - 1] == '/')
    --Len;
  M->Name = Name;
  M->NameLen = Len;
  return Len != 0;
}

bool orc_rt_jit_archiveMember(const void *Buf, size_t Size, uint64_t Off,
                              const char **Data, size_t *DataSize) {
  const unsigned char *B = Buf;
  bool Thin;
  Member M;
  if (!isThin(B, Size, &Thin) || Off < MagicSize || !memberAt(B, Size, Off, &M))
    return false;
  if (!Thin) {
    if (!fits(Size, M.Data, M.Size))
      return false;
    *Data = (const char *)B + M.Data;
    *DataSize = (size_t)M.Size;
    return true;
  }
  /* Thin: the path, a long name or a short one ending in '/'. */
  if (!longName(B, Size, &M))
    return false;
  if (M.NameLen && M.Name[M.NameLen - 1] == '/')
    --M.NameLen;
  *Data = M.Name;
  *DataSize = M.NameLen;
  return M.NameLen != 0;
}
