#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "port/translate.h"
#include "util/error.h"

static port_rules *rules;
static port_lexer *lexer;

static int setup(void **state)
{
	(void)state;
	return port_rules_load_builtin(&rules) || port_lexer_new(&lexer);
}

static int teardown(void **state)
{
	(void)state;
	port_rules_free(rules);
	port_lexer_free(lexer);
	return 0;
}

static port_options options(const char *target, port_launch_style launch)
{
	port_options o;

	memset(&o, 0, sizeof(o));
	assert_int_equal(port_version_parse(&o.target_hip, target, strlen(target)), 0);
	o.launch = launch;
	return o;
}

/* The runtime header inserted into a file that uses CUDA (docs/translation.md). */
#define RUNTIME "#include <hip/hip_runtime.h>\n"

/* Translates src as a C++ file and checks the output equals want; returns the result for more checks. */
static void expect(const char *src, const char *want, const port_options *o, port_result *keep)
{
	port_result res;

	assert_int_equal(port_translate(&res, lexer, rules, o, "t.cpp", src, strlen(src)), 0);
	assert_string_equal(res.output.ptr, want);
	if (keep)
		*keep = res;
	else
		port_result_dispose(&res);
}

static void test_no_cuda_is_identity(void **state)
{
	const char *src = "#include <stdio.h>\n/* plain C */\nint main(void) { int min = 1; return min; }\n";
	port_options o = options("6.2", PORT_LAUNCH_KEEP);
	port_result res;

	(void)state;
	expect(src, src, &o, &res);
	assert_int_equal(res.nrefs, 0);
	assert_false(res.header_inserted);
	port_result_dispose(&res);
	/* a .cu file had the runtime header from nvcc: it gets HIP's */
	assert_int_equal(port_translate(&res, lexer, rules, &o, "t.cu", src, strlen(src)), 0);
	assert_string_equal(res.output.ptr, RUNTIME "#include <stdio.h>\n/* plain C */\n"
					    "int main(void) { int min = 1; return min; }\n");
	assert_true(res.header_inserted);
	port_result_dispose(&res);
}

/* Comments stay; a string keeps its bytes but for whole words that are CUDA
 * names, as hipify-clang renames them. */
static void test_comments_and_strings_untouched(void **state)
{
	port_options o = options("6.2", PORT_LAUNCH_KEEP);

	(void)state;
	expect("// cudaMalloc here\nconst char *s = \"cudaFree: x\"; /* cudaMemcpy */ cudaFree(p);\n",
	       RUNTIME "// cudaMalloc here\nconst char *s = \"cudaFree: x\"; /* cudaMemcpy */ hipFree(p);\n", &o,
	       NULL);
	expect("const char *s = \"cudaFree failed\"; cudaFree(p);\n",
	       RUNTIME "const char *s = \"hipFree failed\"; hipFree(p);\n", &o, NULL);
}

static void test_members_not_renamed(void **state)
{
	port_options o = options("6.2", PORT_LAUNCH_KEEP);

	(void)state;
	expect("s.cudaMalloc(1); p->cudaFree(2); ns::cudaFree(3); ::cudaFree(4);\n",
	       RUNTIME "s.cudaMalloc(1); p->cudaFree(2); ns::cudaFree(3); ::hipFree(4);\n", &o, NULL);
}

static void test_refs_and_positions(void **state)
{
	port_options o = options("5.2", PORT_LAUNCH_KEEP);
	port_result res;

	(void)state;
	expect("int x;\n  cudaDeviceFlushGPUDirectRDMAWrites(a, b);\n",
	       RUNTIME "int x;\n  cudaDeviceFlushGPUDirectRDMAWrites(a, b);\n", &o, &res);
	assert_int_equal(res.nrefs, 1);
	assert_int_equal(res.refs[0].status, PORT_REF_UNSUPPORTED);
	assert_int_equal(res.refs[0].line, 2);
	assert_int_equal(res.refs[0].col, 3);
	assert_true(port_ref_is_problem(&res.refs[0]));
	assert_string_equal(port_ref_finding_id(&res.refs[0]), "API-001");
	port_result_dispose(&res);
}

