#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/finding.h"
#include "util/error.h"

static void test_parse(void **state)
{
	char text[] = "# comment\n\n[ABC-001]\nseverity = warning\ntitle = A title\n"
		      "description = first line\n  second line\naction = do this\n\n[ABC-002]\n"
		      "title = t\ndescription = d\naction = a\ncost = 1.5x\n  on a GPU\n";
	an_catalog_entry *e;
	size_t n;

	(void)state;
	assert_int_equal(an_catalog_parse(&e, &n, text, "cat.txt"), 0);
	assert_int_equal(n, 2);
	assert_string_equal(e[0].id, "ABC-001");
	assert_int_equal(e[0].severity, AN_WARNING);
	assert_string_equal(e[0].description, "first line second line");
	assert_string_equal(e[0].action, "do this");
	assert_null(e[0].cost);
	assert_int_equal(e[1].severity, AN_ERROR);
	assert_string_equal(e[1].cost, "1.5x on a GPU");
	free(e);
}

static void test_errors(void **state)
{
	char bad_key[] = "[X-1]\ncolour = red\n";
	char missing[] = "[X-1]\ntitle = t\n";
	char bad_severity[] = "[X-1]\nseverity = fatal\n";
	an_catalog_entry *e;
	size_t n;

	(void)state;
	assert_int_equal(an_catalog_parse(&e, &n, bad_key, "cat.txt"), UTIL_EINPUT);
	assert_string_equal(util_error_last(), "cat.txt:2: not a catalog line");
	assert_int_equal(an_catalog_parse(&e, &n, missing, "cat.txt"), UTIL_EINPUT);
	assert_string_equal(util_error_last(), "cat.txt: [X-1] lacks a title, description or action");
	assert_int_equal(an_catalog_parse(&e, &n, bad_severity, "cat.txt"), UTIL_EINPUT);
}

static void test_builtin(void **state)
{
	size_t n;
	const an_catalog_entry *all = an_catalog_all(&n);

	(void)state;
	assert_non_null(all);
	assert_true(n >= 13);
	assert_non_null(an_catalog_find("API-001"));
	assert_null(an_catalog_find("API-000"));
}

/* The fix templates load, and the catalog says "Fix:" exactly for the ids
 * that have one, so that hipport explain tells the truth about fixes. */
static void test_fixes(void **state)
{
	size_t n, i;
	const an_catalog_entry *all = an_catalog_all(&n);

	(void)state;
	assert_null(an_fix_error());
	for (i = 0; i < n; i++) {
		bool says = strstr(all[i].action, "Fix: ") != NULL;

		if (says != (an_fix_title(all[i].id) != NULL))
			fail_msg("%s: the catalog %s a fix, patches/ %s one", all[i].id, says ? "names" : "names no",
				 an_fix_title(all[i].id) ? "has" : "has no");
	}
	assert_non_null(an_fix_title("ATOM-001"));
	assert_null(an_fix_title("API-001"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_builtin),
		cmocka_unit_test(test_fixes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
