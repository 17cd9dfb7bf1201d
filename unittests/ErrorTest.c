/*===- unittests/ErrorTest.c - orc-rt-c/Error.h ---------------------------===*/

#include "TestUtil.h"

#include "orc-rt-c/Error.h"

#include <string.h>

static void createCopiesTheMessage(void **State) {
  (void)State;
  char Buf[] = "boom";
  orc_rt_ErrorRef E = orc_rt_Error_create(Buf);
  Buf[0] = 'X';
  assert_non_null(E);
  assert_string_equal(orc_rt_Error_getMessage(E), "boom");
  orc_rt_Error_consume(E);
}

static void createfFormats(void **State) {
  (void)State;
  orc_rt_ErrorRef E = orc_rt_Error_createf("%s at 0x%x", "bad", 0x10);
  assert_string_equal(orc_rt_Error_getMessage(E), "bad at 0x10");
  orc_rt_Error_consume(E);
}

static void toStringConsumesAndReturnsMessage(void **State) {
  (void)State;
  char *S = orc_rt_Error_toString(orc_rt_Error_create("gone"));
  assert_string_equal(S, "gone");
  orc_rt_String_dispose(S);
  assert_null(orc_rt_Error_toString(NULL));
}

static void consumeNullIsSuccess(void **State) {
  (void)State;
  orc_rt_Error_consume(NULL);
  assert_string_equal(orc_rt_Error_getMessage(NULL), "success");
}

static void joinKeepsBothMessagesInOrder(void **State) {
  (void)State;
  orc_rt_ErrorRef J = orc_rt_Error_join(orc_rt_Error_create("first"),
                                        orc_rt_Error_create("second"));
  assert_string_equal(orc_rt_Error_getMessage(J), "first\nsecond");
  orc_rt_Error_consume(J);

  orc_rt_ErrorRef A = orc_rt_Error_join(NULL, orc_rt_Error_create("only"));
  assert_string_equal(orc_rt_Error_getMessage(A), "only");
  orc_rt_Error_consume(A);
  assert_null(orc_rt_Error_join(NULL, NULL));
}

int main(void) {
  const struct CMUnitTest Tests[] = {
      cmocka_unit_test(createCopiesTheMessage),
      cmocka_unit_test(createfFormats),
      cmocka_unit_test(toStringConsumesAndReturnsMessage),
      cmocka_unit_test(consumeNullIsSuccess),
      cmocka_unit_test(joinKeepsBothMessagesInOrder),
  };
  return cmocka_run_group_tests(Tests, NULL, NULL);
}
