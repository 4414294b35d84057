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

#include "check/bundle/bundle.h"
#include "check/kernel/launch.h"
#include "check/bundle/bundle_list.h"
#include "check/bundle/program.h"
#include "check/kernel/accessor.h"
#include "check/kernel/draft.h"
#include "check/kernel/harness.h"
#include "check/kernel/results.h"
#include "check/kernel/spec.h"
#include "port/rules.h"
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

/* A parameter whose type is a macro of a type the parse does not know
 * (a tensor accessor without torch's headers) is spelled by the macro's
 * name: its extent starts at the macro's definition, directives and all. */
static void test_draft_macro_type(void **state)
{
	chk_spec *specs;
	size_t n;
	util_buf h = UTIL_BUF_INIT;

	(void)state;
	draft(&specs, &n, "acc.cu",
	      "#define Acc4 PackedTensorAccessor32<scalar_t,4,RestrictPtrTraits>\n"
	      "#define Acc5 PackedTensorAccessor32<scalar_t,5,RestrictPtrTraits>\n"
	      "#define OTHER 3\n"
	      "template <typename scalar_t>\n"
	      "__global__ void k(const Acc4 a, Acc5 out, int n) { out[0][1][2][3][4] = a[0][1][2][3]; }\n"
	      "void host(float *p) { AT_DISPATCH_FLOATING_TYPES(t, \"k\", ([&] { k<scalar_t><<<1, 32>>>(x, y, 4); })); }\n");
	assert_int_equal(n, 1);
	/* tensor accessors through the file's macros: buffers of their
	 * elements, the accessor made over each in the harness */
	assert_string_equal(arg(&specs[0], "a")->type, "float");
	assert_int_equal(arg(&specs[0], "a")->role, CHK_ROLE_IN);
	assert_string_equal(arg(&specs[0], "a")->accessor, "PackedTensorAccessor32<float,4,RestrictPtrTraits>");
	assert_string_equal(arg(&specs[0], "out")->sizes, "8, 8, 8, 8, 8");
	assert_int_equal(arg(&specs[0], "out")->role, CHK_ROLE_OUT);
	assert_string_equal(arg(&specs[0], "out")->count, "8 * 8 * 8 * 8 * 8");
	assert_non_null(chk_spec_mark_of(&specs[0], "arg", "out", "sizes"));
	assert_string_equal(specs[0].templ, "float");
	assert_int_equal(chk_harness_source(&h, &specs[0]), 0);
	assert_non_null(strstr(h.ptr, "int64_t hp_sizes_out[] = { 8, 8, 8, 8, 8 }"));
	assert_non_null(strstr(h.ptr, "PackedTensorAccessor32<float,5,RestrictPtrTraits> hp_acc_out(hp_arg_out, hp_sizes_out, "
				      "hp_strides_out);"));
	assert_non_null(strstr(h.ptr, ">>>(hp_acc_a, hp_acc_out, n);"));
	util_buf_dispose(&h);
	free_specs(specs, n);
}

static void test_accessor_types(void **state)
{
	static const char macros[] = "#define A 1\n  #  define TensorAcc4R PackedTensorAccessor32<scalar_t,4,\\\n"
				     "  RestrictPtrTraits>\n#define F(x) x\n";
	char *elem;
	unsigned dims;

	(void)state;
	assert_true(chk_accessor_of("at::GenericPackedTensorAccessor<c10::Half, 3, at::RestrictPtrTraits, int>", &elem, &dims));
	assert_string_equal(elem, "c10::Half");
	assert_int_equal(dims, 3);
	free(elem);
	assert_true(chk_accessor_of("torch::PackedTensorAccessor64<std::pair<int, int>,2>", &elem, &dims));
	assert_string_equal(elem, "std::pair<int, int>");
	free(elem);
	/* dimensions that are no literal, or no accessor */
	assert_false(chk_accessor_of("PackedTensorAccessor32<float, N>", &elem, &dims));
	free(elem);
	assert_false(chk_accessor_of("float *", &elem, &dims));
	free(elem);
	elem = chk_macro_text(macros, strlen(macros), "TensorAcc4R");
	assert_non_null(elem);
	assert_string_equal(elem, "PackedTensorAccessor32<scalar_t,4,  RestrictPtrTraits>");
	free(elem);
	assert_null(chk_macro_text("#define F(x) x\n", 15, "F"));
}

/* A buffer the program does not size, indexed by several dimensions,
 * spans their product (an M x N result indexed under row < M); a pointer
 * handed on to a device function is read (its inputs are not zeros). */
