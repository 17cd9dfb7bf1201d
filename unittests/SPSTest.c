/*===- unittests/SPSTest.c - orc-rt-c/SPS.h and WrapperFunction.h ---------===*/

#include "TestUtil.h"

#include "orc-rt-c/SPS.h"
#include "orc-rt-c/WrapperFunction.h"

#include <stdlib.h>
#include <string.h>

static void roundTripsEveryPrimitive(void **State) {
  (void)State;
  orc_rt_SPSWriter W;
  orc_rt_SPSWriter_init(&W);
  orc_rt_SPSWriter_appendU8(&W, 0xab);
  orc_rt_SPSWriter_appendU16(&W, 0x1234);
  orc_rt_SPSWriter_appendU32(&W, 0xdeadbeef);
  orc_rt_SPSWriter_appendU64(&W, 0x0102030405060708ULL);
  orc_rt_SPSWriter_appendBool(&W, true);
  orc_rt_SPSWriter_appendString(&W, "hi");
  orc_rt_SPSWriter_appendU32(&W, (uint32_t)-5);
  assert_int_equal(W.Size, 1 + 2 + 4 + 8 + 1 + 8 + 2 + 4);
  /* Little-endian, no padding. */
  assert_memory_equal(W.Data + 1, "\x34\x12\xef\xbe\xad\xde", 6);

  orc_rt_SPSReader R;
  orc_rt_SPSReader_init(&R, W.Data, W.Size);
  uint8_t U8;
  uint16_t U16;
  uint32_t U32;
  uint64_t U64;
  bool B;
  const char *S;
  size_t L;
  int32_t I32;
  assert_true(orc_rt_SPSReader_readU8(&R, &U8));
  assert_true(orc_rt_SPSReader_readU16(&R, &U16));
  assert_true(orc_rt_SPSReader_readU32(&R, &U32));
  assert_true(orc_rt_SPSReader_readU64(&R, &U64));
  assert_true(orc_rt_SPSReader_readBool(&R, &B));
  assert_true(orc_rt_SPSReader_readBytes(&R, &S, &L));
  assert_true(orc_rt_SPSReader_readI32(&R, &I32));
  assert_true(orc_rt_SPSReader_atEnd(&R));
  assert_int_equal(U8, 0xab);
  assert_int_equal(U16, 0x1234);
  assert_int_equal(U32, 0xdeadbeef);
  assert_true(U64 == 0x0102030405060708ULL);
  assert_true(B);
  assert_int_equal(L, 2);
  assert_memory_equal(S, "hi", 2);
  assert_int_equal(I32, -5);
  orc_rt_SPSWriter_dispose(&W);
}

static void truncatedInputFailsAndStaysFailed(void **State) {
  (void)State;
  const char Data[] = "\x05\x00\x00\x00\x00\x00\x00\x00"
                      "abc"; /* string of 5, 3 bytes */
  orc_rt_SPSReader R;
  orc_rt_SPSReader_init(&R, Data, sizeof(Data) - 1);
  const char *S;
  size_t L;
  assert_false(orc_rt_SPSReader_readBytes(&R, &S, &L));
  assert_true(R.Failed);
  uint8_t U8;
  assert_false(orc_rt_SPSReader_readU8(&R, &U8)); /* sticky */
  assert_false(orc_rt_SPSReader_atEnd(&R));
  orc_rt_SPSReader_init(&R, Data, 4);
  uint64_t U64;
  assert_false(orc_rt_SPSReader_readU64(&R, &U64));
}

static void hugeCountsAreRejected(void **State) {
  (void)State;
  char Data[16];
  memset(Data, 0xff, 8); /* count 2^64-1 */
  memset(Data + 8, 0, 8);
  orc_rt_SPSReader R;
  orc_rt_SPSReader_init(&R, Data, sizeof(Data));
  uint64_t N;
  assert_false(orc_rt_SPSReader_readCount(&R, &N, 1));
  /* 8 bytes left: one 8-byte element fits, two do not. */
  Data[0] = 2;
  memset(Data + 1, 0, 7);
  orc_rt_SPSReader_init(&R, Data, sizeof(Data));
  assert_false(orc_rt_SPSReader_readCount(&R, &N, 8));
  Data[0] = 1;
  orc_rt_SPSReader_init(&R, Data, sizeof(Data));
  assert_true(orc_rt_SPSReader_readCount(&R, &N, 8));
  assert_int_equal(N, 1);
}

