/* Specs from a recording: launches.log read as hipport_record.h writes
 * it, each launched kernel's spec set to its first recorded launch
 * (geometry, scalars from their bytes, counts and offsets, inputs found by
 * their hash), the kernels not launched left as drafted, inputs written
 * beside the spec. */
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
#include "check/kernel/draft_record.h"
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

static const char source[] = "#include <cuda_runtime.h>\n"
			     "struct Params { int n; float scale; };\n"
			     "__global__ void fill(float *y, int n) { y[threadIdx.x] = n; }\n"
			     "__global__ void scale_add(const float *x, float *y, float *z, Params p, float bias, int n) {\n"
			     "  int i = threadIdx.x;\n"
			     "  if (i < n) { y[i] = p.scale * x[i] + y[i] + bias; z[i] += y[i]; }\n"
			     "}\n"
			     "__global__ void scalars(float *o, long long a, unsigned long long b, double c, float d, bool e,\n"
			     "                        __half h) { o[0] = a + b + c + d + e; }\n"
			     "__global__ void unused(float *w, int n) { w[threadIdx.x] = n; }\n"
			     "int main(int argc, char **argv) {\n"
			     "  int n = argc * 250;\n"
			     "  float *x, *y, *z;\n"
			     "  cudaMalloc(&x, n * sizeof(float));\n"
			     "  cudaMalloc(&y, n * sizeof(float));\n"
			     "  cudaMalloc(&z, n * sizeof(float));\n"
			     "  fill<<<(n + 127) / 128, 128>>>(y, n);\n"
			     "  Params p = {n, 2.5f};\n"
			     "  scale_add<<<(n + 127) / 128, 128, 64>>>(x, y + 4, z, p, 0.25f, n - 4);\n"
			     "  scalars<<<1, 1>>>(x, -5, 1ull << 40, 0.1, 1.0f / 0.0f, true, __float2half(1.0f));\n"
			     "  return 0;\n"
			     "}\n";

#define N 250

/* A log of the program's run: fill leaves y as iota, scale_add reads x
 * (unchanged by it) and that y, and changes z, whose bytes before it no
 * launch left. */
static void write_log(void)
{
	float x[N], y0[N], y1[N], y2[N], z0[N], z1[N];
	util_buf log = UTIL_BUF_INIT;
	int i;

	for (i = 0; i < N; i++) {
		x[i] = 0.5f * (float)i - 3;
		y0[i] = 0;
		y1[i] = (float)i;
		y2[i] = i >= 4 ? 2.5f * x[i - 4] + y1[i] + 0.25f : y1[i];
		z0[i] = 1;
		z1[i] = 2;
	}
	write_bytes("rec/0.0.bin", y1, sizeof(y1));
	write_bytes("rec/1.0.bin", x, sizeof(x));
	write_bytes("rec/1.1.bin", y2, sizeof(y2));
	write_bytes("rec/1.2.bin", z1, sizeof(z1));
#define H(a) (unsigned long long)chk_rec_hash((const unsigned char *)(a), sizeof(a))
	util_buf_printf(&log, "launch 0 fill main.cu:17 grid 2 1 1 block 128 1 1 shared 0 status 0 0\n"
			      "arg 0 pointer f32 0 1000 %016llx %016llx 0.0.bin\n"
			      "arg 1 scalar i32 fa000000\n",
			H(y0), H(y1));
	util_buf_printf(&log, "launch 1 scale_add main.cu:19 grid 2 1 1 block 128 1 1 shared 64 status 0 0\n"
			      "arg 0 pointer f32 0 1000 %016llx %016llx 1.0.bin\n"
			      "arg 1 pointer f32 16 1000 %016llx %016llx 1.1.bin\n"
			      "arg 2 pointer f32 0 1000 %016llx %016llx 1.2.bin\n"
			      "arg 3 scalar bytes fa00000000002040\n"
			      "arg 4 scalar f32 0000803e\n"
			      "arg 5 scalar i32 f6000000\n",
			H(x), H(x), H(y1), H(y2), H(z0), H(z1));
	/* scalars: -5, 2^40, 0.1, +inf, true, 1.0 as a half */
	util_buf_puts(&log, "launch 2 scalars main.cu:20 grid 1 1 1 block 1 1 1 shared 0 status 0 0\n"
			    "arg 0 pointer f32 0 1000 0 0 -\n"
			    "arg 1 scalar i64 fbffffffffffffff\n"
			    "arg 2 scalar u64 0000000000010000\n"
			    "arg 3 scalar f64 9a9999999999b93f\n"
			    "arg 4 scalar f32 0000807f\n"
			    "arg 5 scalar u8 01\n"
			    "arg 6 scalar f16? 003c\n"
			    /* a later launch at the same site: the spec is the first */
			    "launch 3 fill main.cu:17 grid 9 1 1 block 128 1 1 shared 0 status 0 0\n"
			    "arg 0 pointer f32 0 1000 0 0 -\n"
			    "arg 1 scalar i32 01000000\n");
	write_bytes("rec/launches.log", log.ptr, log.len);
	util_buf_dispose(&log);
}

