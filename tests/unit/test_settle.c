/* A drafted spec compiles in its harness: the name check (file-scope
 * names, locals of other functions, __device__ variables, namespace
 * members qualified), marked values written and read back, and drafts of
 * each form that made a harness fail on public programs. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <git2.h>

#include "analyze/parse.h"
#include "check/kernel/draft.h"
#include "check/kernel/names.h"
#include "check/kernel/spec.h"
#include "util/buf.h"
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

static const chk_spec *spec_of(const chk_spec *specs, size_t n, const char *kernel)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strcmp(specs[i].kernel, kernel) == 0)
			return &specs[i];
	fail_msg("no spec of %s", kernel);
	return NULL;
}

static const char *why_of(const chk_spec *s, const char *section, const char *sub, const char *key)
{
	const chk_mark *m = chk_spec_mark_of(s, section, sub, key);

	return m ? m->why : NULL;
}

static void free_specs(chk_spec *specs, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		chk_spec_dispose(&specs[i]);
	free(specs);
}

static const char scope_source[] = "#define BLOCK 128\n"
				   "namespace ops { namespace {\n"
				   "constexpr int kBlock = 256;\n"
				   "int grid_size(int n, int b) { return (n + b - 1) / b; }\n"
				   "} }\n"
				   "__device__ int shape[4];\n"
				   "enum Mode { FAST, SLOW };\n"
				   "int helper(int *out);\n"
				   "int main() {\n"
				   "  int nx = 50;\n"
				   "  return nx;\n"
				   "}\n";

/* *out checked against scope; returns the check's result. */
static int check(const chk_scope *scope, const char *expr, const char *own, char **out, char **why)
{
	char *names[2] = { (char *)own, NULL };

	return chk_names_check(out, why, expr, scope, names, own ? 1 : 0);
}

static void test_names(void **state)
{
	an_parser *parser;
	CXTranslationUnit tu;
	CXFile file;
	chk_scope scope;
	char *out = NULL, *why = NULL;

	(void)state;
	write_text("scope.cu", scope_source);
	assert_int_equal(an_parser_new(&parser), 0);
	assert_int_equal(an_parse(parser, NULL, tmp_path("scope.cu"), scope_source, strlen(scope_source), &tu, &file), 0);
	assert_int_equal(chk_scope_collect(&scope, tu), 0);

	/* a local of another function: never seen by the harness */
	assert_int_equal(check(&scope, "(nx + BLOCK)", NULL, &out, &why), 1);
	assert_string_equal(why, "nx is a local of main (line 10), which the harness cannot see");
	free(why);
	/* a namespace's names (an anonymous one left out) get their qualifier */
	assert_int_equal(check(&scope, "ops::grid_size(n, kBlock) + kBlock", "n", &out, &why), 0);
	assert_string_equal(out, "ops::grid_size(n, ops::kBlock) + ops::kBlock");
	free(out);
	/* a __device__ array: host code cannot read it */
	assert_int_equal(check(&scope, "(n * shape[1] + 255) / 256", "n", &out, &why), 1);
	assert_non_null(strstr(why, "shape is a __device__ variable"));
	free(why);
	/* enumerators, macros, members and names the probe decides on */
	if (check(&scope, "FAST + BLOCK + p.shape + unknown_name", "p", &out, &why))
		fail_msg("%s", why);
	assert_string_equal(out, "FAST + BLOCK + p.shape + unknown_name");
	free(out);
	/* a call writing through its argument, an assignment: no values */
	assert_int_equal(check(&scope, "helper(&y)", "y", &out, &why), 1);
	assert_non_null(strstr(why, "&y"));
	free(why);
	assert_int_equal(check(&scope, "n = 3", "n", &out, &why), 1);
	free(why);
	assert_int_equal(check(&scope, "x <<= 1", "x", &out, &why), 1);
	free(why);
	assert_int_equal(check(&scope, "c <= d && c >= d", NULL, &out, &why), 0);
	free(out);

	assert_false(chk_names_uses("a.n + n2 + s->n + ns::n", "n"));
	assert_true(chk_names_uses("x + (n)", "n"));
	chk_scope_dispose(&scope);
	an_parser_free(parser);
}

