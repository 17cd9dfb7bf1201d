/*===- lib/remote/Framing.c - SimpleRemoteEPC message framing -------------===*/
/* Header decoding with the reference's error messages, incremental payload
 * reads, and whole-message writes. */

#include "remote/Framing.h"
#include "support/FaultInjection.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

static uint64_t getLE64(const char *P) {
  uint64_t V = 0;
  for (int I = 0; I < 8; ++I)
    V |= (uint64_t)(unsigned char)P[I] << (8 * I);
  return V;
}

static void putLE64(char *P, uint64_t V) {
  for (int I = 0; I < 8; ++I)
    P[I] = (char)(V >> (8 * I));
}

/* Fills Buf completely; returns bytes read (< Size only at EOF) or
 * -1 on error. */
static long readFull(orc_rt_internal_ReadFn Read, void *Ctx, char *Buf,
                     size_t Size) {
  size_t Got = 0;
  while (Got < Size) {
    long N = Read(Ctx, Buf + Got, Size - Got);
    if (N < 0) {
      if (errno == EINTR)
        continue;
      return -1;
    }
    if (N == 0)
      break;
    Got += (size_t)N;
  }
  return (long)Got;
}

orc_rt_internal_ReadStatus
orc_rt_internal_readMessage(orc_rt_internal_ReadFn Read, void *Ctx,
                            uint64_t MaxSize, orc_rt_internal_Message *Msg,
                            orc_rt_ErrorRef *Err) {
  char H[ORC_RT_MSG_HEADER_SIZE];
  memset(Msg, 0, sizeof(*Msg));
  long N = readFull(Read, Ctx, H, sizeof(H));
  if (N == 0)
    return orc_rt_internal_Read_EOF;
  if (N < 0) {
    *Err = orc_rt_Error_createf("read failed: %s", strerror(errno));
    return orc_rt_internal_Read_Error;
  }
  if (N < (long)sizeof(H)) {
    *Err = orc_rt_Error_create("Unexpected end-of-file");
    return orc_rt_internal_Read_Error;
  }
  uint64_t Size = getLE64(H);
  Msg->Opcode = getLE64(H + 8);
  Msg->SeqNo = getLE64(H + 16);
  Msg->TagAddr = getLE64(H + 24);
  if (Size < ORC_RT_MSG_HEADER_SIZE) {
    *Err = orc_rt_Error_create("Message size too small");
    return orc_rt_internal_Read_Error;
  }
  if (Msg->Opcode > orc_rt_internal_Opc_CallWrapper) {
    *Err = orc_rt_Error_create("Unexpected opcode");
    return orc_rt_internal_Read_Error;
  }
  if (Size - ORC_RT_MSG_HEADER_SIZE > MaxSize ||
      Size - ORC_RT_MSG_HEADER_SIZE > SIZE_MAX / 2) {
    *Err = orc_rt_Error_createf("Message size too large (%llu bytes)",
                                (unsigned long long)Size);
    return orc_rt_internal_Read_Error;
  }
  size_t Want = (size_t)(Size - ORC_RT_MSG_HEADER_SIZE), Have = 0, Cap = 0;
  char *Buf = NULL;
  /* Grow with the bytes that actually arrive: at most double what
   * has been read. */
  while (Have < Want) {
    if (Have == Cap) {
      size_t NewCap = Cap ? Cap * 2 : 4096;
      if (NewCap > Want)
        NewCap = Want;
      char *NB = orc_rt_internal_realloc(Buf, NewCap);
      if (!NB) {
        free(Buf);
        *Err = orc_rt_Error_createf("out of memory reading a %zu-byte message",
                                    Want);
        return orc_rt_internal_Read_Error;
      }
      Buf = NB;
      Cap = NewCap;
    }
    long Got = readFull(Read, Ctx, Buf + Have, Cap - Have);
    if (Got < 0) {
      free(Buf);
      *Err = orc_rt_Error_createf("read failed: %s", strerror(errno));
      return orc_rt_internal_Read_Error;
    }
    Have += (size_t)Got;
    if (Have < Cap) {
      free(Buf);
      *Err = orc_rt_Error_create("Unexpected end-of-file");
      return orc_rt_internal_Read_Error;
    }
  }
  Msg->Payload = Buf;
  Msg->PayloadSize = Want;
  return orc_rt_internal_Read_Message;
}

void orc_rt_internal_encodeHeader(char Out[ORC_RT_MSG_HEADER_SIZE],
                                  uint64_t Opcode, uint64_t SeqNo,
                                  uint64_t TagAddr, size_t PayloadSize) {
  putLE64(Out, (uint64_t)PayloadSize + ORC_RT_MSG_HEADER_SIZE);
  putLE64(Out + 8, Opcode);
  putLE64(Out + 16, SeqNo);
  putLE64(Out + 24, TagAddr);
}

/* Writes the vectors completely; false on error (errno set). */
static bool writeAll(int FD, struct iovec *V, int Cnt) {
  while (Cnt > 0) {
    ssize_t N = writev(FD, V, Cnt);
    if (N < 0) {
      if (errno == EINTR)
        continue;
      return false;
    }
    while (Cnt > 0 && (size_t)N >= V->iov_len) {
      N -= (ssize_t)V->iov_len;
      ++V;
      --Cnt;
    }
    if (Cnt > 0) {
      V->iov_base = (char *)V->iov_base + N;
      V->iov_len -= (size_t)N;
    }
  }
  return true;
}

bool orc_rt_internal_writeMessage(int FD, uint64_t Opcode, uint64_t SeqNo,
                                  uint64_t TagAddr, const char *Payload,
                                  size_t Size) {
  char H[ORC_RT_MSG_HEADER_SIZE];
  orc_rt_internal_encodeHeader(H, Opcode, SeqNo, TagAddr, Size);
  struct iovec IOV[2] = {{H, sizeof(H)}, {(void *)Payload, Size}};
  /* A peer that has gone away must not kill the process with SIGPIPE, but the
   * JIT'd program keeps the default disposition (as under the reference
   * executors): block SIGPIPE in this thread for the write only, and discard
   * the one it raised. */
  sigset_t Pipe, Old, Pending;
  sigemptyset(&Pipe);
  sigaddset(&Pipe, SIGPIPE);
  pthread_sigmask(SIG_BLOCK, &Pipe, &Old);
  sigpending(&Pending);
  bool WasPending = sigismember(&Pending, SIGPIPE);
  bool OK = writeAll(FD, IOV, Size ? 2 : 1);
  int Saved = errno;
  if (!OK && Saved == EPIPE && !WasPending) {
    struct timespec Zero = {0, 0};
    while (sigtimedwait(&Pipe, NULL, &Zero) < 0 && errno == EINTR)
      ;
  }
  pthread_sigmask(SIG_SETMASK, &Old, NULL);
  errno = Saved;
  return OK;
}
