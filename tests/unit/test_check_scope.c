/* review/check_scope.c: what a kernel's check depends on, so that a change
 * to another kernel or to host code leaves the check standing and a change
 * to anything the kernel can see does not. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "review/check_scope.h"

static const char orig[] =
	"#include \"common.h\"\n"
	"#define N 256\n"
	"__device__ float twice(float v) { return 2 * v; }\n"
	"constexpr int lanes() { return 32; }\n"
	"__global__ void scale(float *x) { x[threadIdx.x] = twice(x[threadIdx.x]) * lanes(); }\n"
	"__global__ void shift(float *x) { x[threadIdx.x] += 1; }\n"
	"__global__ void parent(float *x) { shift<<<1, N>>>(x); }\n"
	"namespace host {\n"
	"void launch(float *x, int n) { scale<<<1, n>>>(x); }\n"
	"struct Grid { int blocks(int n) const { return n / N; } };\n"
	"}\n"
	"static const int table[] = { 1, 2 };\n"
	"int main() { return 0; }\n";

static const char *header = "#define SCALE 2\n";

/* The included header, as the test sets it (both sides alike). */
static int read_header(void *payload, const char *path, bool port, util_buf *out)
{
	(void)port;
	if (strcmp(path, "src/common.h") != 0)
		return -1;
	util_buf_clear(out);
	util_buf_puts(out, *(const char **)payload);
	return 0;
}

/* text with `from` replaced by `to` (once) */
static const char *edit(char *out, size_t size, const char *text, const char *from, const char *to)
{
	const char *at = strstr(text, from);

	assert_non_null(at);
	snprintf(out, size, "%.*s%s%s", (int)(at - text), text, to, at + strlen(from));
	return out;
}

/* Whether a check of kernel made on (orig, orig) holds for (o, p) with the header now holding h. */
static bool holds_with(const char *kernel, const char *o, const char *p, const char *h)
{
	const char *then_header = header;
	rv_session_check c;
	rv_check_content now, then;

	memset(&c, 0, sizeof(c));
	rv_check_content_init(&then, "src/k.cu", orig, strlen(orig), orig, strlen(orig), read_header, &then_header);
	memcpy(c.port, then.blob, sizeof(c.port));
	rv_check_scope(c.scope, &then, kernel);
	assert_int_equal(strlen(c.scope), 40);
	c.kernel = (char *)kernel;
	rv_check_content_init(&now, "src/k.cu", o, strlen(o), p, strlen(p), read_header, &h);
	return rv_check_current(&c, &now);
}

static bool holds(const char *kernel, const char *o, const char *p)
{
	return holds_with(kernel, o, p, header);
}

static void another_kernels_body_leaves_it(void **state)
{
	char p[2048];

	(void)state;
	edit(p, sizeof(p), orig, "+= 1", "+= 2");
	assert_true(holds("scale", orig, p)); /* in the port */
	assert_true(holds("scale", p, orig)); /* upstream's side */
	assert_false(holds("shift", orig, p));
	/* parent launches shift from the device: its check goes too */
	assert_false(holds("parent", orig, p));
}

static void host_code_leaves_it(void **state)
{
	char p[2048];

	(void)state;
	assert_true(holds("scale", orig, edit(p, sizeof(p), orig, "return 0;", "return 1;")));
	assert_true(holds("scale", orig, edit(p, sizeof(p), orig, "scale<<<1, n>>>", "scale<<<2, n>>>")));
	/* a class's members, an initializer, a constexpr function are not host bodies */
	assert_false(holds("scale", orig, edit(p, sizeof(p), orig, "n / N", "n / 64")));
	assert_false(holds("scale", orig, edit(p, sizeof(p), orig, "{ 1, 2 }", "{ 1, 3 }")));
	assert_false(holds("scale", orig, edit(p, sizeof(p), orig, "return 32;", "return 64;")));
}