static void test_draft_dimensions(void **state)
{
	chk_spec *specs;
	size_t n;
	const char *count;

	(void)state;
	draft(&specs, &n, "mm.cu",
	      "__device__ void load(const float *A, float *s, int K) { s[threadIdx.x] = A[threadIdx.x * K]; }\n"
	      "__global__ void mm(int M, int N, int K, float *A, const float *B, float *C) {\n"
	      "  __shared__ float s[256];\n"
	      "  int row = blockIdx.y * blockDim.y + threadIdx.y, col = blockIdx.x * blockDim.x + threadIdx.x;\n"
	      "  load(A, s, K);\n"
	      "  if (row < M && col < N) {\n"
	      "    float sum = 0;\n"
	      "    for (int k = 0; k < K; k++) sum += s[k] * B[k * N + col];\n"
	      "    C[row * N + col] = sum;\n"
	      "  }\n"
	      "}\n");
	assert_int_equal(n, 1);
	count = arg(&specs[0], "C")->count;
	assert_non_null(strstr(count, "(size_t)"));
	assert_non_null(strstr(count, "M"));
	assert_non_null(strstr(count, "N"));
	assert_non_null(strstr(count, "K"));
	assert_int_equal(arg(&specs[0], "A")->role, CHK_ROLE_INOUT);
	assert_int_equal(arg(&specs[0], "A")->init, CHK_INIT_UNIFORM);
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

static const chk_spec *spec_of(const chk_spec *specs, size_t n, const char *kernel)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strcmp(specs[i].kernel, kernel) == 0)
			return &specs[i];
	fail_msg("no spec of %s", kernel);
	return NULL;
}

/* Kernels and launches inside extern "C" (libclang 15 calls the block an
 * UnexposedDecl): cuda-samples' binomialOptions launches from an extern "C"
 * wrapper with its own block size. */
static void test_draft_extern_c(void **state)
{
	chk_spec *specs;
	size_t n;
	const chk_spec *s;

	(void)state;
	draft(&specs, &n, "externc.cu",
	      "#define EXTERN_C extern \"C\"\n"
	      "#define TB 128\n"
	      "extern \"C\" {\n"
	      "__global__ void in_block(float *a, int n) { if (threadIdx.x < n) a[threadIdx.x] = 1; }\n"
	      "}\n"
	      "extern \"C\" { __device__ int limit; }\n"
	      "extern \"C\" __global__ void declared(float *a, int n)\n"
	      "{ if (threadIdx.x < limit) a[threadIdx.x] = n; }\n"
	      "EXTERN_C __global__ void by_macro(float *a) { a[threadIdx.x] = 3; }\n"
	      "namespace ns { extern \"C\" __global__ void in_ns(float *a) { a[threadIdx.x] = 4; } }\n"
	      ";\n"
	      "extern \"C\" {\n"
	      "void run(int blocks, float *d) {\n"
	      "  in_block<<<blocks, TB>>>(d, blocks * TB);\n"
	      "  declared<<<2, 64>>>(d, limit);\n"
	      "  by_macro<<<3, 32>>>(d);\n"
	      "  ns::in_ns<<<4, 16>>>(d);\n"
	      "}\n"
	      "}\n");
	assert_int_equal(n, 4);
	s = spec_of(specs, n, "in_block");
	assert_string_equal(s->block, "TB");
	assert_string_equal(s->grid, "blocks");
	assert_string_equal(s->launch, "externc.cu:14");
	s = spec_of(specs, n, "declared");
	assert_string_equal(s->grid, "2");
	assert_string_equal(s->block, "64");
	/* a __device__ variable of the block: an input, no value host code reads */
	assert_int_equal(s->nglobals, 1);
	assert_string_equal(s->globals[0].name, "limit");
	assert_string_not_equal(arg(s, "n")->value, "limit");
	s = spec_of(specs, n, "by_macro");
	assert_string_equal(s->block, "32");
	/* extern "C" names no scope: the namespace still qualifies it */
	s = spec_of(specs, n, "ns::in_ns");
	assert_string_equal(s->block, "16");
	free_specs(specs, n);
}

/* A kernel templated on a functor the program makes (OneFlow's softmax:
 * LOAD load, load.template load<N>(...)): no type the draft could write
 * stands for it, so the kernel is said to have no draft, where a spec with
 * float built on neither side; a template type used as data is drafted. */
