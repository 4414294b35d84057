/* check/kernel/source.c: a kernel's definitions found in its source, and
 * whether the port left them as they were; host_free.c: the file without its
 * host functions. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "check/kernel/clocked.h"
#include "check/kernel/host_free.h"
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

/* a wrong port is as often in a device function the kernel calls (a warp
 * reduction's first offset) as in the kernel */
static void changed_when_a_device_function_changed(void **state)
{
	static const char orig_text[] =
		"__device__ float warp_sum(float v) { v += __shfl_down_sync(~0u, v, 16); return v; }\n"
		"__device__ int flag;\n"
		"__global__ void sum(float *x) { x[0] = warp_sum(x[threadIdx.x]); }\n";
	char port[sizeof(orig_text)];

	(void)state;
	strcpy(port, orig_text);
	assert_true(chk_kernel_unchanged(orig_text, strlen(orig_text), port, strlen(port), "sum"));
	memcpy(strstr(port, "16)"), "08)", 3);
	assert_false(chk_kernel_unchanged(orig_text, strlen(orig_text), port, strlen(port), "sum"));
}

/* CUB's block examples: the cycles a block scan took, beside its output */
static const char cub_scan[] =
	"template <int BLOCK_THREADS, int ITEMS_PER_THREAD, BlockScanAlgorithm ALGORITHM>\n"
	"__global__ void BlockPrefixSumKernel(int* d_in, int* d_out, clock_t* d_elapsed)\n"
	"{\n"
	"  using BlockLoadT = BlockLoad<int, BLOCK_THREADS, ITEMS_PER_THREAD, BLOCK_LOAD_WARP_TRANSPOSE>;\n"
	"  int data[ITEMS_PER_THREAD];\n"
	"  BlockLoadT(temp_storage.load).Load(d_in, data);\n"
	"  clock_t start = clock(); // Start cycle timer\n"
	"  int aggregate;\n"
	"  BlockScanT(temp_storage.scan).ExclusiveSum(data, data, aggregate);\n"
	"  clock_t stop = clock();\n"
	"  if (threadIdx.x == 0)\n"
	"  {\n"
	"    *d_elapsed = (start > stop) ? start - stop : stop - start;\n"
	"    d_out[BLOCK_THREADS * ITEMS_PER_THREAD] = aggregate;\n"
	"  }\n"
	"}\n";

static void clock_outputs_found(void **state)
{
	/* the CUDA samples' clock kernel: timer[bid] and timer[bid + gridDim.x] */
	static const char samples[] =
		"__global__ static void timedReduction(const float *input, float *output, clock_t *timer)\n"
		"{\n  extern __shared__ float shared[];\n  const int tid = threadIdx.x;\n"
		"  if (tid == 0) timer[blockIdx.x] = clock();\n  shared[tid] = input[tid];\n"
		"  if (tid == 0) output[blockIdx.x] = shared[0];\n"
		"  if (tid == 0) timer[blockIdx.x + gridDim.x] = clock();\n}\n";
	/* a timer register read by inline PTX, a 64-bit difference through a local */
	static const char ptx[] =
		"__global__ void k(float *__restrict__ y, unsigned long long *cycles, int n)\n"
		"{\n  unsigned int t0, t1;\n  asm volatile(\"mov.u32 %0, %%clock;\" : \"=r\"(t0));\n"
		"  y[threadIdx.x] = 2.0f * n;\n  asm volatile(\"mov.u32 %0, %%clock;\" : \"=r\"(t1));\n"
		"  unsigned long long d = t1 - t0;\n  cycles[threadIdx.x] = d;\n}\n";
	/* a pointer written with data and with a clock's value is still compared */
	static const char mixed[] =
		"__global__ void k(long long *out, int n)\n{\n  out[0] = n;\n  out[1] = clock64();\n}\n";

	(void)state;
	assert_int_equal(chk_kernel_clocked_params(cub_scan, strlen(cub_scan)), 1u << 2);
	assert_int_equal(chk_kernel_clocked_params(samples, strlen(samples)), 1u << 2);
	assert_int_equal(chk_kernel_clocked_params(ptx, strlen(ptx)), 1u << 1);
	assert_int_equal(chk_kernel_clocked_params(mixed, strlen(mixed)), 0);
	/* a kernel without a clock has none */
	assert_int_equal(chk_kernel_clocked_params(orig, strlen(orig)), 0);
}

static void host_functions_left_out(void **state)
{
	static const char src[] =
		"#include <cstdio>\n"
		"__global__ void k(float *x) { x[0] = 1; }\n"
		"__host__ __device__ float twice(float v) { return 2 * v; }\n"
		"template <typename T> static T sum(const T *a, int n)\n{\n  T s = 0;\n  return s;\n}\n"
		"bool operator<(const A &a, const A &b) { return a.v < b.v; }\n"
		"void Timer::start() { t = now(); }\n"
		"int fast(void) {\n#ifdef FAST\n  return 1;\n#endif\n  return 0;\n}\n"
		"namespace ns {\nint inner(int a) { return a; }\n}\n"
		"int main(int argc, char **argv)\n{\n  return argc;\n}\n";
	util_buf b = UTIL_BUF_INIT;
	size_t lines = 0, i;

	(void)state;
	assert_true(chk_source_host_free(&b, src, strlen(src)));
	assert_non_null(strstr(b.ptr, "__global__ void k(float *x) { x[0] = 1; }\n"));
	assert_non_null(strstr(b.ptr, "__host__ __device__ float twice(float v) { return 2 * v; }\n"));
	/* a plain host function: a declaration, its lines kept */
	assert_non_null(strstr(b.ptr, "template <typename T> static T sum(const T *a, int n)\n;"));
	assert_null(strstr(b.ptr, "T s = 0"));
	assert_non_null(strstr(b.ptr, "int inner(int a) ;"));
	assert_non_null(strstr(b.ptr, "int main(int argc, char **argv)\n;"));
	/* what cannot stand as a declaration: left out whole */
	assert_null(strstr(b.ptr, "operator<"));
	assert_null(strstr(b.ptr, "Timer::start"));
	/* a body with a directive stays */
	assert_non_null(strstr(b.ptr, "#ifdef FAST"));
	for (i = 0; i < b.len; i++)
		lines += b.ptr[i] == '\n';
	assert_int_equal(lines, 23); /* the source's */
	util_buf_dispose(&b);
	/* a file of kernels only: nothing left out */
	assert_false(chk_source_host_free(&b, "__global__ void k(int *x) { }\n", 29));
	util_buf_dispose(&b);
	chk_host_free_path(&b, "src/a.b/scale.cu");
	assert_string_equal(b.ptr, "src/a.b/scale.hipport-kernels.cu");
	util_buf_clear(&b);
	chk_host_free_path(&b, "src/a.b/kernel");
	assert_string_equal(b.ptr, "src/a.b/kernel.hipport-kernels");
	util_buf_dispose(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(definitions_found),
		cmocka_unit_test(unchanged_when_only_host_code_changed),
		cmocka_unit_test(changed_when_the_body_changed),
		cmocka_unit_test(changed_when_a_device_function_changed),
		cmocka_unit_test(clock_outputs_found),
		cmocka_unit_test(host_functions_left_out),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
