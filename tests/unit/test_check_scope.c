/* review/check_scope.c: what of its file a kernel's check depends on, so
 * that a change to another kernel leaves the check standing and any other
 * change does not. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "review/check_scope.h"

static const char orig[] =
	"#define N 256\n"
	"__device__ float twice(float v) { return 2 * v; }\n"
	"__global__ void scale(float *x) { x[threadIdx.x] = twice(x[threadIdx.x]); }\n"
	"__global__ void shift(float *x) { x[threadIdx.x] += 1; }\n"
	"__global__ void parent(float *x) { shift<<<1, N>>>(x); }\n"
	"int main() { return 0; }\n";

/* orig with `from` replaced by `to` (once) */
static const char *edit(char *out, size_t size, const char *text, const char *from, const char *to)
{
	const char *at = strstr(text, from);

	assert_non_null(at);
	snprintf(out, size, "%.*s%s%s", (int)(at - text), text, to, at + strlen(from));
	return out;
}

/* Whether a check of kernel made on (orig, orig) holds for (o, p). */
static bool holds(const char *kernel, const char *o, const char *p)
{
	rv_session_check c;
	rv_check_content now, then;

	memset(&c, 0, sizeof(c));
	rv_check_content_init(&then, orig, strlen(orig), orig, strlen(orig));
	memcpy(c.port, then.blob, sizeof(c.port));
	rv_check_scope(c.scope, orig, strlen(orig), orig, strlen(orig), kernel);
	c.kernel = (char *)kernel;
	rv_check_content_init(&now, o, strlen(o), p, strlen(p));
	return rv_check_current(&c, &now);
}

static void another_kernels_body_leaves_it(void **state)
{
	char p[1024];

	(void)state;
	edit(p, sizeof(p), orig, "+= 1", "+= 2");
	assert_true(holds("scale", orig, p)); /* in the port */
	assert_true(holds("scale", p, orig)); /* upstream's side */
	assert_false(holds("shift", orig, p));
	/* parent launches shift from the device: its check goes too */
	assert_false(holds("parent", orig, p));
}

static void its_own_code_and_what_it_reads_go_stale(void **state)
{
	char p[1024];

	(void)state;
	assert_true(holds("scale", orig, orig));
	assert_false(holds("scale", orig, edit(p, sizeof(p), orig, "x[threadIdx.x] = twice", "x[threadIdx.x] = -twice")));
	assert_false(holds("scale", orig, edit(p, sizeof(p), orig, "2 * v", "3 * v"))); /* a device function */
	assert_false(holds("scale", orig, edit(p, sizeof(p), orig, "#define N 256", "#define N 512")));
	assert_false(holds("scale", orig, edit(p, sizeof(p), orig, "return 0;", "return 1;"))); /* host code */
	/* upstream changed the kernel the port kept: the reference changed */
	assert_false(holds("scale", edit(p, sizeof(p), orig, "= twice", "= -twice"), orig));
}

static void a_directive_in_another_body_counts(void **state)
{
	char p[1024];

	(void)state;
	edit(p, sizeof(p), orig, "x[threadIdx.x] += 1; }", "x[threadIdx.x] += 1;\n#undef N\n#define N 64\n}");
	assert_false(holds("scale", orig, p));
}

static void no_scope_without_the_kernel(void **state)
{
	char scope[41];
	rv_session_check c;
	rv_check_content now;

	(void)state;
	rv_check_scope(scope, orig, strlen(orig), orig, strlen(orig), "missing");
	assert_string_equal(scope, "");
	/* a check without a scope holds for its own content only */
	memset(&c, 0, sizeof(c));
	rv_check_content_init(&now, orig, strlen(orig), orig, strlen(orig));
	memcpy(c.port, now.blob, sizeof(c.port));
	assert_true(rv_check_current(&c, &now));
	rv_check_content_init(&now, orig, strlen(orig), NULL, 0); /* the file is gone */
	assert_false(rv_check_current(&c, &now));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(another_kernels_body_leaves_it),
		cmocka_unit_test(its_own_code_and_what_it_reads_go_stale),
		cmocka_unit_test(a_directive_in_another_body_counts),
		cmocka_unit_test(no_scope_without_the_kernel),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
