/*===- fuzz/SPSFuzzer.c - libFuzzer target: SPS decoding alone ------------===*/
/*
 * Feeds arbitrary bytes to every SPS decoder the executor uses, with no
 * framing and no wrapper behind it, and checks the reader's contract (not only
 * "does not crash"):
 *
 *  1. A reader script: the first input byte picks a seed, then each following
 *     byte picks a read operation (every orc_rt_SPSReader_* entry point,
 *     readCount with each element size the services use) applied to the rest of
 *     the input. After every operation: Data + Remaining stay inside the input,
 *     Data advances by exactly what was consumed, a failure is sticky, every
 * view (readRaw, readBytes) lies inside the input, and a successful readCount
 *     guarantees N * MinElemSize bytes remain.
 *  2. The structured decoders of the services, run on the whole input:
 *     orc_rt_internal_readActions (AllocActionCallPair lists: the real code),
 *     orc_rt_SPS_takeErrorResult on an in-band copy of the input, and
 *     readError / readExpectedHead.
 *  3. A round trip: the input, read as a list of typed values, is encoded with
 *     the SPS writer and decoded again; every value must come back unchanged.
 *
 * A violated contract calls __builtin_trap(), which libFuzzer reports as a
 * crash with the input saved.
 */

#include "orc-rt-c/orc-rt.h"
#include "services/AllocAction.h"

#include <stdlib.h>
#include <string.h>

#define CHECK(C)                                                               \
  do {                                                                         \
    if (!(C))                                                                  \
      __builtin_trap();                                                        \
  } while (0)

/*---- 1. The reader script ----*/

static const size_t ElemSizes[] = {0, 1, 8, 9, 16, 17, 25, 32};

static void checkView(const char *Base, size_t Size, const char *P, size_t N) {
  if (N == 0)
    return;
  CHECK(P >= Base && N <= Size && (size_t)(P - Base) <= Size - N);
}

static void runScript(const uint8_t *Ops, size_t NumOps, const char *Base,
                      size_t Size) {
  orc_rt_SPSReader R;
  orc_rt_SPSReader_init(&R, Base, Size);
  for (size_t I = 0; I < NumOps; ++I) {
    const char *Before = R.Data;
    size_t RemBefore = R.Remaining;
    bool WasFailed = R.Failed;
    bool OK = false;
    size_t Want = 0; /* bytes a successful fixed-size read consumes */
    uint8_t Op = Ops[I];
    switch (Op % 16) {
    case 0: {
      uint8_t V;
      OK = orc_rt_SPSReader_readU8(&R, &V);
      Want = 1;
      break;
    }
    case 1: {
      uint16_t V;
      OK = orc_rt_SPSReader_readU16(&R, &V);
      Want = 2;
      break;
    }
    case 2: {
      uint32_t V;
      OK = orc_rt_SPSReader_readU32(&R, &V);
      Want = 4;
      break;
    }
    case 3: {
      uint64_t V;
      OK = orc_rt_SPSReader_readU64(&R, &V);
      Want = 8;
      if (OK) { /* little-endian, as on the wire */
        uint64_t X = 0;
        for (int K = 7; K >= 0; --K)
          X = X << 8 | (unsigned char)Before[K];
        CHECK(X == V);
      }
      break;
    }
    case 4: {
      int32_t V;
      OK = orc_rt_SPSReader_readI32(&R, &V);
      Want = 4;
      break;
    }
    case 5: {
      int64_t V;
      OK = orc_rt_SPSReader_readI64(&R, &V);
      Want = 8;
      break;
    }
    case 6: {
      bool V;
      OK = orc_rt_SPSReader_readBool(&R, &V);
      Want = 1;
      if (OK)
        CHECK(V == (Before[0] != 0));
      break;
    }
    case 7: {
      uint64_t V;
      OK = orc_rt_SPSReader_readAddr(&R, &V);
      Want = 8;
      break;
    }
    case 8: {
      const char *P = NULL;
      Want = Op >> 4;
      OK = orc_rt_SPSReader_readRaw(&R, Want, &P);
      if (OK)
        checkView(Base, Size, P, Want);
      break;
    }
    case 9:
    case 10: {
      const char *P = NULL;
      size_t L = 0;
      OK = orc_rt_SPSReader_readBytes(&R, &P, &L);
      if (OK) {
        checkView(Base, Size, P, L);
        CHECK(RemBefore - R.Remaining == 8 + L);
      }
      Want = OK ? 8 + L : 0;
      break;
    }
    case 11:
    case 12: {
      uint64_t N = 0;
      size_t Min = ElemSizes[(Op >> 4) % 8];
      OK = orc_rt_SPSReader_readCount(&R, &N, Min);
      Want = 8;
      if (OK)
        CHECK(N <= R.Remaining / (Min ? Min : 1));
      break;
    }
    case 13: {
      orc_rt_ErrorRef E = (orc_rt_ErrorRef)1;
      OK = orc_rt_SPSReader_readError(&R, &E);
      if (OK) {
        CHECK(E != (orc_rt_ErrorRef)1);
        if (E)
          CHECK(orc_rt_Error_getMessage(E) != NULL);
        orc_rt_Error_consume(E);
      }
      Want = RemBefore - R.Remaining;
      break;
    }
    case 14: {
      orc_rt_ErrorRef E = (orc_rt_ErrorRef)1;
      OK = orc_rt_SPSReader_readExpectedHead(&R, &E);
      if (OK) {
        CHECK(E != (orc_rt_ErrorRef)1);
        orc_rt_Error_consume(E);
      }
      Want = RemBefore - R.Remaining;
      break;
    }
    case 15:
      CHECK(orc_rt_SPSReader_atEnd(&R) == (!R.Failed && R.Remaining == 0));
      continue;
    }
    /* The reader's state stays inside the input. */
    CHECK(R.Remaining <= Size);
    if (Base)
      CHECK(R.Data == Base + (Size - R.Remaining));
    else
      CHECK(R.Remaining == 0);
    CHECK(R.Remaining <= RemBefore);
    if (WasFailed) /* sticky: nothing succeeds and nothing moves */
      CHECK(!OK && R.Failed && R.Data == Before && R.Remaining == RemBefore);
    if (OK) {
      CHECK(!R.Failed);
      CHECK(RemBefore - R.Remaining == Want);
    } else {
      CHECK(R.Failed);
    }
  }
}

