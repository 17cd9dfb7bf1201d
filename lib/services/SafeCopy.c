/*===- lib/services/SafeCopy.c - Copies that survive bad addresses --------===*/

#include "services/SafeCopy.h"

#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

/* Set once process_vm_* turned out to be unusable here; then plain
 * copies are used. */
static atomic_bool Unavailable;

static bool kernelCopy(void *Dst, const void *Src, size_t N, bool Write,
                       bool *Used) {
  *Used = false;
  if (atomic_load_explicit(&Unavailable, memory_order_relaxed))
    return false;
  struct iovec Local = {Write ? (void *)Src : Dst, N};
  struct iovec Remote = {Write ? Dst : (void *)Src, N};
  size_t Done = 0;
  while (Done < N) {
    Local.iov_base = (char *)(Write ? (void *)Src : Dst) + Done;
    Remote.iov_base = (char *)(Write ? Dst : (void *)Src) + Done;
    Local.iov_len = Remote.iov_len = N - Done;
    ssize_t R = Write ? process_vm_writev(getpid(), &Local, 1, &Remote, 1, 0)
                      : process_vm_readv(getpid(), &Local, 1, &Remote, 1, 0);
    if (R < 0) {
      if (errno == EINTR)
        continue;
      if (errno == ENOSYS || errno == EPERM) {
        atomic_store(&Unavailable, true);
        return false;
      }
      *Used = true;
      return false; /* EFAULT: a bad address */
    }
    if (R == 0) {
      *Used = true;
      return false;
    }
    Done += (size_t)R;
  }
  *Used = true;
  return true;
}

bool orc_rt_internal_safeRead(void *Dst, const void *Src, size_t N) {
  bool Used;
  if (N == 0)
    return true;
  bool OK = kernelCopy(Dst, Src, N, false, &Used);
  if (Used)
    return OK;
  memcpy(Dst, Src, N);
  return true;
}

bool orc_rt_internal_safeWrite(void *Dst, const void *Src, size_t N) {
  bool Used;
  if (N == 0)
    return true;
  bool OK = kernelCopy(Dst, Src, N, true, &Used);
  if (Used)
    return OK;
  memcpy(Dst, Src, N);
  return true;
}

bool orc_rt_internal_safeStrlen(const char *S, size_t Max, size_t *Len) {
  size_t L = 0;
  char Chunk[256];
  while (L < Max) {
    /* Never read past the end of S's page in one go: the next page may be
     * unmapped even though the string ends before it. */
    size_t ToPageEnd = 4096 - ((uintptr_t)(S + L) & 4095);
    size_t N = ToPageEnd < sizeof(Chunk) ? ToPageEnd : sizeof(Chunk);
    if (!orc_rt_internal_safeRead(Chunk, S + L, N))
      return false;
    const char *Nul = memchr(Chunk, 0, N);
    if (Nul) {
      *Len = L + (size_t)(Nul - Chunk);
      return true;
    }
    L += N;
  }
  *Len = Max;
  return true;
}

/* One byte of each page [P, P+N) touches, in one process_vm_readv per
 * batch of pages (one call for any range of up to 64 pages): a partial
 * transfer stops at the first remote iovec that faults. */
bool orc_rt_internal_isReadable(const void *P, size_t N) {
  enum { Batch = 64 };
  uintptr_t At = (uintptr_t)P;
  if (N == 0)
    return true;
  if (At + N < At)
    return false;
  uintptr_t Last = At + N - 1;
  char Sink[Batch];
  struct iovec Remote[Batch];
  while (!atomic_load_explicit(&Unavailable, memory_order_relaxed)) {
    size_t K = 0;
    bool More = true;
    for (; K < Batch && More; ++K) {
      Remote[K] = (struct iovec){(void *)At, 1};
      uintptr_t Next = (At | 4095) + 1;
      More = Next != 0 && Next <= Last;
      At = Next;
    }
    struct iovec Local = {Sink, K};
    ssize_t R = process_vm_readv(getpid(), &Local, 1, Remote, K, 0);
    if (R < 0 && errno == EINTR) {
      At = (uintptr_t)Remote[0].iov_base; /* the same batch again */
      continue;
    }
    if (R < 0 && (errno == ENOSYS || errno == EPERM)) {
      atomic_store(&Unavailable, true);
      break;
    }
    if (R != (ssize_t)K)
      return false; /* EFAULT, or a page of this batch is not readable */
    if (!More)
      return true;
  }
  /* No process_vm_readv here: plain reads, as safeRead falls back to. */
  const char *C = P;
  char B;
  for (size_t Off = 0; Off < N; Off += 4096 - (((uintptr_t)C + Off) & 4095))
    if (!orc_rt_internal_safeRead(&B, C + Off, 1))
      return false;
  return true;
}

bool orc_rt_internal_isExecutable(uint64_t Addr, bool *Known) {
  *Known = false;
  int FD = open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
  if (FD < 0)
    return false;
  /* Lines look like "start-end perms offset dev inode path"; parse them from a
   * fixed-size window that is refilled as lines are consumed. */
  char Buf[4096];
  size_t Have = 0;
  bool Result = false, Eof = false;
  for (;;) {
    if (!Eof && Have < sizeof(Buf)) {
      ssize_t N = read(FD, Buf + Have, sizeof(Buf) - Have);
      if (N < 0 && errno == EINTR)
        continue;
      if (N <= 0)
        Eof = true;
      else
        Have += (size_t)N;
    }
    char *NL = memchr(Buf, '\n', Have);
    if (!NL) {
      if (Eof || Have == sizeof(Buf))
        break; /* done, or a line too long for the window (never for the
                  fields used) */
      continue;
    }
    *NL = 0;
    unsigned long long Start, End;
    char Perms[8];
    if (sscanf(Buf, "%llx-%llx %7s", &Start, &End, Perms) == 3) {
      *Known = true;
      if (Addr >= Start && Addr < End) {
        Result = Perms[2] == 'x';
        break;
      }
    }
    size_t Used = (size_t)(NL - Buf) + 1;
    memmove(Buf, NL + 1, Have - Used);
    Have -= Used;
  }
  close(FD);
  return Result;
}
