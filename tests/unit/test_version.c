#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "port/version.h"

static void test_parse(void **state)
{
	port_version v;

	(void)state;
	assert_int_equal(port_version_parse(&v, "6.2", 3), 0);
	assert_true(v == PORT_VERSION(6, 2, 0));
	assert_int_equal(port_version_parse(&v, "5.2.3", 5), 0);
	assert_true(v == PORT_VERSION(5, 2, 3));
	assert_true(PORT_VERSION(6, 10, 0) > PORT_VERSION(6, 9, 9));
	assert_int_equal(port_version_parse(&v, "6", 1), -1);
	assert_int_equal(port_version_parse(&v, "6.", 2), -1);
	assert_int_equal(port_version_parse(&v, "x.2", 3), -1);
	assert_int_equal(port_version_parse(&v, "1.2.3.4", 7), -1);
	assert_int_equal(port_version_parse(&v, "", 0), -1);
}

static void test_format(void **state)
{
	char text[32];

	(void)state;
	port_version_format(text, sizeof(text), PORT_VERSION(6, 2, 0));
	assert_string_equal(text, "6.2");
	port_version_format(text, sizeof(text), PORT_VERSION(5, 2, 3));
	assert_string_equal(text, "5.2.3");
}

int main(void)
{
	const struct CMUnitTest tests[] = { cmocka_unit_test(test_parse), cmocka_unit_test(test_format) };
	return cmocka_run_group_tests(tests, NULL, NULL);
}