static void test_marks_round_trip(void **state)
{
	chk_spec s, back;
	chk_arg *a;
	util_buf text = UTIL_BUF_INIT;

	(void)state;
	memset(&s, 0, sizeof(s));
	s.source = strdup("a.cu");
	s.kernel = strdup("k");
	s.grid = strdup("1");
	s.block = strdup("256");
	s.shared = strdup("0");
	s.seed = 1234;
	s.timeout = 60;
	a = chk_spec_add_arg(&s, "x");
	a->role = CHK_ROLE_OUT;
	a->type = strdup("float");
	a->count = strdup("4096");
	a->init = CHK_INIT_CONSTANT;
	a = chk_spec_add_arg(&s, "p");
	a->type = strdup("params");
	a->value = strdup("params{}");
	assert_int_equal(chk_spec_mark(&s, "check", NULL, "grid", "nx is a local of main (line 10)"), 0);
	assert_int_equal(chk_spec_mark(&s, "arg", "x", "count", "first\nsecond"), 0);
	assert_int_equal(chk_spec_mark(&s, "arg", "p", "value", "value-initialised: give its value"), 0);
	assert_int_equal(chk_spec_format(&text, &s), 0);
	assert_non_null(strstr(text.ptr, "\tgrid = 1  # guessed: nx is a local of main (line 10)\n"));
	assert_non_null(strstr(text.ptr, "\tcount = 4096  # guessed: first second\n"));
	assert_non_null(strstr(text.ptr, "\tvalue = params{}  # guessed: value-initialised: give its value\n"));
	/* the marks are comments: the values read back as they are */
	assert_int_equal(chk_spec_write(&s, tmp_path("marked.check")), 0);
	s.name = NULL;
	assert_int_equal(chk_spec_read(&back, tmp_path("marked.check")), 0);
	assert_string_equal(back.grid, "1");
	assert_string_equal(arg(&back, "x")->count, "4096");
	assert_string_equal(arg(&back, "p")->value, "params{}");
	chk_spec_unmark(&s, "check", NULL, "grid");
	assert_null(chk_spec_mark_of(&s, "check", NULL, "grid"));
	assert_non_null(chk_spec_mark_of(&s, "arg", "x", "count"));
	chk_spec_dispose(&back);
	chk_spec_dispose(&s);
	util_buf_dispose(&text);
}

/* Each form a draft of a public program's launch did not compile in:
 * names of main's locals through a macro, a local array, a comment inside
 * the arguments, a struct from a braced initialiser, a struct without a
 * value, a __device__ array in the grid, an int for an int4 parameter, a
 * namespace's constant. tests/cli/test-draft-compiles.sh builds the same
 * file's harnesses with nvcc. */
static const char forms_source[] =
	"#include <cuda_runtime.h>\n"
	"#define BLOCK_SIZE 16\n"
	"#define CELLS (nx * ny)\n"
	"struct params { int b, c, w, h; };\n"
	"__device__ int shape[4];\n"
	"namespace ops { namespace { constexpr int kBlock = 128; } }\n"
	"__global__ void by_macro(float *a, int n) { a[threadIdx.x] = n; }\n"
	"__global__ void by_array(int *wall, int *src, int cols) { src[threadIdx.x] = wall[cols]; }\n"
	"__global__ void commented(float *a, int n, int pad) { a[threadIdx.x] = n + pad; }\n"
	"__global__ void by_struct(float *out, params p, size_t n) { out[0] = p.b * n; }\n"
	"__global__ void unfilled(float *out, params q) { out[0] = q.c; }\n"
	"__global__ void by_shape(float *out, int n) { out[threadIdx.x] = n; }\n"
	"__global__ void vec(int *out, int4 v) { out[0] = v.x; }\n"
	"namespace ops { __global__ void spaced(float *out, int n) { out[threadIdx.x] = n; } }\n"
	"void path(int *wall, int *bufs[2], int cols, int src) {\n"
	"  dim3 g(cols / BLOCK_SIZE);\n"
	"  by_array<<<g, BLOCK_SIZE>>>(wall, bufs[src], cols);\n"
	"}\n"
	"template <typename T> void widen(int *out, T v) {\n"
	"  vec<<<1, 1>>>(out, v);\n"
	"}\n"
	"void use_widen(int *out) { widen(out, make_int4(1, 2, 3, 4)); }\n"
	"namespace ops { void run(float *d, int n) { spaced<<<(n + kBlock - 1) / kBlock, kBlock>>>(d, n); } }\n"
	"int main(int argc, char **argv) {\n"
	"  int nx = argc, ny = 8;\n"
	"  float *d; cudaMalloc(&d, CELLS * sizeof(float));\n"
	"  by_macro<<<CELLS / 256, 256>>>(d, CELLS);\n"
	"  commented<<<1, 256>>>(d, // the count\n"
	"    64, /* padding */ 2);\n"
	"  params p = {128, 3, 480, 640};\n"
	"  by_struct<<<1, 1>>>(d, p, (size_t)p.b * p.c);\n"
	"  params q;\n"
	"  q.c = 3;\n"
	"  unfilled<<<1, 1>>>(d, q);\n"
	"  by_shape<<<(64 * shape[1] + 255) / 256, 256>>>(d, 64);\n"
	"  return 0;\n"
	"}\n";