/* The scope of scale in text (both sides), into out. */
static const char *scope_of(char out[41], const char *text)
{
	rv_check_content c;

	rv_check_content_init(&c, "src/k.cu", text, strlen(text), text, strlen(text), NULL, NULL);
	rv_check_scope(out, &c, "scale");
	return out;
}

static void layout_and_comments_leave_it(void **state)
{
	char p[2048], q[2048], sa[41], sb[41];

	(void)state;
	edit(p, sizeof(p), orig, "{ x[threadIdx.x] = twice(x[threadIdx.x]) * lanes(); }",
	     "{\n\tx[threadIdx.x]  =  twice(x[threadIdx.x]) * lanes(); // scaled\n}");
	assert_true(holds("scale", orig, p));
	edit(q, sizeof(q), orig, "return 2 * v;", "/* twice */ return 2*v ;   ");
	assert_true(holds("scale", q, q));
	/* but not where a blank parts tokens: 2 - -v is not 2 --v */
	edit(q, sizeof(q), orig, "return 2 * v;", "return 2 - -v;");
	edit(p, sizeof(p), orig, "return 2 * v;", "return 2 --v;");
	assert_string_not_equal(scope_of(sa, q), scope_of(sb, p));
	/* a literal's blanks are its own */
	edit(q, sizeof(q), orig, "#include \"common.h\"", "#include \"common.h\"\nconst char *s = \"a  b\";");
	edit(p, sizeof(p), orig, "#include \"common.h\"", "#include \"common.h\"\nconst char *s = \"a b\";");
	assert_string_not_equal(scope_of(sa, q), scope_of(sb, p));
}

static void its_own_code_and_what_it_reads_go_stale(void **state)
{
	char p[2048];

	(void)state;
	assert_true(holds("scale", orig, orig));
	assert_false(holds("scale", orig, edit(p, sizeof(p), orig, "x[threadIdx.x] = twice", "x[threadIdx.x] = -twice")));
	assert_false(holds("scale", orig, edit(p, sizeof(p), orig, "2 * v", "3 * v"))); /* a device function */
	assert_false(holds("scale", orig, edit(p, sizeof(p), orig, "#define N 256", "#define N 512")));
	/* upstream changed the kernel the port kept: the reference changed */
	assert_false(holds("scale", edit(p, sizeof(p), orig, "= twice", "= -twice"), orig));
	/* the header it includes, on either side */
	assert_false(holds_with("scale", orig, orig, "#define SCALE 3\n"));
}

static void a_directive_in_another_body_counts(void **state)
{
	char p[2048];

	(void)state;
	edit(p, sizeof(p), orig, "x[threadIdx.x] += 1; }", "x[threadIdx.x] += 1;\n#undef N\n#define N 64\n}");
	assert_false(holds("scale", orig, p));
	edit(p, sizeof(p), orig, "{ return 0; }", "{\n#define N2 1\nreturn 0; }");
	assert_false(holds("scale", orig, p));
}

static void no_scope_without_the_kernel(void **state)
{
	char scope[41];
	rv_session_check c;
	rv_check_content now;

	(void)state;
	rv_check_content_init(&now, "src/k.cu", orig, strlen(orig), orig, strlen(orig), NULL, NULL);
	rv_check_scope(scope, &now, "missing");
	assert_string_equal(scope, "");
	/* a check without a scope holds for its own content only */
	memset(&c, 0, sizeof(c));
	memcpy(c.port, now.blob, sizeof(c.port));
	assert_true(rv_check_current(&c, &now));
	rv_check_content_init(&now, "src/k.cu", orig, strlen(orig), NULL, 0, NULL, NULL); /* the file is gone */
	assert_false(rv_check_current(&c, &now));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(another_kernels_body_leaves_it),
		cmocka_unit_test(host_code_leaves_it),
		cmocka_unit_test(layout_and_comments_leave_it),
		cmocka_unit_test(its_own_code_and_what_it_reads_go_stale),
		cmocka_unit_test(a_directive_in_another_body_counts),
		cmocka_unit_test(no_scope_without_the_kernel),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