/*---- 2. The services' structured decoders ----*/

static void runDecoders(const char *Data, size_t Size) {
  /* AllocActionCallPair lists, as initialize (both memory services) reads them.
   */
  orc_rt_SPSReader R;
  orc_rt_SPSReader_init(&R, Data, Size);
  orc_rt_internal_WFCallList Fin, Dealloc;
  if (orc_rt_internal_readActions(&R, &Fin, &Dealloc)) {
    CHECK(!R.Failed && Fin.Size == Dealloc.Size);
    for (size_t I = 0; I < Fin.Size; ++I) {
      checkView(Data, Size, Fin.Calls[I].Args, Fin.Calls[I].ArgSize);
      checkView(Data, Size, Dealloc.Calls[I].Args, Dealloc.Calls[I].ArgSize);
    }
    /* appendCall copies; the copy must equal the view. */
    orc_rt_internal_WFCallList Copy = {NULL, 0};
    for (size_t I = 0; I < Fin.Size && I < 8; ++I)
      if (orc_rt_internal_appendCall(&Copy, &Fin.Calls[I]))
        CHECK(Copy.Calls[Copy.Size - 1].ArgSize == Fin.Calls[I].ArgSize &&
              Copy.Calls[Copy.Size - 1].Fn == Fin.Calls[I].Fn &&
              (Fin.Calls[I].ArgSize == 0 ||
               !memcmp(Copy.Calls[Copy.Size - 1].Args, Fin.Calls[I].Args,
                       Fin.Calls[I].ArgSize)));
    orc_rt_internal_freeCallList(&Copy);
    orc_rt_internal_freeViewLists(&Fin, &Dealloc);
  } else {
    CHECK(R.Failed && !Fin.Calls && !Dealloc.Calls);
  }

  /* A wrapper's SPSError result, as the controller side of a call reads it. */
  orc_rt_CWrapperFunctionBuffer B =
      orc_rt_CWrapperFunctionBuffer_copy(Data, Size);
  if (!orc_rt_CWrapperFunctionBuffer_getOutOfBandError(&B)) {
    orc_rt_ErrorRef E = orc_rt_SPS_takeErrorResult(&B);
    CHECK(B.Size == 0);
    bool Success = Size == 1 && Data[0] == 0;
    CHECK(Success == (E == NULL));
    orc_rt_Error_consume(E);
  } else {
    orc_rt_CWrapperFunctionBuffer_dispose(&B);
  }
}

/*---- 3. Writer -> reader round trip ----*/