static void test_draft_forms(void **state)
{
	chk_spec *specs;
	size_t n, i;
	const chk_spec *s;
	util_buf text = UTIL_BUF_INIT;

	(void)state;
	write_text("forms.cu", forms_source);
	assert_int_equal(chk_draft(&specs, &n, "forms.cu", tmp_path("forms.cu"), forms_source, strlen(forms_source), NULL), 0);
	assert_int_equal(n, 8);

	/* CELLS names main's locals: the harness has none of them */
	s = spec_of(specs, n, "by_macro");
	assert_non_null(why_of(s, "check", NULL, "grid"));
	assert_non_null(strstr(why_of(s, "check", NULL, "grid"), "does not compile in the harness"));
	assert_non_null(strstr(why_of(s, "check", NULL, "grid"), "nx"));
	assert_string_equal(arg(s, "n")->value, "4096");
	assert_non_null(why_of(s, "arg", "n", "value"));
	assert_string_equal(arg(s, "a")->count, "n");
	assert_non_null(strstr(s->guessed, "n"));

	/* int *bufs[2]: no var of an array type; nothing uses it */
	s = spec_of(specs, n, "by_array");
	for (i = 0; i < s->nvars; i++)
		assert_null(strchr(s->vars[i].type, '['));
	assert_null(s->guessed ? strstr(s->guessed, "bufs") : NULL);

	/* comments stay out of the values */
	s = spec_of(specs, n, "commented");
	assert_string_equal(arg(s, "n")->value, "64");
	assert_string_equal(arg(s, "pad")->value, "2");

	/* params p = {...}: params{...}, a value the harness compiles */
	s = spec_of(specs, n, "by_struct");
	assert_string_equal(arg(s, "p")->value, "params{128, 3, 480, 640}");
	assert_string_equal(arg(s, "n")->value, "(size_t)params{128, 3, 480, 640}.b * params{128, 3, 480, 640}.c");
	assert_null(why_of(s, "arg", "p", "value"));

	/* a struct the program fills field by field: a var of its type,
	 * value-initialised, never an int */
	s = spec_of(specs, n, "unfilled");
	assert_string_equal(arg(s, "q")->value, "q_host");
	assert_int_equal(s->nvars, 1);
	assert_string_equal(s->vars[0].type, "params");
	assert_string_equal(s->vars[0].value, "{}");

	/* a __device__ array in the grid: the signature's grid, marked */
	s = spec_of(specs, n, "by_shape");
	assert_string_equal(s->grid, "(n + 256 - 1) / (256)");
	assert_non_null(strstr(why_of(s, "check", NULL, "grid"), "shape is a __device__ variable"));

	/* an int for an int4: int4{}, marked */
	s = spec_of(specs, n, "vec");
	assert_string_equal(arg(s, "v")->value, "int4{}");
	assert_non_null(why_of(s, "arg", "v", "value"));

	/* a constant of the kernel's namespace, qualified */
	s = spec_of(specs, n, "ops::spaced");
	assert_string_equal(s->block, "ops::kBlock");
	assert_string_equal(s->grid, "(n_host + ops::kBlock - 1) / ops::kBlock");

	/* marks are written after their values */
	s = spec_of(specs, n, "by_shape");
	assert_int_equal(chk_spec_format(&text, s), 0);
	assert_non_null(strstr(text.ptr, "\tgrid = (n + 256 - 1) / (256)  # guessed: "));
	util_buf_dispose(&text);
	free_specs(specs, n);
}

static int setup(void **state)
{
	const char *base = getenv("HIPPORT_TEST_TMP");

	(void)state;
	git_libgit2_init();
	snprintf(tmp, sizeof(tmp), "%s/settle-tmp", base ? base : "/tmp");
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
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_marks_round_trip),
		cmocka_unit_test(test_draft_forms),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