static void test_draft_functor_template(void **state)
{
	chk_spec *specs;
	size_t n;
	const chk_spec *s;

	(void)state;
	draft(&specs, &n, "functor.cu",
	      "template <typename LOAD, typename T>\n"
	      "__global__ void soft(LOAD load, T *out, int n) { out[threadIdx.x] = load.get(threadIdx.x); }\n"
	      "template <typename Payoff>\n"
	      "__global__ void price(float *out, Payoff payoff) { out[0] = payoff(1.0f); }\n"
	      "template <typename T>\n"
	      "__global__ void scale(T *x, T by, int n) { if (threadIdx.x < n) x[threadIdx.x] *= by; }\n");
	assert_int_equal(n, 3);
	s = spec_of(specs, n, "soft");
	assert_non_null(s->undraftable);
	assert_non_null(strstr(s->undraftable, "its argument load is of template type LOAD"));
	assert_non_null(spec_of(specs, n, "price")->undraftable);
	assert_null(spec_of(specs, n, "scale")->undraftable);
	free_specs(specs, n);
}

/* A kernel template the file launches nowhere but instantiates
 * explicitly (a library's kernel6.cu, launched from utils.cu): the
 * instantiation's arguments, not 1s that made its tile arrays zero-sized. */
static void test_draft_explicit_instantiation(void **state)
{
	chk_spec *specs;
	size_t n;

	(void)state;
	draft(&specs, &n, "inst.cu",
	      "template <const int BM, const int BN, const int TM>\n"
	      "__global__ void tile(int M, float *C) { __shared__ float s[BM * BN / TM]; s[0] = M; C[0] = s[0]; }\n"
	      "template <typename T> __global__ void plain(T *x) { x[0] = 1; }\n"
	      "// template __global__ void tile<1, 1, 1>(int, float *); a comment's\n"
	      "template __global__ void tile<128, 64, 8>(int M, float *C);\n"
	      "template __global__ void tile<32, 32, 4>(int M, float *C);\n");
	assert_int_equal(n, 2);
	assert_string_equal(spec_of(specs, n, "tile")->templ, "128, 64, 8");
	assert_string_equal(spec_of(specs, n, "plain")->templ, "float");
	free_specs(specs, n);
}

/* A struct taken by reference (NVIDIA's unified-memory sample's
 * Kernel_by_ref(DataElement &elem)): its value is one of the struct,
 * which the reference binds to; "DataElement &{}" did not compile. */
static void test_draft_reference_param(void **state)
{
	chk_spec *specs;
	size_t n;

	(void)state;
	draft(&specs, &n, "byref.cu",
	      "struct Elem { int value; float scale; };\n"
	      "__global__ void by_ref(Elem &e) { e.value++; }\n"
	      "__global__ void by_const_ref(const Elem &e, int *out) { out[0] = e.value; }\n");
	assert_int_equal(n, 2);
	assert_string_equal(arg(spec_of(specs, n, "by_ref"), "e")->value, "Elem{}");
	assert_string_equal(arg(spec_of(specs, n, "by_const_ref"), "e")->value, "Elem{}");
	free_specs(specs, n);
}

/* A template type parameter the launch leaves to deduction from a literal
 * (HeCBench's cross: cross_kernel<<<g, b>>>(n, o, a, b, 1, 1, 1) of
 * template <typename T, typename StrideType>): int, not the drafted float
 * the kernel cannot index with. */
static void test_draft_deduced_template_args(void **state)
{
	chk_spec *specs;
	size_t n;
	const chk_spec *s;

	(void)state;
	draft(&specs, &n, "deduced.cu",
	      "template <typename T, typename S>\n"
	      "__global__ void k(int n, T *o, const T *x, S stride, S scale, double f) {\n"
	      "  int i = threadIdx.x; if (i < n) o[i] = x[i * stride] * scale * f;\n}\n"
	      "int main() {\n  float *o, *x;\n  cudaMalloc(&o, 64 * sizeof(float));\n"
	      "  cudaMalloc(&x, 64 * sizeof(float));\n"
	      "  k<<<1, 64>>>(64, o, x, 1, 2, 0.5);\n  return 0;\n}\n");
	s = spec_of(specs, n, "k");
	assert_string_equal(arg(s, "stride")->type, "int");
	assert_string_equal(arg(s, "scale")->type, "int");
	free_specs(specs, n);
}

/* A kernel template drafted without a launch: every type parameter float;
 * one it indexes with does not compile as float, and the argument made int
 * is the first that does. */