static void test_read(void **state)
{
	chk_recording rec;
	const chk_rec_arg *a;

	(void)state;
	write_log();
	assert_int_equal(chk_recording_read(&rec, tmp_path("rec")), 0);
	assert_int_equal(rec.n, 4);
	assert_string_equal(rec.launches[1].kernel, "scale_add");
	assert_string_equal(rec.launches[1].site, "main.cu:19");
	assert_int_equal(rec.launches[1].shared, 64);
	assert_int_equal(rec.launches[1].nargs, 6);
	a = &rec.launches[1].args[1];
	assert_int_equal(a->kind, CHK_REC_POINTER);
	assert_int_equal(a->offset, 16);
	assert_int_equal(a->bytes, 1000);
	assert_string_equal(a->file, "1.1.bin");
	assert_string_equal(rec.launches[1].args[3].hex, "fa00000000002040");
	chk_recording_dispose(&rec);

	/* a line that is neither, named by file and line */
	write_bytes("bad/launches.log", "launch 0 k a.cu:1 grid 1 1 1 block 1 1 1 shared 0 status 0 0\nargs\n", 66);
	assert_true(chk_recording_read(&rec, tmp_path("bad")) < 0);
	assert_non_null(strstr(util_error_last(), "bad/launches.log:2: "));
	util_error_clear();
	/* a file name that would leave the run's directory is no file */
	write_bytes("esc/launches.log",
		    "launch 0 k a.cu:1 grid 1 1 1 block 1 1 1 shared 0 status 0 0\n"
		    "arg 0 pointer f32 0 4 0 0 ../../etc/passwd\n", 104);
	assert_int_equal(chk_recording_read(&rec, tmp_path("esc")), 0);
	assert_string_equal(rec.launches[0].args[0].file, "");
	chk_recording_dispose(&rec);
	/* a site whose path has spaces (csc's "demo/stencil code"), and a
	 * launch line cut before its grid, which is none */
	{
		static const char sp[] = "launch 0 stencil demo/stencil code/stencil.cu:222 grid 10 1 1 block 1024 1 1 "
					 "shared 0 status 0 0 time 120.6\n";

		write_bytes("sp/launches.log", sp, sizeof(sp) - 1);
		assert_int_equal(chk_recording_read(&rec, tmp_path("sp")), 0);
		assert_string_equal(rec.launches[0].site, "demo/stencil code/stencil.cu:222");
		assert_int_equal(rec.launches[0].grid[0], 10);
		assert_int_equal(rec.launches[0].block[0], 1024);
		chk_recording_dispose(&rec);
		write_bytes("cut/launches.log", "launch 0 k a.cu:1\n", 18);
		assert_true(chk_recording_read(&rec, tmp_path("cut")) < 0);
		util_error_clear();
	}
}

