#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "util/buf.h"
#include "util/text.h"

static void test_utf8_valid(void **state)
{
	const char *ok = "plain ascii, caf\xc3\xa9, \xe2\x82\xac, \xf0\x9f\x98\x80";

	(void)state;
	assert_int_equal(util_text_find_invalid_utf8(ok, strlen(ok)), strlen(ok));
}

static void test_utf8_invalid(void **state)
{
	(void)state;
	/* a lone continuation byte, an overlong '/', a surrogate, a truncated sequence */
	assert_int_equal(util_text_find_invalid_utf8("ab\x80", 3), 2);
	assert_int_equal(util_text_find_invalid_utf8("\xc0\xaf", 2), 0);
	assert_int_equal(util_text_find_invalid_utf8("x\xed\xa0\x80", 4), 1);
	assert_int_equal(util_text_find_invalid_utf8("abc\xe2\x82", 5), 3);
	assert_int_equal(util_text_find_invalid_utf8("\xf5\x80\x80\x80", 4), 0);
}

static void test_utf8_dup(void **state)
{
	/* Latin-1, Windows-1252, a cut sequence and valid UTF-8, side by side */
	const char *in = "\xa9 Gr\xf6\xdf" "e \x93q\x94 \x80 \x81 \xc3 caf\xc3\xa9 \xe2\x82";
	char *out = util_text_utf8_dup(in, strlen(in));

	(void)state;
	assert_non_null(out);
	assert_string_equal(out, "\xc2\xa9 Gr\xc3\xb6\xc3\x9f" "e \xe2\x80\x9cq\xe2\x80\x9d \xe2\x82\xac ? \xc3\x83 "
				 "caf\xc3\xa9 \xc3\xa2\xe2\x80\x9a");
	assert_int_equal(util_text_find_invalid_utf8(out, strlen(out)), strlen(out));
	free(out);
	assert_int_equal(util_text_cp1252_char('a'), 'a');
	assert_int_equal(util_text_cp1252_char(0x99), 0x2122);
	assert_int_equal(util_text_cp1252_char(0xff), 0xff);
}

static void test_nul(void **state)
{
	(void)state;
	assert_int_equal(util_text_find_nul("ab\0cd", 5), 2);
	assert_int_equal(util_text_find_nul("abcd", 4), 4);
}

static void test_position(void **state)
{
	const char *text = "one\ntwo\nthree";
	unsigned line, col;

	(void)state;
	util_text_position(text, 0, &line, &col);
	assert_int_equal(line, 1);
	assert_int_equal(col, 1);
	util_text_position(text, 10, &line, &col);
	assert_int_equal(line, 3);
	assert_int_equal(col, 3);
}

static void test_buf(void **state)
{
	util_buf buf = UTIL_BUF_INIT;
	int i;

	(void)state;
	for (i = 0; i < 1000; i++)
		util_buf_printf(&buf, "%d,", i);
	assert_false(util_buf_oom(&buf));
	assert_int_equal(strncmp(buf.ptr, "0,1,2,", 6), 0);
	assert_int_equal(buf.ptr[buf.len], '\0');
	util_buf_dispose(&buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_utf8_valid), cmocka_unit_test(test_utf8_invalid),
		cmocka_unit_test(test_utf8_dup),   cmocka_unit_test(test_nul),
		cmocka_unit_test(test_position),
		cmocka_unit_test(test_buf),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