static void test_draft_template_int_variant(void **state)
{
	chk_spec *specs;
	size_t n;

	(void)state;
	draft(&specs, &n, "zero.cu",
	      "template <typename T, typename I>\n"
	      "__global__ void zero(T *x, I n) {\n  for (I i = threadIdx.x; i < n; i += blockDim.x) x[i] = 0;\n}\n");
	assert_string_equal(spec_of(specs, n, "zero")->templ, "float, int");
	free_specs(specs, n);
	/* the arguments of a parameter's type follow its variant: an int
	 * histogram passed as float * matched no kernel (HeCBench's bincount,
	 * whose output_t must be int for its atomics) */
	draft(&specs, &n, "hist.cu",
	      "__device__ void add_one(int *a) { atomicAdd(a, 1); }\n"
	      "template <typename O, typename V, typename K>\n"
	      "__global__ void hist(O *out, const V *in, K bins, K n) {\n"
	      "  for (K i = threadIdx.x; i < n; i += blockDim.x) add_one(&out[in[i] % bins]);\n}\n");
	assert_string_equal(spec_of(specs, n, "hist")->templ, "int, int, int");
	assert_string_equal(arg(spec_of(specs, n, "hist"), "out")->type, "int");
	assert_int_equal(arg(spec_of(specs, n, "hist"), "out")->dtype, CHK_I32);
	assert_string_equal(arg(spec_of(specs, n, "hist"), "in")->type, "int");
	assert_string_equal(arg(spec_of(specs, n, "hist"), "bins")->type, "int");
	free_specs(specs, n);
	/* a block's size across two parameters (HeCBench's channelSum): 256
	 * threads in all, not 256 x 256 */
	draft(&specs, &n, "blockdims.cu",
	      "template <typename T, int kBlockDimX, int kBlockDimY>\n"
	      "__global__ void sum(const T *x, T *y) { y[threadIdx.y] = x[threadIdx.x] * kBlockDimX * kBlockDimY; }\n");
	assert_string_equal(spec_of(specs, n, "sum")->templ, "float, 256, 1");
	free_specs(specs, n);
}

/* A size that is also the rows' stride (the book's transpose:
 * B[nx * N + ny] = A[ny * N + nx]) spans N x N, not N. */
static void test_draft_square_stride(void **state)
{
	chk_spec *specs;
	size_t n;
	const chk_spec *s;

	(void)state;
	draft(&specs, &n, "transpose.cu",
	      "__global__ void transpose(const float *A, float *B, const int N) {\n"
	      "  const int nx = blockIdx.x * 32 + threadIdx.x, ny = blockIdx.y * 32 + threadIdx.y;\n"
	      "  if (nx < N && ny < N) B[nx * N + ny] = A[ny * N + nx];\n}\n"
	      "__global__ void scale(float *x, const int N) {\n"
	      "  const int i = blockIdx.x * blockDim.x + threadIdx.x;\n  if (i < N) x[i] *= 2;\n}\n");
	s = spec_of(specs, n, "transpose");
	assert_string_equal(arg(s, "A")->count, "(size_t)N * N");
	assert_string_equal(arg(s, "B")->count, "(size_t)N * N");
	assert_string_equal(arg(spec_of(specs, n, "scale"), "x")->count, "N");
	free_specs(specs, n);
}

/* dim3 declared bare and given member by member (CSC's kernel-optimization
 * exercise): the launch is that shape, not a guessed one thread; a member
 * set in a branch leaves the dim3 unknown. */
static void test_draft_dim3_members(void **state)
{
	chk_spec *specs;
	size_t n;
	const chk_spec *s;

	(void)state;
	draft(&specs, &n, "members.cu",
	      "__global__ void uv(int h, int w, float *x) { x[0] = h + w; }\n"
	      "__global__ void other(float *x) { x[0] = 1; }\n"
	      "int main(int argc, char **argv)\n{\n"
	      "  int w = 2048, h = 1536;\n  float *x;\n"
	      "  cudaMalloc(&x, w * h * sizeof(float));\n"
	      "  dim3 threads;\n  dim3 blocks;\n"
	      "  threads.x = 32;\n  threads.y = 8;\n"
	      "  blocks.x = 1 + w / threads.x;\n  blocks.y = 1 + h / threads.y;\n"
	      "  uv<<<blocks, threads>>>(h, w, x);\n"
	      "  dim3 b2;\n  if (argc > 1) { b2.x = 64; }\n"
	      "  other<<<1, b2>>>(x);\n"
	      "  return 0;\n}\n");
	s = spec_of(specs, n, "uv");
	assert_string_equal(s->block, "dim3(32, 8, 1)");
	assert_non_null(strstr(s->grid, "dim3(1 + "));
	assert_non_null(strstr(s->grid, "2048 / dim3(32, 8, 1).x"));
	assert_null(strstr(spec_of(specs, n, "other")->block, "dim3(64"));
	free_specs(specs, n);
}

/* A template type parameter whose name says it indexes is drafted int,
 * in the kernel's own parameters and in the launching function's (HeCBench's
 * topk: IdxT float made `in_idx[i] >> shift` no integer); others float. */