static void test_apply(void **state)
{
	chk_recording rec;
	chk_draft_options options = { NULL, NULL, NULL, NULL, NULL };
	chk_spec *specs, back;
	const chk_spec *s;
	const chk_arg *a;
	util_buf data = UTIL_BUF_INIT;
	size_t n, i;

	(void)state;
	write_log();
	write_bytes("main.cu", source, strlen(source));
	assert_int_equal(chk_recording_read(&rec, tmp_path("rec")), 0);
	options.rec = &rec;
	assert_int_equal(chk_draft_with(&specs, &n, "main.cu", tmp_path("main.cu"), source, strlen(source), &options), 0);
	assert_int_equal(n, 4);

	s = spec_of(specs, n, "scale_add");
	assert_string_equal(s->grid, "2");
	assert_string_equal(s->block, "128");
	assert_string_equal(s->shared, "64");
	assert_string_equal(s->launch, "main.cu:19");
	assert_string_equal(arg(s, "p")->value, "hp_from_hex<Params>(\"fa00000000002040\")");
	assert_string_equal(arg(s, "bias")->value, "0.25f");
	assert_string_equal(arg(s, "n")->value, "246");
	/* x: unchanged by the launch, its own bytes after it */
	a = arg(s, "x");
	assert_string_equal(a->count, "250");
	assert_null(a->offset);
	assert_int_equal(a->init, CHK_INIT_FILE);
	assert_non_null(strstr(a->init_from, "rec/1.0.bin"));
	/* y: passed as y + 4, its bytes as fill left them */
	a = arg(s, "y");
	assert_string_equal(a->offset, "4");
	assert_int_equal(a->init, CHK_INIT_FILE);
	assert_non_null(strstr(a->init_from, "rec/0.0.bin"));
	/* z: changed, and no launch left its bytes: drafted, marked */
	a = arg(s, "z");
	assert_int_not_equal(a->init, CHK_INIT_FILE);
	assert_non_null(chk_spec_mark_of(s, "arg", "z", "init"));
	assert_int_equal(s->nvars, 0);
	assert_non_null(strstr(s->comment, "recorded launch 1 of scale_add"));

	/* fill: the first of its two launches; y was all zeros before it */
	s = spec_of(specs, n, "fill");
	assert_string_equal(s->grid, "2");
	assert_string_equal(arg(s, "n")->value, "250");
	assert_int_equal(arg(s, "y")->init, CHK_INIT_CONSTANT);
	assert_non_null(strstr(s->comment, "the first of 2 there"));

	/* scalars as their types spell them, bit for bit */
	s = spec_of(specs, n, "scalars");
	assert_string_equal(arg(s, "a")->value, "-5");
	assert_string_equal(arg(s, "b")->value, "1099511627776ull");
	assert_string_equal(arg(s, "c")->value, "0.10000000000000001");
	assert_string_equal(arg(s, "d")->value, "hp_from_hex<float>(\"0000807f\")");
	assert_string_equal(arg(s, "e")->value, "true");
	assert_string_equal(arg(s, "h")->value, "hp_from_hex<__half>(\"003c\")");

	/* not launched: as drafted */
	s = spec_of(specs, n, "unused");
	assert_string_equal(arg(s, "n")->value, "4096");
	assert_null(strstr(s->comment, "recorded"));

	/* written with its inputs beside it, read back with their path */
	s = spec_of(specs, n, "scale_add");
	assert_int_equal(chk_draft_write((chk_spec *)s, tmp_path("repo/.hipport/checks/main.scale_add.check")), 0);
	assert_int_equal(util_file_read(&data, tmp_path("repo/.hipport/checks/inputs/main.scale_add/y.bin"), 4096), 0);
	assert_int_equal(data.len, 1000);
	assert_int_equal(chk_spec_read(&back, tmp_path("repo/.hipport/checks/main.scale_add.check")), 0);
	assert_int_equal(arg(&back, "y")->init, CHK_INIT_FILE);
	assert_string_equal(arg(&back, "y")->init_file, "inputs/main.scale_add/y.bin");
	assert_string_equal(arg(&back, "y")->init_path, tmp_path("repo/.hipport/checks/inputs/main.scale_add/y.bin"));
	assert_string_equal(arg(&back, "y")->offset, "4");
	chk_spec_dispose(&back);
	util_buf_dispose(&data);
	for (i = 0; i < n; i++)
		chk_spec_dispose(&specs[i]);
	free(specs);
	chk_recording_dispose(&rec);
}

static int setup(void **state)
{
	const char *base = getenv("HIPPORT_TEST_TMP");

	(void)state;
	git_libgit2_init();
	snprintf(tmp, sizeof(tmp), "%s/draft-record-tmp", base ? base : "/tmp");
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
		cmocka_unit_test(test_read),
		cmocka_unit_test(test_apply),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
