/* Compile checks: the compiler's diagnostics parsed, and (where hipcc is
 * installed) a real build for gfx90a that passes, one that fails with its
 * error on the right line, the cache, and the refusals before any run. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check/toolchain/compile.h"
#include "check/toolchain/toolchain.h"

static void test_parse(void **state)
{
	const char *out = "In file included from k.cu:3:\n"
			  "/usr/include/x.h:10:2: warning: deprecated [-Wdeprecated]\n"
			  "src/k.cu:12:7: error: no matching function for call to 'atomicAdd'\n"
			  "  atomicAdd(p, v);\n"
			  "      ^~~~~~~~~\n"
			  "src/k.cu:4:1: note: candidate function not viable\n"
			  "C:weird:name.cu:5:3: fatal error: 'missing.h' file not found\n"
			  "1 error generated when compiling for gfx90a.\n";
	tc_diagnostic *d;
	size_t n, i;

	(void)state;
	assert_int_equal(tc_compile_parse(&d, &n, out, "src/k.cu"), 0);
	assert_int_equal(n, 4);
	assert_string_equal(d[0].file, "/usr/include/x.h");
	assert_false(d[0].in_file);
	assert_string_equal(d[1].severity, "error");
	assert_int_equal(d[1].line, 12);
	assert_int_equal(d[1].col, 7);
	assert_true(d[1].in_file);
	assert_string_equal(d[1].message, "no matching function for call to 'atomicAdd'");
	assert_string_equal(d[2].severity, "note");
	assert_string_equal(d[3].file, "C:weird:name.cu");
	assert_string_equal(d[3].severity, "fatal error");
	for (i = 0; i < n; i++) {
		free(d[i].file);
		free(d[i].severity);
		free(d[i].message);
	}
	free(d);
}

static void test_is_header(void **state)
{
	(void)state;
	assert_true(tc_compile_is_header("a/b.cuh"));
	assert_true(tc_compile_is_header("ops.h"));
	assert_false(tc_compile_is_header("k.cu"));
	assert_false(tc_compile_is_header("k.cpp"));
}

static void test_refusals(void **state)
{
	tc_compile_options o;
	tc_compile_result r;

	(void)state;
	memset(&o, 0, sizeof(o));
	assert_int_equal(tc_compile_file(&r, &o, "k.cu", "0"), 0);
	assert_string_equal(r.status, "skipped");
	assert_non_null(strstr(r.summary, "hipcc"));
	tc_compile_result_dispose(&r);
	o.hipcc = "/usr/bin/hipcc";
	assert_int_equal(tc_compile_file(&r, &o, "k.cu", "0"), 0);
	assert_non_null(strstr(r.summary, "offload arch"));
	tc_compile_result_dispose(&r);
	o.arch = "gfx942";
	o.compiler_version = "15.0.6";
	assert_int_equal(tc_compile_file(&r, &o, "k.cu", "0"), 0);
	assert_string_equal(r.status, "skipped");
	assert_non_null(strstr(r.summary, "does not know gfx942"));
	tc_compile_result_dispose(&r);
}

static void write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/* A real hipcc build, where hipcc is installed. */
static void test_hipcc(void **state)
{
	char *hipcc = tc_toolchain_rocm_tool("hipcc"), dir[4096], good[4200], bad[4200], cache[4200];
	const char *base = getenv("HIPPORT_TEST_TMP");
	tc_compile_options o;
	tc_compile_result r;
	size_t i;
	bool found = false;

	(void)state;
	if (!hipcc) {
		printf("no hipcc: the build part is skipped\n");
		return;
	}
	snprintf(dir, sizeof(dir), "%s/compile-test-%d", base ? base : "/tmp", (int)getpid());
	snprintf(good, sizeof(good), "%s/good.hip", dir);
	snprintf(bad, sizeof(bad), "%s/bad.hip", dir);
	snprintf(cache, sizeof(cache), "%s/cache", dir);
	{
		char cmd[4300];

		snprintf(cmd, sizeof(cmd), "mkdir -p '%s'", dir);
		assert_int_equal(system(cmd), 0);
	}
	write_text(good, "#include <hip/hip_runtime.h>\n__global__ void k(float *x) { x[threadIdx.x] *= 2.0f; }\n");
	write_text(bad, "#include <hip/hip_runtime.h>\n__global__ void k(float *x) {\n  x[0] = undeclared_name;\n}\n");
	memset(&o, 0, sizeof(o));
	o.hipcc = hipcc;
	o.arch = "gfx90a";
	o.arch_known = true;
	o.compiler_version = "test";
	o.cache_dir = cache;
	o.timeout_ms = 120000;
	assert_int_equal(tc_compile_file(&r, &o, good, "1111"), 0);
	assert_string_equal(r.status, "pass");
	assert_false(r.cached);
	tc_compile_result_dispose(&r);
	assert_int_equal(tc_compile_file(&r, &o, good, "1111"), 0);
	assert_string_equal(r.status, "pass");
	assert_true(r.cached);
	tc_compile_result_dispose(&r);
	assert_int_equal(tc_compile_file(&r, &o, bad, "2222"), 0);
	assert_string_equal(r.status, "fail");
	for (i = 0; i < r.ndiags; i++)
		if (r.diags[i].in_file && r.diags[i].line == 3 && strstr(r.diags[i].message, "undeclared_name"))
			found = true;
	assert_true(found);
	assert_non_null(strstr(r.summary, "bad.hip:3:"));
	tc_compile_result_dispose(&r);
	{
		char cmd[4300];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
		assert_int_equal(system(cmd), 0);
	}
	free(hipcc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_is_header),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_hipcc),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