typedef struct {
  uint8_t Kind;
  uint64_t V;
  const char *P;
  size_t L;
} Value;

static void roundTrip(const uint8_t *Data, size_t Size) {
  enum { MaxValues = 64 };
  Value Vals[MaxValues];
  size_t N = 0, I = 0;
  while (I < Size && N < MaxValues) {
    Value *V = &Vals[N++];
    V->Kind = Data[I++] % 7;
    V->V = 0;
    for (int K = 0; K < 8 && I < Size; ++K)
      V->V = V->V << 8 | Data[I++];
    V->L = (size_t)(V->V % 64);
    if (V->L > Size - I)
      V->L = Size - I;
    V->P = (const char *)Data + I;
    if (V->Kind == 5)
      I += V->L;
  }
  orc_rt_SPSWriter W;
  orc_rt_SPSWriter_init(&W);
  for (size_t K = 0; K < N; ++K) {
    Value *V = &Vals[K];
    switch (V->Kind) {
    case 0:
      orc_rt_SPSWriter_appendU8(&W, (uint8_t)V->V);
      break;
    case 1:
      orc_rt_SPSWriter_appendU16(&W, (uint16_t)V->V);
      break;
    case 2:
      orc_rt_SPSWriter_appendU32(&W, (uint32_t)V->V);
      break;
    case 3:
      orc_rt_SPSWriter_appendU64(&W, V->V);
      break;
    case 4:
      orc_rt_SPSWriter_appendBool(&W, V->V & 1);
      break;
    case 5:
      orc_rt_SPSWriter_appendBytes(&W, V->P, V->L);
      break;
    case 6:
      orc_rt_SPSWriter_appendAddr(&W, V->V);
      break;
    }
  }
  CHECK(!W.Failed);
  orc_rt_CWrapperFunctionBuffer B = orc_rt_SPSWriter_finish(&W);
  CHECK(!orc_rt_CWrapperFunctionBuffer_getOutOfBandError(&B));
  orc_rt_SPSReader R;
  orc_rt_SPSReader_init(&R, orc_rt_CWrapperFunctionBuffer_data(&B), B.Size);
  for (size_t K = 0; K < N; ++K) {
    Value *V = &Vals[K];
    switch (V->Kind) {
    case 0: {
      uint8_t X;
      CHECK(orc_rt_SPSReader_readU8(&R, &X) && X == (uint8_t)V->V);
      break;
    }
    case 1: {
      uint16_t X;
      CHECK(orc_rt_SPSReader_readU16(&R, &X) && X == (uint16_t)V->V);
      break;
    }
    case 2: {
      uint32_t X;
      CHECK(orc_rt_SPSReader_readU32(&R, &X) && X == (uint32_t)V->V);
      break;
    }
    case 3: {
      uint64_t X;
      CHECK(orc_rt_SPSReader_readU64(&R, &X) && X == V->V);
      break;
    }
    case 4: {
      bool X;
      CHECK(orc_rt_SPSReader_readBool(&R, &X) && X == (V->V & 1));
      break;
    }
    case 5: {
      const char *P;
      size_t L;
      CHECK(orc_rt_SPSReader_readBytes(&R, &P, &L) && L == V->L &&
            (L == 0 || !memcmp(P, V->P, L)));
      break;
    }
    case 6: {
      uint64_t X;
      CHECK(orc_rt_SPSReader_readAddr(&R, &X) && X == V->V);
      break;
    }
    }
  }
  CHECK(orc_rt_SPSReader_atEnd(&R));
  orc_rt_CWrapperFunctionBuffer_dispose(&B);
}

int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  /* Script: the first byte says how many op bytes follow; the rest is the data.
   */
  if (Size > 0) {
    size_t NumOps = Data[0] % 64;
    if (NumOps > Size - 1)
      NumOps = Size - 1;
    size_t Rest = Size - 1 - NumOps;
    /* A heap copy of exactly the data, so ASan sees any read past its end. */
    char *Copy = malloc(Rest ? Rest : 1);
    memcpy(Copy, Data + 1 + NumOps, Rest);
    runScript(Data + 1, NumOps, Rest ? Copy : NULL, Rest);
    runScript(Data + 1, NumOps, Copy, Rest);
    free(Copy);
  }
  char *Whole = malloc(Size ? Size : 1);
  memcpy(Whole, Data, Size);
  runDecoders(Whole, Size);
  free(Whole);
  roundTrip(Data, Size);
  return 0;
}
