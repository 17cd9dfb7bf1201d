/*===- lib/remote/Framing.h - SimpleRemoteEPC message framing -------------===*/
/* Reading and writing whole messages on a file descriptor. Reading is
 * split from the fd by a byte-source callback so the same parser serves
 * fds and fuzzing buffers. */

#ifndef ORC_RT_C_LIB_REMOTE_FRAMING_H
#define ORC_RT_C_LIB_REMOTE_FRAMING_H

#include "orc-rt-c/Error.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum {
  orc_rt_internal_Opc_Setup = 0,
  orc_rt_internal_Opc_Hangup = 1,
  orc_rt_internal_Opc_Result = 2,
  orc_rt_internal_Opc_CallWrapper = 3,
};

#define ORC_RT_MSG_HEADER_SIZE 32

typedef struct {
  uint64_t Opcode, SeqNo, TagAddr;
  char *Payload; /* malloc'd (NULL if empty); owned by the message */
  size_t PayloadSize;
} orc_rt_internal_Message;

/* Reads up to Size bytes into Buf; returns the count (0 = EOF) or -1
 * with errno set. */
typedef long (*orc_rt_internal_ReadFn)(void *Ctx, char *Buf, size_t Size);

typedef enum {
  orc_rt_internal_Read_Message, /* *Msg filled */
  orc_rt_internal_Read_EOF,     /* clean end at a message boundary */
  orc_rt_internal_Read_Error,   /* *Err set: a protocol or I/O error */
} orc_rt_internal_ReadStatus;

/* Reads one message. Opcodes above 3 and sizes below 32 or above MaxSize are
 * errors (with the reference's messages). The payload buffer grows as bytes
 * arrive, so a huge announced size costs nothing until its bytes do. */
orc_rt_internal_ReadStatus
orc_rt_internal_readMessage(orc_rt_internal_ReadFn Read, void *Ctx,
                            uint64_t MaxSize, orc_rt_internal_Message *Msg,
                            orc_rt_ErrorRef *Err);

/* Encodes a header into Out. */
void orc_rt_internal_encodeHeader(char Out[ORC_RT_MSG_HEADER_SIZE],
                                  uint64_t Opcode, uint64_t SeqNo,
                                  uint64_t TagAddr, size_t PayloadSize);

/* Writes a whole message to FD (the caller serialises writers).
 * False on failure. */
bool orc_rt_internal_writeMessage(int FD, uint64_t Opcode, uint64_t SeqNo,
                                  uint64_t TagAddr, const char *Payload,
                                  size_t Size);

#endif