static void test_draft_index_type_param(void **state)
{
	chk_spec *specs;
	size_t n;

	(void)state;
	draft(&specs, &n, "idx.cu",
	      "template <typename T, typename IdxT>\n"
	      "__global__ void pick(const T *in, const IdxT *idx, T *out, IdxT n) {\n"
	      "  IdxT i = blockIdx.x * blockDim.x + threadIdx.x;\n  if (i < n) out[i] = in[idx[i] >> 1];\n}\n"
	      "template <typename value_t, typename IndexType>\n"
	      "void run(const value_t *in, const IndexType *idx, value_t *out, IndexType n) {\n"
	      "  pick<value_t, IndexType><<<(n + 255) / 256, 256>>>(in, idx, out, n);\n}\n"
	      "template <typename T, typename OffsetT>\n"
	      "__global__ void alone(const T *in, OffsetT *o) { o[0] = (OffsetT)in[0]; }\n");
	assert_string_equal(spec_of(specs, n, "pick")->templ, "float, int");
	assert_string_equal(spec_of(specs, n, "alone")->templ, "float, int");
	assert_string_equal(chk_type_param_guess("index_t"), "int");
	assert_string_equal(chk_type_param_guess("SizeT"), "int");
	assert_string_equal(chk_type_param_guess("scalar_t"), "float");
	assert_string_equal(chk_type_param_guess("PointT"), "float");
	free_specs(specs, n);
}

/* A scalar the program reads through an object it builds at run time
 * (HeCBench's lulesh: `locDom->deltatime()` of a `Domain *locDom`): the
 * harness has none, so the expression is replaced by a marked value, not
 * read through a drafted null pointer, which crashed the reference. */
static void test_draft_null_pointer_var(void **state)
{
	chk_spec *specs;
	size_t n;
	const chk_spec *s;

	(void)state;
	draft(&specs, &n, "dom.cu",
	      "struct Domain { double dt; int n; double deltatime() { return dt; } int numNode() { return n; } };\n"
	      "__global__ void step(double *x, double dt, int n) {\n"
	      "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  if (i < n) x[i] += dt;\n}\n"
	      "void run(double *x, Domain *locDom) {\n"
	      "  step<<<(locDom->numNode() + 255) / 256, 256>>>(x, locDom->deltatime(), locDom->numNode());\n}\n");
	s = spec_of(specs, n, "step");
	assert_null(strstr(s->grid, "locDom"));
	assert_null(strstr(arg(s, "dt")->value, "locDom"));
	assert_null(strstr(arg(s, "n")->value, "locDom"));
	assert_null(strstr(arg(s, "x")->count, "locDom"));
	free_specs(specs, n);
}

/* A launch in a for loop's body is drafted for the loop's first iteration
 * (the book's oversubscription: n = 1 GiB, not n drafted 0 and a grid of
 * no blocks); a variable changed in the body before the launch stays
 * unknown. */
static void test_draft_loop_first_iteration(void **state)
{
	chk_spec *specs;
	size_t n;
	const chk_spec *s;

	(void)state;
	draft(&specs, &n, "loop.cu",
	      "__global__ void touch(float *x, const size_t size) { x[0] = size; }\n"
	      "__global__ void other(float *x, int k) { x[0] = k; }\n"
	      "int main(void)\n{\n"
	      "  for (int n = 3; n <= 30; ++n) {\n"
	      "    const size_t size = size_t(n) * 1024;\n    float *x;\n"
	      "    cudaMalloc(&x, size * sizeof(float));\n"
	      "    touch<<<(size - 1) / 256 + 1, 256>>>(x, size);\n"
	      "    int k = n;\n    k++;\n"
	      "    other<<<1, 1>>>(x, k);\n"
	      "  }\n  return 0;\n}\n");
	s = spec_of(specs, n, "touch");
	assert_non_null(strstr(s->grid, "size_t(3) * 1024"));
	assert_null(s->guessed ? strstr(s->guessed, "n") : NULL);
	assert_non_null(spec_of(specs, n, "other")->guessed);
	assert_non_null(strstr(spec_of(specs, n, "other")->guessed, "k"));
	free_specs(specs, n);
}

/* Without the program's headers std::enable_if<...> names no template to
 * the parse, which dropped the declaration and every definition after it
 * (BBuf's fast_atomic_add_half.cu drafted nothing): the kernels after such
 * declarations are drafted, and a kernel template's own; one still not
 * read is said. */