static void test_warp_sync_by_version(void **state)
{
	port_options old = options("5.2", PORT_LAUNCH_KEEP), new = options("6.2", PORT_LAUNCH_KEEP);
	const char *src = "v += __shfl_down_sync(0xffffffff, v, d, 16);\n";

	(void)state;
	expect(src, RUNTIME "v += __shfl_down(v, d, 16);\n", &old, NULL);
	expect(src, RUNTIME "v += __shfl_down_sync(0xffffffffffffffffULL, v, d, 16);\n", &new, NULL);
}

static void test_launch_rewrite(void **state)
{
	port_options o = options("6.2", PORT_LAUNCH_HIP);

	(void)state;
	expect("__global__ void k(int);\nvoid f() { ns::k<float, 4><<<grid, dim3(8, 8), 0, s>>>(a, g(b, c)); }\n",
	       RUNTIME "__global__ void k(int);\n"
	       "void f() { hipLaunchKernelGGL(HIP_KERNEL_NAME(ns::k<float, 4>), dim3(grid), dim3(8, 8), 0, s, a, g(b, c)); }\n",
	       &o, NULL);
}

static void test_protected_regions(void **state)
{
	port_options o = options("6.2", PORT_LAUNCH_KEEP);
	const char *src = "cudaFree(a);\n// hipport off\ncudaFree(b);\n// hipport on\n"
			  "cudaFree(c); // hipport keep\ncudaFree(d);\n";

	(void)state;
	expect(src,
	       RUNTIME "hipFree(a);\n// hipport off\ncudaFree(b);\n// hipport on\n"
	       "cudaFree(c); // hipport keep\nhipFree(d);\n",
	       &o, NULL);
}

static void test_broken_input(void **state)
{
	port_options o = options("6.2", PORT_LAUNCH_KEEP);
	static const struct {
		const char *src;
		const char *message;
	} cases[] = {
		{ "int a; /* never closed\n", "t.cu:1:8: unterminated /* comment" },
		{ "void f() {\n  g(;\n", "t.cu:2:4: '(' is never closed" },
		{ "#if A\nint x;\n", "t.cu:1:1: #if without #endif" },
		{ "k<<<1, 2(x);\n", "t.cu:1:2: '<<<' without a matching '>>>'" },
		{ "", "t.cu: file is empty" },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		port_result res;

		assert_int_equal(port_translate(&res, lexer, rules, &o, "t.cu", cases[i].src,
						strlen(cases[i].src)), UTIL_EINPUT);
		assert_string_equal(util_error_last(), cases[i].message);
		assert_null(res.output.ptr);
	}
}

/* A type whose older HIP spelling is another name is renamed alone: what
 * follows it (a conversion operator's parentheses, a functional cast's
 * argument) stays. */
static void test_fallback_name_keeps_parentheses(void **state)
{
	port_options old = options("5.2", PORT_LAUNCH_KEEP), now = options("6.2", PORT_LAUNCH_KEEP);

	(void)state;
	expect("struct B { operator __nv_bfloat16() const; };\n__nv_bfloat16 f(float v) { return __nv_bfloat16(v); }\n",
	       RUNTIME "struct B { operator hip_bfloat16() const; };\nhip_bfloat16 f(float v) { return hip_bfloat16(v); }\n",
	       &old, NULL);
	expect("struct B { operator __nv_bfloat16() const; };\n",
	       RUNTIME "struct B { operator __hip_bfloat16() const; };\n", &now, NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_no_cuda_is_identity),
		cmocka_unit_test(test_comments_and_strings_untouched),
		cmocka_unit_test(test_members_not_renamed),
		cmocka_unit_test(test_refs_and_positions),
		cmocka_unit_test(test_warp_sync_by_version),
		cmocka_unit_test(test_launch_rewrite),
		cmocka_unit_test(test_protected_regions),
		cmocka_unit_test(test_broken_input),
		cmocka_unit_test(test_fallback_name_keeps_parentheses),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