static void errorAndExpectedHaveOppositePolarity(void **State) {
  (void)State;
  orc_rt_CWrapperFunctionBuffer Ok = orc_rt_SPS_errorResult(NULL);
  assert_int_equal(Ok.Size, 1);
  assert_int_equal(orc_rt_CWrapperFunctionBuffer_data(&Ok)[0], 0);
  assert_null(orc_rt_SPS_takeErrorResult(&Ok));

  orc_rt_CWrapperFunctionBuffer Bad =
      orc_rt_SPS_errorResult(orc_rt_Error_create("boom"));
  assert_int_equal(Bad.Size, 1 + 8 + 4);
  assert_int_equal(orc_rt_CWrapperFunctionBuffer_data(&Bad)[0], 1);
  orc_rt_ErrorRef E = orc_rt_SPS_takeErrorResult(&Bad);
  assert_string_equal(orc_rt_Error_getMessage(E), "boom");
  orc_rt_Error_consume(E);

  orc_rt_CWrapperFunctionBuffer V = orc_rt_SPS_expectedAddrResult(0x1000);
  assert_int_equal(V.Size, 9);
  assert_memory_equal(orc_rt_CWrapperFunctionBuffer_data(&V),
                      "\x01\x00\x10\0\0\0\0\0\0", 9);
  orc_rt_CWrapperFunctionBuffer_dispose(&V);

  orc_rt_CWrapperFunctionBuffer X =
      orc_rt_SPS_expectedErrorResult(orc_rt_Error_create("no"));
  orc_rt_SPSReader R;
  orc_rt_SPSReader_init(&R, orc_rt_CWrapperFunctionBuffer_data(&X), X.Size);
  assert_true(orc_rt_SPSReader_readExpectedHead(&R, &E));
  assert_string_equal(orc_rt_Error_getMessage(E), "no");
  assert_true(orc_rt_SPSReader_atEnd(&R));
  orc_rt_Error_consume(E);
  orc_rt_CWrapperFunctionBuffer_dispose(&X);
}

static void undecodableErrorResultHasTheReferenceMessage(void **State) {
  (void)State;
  orc_rt_CWrapperFunctionBuffer B = orc_rt_CWrapperFunctionBuffer_empty();
  orc_rt_ErrorRef E = orc_rt_SPS_takeErrorResult(&B);
  assert_string_equal(
      orc_rt_Error_getMessage(E),
      "Could not deserialize result from serialized wrapper function call");
  orc_rt_Error_consume(E);
  orc_rt_CWrapperFunctionBuffer O =
      orc_rt_CWrapperFunctionBuffer_fromErrorMessage("oob");
  E = orc_rt_SPS_takeErrorResult(&O);
  assert_string_equal(orc_rt_Error_getMessage(E), "oob");
  orc_rt_Error_consume(E);
}

static void buffersAreInlineUpToEightBytes(void **State) {
  (void)State;
  assert_int_equal(sizeof(orc_rt_CWrapperFunctionBuffer), 16);
  orc_rt_CWrapperFunctionBuffer B =
      orc_rt_CWrapperFunctionBuffer_copy("12345678", 8);
  assert_ptr_equal(orc_rt_CWrapperFunctionBuffer_data(&B), B.Data.Value);
  orc_rt_CWrapperFunctionBuffer_dispose(&B);
  B = orc_rt_CWrapperFunctionBuffer_copy("123456789", 9);
  assert_ptr_equal(orc_rt_CWrapperFunctionBuffer_data(&B), B.Data.ValuePtr);
  assert_null(orc_rt_CWrapperFunctionBuffer_getOutOfBandError(&B));
  orc_rt_CWrapperFunctionBuffer_dispose(&B);
  assert_int_equal(B.Size, 0);
  assert_null(B.Data.ValuePtr);

  orc_rt_CWrapperFunctionBuffer E = orc_rt_CWrapperFunctionBuffer_empty();
  assert_null(orc_rt_CWrapperFunctionBuffer_getOutOfBandError(&E));
  orc_rt_CWrapperFunctionBuffer O = orc_rt_CWrapperFunctionBuffer_fromError(
      orc_rt_Error_create("out of band"));
  assert_int_equal(O.Size, 0);
  assert_non_null(O.Data.ValuePtr);
  assert_string_equal(orc_rt_CWrapperFunctionBuffer_getOutOfBandError(&O),
                      "out of band");
  orc_rt_CWrapperFunctionBuffer_dispose(&O);
}

static void bigWriterResultMovesIntoTheBuffer(void **State) {
  (void)State;
  orc_rt_SPSWriter W;
  orc_rt_SPSWriter_init(&W);
  for (int I = 0; I < 1000; ++I)
    orc_rt_SPSWriter_appendU64(&W, (uint64_t)I);
  orc_rt_CWrapperFunctionBuffer B = orc_rt_SPSWriter_finish(&W);
  assert_int_equal(B.Size, 8000);
  assert_null(W.Data);
  uint64_t Last;
  memcpy(&Last, orc_rt_CWrapperFunctionBuffer_data(&B) + 7992, 8);
  assert_int_equal(Last, 999);
  orc_rt_CWrapperFunctionBuffer_dispose(&B);
}

int main(void) {
  const struct CMUnitTest Tests[] = {
      cmocka_unit_test(roundTripsEveryPrimitive),
      cmocka_unit_test(truncatedInputFailsAndStaysFailed),
      cmocka_unit_test(hugeCountsAreRejected),
      cmocka_unit_test(errorAndExpectedHaveOppositePolarity),
      cmocka_unit_test(undecodableErrorResultHasTheReferenceMessage),
      cmocka_unit_test(buffersAreInlineUpToEightBytes),
      cmocka_unit_test(bigWriterResultMovesIntoTheBuffer),
  };
  return cmocka_run_group_tests(Tests, NULL, NULL);
}
