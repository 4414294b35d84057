/* Kernel check specs: written and read back, malformed ones named by file
 * and line, and drafts from fp16, float and template kernels. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <git2.h>

#include "check/kernel/draft.h"
#include "check/kernel/harness.h"
#include "check/kernel/spec.h"
#include "util/error.h"
#include "util/file.h"

#include "tmpdir.h"

static const chk_arg *arg(const chk_spec *s, const char *name)
{
	size_t i;

	for (i = 0; i < s->nargs; i++)
		if (strcmp(s->args[i].name, name) == 0)
			return &s->args[i];
	fail_msg("no argument %s", name);
	return NULL;
}

/* Drafts the kernels of text (written as name). */
static void draft(chk_spec **specs, size_t *n, const char *name, const char *text)
{
	write_text(name, text);
	assert_int_equal(chk_draft(specs, n, name, tmp_path(name), text, strlen(text), NULL), 0);
}

static void free_specs(chk_spec *specs, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		chk_spec_dispose(&specs[i]);
	free(specs);
}

static void test_draft_fp16(void **state)
{
	chk_spec *specs;
	size_t n;
	const chk_arg *a;

	(void)state;
	draft(&specs, &n, "half.cu",
	      "#include <cuda_fp16.h>\n"
	      "namespace ops { namespace {\n"
	      "__global__ void add(const __half* __restrict__ x, __half* out, float scale, int64_t n) {\n"
	      "  int64_t i = blockIdx.x * blockDim.x + threadIdx.x;\n"
	      "  if (i < n) out[i] = __float2half(__half2float(x[i]) * scale);\n"
	      "}\n} }\n"
	      "void host() {}\n");
	assert_int_equal(n, 1);
	assert_string_equal(specs[0].name, "half.add");
	assert_string_equal(specs[0].kernel, "ops::add");
	assert_string_equal(specs[0].grid, "(n + 256 - 1) / (256)");
	a = arg(&specs[0], "x");
	assert_int_equal(a->role, CHK_ROLE_IN);
	assert_string_equal(a->type, "__half");
	assert_int_equal(a->dtype, CHK_F16);
	assert_string_equal(a->count, "n");
	assert_int_equal(a->init, CHK_INIT_UNIFORM);
	a = arg(&specs[0], "out");
	assert_int_equal(a->role, CHK_ROLE_OUT);
	assert_true(a->tol.abs == 1e-2 && a->tol.rel == 1e-2);
	assert_int_equal(a->init, CHK_INIT_CONSTANT);
	assert_string_equal(arg(&specs[0], "n")->value, "4096");
	assert_string_equal(arg(&specs[0], "scale")->value, "0.7");
	free_specs(specs, n);
}

static void test_draft_float_inout_and_atomics(void **state)
{
	chk_spec *specs;
	size_t n;

	(void)state;
	draft(&specs, &n, "acc.cu",
	      "__global__ void acc(float* y, const float* x, unsigned int* count, const int* idx, int n) {\n"
	      "  int i = threadIdx.x;\n"
	      "  if (i < n) { y[i] += x[idx[i]]; atomicAdd(count, 1u); }\n"
	      "}\n");
	assert_int_equal(n, 1);
	assert_int_equal(arg(&specs[0], "y")->role, CHK_ROLE_INOUT);
	assert_true(arg(&specs[0], "y")->tol.abs == 1e-5);
	assert_int_equal(arg(&specs[0], "count")->role, CHK_ROLE_INOUT);
	assert_string_equal(arg(&specs[0], "count")->count, "1");
	assert_true(arg(&specs[0], "count")->tol.abs == 0);
	assert_int_equal(arg(&specs[0], "idx")->init, CHK_INIT_IOTA);
	free_specs(specs, n);
}

static void test_draft_template(void **state)
{
	chk_spec *specs;
	size_t n;

	(void)state;
	draft(&specs, &n, "tmpl.cu",
	      "template <int BLOCK, typename T>\n"
	      "__global__ void __launch_bounds__(BLOCK) rows_k(const T* in, T* out, int cols) {\n"
	      "  out[blockIdx.x] = in[blockIdx.x * cols];\n"
	      "}\n");
	assert_int_equal(n, 1);
	assert_string_equal(specs[0].templ, "256, float");
	assert_string_equal(specs[0].block, "256");
	assert_string_equal(specs[0].grid, "rows");
	assert_string_equal(arg(&specs[0], "in")->type, "float");
	assert_string_equal(arg(&specs[0], "in")->count, "rows * cols");
	assert_int_equal(specs[0].nvars, 1);
	assert_string_equal(specs[0].vars[0].name, "rows");
	free_specs(specs, n);
}

static void test_round_trip(void **state)
{
	chk_spec *specs, back;
	size_t n;
	util_buf a = UTIL_BUF_INIT, b = UTIL_BUF_INIT;

	(void)state;
	draft(&specs, &n, "rt.cu",
	      "__global__ void k(const double* in, double* out, int n) { out[0] = in[0]; }\n");
	free(specs[0].setup);
	specs[0].setup = strdup("float e[2] = {0, 1}; set(e, \"quoted\\\\path\"); // # ; kept");
	assert_int_equal(chk_spec_write(&specs[0], tmp_path(".hipport/checks/rt.k.check")), 0);
	assert_int_equal(chk_spec_read(&back, tmp_path(".hipport/checks/rt.k.check")), 0);
	assert_string_equal(back.name, "rt.k");
	assert_string_equal(back.setup, specs[0].setup);
	assert_int_equal(back.nargs, 3);
	assert_string_equal(back.args[1].name, "out");
	assert_true(back.args[1].tol.abs == 1e-12);
	back.comment = specs[0].comment ? strdup(specs[0].comment) : NULL;
	assert_int_equal(chk_spec_format(&a, &specs[0]), 0);
	assert_int_equal(chk_spec_format(&b, &back), 0);
	assert_string_equal(a.ptr, b.ptr);
	util_buf_dispose(&a);
	util_buf_dispose(&b);
	chk_spec_dispose(&back);
	free_specs(specs, n);
}