static void test_draft_after_unread_declarations(void **state)
{
	static const char text[] =
		"#include <type_traits>\n"
		"template<typename T, typename std::enable_if<std::is_same<float, T>::value>::type* = nullptr>\n"
		"__device__ void f(T* b, T v) { *b += v; }\n"
		"__global__ void dot(float* a, int n) { if (threadIdx.x < n) f(a, 1.0f); }\n"
		"namespace ops {\n"
		"template<typename T, typename U = std::pair<T, std::vector<T>>,\n"
		"         std::enable_if_t<(sizeof(T) > 2) && std::is_same_v<decltype(T{} + 1), T>>* = nullptr>\n"
		"__device__ T twice(T v) { return v + v; }\n"
		"template<typename T>\n"
		"__device__ typename std::enable_if<std::is_floating_point<T>::value, T>::type half(T v) { return v / 2; }\n"
		"__global__ void scale(float* a, int n) { if (threadIdx.x < n) a[threadIdx.x] = twice(a[0]); }\n"
		"template<typename T, typename std::enable_if<!std::is_same<T, double>::value>::type* = nullptr>\n"
		"__global__ void fill(T* a, int n) { if (threadIdx.x < n) a[threadIdx.x] = T(1); }\n"
		"}\n"
		"int main() { ops::fill<float><<<1, 64>>>(nullptr, 64); dot<<<2, 32>>>(nullptr, 64); }\n";
	static const char returned[] =
		"template<typename T>\n"
		"__global__ typename std::enable_if<std::is_same<float, T>::value>::type k(T* a) { a[0] = 0; }\n"
		"__global__ void after(float* a) { a[0] = 1; }\n";
	chk_spec *specs;
	size_t n;
	bool unread = true;
	chk_draft_options options = { NULL, NULL, NULL, NULL, &unread };

	(void)state;
	write_text("sfinae.cu", text);
	assert_int_equal(chk_draft_with(&specs, &n, "sfinae.cu", tmp_path("sfinae.cu"), text, strlen(text), &options), 0);
	assert_int_equal(n, 3);
	assert_string_equal(spec_of(specs, n, "dot")->grid, "2");
	assert_string_equal(spec_of(specs, n, "dot")->launch, "sfinae.cu:15");
	assert_string_equal(spec_of(specs, n, "ops::scale")->block, "256");
	assert_string_equal(spec_of(specs, n, "ops::fill")->templ, "float");
	assert_string_equal(spec_of(specs, n, "ops::fill")->block, "64");
	assert_false(unread);
	free_specs(specs, n);
	/* the return type of a kernel template is no template parameter to leave out */
	write_text("returned.cu", returned);
	assert_int_equal(chk_draft_with(&specs, &n, "returned.cu", tmp_path("returned.cu"), returned, strlen(returned),
					&options),
			 0);
	assert_int_equal(n, 1);
	assert_string_equal(specs[0].kernel, "after");
	assert_true(unread);
	free_specs(specs, n);
}

/* A ported file sizes its buffers with the HIP allocators (after hipport
 * apply the work tree holds HIP): counts as the CUDA original's. */
static void test_draft_hip_allocations(void **state)
{
	chk_spec *specs;
	size_t n;

	(void)state;
	draft(&specs, &n, "hipalloc.cu",
	      "#include <hip/hip_runtime.h>\n"
	      "#define N (33 * 1024)\n"
	      "__global__ void axpy(float *y, const float *x, const int *idx, double *acc, float *h, float a,\n"
	      "                     int n) {\n"
	      "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
	      "  if (i < n) { y[i] += a * x[idx[i]] + h[i]; acc[0] += y[i]; }\n"
	      "}\n"
	      "int main() {\n"
	      "  float *x, *y, *h;\n"
	      "  int *idx;\n"
	      "  double *acc;\n"
	      "  hipMalloc((void **)&x, N * sizeof(float));\n"
	      "  hipMallocManaged(&y, N * sizeof(float), hipMemAttachGlobal);\n"
	      "  hipHostMalloc(&idx, N * sizeof(int), hipHostMallocDefault);\n"
	      "  hipExtMallocWithFlags((void **)&acc, 2 * sizeof(double), hipDeviceMallocFinegrained);\n"
	      "  hipMallocAsync((void **)&h, N * sizeof(float), 0);\n"
	      "  axpy<<<(N + 127) / 128, 128>>>(y, x, idx, acc, h, 2.0f, N);\n"
	      "  return 0;\n"
	      "}\n");
	assert_int_equal(n, 1);
	assert_string_equal(arg(&specs[0], "x")->count, "N");
	assert_string_equal(arg(&specs[0], "y")->count, "N");
	assert_string_equal(arg(&specs[0], "idx")->count, "N");
	assert_string_equal(arg(&specs[0], "acc")->count, "2");
	assert_string_equal(arg(&specs[0], "h")->count, "N");
	assert_null(specs[0].guessed);
	free_specs(specs, n);
}

