/* check/kernel/source.c: a kernel's definitions found in its source, and
 * whether the port left them as they were. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "check/kernel/source.h"

static const char orig[] =
	"// __global__ void scale(float *x) in a comment\n"
	"#include <cuda_runtime.h>\n"
	"__global__ void scale(float *x, int n);\n"
	"template <typename T>\n"
	"__global__ void __launch_bounds__(256) scale(T *x, int n)\n"
	"{\n"
	"  const char *s = \"}\";\n"
	"  if (threadIdx.x < n) { x[threadIdx.x] *= 2; }\n"
	"}\n"
	"__global__ void scale_all(float *x) { x[0] = 0; }\n"
	"void host() { scale<<<1, 32>>>((float *)0, 4); cudaDeviceSynchronize(); }\n";

static void definitions_found(void **state)
{
	util_buf b = UTIL_BUF_INIT;

	(void)state;
	chk_kernel_definitions(&b, orig, strlen(orig), "ns::scale<float>");
	assert_non_null(b.ptr);
	/* the definition, brace in a string and all; not the declaration, the comment or scale_all */
	assert_non_null(strstr(b.ptr, "__global__ void __launch_bounds__(256) scale(T *x, int n)\n{"));
	assert_non_null(strstr(b.ptr, "*= 2; }\n}"));
	assert_null(strstr(b.ptr, "scale_all"));
	assert_null(strstr(b.ptr, "int n);"));
	util_buf_dispose(&b);
}

static void unchanged_when_only_host_code_changed(void **state)
{
	char port[sizeof(orig) + 64];
	char *at;

	(void)state;
	strcpy(port, orig);
	at = strstr(port, "cuda_runtime.h");
	memcpy(at, "hip/hip_runti", 13); /* a header renamed: host code */
	at = strstr(port, "cudaDeviceSynchronize");
	memcpy(at, "hipDeviceSynchronize\n", 21);
	assert_true(chk_kernel_unchanged(orig, strlen(orig), port, strlen(port), "scale"));
}

static void changed_when_the_body_changed(void **state)
{
	char port[sizeof(orig)];

	(void)state;
	strcpy(port, orig);
	*strstr(port, "*= 2") = '+';
	assert_false(chk_kernel_unchanged(orig, strlen(orig), port, strlen(port), "scale"));
	/* a kernel defined nowhere is never called unchanged */
	assert_false(chk_kernel_unchanged(orig, strlen(orig), orig, strlen(orig), "missing"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(definitions_found),
		cmocka_unit_test(unchanged_when_only_host_code_changed),
		cmocka_unit_test(changed_when_the_body_changed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