/* A pointer to a type the parse cannot see (a typedef of a header's type,
 * as llm.c's floatX of __nv_bfloat16 with no CUDA headers) is drafted as
 * spelled with dtype = auto and no tolerance; that reads back and writes the
 * same. */
static void test_dtype_auto(void **state)
{
	chk_spec *specs, back;
	size_t n;
	util_buf a = UTIL_BUF_INIT, b = UTIL_BUF_INIT;
	const chk_arg *out;

	(void)state;
	draft(&specs, &n, "auto.cu",
	      "typedef vendor_half_t floatX;\n"
	      "__global__ void k(floatX* out, const floatX* in, int n) { out[0] = in[0]; }\n");
	out = arg(&specs[0], "out");
	assert_string_equal(out->type, "floatX");
	assert_true(out->dtype_auto);
	assert_true(out->tol.abs < 0);
	assert_int_equal(chk_spec_format(&a, &specs[0]), 0);
	assert_non_null(strstr(a.ptr, "\ttype = floatX\n\tdtype = auto\n"));
	assert_null(strstr(a.ptr, "abs ="));
	assert_int_equal(chk_spec_write(&specs[0], tmp_path(".hipport/checks/auto.k.check")), 0);
	assert_int_equal(chk_spec_read(&back, tmp_path(".hipport/checks/auto.k.check")), 0);
	assert_true(back.args[0].dtype_auto && back.args[0].tol.abs < 0);
	back.comment = specs[0].comment ? strdup(specs[0].comment) : NULL;
	assert_int_equal(chk_spec_format(&b, &back), 0);
	assert_string_equal(a.ptr, b.ptr);
	util_buf_dispose(&a);
	util_buf_dispose(&b);
	chk_spec_dispose(&back);
	free_specs(specs, n);
}

/* A buffer named like a harness function (CUDA by Example's buffer) is the
 * harness's hp_arg_buffer, not a variable that hides hp_buffer(). */
static void test_harness_names(void **state)
{
	chk_spec *specs;
	size_t n;
	util_buf h = UTIL_BUF_INIT;

	(void)state;
	draft(&specs, &n, "histo.cu",
	      "__global__ void histo(unsigned char *buffer, long size, unsigned int *histo) { histo[buffer[0]] += size; }\n");
	assert_int_equal(chk_harness_source(&h, &specs[0]), 0);
	assert_non_null(strstr(h.ptr, "unsigned char *hp_arg_buffer = (unsigned char *)hp_buffer(\"buffer\""));
	assert_non_null(strstr(h.ptr, ">>>(hp_arg_buffer, size, hp_arg_histo);"));
	util_buf_dispose(&h);
	free_specs(specs, n);
}

/* A spec with a mistake: the message names the file and its line. */
static void expect_error(const char *text, const char *where)
{
	chk_spec s;

	write_text("bad.check", text);
	assert_int_equal(chk_spec_read(&s, tmp_path("bad.check")), UTIL_EINPUT);
	if (!strstr(util_error_last(), where))
		fail_msg("'%s' not in '%s'", where, util_error_last());
}

/* A spec of kernel k(x, n) with x's section body as given. */
static void expect_bad_x(const char *x_body, const char *where)
{
	char text[1024];

	snprintf(text, sizeof(text),
		 "[check]\n\tsource = a.cu\n\tkernel = k\n\targs = x n\n\tgrid = 1\n\tblock = 32\n"
		 "[arg \"x\"]\n%s[arg \"n\"]\n\trole = scalar\n\ttype = int\n\tvalue = 4\n",
		 x_body);
	expect_error(text, where);
}

static void test_malformed(void **state)
{
	(void)state;
	expect_bad_x("\trole = sideways\n\ttype = float\n\tcount = n\n",
		     "bad.check:8: role must be in, out, inout or scalar, not 'sideways'");
	expect_bad_x("\trole = in\n\ttype = float\n\tcount = n\n\tinit = uniform 1 1\n", "bad.check:11: uniform range");
	expect_bad_x("\trole = in\n\ttype = float\n", "bad.check:7: pointer \"x\" needs a count");
	expect_bad_x("\trole = in\n\ttype = mystery_t\n\tcount = n\n", "bad.check:9: type 'mystery_t' is not one hipport knows");
	expect_error("[check]\n\tsource = a.cu\n\tseed = -3\n", "bad.check:3: seed must be");
	expect_error("[check]\n\tsource = a.cu\n\tthis is not config\n", "bad.check");
	expect_error("[check]\n\tsource = a.cu\n\tkernel = k\n\tgrid = 1\n\tblock = 1\n\targs = x\n", "'x', which has no [arg]");
}

static int setup(void **state)
{
	const char *base = getenv("HIPPORT_TEST_TMP");

	(void)state;
	git_libgit2_init();
	snprintf(tmp, sizeof(tmp), "%s/spec-tmp", base ? base : "/tmp");
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	git_libgit2_shutdown();
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_draft_fp16), cmocka_unit_test(test_draft_float_inout_and_atomics),
		cmocka_unit_test(test_draft_template), cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_malformed), cmocka_unit_test(test_dtype_auto),
		cmocka_unit_test(test_harness_names),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