/* `namespace cg = cooperative_groups;` names the prelude's cooperative
 * groups: the parse goes on past it to the kernels (llm.c's
 * classifier_fused.cu), in CUDA's spelling and HIP's. */
static void test_draft_cooperative_groups(void **state)
{
	static const char *const includes[] = { "#include <cooperative_groups.h>\n",
						"#include <hip/hip_cooperative_groups.h>\n" };
	size_t i;

	(void)state;
	for (i = 0; i < 2; i++) {
		chk_spec *specs;
		size_t n;
		util_buf text = UTIL_BUF_INIT;

		util_buf_puts(&text, includes[i]);
		util_buf_puts(&text,
			      "namespace cg = cooperative_groups;\n"
			      "__device__ float warp_max(cg::thread_block_tile<32> &warp, float v) {\n"
			      "  return cg::reduce(warp, v, cg::greater<float>{});\n"
			      "}\n"
			      "__global__ void rowmax(float *out, const float *in, int n) {\n"
			      "  cg::thread_block block = cg::this_thread_block();\n"
			      "  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);\n"
			      "  int i = block.group_index().x * block.size() + block.thread_rank();\n"
			      "  float m = warp_max(warp, i < n ? in[i] : 0.0f);\n"
			      "  float s = cg::reduce(warp, m, cg::plus<float>());\n"
			      "  block.sync();\n"
			      "  if (warp.thread_rank() == 0) out[i / 32] = s + warp.shfl_down(m, 1);\n"
			      "}\n"
			      "__global__ void fill(float *out, int n) {\n"
			      "  cg::grid_group grid = cg::this_grid();\n"
			      "  if (grid.thread_rank() < n) out[grid.thread_rank()] = 1;\n"
			      "}\n");
		assert_false(util_buf_oom(&text));
		draft(&specs, &n, "cg.cu", text.ptr);
		assert_int_equal(n, 2);
		assert_string_equal(spec_of(specs, n, "rowmax")->args[1].name, "in");
		assert_int_equal(arg(spec_of(specs, n, "rowmax"), "in")->role, CHK_ROLE_IN);
		assert_int_equal(arg(spec_of(specs, n, "fill"), "out")->role, CHK_ROLE_OUT);
		free_specs(specs, n);
		util_buf_dispose(&text);
	}
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
	{
		/* a check's name is a word of the shell and a file name: a
		 * directory with a space (CSC's "demo/stencil code") gives none */
		char *name = chk_check_name("demo/stencil code/st'en.cu", "stencil");

		assert_string_equal(name, "demo-stencil-code-st-en.stencil");
		free(name);
	}
}

/* results.json (in tmp) of one check, as run.sh writes it: the source
 * the harness reports. */
static void write_result(const char *name, const char *source, const char *port_blob)
{
	char text[1024];

	snprintf(text, sizeof(text),
		 "{\"schema\": \"hipport-check-results\", \"version\": 1, \"bundle\": \"0123abcd\", \"checks\": [\n"
		 "{\"name\": \"%s\", \"source\": \"%s\", \"kernel\": \"scale\", \"status\": \"pass\", "
		 "\"platform\": \"nvidia-proxy\", \"arch\": \"sm_90\", \"message\": \"\", \"port_blob\": \"%s\"}\n]}\n",
		 name, source, port_blob);
	write_text("hdr-results.json", text);
}

/* A kernel defined in a header builds in the unit that includes it
 * (cuda-samples' FDTD3d: inc/FDTD3dGPUKernel.cuh in src/FDTD3dGPU.cu): the
 * harness includes the unit but reports the header, the check's source in
 * checks.list, so --import records its results. */
