#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "port/rules.h"
#include "util/error.h"

#define ROW(cuda, hip, kind) cuda "\t" hip "\t-\t" kind "\truntime\t-\t-\t-\t1.6.0\t-\t-\t0\t0\t-\t-\n"

static char dir[4096];

static void write_rules(const char *name, const char *text)
{
	char path[4200];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static int make_dir(void **state)
{
	const char *base = getenv("HIPPORT_TEST_TMP");

	(void)state;
	snprintf(dir, sizeof(dir), "%s/rules-test-%d", base ? base : "/tmp", (int)getpid());
	mkdir(dir, 0700);
	return 0;
}

static int remove_dir(void **state)
{
	char cmd[4200];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

static void test_builtin(void **state)
{
	port_rules *rules;
	const port_rule *r;

	(void)state;
	assert_int_equal(port_rules_load_builtin(&rules), 0);
	assert_true(port_rules_count(rules) > 8000);
	r = port_rules_find(rules, "cudaMallocXYZ", 10); /* found by length: "cudaMalloc" */
	assert_non_null(r);
	assert_string_equal(r->hip, "hipMalloc");
	assert_null(port_rules_find(rules, "cudaMallocXYZ", 13));
	r = port_rules_find_header(rules, "cuda_runtime.h", 14);
	assert_non_null(r);
	assert_string_equal(r->hip, "hip/hip_runtime.h");
	r = port_rules_find_namespace(rules, "cub", 3);
	assert_non_null(r);
	assert_string_equal(r->hip, "hipcub");
	r = port_rules_find(rules, "__shfl_down_sync", 16);
	assert_non_null(r);
	assert_int_equal(r->kind, PORT_RULE_WARP_SYNC);
	assert_true(r->hip_added == PORT_VERSION(6, 2, 0));
	assert_non_null(port_rules_find_by_target(rules, "hipMalloc"));
	port_rules_free(rules);
}

static void test_malformed_line(void **state)
{
	port_rules *rules = NULL;
	char expect[4200];

	(void)state;
	write_rules("runtime.tsv", "# comment\n" ROW("cudaA", "hipA", "function")
				   "cudaB\thipB\t-\tfunction\truntime\n");
	assert_int_equal(port_rules_load_dir(&rules, dir), UTIL_EINPUT);
	assert_null(rules);
	snprintf(expect, sizeof(expect), "%s/runtime.tsv:3: expected 15 tab-separated fields, found 5", dir);
	assert_string_equal(util_error_last(), expect);
}

static void test_bad_values(void **state)
{
	port_rules *rules = NULL;

	(void)state;
	write_rules("runtime.tsv", "cudaA\thipA\t-\tgadget\truntime\t-\t-\t-\t1.6.0\t-\t-\t0\t0\t-\t-\n");
	assert_int_equal(port_rules_load_dir(&rules, dir), UTIL_EINPUT);
	assert_non_null(strstr(util_error_last(), "runtime.tsv:1: unknown kind 'gadget'"));
	write_rules("runtime.tsv", "cudaA\thipA\t-\tfunction\truntime\t-\t-\t-\t1.x\t-\t-\t0\t0\t-\t-\n");
	assert_int_equal(port_rules_load_dir(&rules, dir), UTIL_EINPUT);
	assert_non_null(strstr(util_error_last(), "runtime.tsv:1: bad hip_added version '1.x'"));
	write_rules("runtime.tsv", "cudaA\thipA\t-\tfunction\truntime\t-\t-\t-\t1.6\t-\t-\t2\t0\t-\t-\n");
	assert_int_equal(port_rules_load_dir(&rules, dir), UTIL_EINPUT);
	assert_non_null(strstr(util_error_last(), "runtime.tsv:1: experimental must be 0 or 1"));
}

static void test_overrides_replace(void **state)
{
	port_rules *rules = NULL;
	const port_rule *r;

	(void)state;
	write_rules("runtime.tsv", ROW("cudaA", "hipA", "function") ROW("cudaB", "hipB", "function"));
	write_rules("driver.tsv", ROW("cudaA", "hipOther", "function"));
	write_rules("overrides.tsv", ROW("cudaB", "hipB2", "function"));
	assert_int_equal(port_rules_load_dir(&rules, dir), 0);
	r = port_rules_find(rules, "cudaA", 5);
	assert_string_equal(r->hip, "hipA"); /* the first family wins */
	r = port_rules_find(rules, "cudaB", 5);
	assert_string_equal(r->hip, "hipB2"); /* overrides replace */
	assert_int_equal(port_rules_count(rules), 2);
	port_rules_free(rules);
}

static void test_missing_dir(void **state)
{
	port_rules *rules = NULL;

	(void)state;
	assert_int_equal(port_rules_load_dir(&rules, "/nonexistent/rules"), UTIL_ENOTFOUND);
	assert_non_null(strstr(util_error_last(), "/nonexistent/rules"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_builtin),
		cmocka_unit_test_setup_teardown(test_malformed_line, make_dir, remove_dir),
		cmocka_unit_test_setup_teardown(test_bad_values, make_dir, remove_dir),
		cmocka_unit_test_setup_teardown(test_overrides_replace, make_dir, remove_dir),
		cmocka_unit_test(test_missing_dir),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