static void test_harness_header_kernel(void **state)
{
	static const char header[] =
		"__global__ void scale(float *out, const float *in, int n) {\n"
		"  int i = threadIdx.x;\n"
		"  if (i < n) out[i] = 2 * in[i];\n"
		"}\n";
	static const char unit[] = "#include \"../inc/k.cuh\"\nint main() { return 0; }\n";
	bundle_source sources[2] = {
		{ .path = "inc/k.cuh", .orig = header, .orig_len = sizeof(header) - 1, .port = header,
		  .port_len = sizeof(header) - 1 },
		{ .path = "src/main.cu", .orig = unit, .orig_len = sizeof(unit) - 1, .port = unit,
		  .port_len = sizeof(unit) - 1 },
	};
	bundle_include include = { .from = "src/main.cu", .to = "inc/k.cuh" };
	bundle_program program = { .includes = &include, .nincludes = 1 };
	bundle_input in = { .nsources = 2, .sources = sources, .program = &program };
	bundle_list list = { .nitems = 0 };
	chk_results_known known = { .n = 0 };
	chk_results r;
	port_rules *rules = NULL;
	chk_spec *specs;
	size_t n;
	util_buf path = UTIL_BUF_INIT, h = UTIL_BUF_INIT, start = UTIL_BUF_INIT;
	const char *names[1], *srcs[1], *at, *end;
	char reported[256];

	(void)state;
	draft(&specs, &n, "inc/k.cuh", header);
	assert_int_equal(n, 1);
	assert_int_equal(port_rules_load_builtin(&rules), 0);
	in.specs = specs;
	in.nspecs = n;
	in.rules = rules;
	assert_int_equal(bundle_write(tmp_path("hdr-bundle"), &in), 0);

	util_buf_printf(&path, "%s/harness/%s.cu", tmp_path("hdr-bundle"), specs[0].name);
	assert_int_equal(util_file_read(&h, path.ptr, 0), 0);
	assert_non_null(strstr(h.ptr, "#include \"src/main.cu\"\n"));
	assert_null(strstr(h.ptr, "#include \"inc/k.cuh\""));
	util_buf_printf(&start, "hp_start(argc, argv, \"%s\", \"", specs[0].name);
	assert_non_null(at = strstr(h.ptr, start.ptr));
	at += start.len;
	assert_non_null(end = strchr(at, '"'));
	assert_true((size_t)(end - at) < sizeof(reported));
	snprintf(reported, sizeof(reported), "%.*s", (int)(end - at), at);
	assert_string_equal(reported, "inc/k.cuh");

	/* the results the harness reports match the bundle, as --import reads it */
	assert_int_equal(bundle_list_read(&list, tmp_path("hdr-bundle")), 0);
	assert_int_equal(list.nchecks, 1);
	assert_string_equal(list.items[0].source, "inc/k.cuh");
	names[0] = list.items[0].name;
	srcs[0] = list.items[0].source;
	known.names = names;
	known.sources = srcs;
	known.n = 1;
	util_buf_clear(&path);
	util_buf_printf(&path, "%s/port", tmp_path("hdr-bundle"));
	known.files = path.ptr;
	write_result(specs[0].name, reported, list.items[0].port_blob);
	assert_int_equal(chk_results_read(&r, tmp_path("hdr-results.json")), 0);
	assert_int_equal(chk_results_match(&r, tmp_path("hdr-results.json"), &known), 0);
	chk_results_dispose(&r);
	/* still refused: the unit, not the check's source, and a file outside the bundle */
	write_result(specs[0].name, "src/main.cu", list.items[0].port_blob);
	assert_int_equal(chk_results_read(&r, tmp_path("hdr-results.json")), 0);
	assert_int_equal(chk_results_match(&r, tmp_path("hdr-results.json"), &known), UTIL_EINPUT);
	assert_non_null(strstr(util_error_last(), "its source is not inc/k.cuh"));
	chk_results_dispose(&r);
	srcs[0] = "../../inc/k.cuh";
	write_result(specs[0].name, srcs[0], list.items[0].port_blob);
	assert_int_equal(chk_results_read(&r, tmp_path("hdr-results.json")), 0);
	assert_int_equal(chk_results_match(&r, tmp_path("hdr-results.json"), &known), UTIL_EINPUT);
	assert_non_null(strstr(util_error_last(), "is no file of"));
	chk_results_dispose(&r);

	bundle_list_dispose(&list);
	port_rules_free(rules);
	util_buf_dispose(&path);
	util_buf_dispose(&h);
	util_buf_dispose(&start);
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
		cmocka_unit_test(test_draft_template), cmocka_unit_test(test_draft_dim3_members),
		cmocka_unit_test(test_draft_loop_first_iteration), cmocka_unit_test(test_draft_index_type_param),
		cmocka_unit_test(test_draft_null_pointer_var),
		cmocka_unit_test(test_draft_deduced_template_args), cmocka_unit_test(test_draft_square_stride), cmocka_unit_test(test_draft_template_int_variant),
		cmocka_unit_test(test_draft_macro_type), cmocka_unit_test(test_accessor_types),
		cmocka_unit_test(test_draft_dimensions), cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_malformed), cmocka_unit_test(test_dtype_auto),
		cmocka_unit_test(test_harness_names), cmocka_unit_test(test_harness_header_kernel),
		cmocka_unit_test(test_draft_extern_c),
		cmocka_unit_test(test_draft_reference_param),
		cmocka_unit_test(test_draft_explicit_instantiation),
		cmocka_unit_test(test_draft_functor_template), cmocka_unit_test(test_draft_after_unread_declarations),
		cmocka_unit_test(test_draft_hip_allocations),
		cmocka_unit_test(test_draft_cooperative_groups),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
