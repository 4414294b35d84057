/* Record-and-compare on synthetic launch logs: a pass, the first divergent
 * kernel named from identical inputs, a kernel downstream of it not blamed,
 * nondeterminism told apart with a second run of the original (hashed
 * outputs too), launch counts and failures (alike on both sides, or one
 * side's), and logs that do not read. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check/record/record.h"
#include "util/error.h"

static char root[512];

static void put(const char *run, const char *file, const void *data, size_t len)
{
	char path[1024];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, run);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/%s/%s", root, run, file);
	f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, len, f), len);
	fclose(f);
}

static chk_recording read_log(const char *run)
{
	char path[1024];
	chk_recording log;

	snprintf(path, sizeof(path), "%s/%s", root, run);
	assert_int_equal(chk_recording_read(&log, path), 0);
	return log;
}

/* The report as rec_report_print writes it (free it). */
static char *report_text(const rec_report *r)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	assert_non_null(f);
	rec_report_print(f, r);
	fclose(f);
	return text;
}

/* The times table as rec_report_print_times writes it (free it). */
static char *times_text(const rec_report *r, double budget)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	assert_non_null(f);
	rec_report_print_times(f, r, budget);
	fclose(f);
	return text;
}

/* Compares the logs of two runs of one kernel: its verdict, and a part of
 * its message. */
static void expect_kernel(const char *ref_run, const char *port_run, rec_verdict verdict, const char *message)
{
	chk_recording a = read_log(ref_run), b = read_log(port_run);
	rec_report r;

	assert_int_equal(rec_compare(&r, &a, NULL, &b, NULL, NULL), 0);
	assert_int_equal(r.kernels[0].verdict, verdict);
	assert_non_null(strstr(r.kernels[0].message, message));
	rec_report_dispose(&r);
	chk_recording_dispose(&a);
	chk_recording_dispose(&b);
}

/* A run of two kernels: scale (x -> y) then sum (y -> s), y as f32 values. */
static void program(const char *run, const float *y, float s, const char *y_after, const char *s_after)
{
	char log[2048];

	put(run, "0.1.bin", y, 4 * sizeof(float));
	put(run, "1.1.bin", &s, sizeof(s));
	snprintf(log, sizeof(log),
		 "launch 0 scale main.cu:10 grid 1 1 1 block 4 1 1 shared 0 status 0 0\n"
		 "arg 0 pointer f32 0 16 00000000000000aa 00000000000000aa -\n"
		 "arg 1 pointer f32 0 16 0000000000000000 %s 0.1.bin\n"
		 "arg 2 scalar i32 04000000\n"
		 "launch 1 sum main.cu:11 grid 1 1 1 block 4 1 1 shared 0 status 0 0\n"
		 "arg 0 pointer f32 0 16 %s %s -\n"
		 "arg 1 pointer f32 0 4 0000000000000000 %s 1.1.bin\n",
		 y_after, y_after, y_after, s_after);
	put(run, "launches.log", log, strlen(log));
}

static int setup(void **state)
{
	const char *tmp = getenv("HIPPORT_TEST_TMP");

	(void)state;
	snprintf(root, sizeof(root), "%s/record-test-%d", tmp ? tmp : "/tmp", (int)getpid());
	mkdir(root, 0755);
	return 0;
}

static void test_pass(void **state)
{
	const float y[4] = { 1, 2, 3, 4 };
	chk_recording ref, port;
	rec_report r;

	(void)state;
	program("pass-ref", y, 10, "00000000000000bb", "00000000000000cc");
	program("pass-port", y, 10, "00000000000000bb", "00000000000000cc");
	ref = read_log("pass-ref");
	port = read_log("pass-port");
	assert_int_equal(ref.n, 2);
	assert_int_equal(ref.launches[0].nargs, 3);
	assert_int_equal(rec_compare(&r, &ref, NULL, &port, NULL, NULL), 0);
	assert_int_equal(r.n, 2);
	assert_int_equal(r.kernels[0].verdict, REC_PASS);
	assert_int_equal(r.kernels[1].verdict, REC_PASS);
	assert_int_equal(r.kernels[0].compared, 1);
	assert_int_equal(r.first_divergent, -1);
	rec_report_dispose(&r);
	chk_recording_dispose(&ref);
	chk_recording_dispose(&port);
}

/* sum's argument 1 holds clock readings in this test */
static uint64_t sum_clocked(const char *kernel, const char *site, void *data)
{
	(void)data;
	return !strcmp(kernel, "sum") && !strcmp(site, "main.cu:11") ? 1u << 1 : 0;
}

static void test_clock_readings(void **state)
{
	const float y[4] = { 1, 2, 3, 4 };
	chk_recording ref, port;
	rec_report r;

	(void)state;
	/* sum's output differs, as a cycle count does from run to run */
	program("clock-ref", y, 815, "00000000000000bb", "00000000000000cc");
	program("clock-port", y, 814, "00000000000000bb", "00000000000000c1");
	ref = read_log("clock-ref");
	port = read_log("clock-port");
	assert_int_equal(rec_compare(&r, &ref, NULL, &port, NULL, NULL), 0);
	assert_int_equal(r.kernels[1].verdict, REC_FAIL);
	rec_report_dispose(&r);
	assert_int_equal(rec_compare(&r, &ref, NULL, &port, sum_clocked, NULL), 0);
	assert_int_equal(r.kernels[0].verdict, REC_PASS);
	assert_int_equal(r.kernels[0].clock_readings, 0);
	/* nothing else of sum's changed: nothing compared, said why */
	assert_int_equal(r.kernels[1].verdict, REC_ERROR);
	assert_int_equal(r.kernels[1].clock_readings, 1);
	assert_non_null(strstr(r.kernels[1].message, "hold clock readings"));
	assert_int_equal(r.first_divergent, -1);
	rec_report_dispose(&r);
	chk_recording_dispose(&ref);
	chk_recording_dispose(&port);
}

/* Four launches of one kernel, each taking times[k] microseconds. */
static void timed_run(const char *run, const double *times)
{
	char log[2048];
	size_t len = 0;
	int k;

	for (k = 0; k < 4; k++)
		len += (size_t)snprintf(log + len, sizeof(log) - len,
					"launch %d fill main.cu:7 grid 1 1 1 block 32 1 1 shared 0 status 0 0 uncaptured "
					"time %.3f\n",
					k, times[k]);
	put(run, "launches.log", log, len);
}

static void test_times(void **state)
{
	const double orig[4] = { 10, 10, 12, 10 }, slow[4] = { 20, 21, 20, 25 }, even[4] = { 10, 11, 10, 9 };
	chk_recording ref, port;
	rec_report r;
	char *text;

	(void)state;
	timed_run("times-ref", orig);
	timed_run("times-slow", slow);
	timed_run("times-even", even);
	ref = read_log("times-ref");
	assert_true(ref.launches[2].time_us == 12);
	port = read_log("times-slow");
	assert_int_equal(rec_compare(&r, &ref, NULL, &port, NULL, NULL), 0);
	assert_int_equal(r.kernels[0].timed, 4);
	assert_true(r.kernels[0].ref_us == 42 && r.kernels[0].port_us == 86);
	text = times_text(&r, 0.8);
	/* the ratios 0.40, 0.48, 0.50 and 0.60: their lower median and quartiles */
	assert_non_null(strstr(text, "fill                                    4        42.00        86.00   0.48x   0.40-0.60"));
	assert_non_null(strstr(text, "slow: below the budget beyond the spread"));
	free(text);
	rec_report_dispose(&r);
	chk_recording_dispose(&port);
	/* within the launches' own spread: not slow */
	port = read_log("times-even");
	assert_int_equal(rec_compare(&r, &ref, NULL, &port, NULL, NULL), 0);
	text = times_text(&r, 0.8);
	assert_null(strstr(text, "slow"));
	free(text);
	rec_report_dispose(&r);
	chk_recording_dispose(&port);
	chk_recording_dispose(&ref);
	/* one launch a side, twice as slow: no spread to judge by, not called slow */
	put("times-one-ref", "launches.log",
	    "launch 0 fill main.cu:7 grid 1 1 1 block 32 1 1 shared 0 status 0 0 uncaptured time 10.000\n", 91);
	put("times-one-port", "launches.log",
	    "launch 0 fill main.cu:7 grid 1 1 1 block 32 1 1 shared 0 status 0 0 uncaptured time 20.000\n", 91);
	ref = read_log("times-one-ref");
	port = read_log("times-one-port");
	assert_int_equal(rec_compare(&r, &ref, NULL, &port, NULL, NULL), 0);
	assert_int_equal(r.kernels[0].timed, 1);
	assert_false(rec_kernel_slow(&r.kernels[0], 0.8));
	text = times_text(&r, 0.8);
	assert_null(strstr(text, "slow"));
	assert_non_null(strstr(text, "below the budget, in too few launches for a spread"));
	free(text);
	rec_report_dispose(&r);
	chk_recording_dispose(&port);
	chk_recording_dispose(&ref);
	/* a time that is no number is refused, naming the line */
	put("times-bad", "launches.log", "launch 0 fill main.cu:7 grid 1 1 1 block 32 1 1 shared 0 status 0 0 time x\n", 75);
	{
		char path[1024];

		snprintf(path, sizeof(path), "%s/times-bad", root);
		assert_true(chk_recording_read(&ref, path) < 0);
		assert_non_null(strstr(util_error_last(), "launches.log:1"));
		util_error_clear();
	}
}

static void test_first_divergence(void **state)
{
	const float y[4] = { 1, 2, 3, 4 }, bad[4] = { 1, 2, 3.5f, 4 };
	chk_recording ref, port;
	rec_report r;

	(void)state;
	/* scale goes wrong at y[2]; sum then sees other inputs: not its fault */
	program("div-ref", y, 10, "00000000000000bb", "00000000000000cc");
	program("div-port", bad, 10.5f, "00000000000000b1", "00000000000000c1");
	ref = read_log("div-ref");
	port = read_log("div-port");
	assert_int_equal(rec_compare(&r, &ref, NULL, &port, NULL, NULL), 0);
	assert_int_equal(r.kernels[0].verdict, REC_FAIL);
	assert_int_equal(r.kernels[0].stats.mismatches, 1);
	assert_int_equal(r.kernels[0].stats.first_mismatch, 2);
	assert_int_equal(r.kernels[0].arg, 1);
	assert_non_null(strstr(r.kernels[0].message, "1 of 4 values beyond tolerance, first at 2: expected 3, got 3.5"));
	assert_int_equal(r.kernels[1].verdict, REC_INPUTS_DIFFER);
	assert_int_equal(r.first_divergent, 0);
	rec_report_dispose(&r);
	chk_recording_dispose(&ref);
	chk_recording_dispose(&port);
}

static void test_nondeterministic(void **state)
{
	const float y[4] = { 1, 2, 3, 4 }, close[4] = { 1, 2, 3, 4.00001f };
	chk_recording ref, ref2, port;
	rec_report r;

	(void)state;
	/* two runs of the original differ in their last bits (atomics order):
	 * the port within tolerance passes, said nondeterministic */
	program("nd-ref", y, 10, "00000000000000bb", "00000000000000cc");
	program("nd-ref2", close, 10, "00000000000000b2", "00000000000000cc");
	program("nd-port", close, 10, "00000000000000b3", "00000000000000cc");
	ref = read_log("nd-ref");
	ref2 = read_log("nd-ref2");
	port = read_log("nd-port");
	assert_int_equal(rec_compare(&r, &ref, &ref2, &port, NULL, NULL), 0);
	assert_int_equal(r.kernels[0].verdict, REC_PASS);
	assert_true(r.kernels[0].nondeterministic);
	assert_non_null(strstr(r.kernels[0].message, "nondeterministic"));
	/* sum's input y differs between the original's runs: no input that tells, so it is compared */
	assert_int_equal(r.kernels[1].verdict, REC_PASS);
	rec_report_dispose(&r);
	chk_recording_dispose(&ref);
	chk_recording_dispose(&ref2);
	chk_recording_dispose(&port);
}

static void test_within_tolerance_chain(void **state)
{
	const float y[4] = { 1, 2, 3, 4 }, rounded[4] = { 1, 2, 3, 4.00001f };
	chk_recording ref, port;
	rec_report r;

	(void)state;
	/* the port's scale rounds otherwise (a precision fix), within tolerance:
	 * sum then reads memory judged equal, and is judged too */
	program("eq-ref", y, 10, "00000000000000bb", "00000000000000cc");
	program("eq-port", rounded, 10.00001f, "00000000000000b9", "00000000000000c9");
	ref = read_log("eq-ref");
	port = read_log("eq-port");
	assert_int_equal(rec_compare(&r, &ref, NULL, &port, NULL, NULL), 0);
	assert_int_equal(r.kernels[0].verdict, REC_PASS);
	assert_int_equal(r.kernels[1].verdict, REC_PASS);
	assert_int_equal(r.kernels[1].compared, 1);
	rec_report_dispose(&r);
	chk_recording_dispose(&ref);
	chk_recording_dispose(&port);
}

static void test_nondeterministic_spread(void **state)
{
	const float y[4] = { 1, 2, 3, 4 }, other[4] = { 1, 2.001f, 3, 4 }, near[4] = { 1.0015f, 2, 3, 4 },
		    far[4] = { 1.01f, 2, 3, 4 };
	chk_recording ref, ref2, port, bad;
	rec_report r;

	(void)state;
	/* the original's runs differ by 0.001 (floats added in another order):
	 * the port may differ by twice that, beyond f32's own tolerance, and no more */
	program("sp-ref", y, 10, "00000000000000bb", "00000000000000cc");
	program("sp-ref2", other, 10, "00000000000000b2", "00000000000000cc");
	program("sp-port", near, 10, "00000000000000b3", "00000000000000cc");
	program("sp-bad", far, 10, "00000000000000b4", "00000000000000cc");
	ref = read_log("sp-ref");
	ref2 = read_log("sp-ref2");
	port = read_log("sp-port");
	bad = read_log("sp-bad");
	assert_int_equal(rec_compare(&r, &ref, &ref2, &port, NULL, NULL), 0);
	assert_int_equal(r.kernels[0].verdict, REC_PASS);
	assert_non_null(strstr(r.kernels[0].message, "nondeterministic in the original (its runs differ by up to 0.001"));
	rec_report_dispose(&r);
	assert_int_equal(rec_compare(&r, &ref, &ref2, &bad, NULL, NULL), 0);
	assert_int_equal(r.kernels[0].verdict, REC_FAIL);
	assert_non_null(strstr(r.kernels[0].message, "beyond twice its own spread"));
	rec_report_dispose(&r);
	chk_recording_dispose(&ref);
	chk_recording_dispose(&ref2);
	chk_recording_dispose(&port);
	chk_recording_dispose(&bad);
}

static void test_counts_and_failures(void **state)
{
	const char *one = "launch 0 k a.cu:1 grid 1 1 1 block 1 1 1 shared 0 status 0 0\n"
			  "arg 0 pointer i32 0 4 0000000000000001 0000000000000002 -\n";
	const char *failed = "launch 0 k a.cu:1 grid 1 1 1 block 1 1 1 shared 0 status 0 700\n"
			     "arg 0 pointer i32 0 4 0000000000000001 0000000000000001 -\n";
	const char *nothing = "launch 0 k a.cu:1 grid 1 1 1 block 1 1 1 shared 0 status 0 0\n"
			      "arg 0 pointer i32 0 4 0000000000000001 0000000000000001 -\n";
	char two[512];

	(void)state;
	snprintf(two, sizeof(two), "%s%s", one, "launch 1 k a.cu:1 grid 1 1 1 block 1 1 1 shared 0 status 0 0\n");
	put("cnt-ref", "launches.log", one, strlen(one));
	put("cnt-port", "launches.log", two, strlen(two));
	expect_kernel("cnt-ref", "cnt-port", REC_ERROR, "launched 1 times in the original, 2 in the port");
	put("fail-port", "launches.log", failed, strlen(failed));
	expect_kernel("cnt-ref", "fail-port", REC_ERROR, "failed in the port (status 0, 700; the original's 0, 0)");
	/* a kernel that changed nothing an argument reaches compared nothing: no pass */
	put("none-ref", "launches.log", nothing, strlen(nothing));
	expect_kernel("none-ref", "none-ref", REC_ERROR, "nothing compared");
}

/* A run of kernel k launched twice into one int: launch 0 with statuses s0
 * s1, launch 1 with t0 t1, the int value after both. */
static void statuses(const char *run, int s0, int s1, int t0, int t1, int value)
{
	char log[1024];

	snprintf(log, sizeof(log),
		 "launch 0 k a.cu:1 grid 1 1 1 block 1 1 1 shared 0 status %d %d\n"
		 "arg 0 pointer i32 0 4 0000000000000001 %016x 0.0.bin\n"
		 "launch 1 k a.cu:1 grid 1 1 1 block 1 1 1 shared 0 status %d %d\n"
		 "arg 0 pointer i32 0 4 %016x %016x 1.0.bin\n",
		 s0, s1, (unsigned)value, t0, t1, (unsigned)value, (unsigned)value);
	put(run, "launches.log", log, strlen(log));
	put(run, "0.0.bin", &value, sizeof(value));
	put(run, "1.0.bin", &value, sizeof(value));
}

/* A launch that fails alike on both sides (simpleAssert's kernel asserts on
 * purpose: 710 on both) is no fault of the port: its outputs are compared
 * and the equal statuses noted. The port is blamed only for a status of its
 * own; a launch only the original failed blames the original. */
static void test_failed_alike(void **state)
{
	(void)state;
	statuses("alike-ref", 0, 710, 710, 710, 7);
	statuses("alike-port", 0, 710, 710, 710, 7);
	expect_kernel("alike-ref", "alike-port", REC_PASS, "2 launches, 1 output compared");
	expect_kernel("alike-ref", "alike-port", REC_PASS,
		      "note: launch 0 (and 1 later ones) failed in the original too, with equal statuses (0, 710 on both sides)");
	/* equal statuses, other outputs: compared as usual, a fail */
	statuses("alike-bad", 0, 710, 710, 710, 8);
	expect_kernel("alike-ref", "alike-bad", REC_FAIL, "1 of 1 values beyond tolerance");
	expect_kernel("alike-ref", "alike-bad", REC_FAIL, "equal statuses (0, 710 on both sides)");
	/* a status of the port's own is its failure, whatever the original's */
	statuses("alike-other", 0, 710, 0, 700, 7);
	expect_kernel("alike-ref", "alike-other", REC_ERROR,
		      "launch 1 failed in the port (status 0, 700; the original's 710, 710)");
	/* the original alone failed: not the port */
	statuses("orig-fails", 0, 0, 0, 0, 7);
	expect_kernel("alike-ref", "orig-fails", REC_ERROR, "launch 0 failed in the original (status 0, 710), not in the port");
}

/* An output above HIPPORT_RECORD_MAX is hashed only: where the original's two
 * runs differ on it, the port's other hash is no fail; the port with one of
 * the original's hashes passes. */
static void test_hashed_nondeterministic(void **state)
{
	const char *log = "launch 0 k a.cu:1 grid 1 1 1 block 1 1 1 shared 0 status 0 0\n"
			  "arg 0 pointer f32 0 1048576 0000000000000001 %s -\n";
	char text[512];
	chk_recording a, a2, b;
	rec_report r;

	(void)state;
	snprintf(text, sizeof(text), log, "00000000000000a1");
	put("hash-ref", "launches.log", text, strlen(text));
	snprintf(text, sizeof(text), log, "00000000000000a2");
	put("hash-ref2", "launches.log", text, strlen(text));
	snprintf(text, sizeof(text), log, "00000000000000a3");
	put("hash-port", "launches.log", text, strlen(text));
	a = read_log("hash-ref");
	a2 = read_log("hash-ref2");
	b = read_log("hash-port");
	assert_int_equal(rec_compare(&r, &a, &a2, &b, NULL, NULL), 0);
	assert_int_not_equal(r.kernels[0].verdict, REC_FAIL);
	assert_int_equal(r.first_divergent, -1);
	assert_true(r.kernels[0].nondeterministic);
	assert_non_null(strstr(r.kernels[0].message, "nondeterministic in the original (two runs differ), hashed only"));
	rec_report_dispose(&r);
	/* the port as the original's second run: a pass */
	assert_int_equal(rec_compare(&r, &a, &a2, &a2, NULL, NULL), 0);
	assert_int_equal(r.kernels[0].verdict, REC_PASS);
	rec_report_dispose(&r);
	/* the original agreeing with itself: floats from another compiler
	 * cannot be judged by their hash ... */
	assert_int_equal(rec_compare(&r, &a, &a, &b, NULL, NULL), 0);
	assert_int_equal(r.kernels[0].verdict, REC_ERROR);
	assert_non_null(strstr(r.kernels[0].message, "raise HIPPORT_RECORD_MAX"));
	rec_report_dispose(&r);
	/* ... nor from the same compiler (a precision fix changes bytes), but
	 * there it is where the port first computed otherwise */
	snprintf(b.platform, sizeof(b.platform), "nvidia-proxy");
	assert_int_equal(rec_compare(&r, &a, &a, &b, NULL, NULL), 0);
	assert_int_equal(r.kernels[0].verdict, REC_ERROR);
	assert_true(r.kernels[0].inexact);
	assert_int_equal(r.first_divergent, 0);
	rec_report_dispose(&r);
	chk_recording_dispose(&a);
	chk_recording_dispose(&a2);
	chk_recording_dispose(&b);
}

/* From the same compiler (the port on nvidia-proxy), a deterministic
 * output within tolerance but not bit-exact names the first divergence (a
 * warp reduction over too few lanes moves a softmax by a few ulp); from
 * another compiler it is rounding, and no divergence. */
static void test_inexact_same_compiler(void **state)
{
	const float y[4] = { 2, 4, 6, 8 }, y1[4] = { 2, 4, 6, 8.000001f };
	chk_recording a, b;
	rec_report r;
	char *text;

	(void)state;
	program("ix-ref", y, 20, "00000000000000b1", "00000000000000c1");
	program("ix-port", y1, 20, "00000000000000b2", "00000000000000c1");
	put("ix-port", "platform", "nvidia-proxy\n", 13);
	a = read_log("ix-ref");
	b = read_log("ix-port");
	assert_string_equal(b.platform, "nvidia-proxy");
	assert_int_equal(rec_compare(&r, &a, &a, &b, NULL, NULL), 0);
	assert_true(r.same_compiler);
	assert_int_equal(r.kernels[0].verdict, REC_PASS);
	assert_true(r.kernels[0].inexact);
	assert_int_equal(r.first_divergent, 0);
	text = report_text(&r);
	assert_non_null(strstr(text, "first divergence: scale (main.cu:10), its launch 0"));
	assert_non_null(strstr(text, "not bit-exact, max ulp 1"));
	assert_null(strstr(text, "first failure"));
	free(text);
	rec_report_dispose(&r);
	/* a later kernel fails (a wrong port after a fix that rounds otherwise):
	 * named as the first failure beside the first divergence */
	program("ix-bad", y1, 25, "00000000000000b2", "00000000000000c9");
	put("ix-bad", "platform", "nvidia-proxy\n", 13);
	{
		chk_recording bad = read_log("ix-bad");

		assert_int_equal(rec_compare(&r, &a, &a, &bad, NULL, NULL), 0);
		assert_int_equal(r.kernels[1].verdict, REC_FAIL);
		assert_int_equal(r.first_divergent, 0);
		assert_int_equal(r.first_failed, 1);
		text = report_text(&r);
		assert_non_null(strstr(text, "first failure: sum (main.cu:11), its launch 0 (launch 1 of the port's run)"));
		free(text);
		rec_report_dispose(&r);
		chk_recording_dispose(&bad);
	}
	/* the port on AMD: rounding, no divergence */
	b.platform[0] = '\0';
	assert_int_equal(rec_compare(&r, &a, &a, &b, NULL, NULL), 0);
	assert_false(r.kernels[0].inexact);
	assert_int_equal(r.first_divergent, -1);
	rec_report_dispose(&r);
	chk_recording_dispose(&a);
	chk_recording_dispose(&b);
}

/* A run stopped at HIPPORT_RECORD_TIMEOUT (record.sh's cut mark) is
 * compared over the launches it made; one that ended by itself with fewer
 * launches is an error. */
static void test_cut_run(void **state)
{
	const char *two = "launch 0 k a.cu:1 grid 1 1 1 block 1 1 1 shared 0 status 0 0\n"
			  "arg 0 pointer i32 0 4 0000000000000001 0000000000000002 -\n"
			  "launch 1 k a.cu:1 grid 1 1 1 block 1 1 1 shared 0 status 0 0\n"
			  "arg 0 pointer i32 0 4 0000000000000002 0000000000000003 -\n";
	const char *one = "launch 0 k a.cu:1 grid 1 1 1 block 1 1 1 shared 0 status 0 0\n"
			  "arg 0 pointer i32 0 4 0000000000000001 0000000000000002 -\n";
	chk_recording a, b;
	rec_report r;

	(void)state;
	put("cut-ref", "launches.log", two, strlen(two));
	put("cut-port", "launches.log", one, strlen(one));
	a = read_log("cut-ref");
	b = read_log("cut-port");
	assert_int_equal(rec_compare(&r, &a, NULL, &b, NULL, NULL), 0);
	assert_int_equal(r.kernels[0].verdict, REC_ERROR);
	assert_non_null(strstr(r.kernels[0].message, "launched 2 times in the original, 1 in the port"));
	rec_report_dispose(&r);
	chk_recording_dispose(&b);
	put("cut-port", "cut", "HIPPORT_RECORD_TIMEOUT=30\n", 26);
	b = read_log("cut-port");
	assert_true(b.cut);
	assert_int_equal(rec_compare(&r, &a, NULL, &b, NULL, NULL), 0);
	assert_int_equal(r.kernels[0].verdict, REC_PASS);
	assert_non_null(strstr(r.kernels[0].message, "the port's run was stopped at HIPPORT_RECORD_TIMEOUT: its 1 launches "
						     "compared, the other's 1 more not"));
	rec_report_dispose(&r);
	chk_recording_dispose(&a);
	chk_recording_dispose(&b);
}

/* An original that failed in its first run and not in its second is flaky
 * on the machine: the second run is the reference, said in a note. */
static void test_flaky_original(void **state)
{
	const char *bad = "launch 0 k a.cu:1 grid 1 1 1 block 1 1 1 shared 0 status 0 719\n"
			  "arg 0 pointer i32 0 4 0000000000000001 0000000000000009 -\n";
	const char *good = "launch 0 k a.cu:1 grid 1 1 1 block 1 1 1 shared 0 status 0 0\n"
			   "arg 0 pointer i32 0 4 0000000000000001 0000000000000002 -\n";
	chk_recording a, a2, b;
	rec_report r;
	char *text;

	(void)state;
	put("flaky-ref", "launches.log", bad, strlen(bad));
	put("flaky-ref2", "launches.log", good, strlen(good));
	a = read_log("flaky-ref");
	a2 = read_log("flaky-ref2");
	b = read_log("flaky-ref2");
	assert_int_equal(rec_compare(&r, &a, &a2, &b, NULL, NULL), 0);
	assert_true(r.swapped);
	assert_int_equal(r.kernels[0].verdict, REC_PASS);
	text = report_text(&r);
	assert_non_null(strstr(text, "the original's first run had 1 failed launch, its second 0"));
	free(text);
	rec_report_dispose(&r);
	chk_recording_dispose(&a);
	chk_recording_dispose(&a2);
	chk_recording_dispose(&b);
}

/* Launches past HIPPORT_RECORD_LAUNCHES carry their status only: counted,
 * their failures reported, never compared or blamed for other inputs. */
static void test_uncaptured(void **state)
{
	const char *ref = "launch 0 k a.cu:1 grid 1 1 1 block 1 1 1 shared 0 status 0 0\n"
			  "arg 0 pointer i32 0 4 0000000000000001 0000000000000002 -\n"
			  "launch 1 k a.cu:1 grid 1 1 1 block 1 1 1 shared 0 status 0 0 uncaptured\n"
			  "launch 2 k a.cu:1 grid 1 1 1 block 1 1 1 shared 0 status 0 0 uncaptured\n";
	const char *bad = "launch 0 k a.cu:1 grid 1 1 1 block 1 1 1 shared 0 status 0 0\n"
			  "arg 0 pointer i32 0 4 0000000000000001 0000000000000002 -\n"
			  "launch 1 k a.cu:1 grid 1 1 1 block 1 1 1 shared 0 status 0 0 uncaptured\n"
			  "launch 2 k a.cu:1 grid 1 1 1 block 1 1 1 shared 0 status 0 700 uncaptured\n";
	chk_recording a, b;
	rec_report r;

	(void)state;
	put("unc-ref", "launches.log", ref, strlen(ref));
	put("unc-bad", "launches.log", bad, strlen(bad));
	a = read_log("unc-ref");
	b = read_log("unc-ref");
	assert_true(a.launches[1].uncaptured);
	assert_false(a.launches[0].uncaptured);
	assert_int_equal(rec_compare(&r, &a, NULL, &b, NULL, NULL), 0);
	assert_int_equal(r.kernels[0].verdict, REC_PASS);
	assert_int_equal(r.kernels[0].launches, 3);
	assert_int_equal(r.kernels[0].uncaptured, 2);
	assert_int_equal(r.kernels[0].compared, 1);
	assert_non_null(strstr(r.kernels[0].message, "3 launches (2 past HIPPORT_RECORD_LAUNCHES: status only)"));
	rec_report_dispose(&r);
	chk_recording_dispose(&a);
	chk_recording_dispose(&b);
	expect_kernel("unc-ref", "unc-bad", REC_ERROR, "launch 2 failed in the port");
}

/* A pointer a struct argument holds is captured as an argument of its own
 * and named by where it sits. */
static void test_struct_field(void **state)
{
	const unsigned char good[4] = { 1, 2, 3, 4 }, bad[4] = { 1, 2, 9, 4 };
	const char *log = "launch 0 k a.cu:1 grid 1 1 1 block 1 1 1 shared 0 status 0 0\n"
			  "arg 0 scalar bytes 0011223344556677\n"
			  "arg 1 pointer bytes 0 4 0000000000000001 %s 0.1.bin in 0+8\n";
	char text[512];
	chk_recording a, b;
	rec_report r;

	(void)state;
	snprintf(text, sizeof(text), log, "0000000000000002");
	put("fld-ref", "launches.log", text, strlen(text));
	put("fld-ref", "0.1.bin", good, sizeof(good));
	snprintf(text, sizeof(text), log, "0000000000000003");
	put("fld-port", "launches.log", text, strlen(text));
	put("fld-port", "0.1.bin", bad, sizeof(bad));
	a = read_log("fld-ref");
	b = read_log("fld-port");
	assert_int_equal(a.launches[0].args[1].owner, 0);
	assert_int_equal(a.launches[0].args[1].at, 8);
	assert_int_equal(a.launches[0].args[0].owner, -1);
	assert_int_equal(rec_compare(&r, &a, NULL, &b, NULL, NULL), 0);
	assert_int_equal(r.kernels[0].verdict, REC_FAIL);
	assert_non_null(strstr(r.kernels[0].message, "argument 1 (the pointer at byte 8 of argument 0), u8: 1 of 4 values"));
	rec_report_dispose(&r);
	chk_recording_dispose(&a);
	chk_recording_dispose(&b);
}

static void test_bad_log(void **state)
{
	const char *bad = "launch 0 k a.cu:1 grid 1 1 1 block 1 1 1 shared 0 status 0 0\narg 5 pointer f32 what\n";
	char path[1024];
	chk_recording log;

	(void)state;
	put("bad", "launches.log", bad, strlen(bad));
	snprintf(path, sizeof(path), "%s/bad", root);
	assert_int_equal(chk_recording_read(&log, path), UTIL_EINPUT);
	assert_non_null(strstr(util_error_last(), "launches.log:2: not an argument"));
	util_error_clear();
	/* a scalar's bytes are whole bytes of lowercase hex */
	bad = "launch 0 k a.cu:1 grid 1 1 1 block 1 1 1 shared 0 status 0 0\narg 0 scalar i32 0400zz00\n";
	put("badhex", "launches.log", bad, strlen(bad));
	snprintf(path, sizeof(path), "%s/badhex", root);
	assert_int_equal(chk_recording_read(&log, path), UTIL_EINPUT);
	util_error_clear();
	bad = "launch 0 k a.cu:1 grid 1 1 1 block 1 1 1 shared 0 status 0 0\narg 0 scalar i32 0400000\n";
	put("oddhex", "launches.log", bad, strlen(bad));
	snprintf(path, sizeof(path), "%s/oddhex", root);
	assert_int_equal(chk_recording_read(&log, path), UTIL_EINPUT);
	util_error_clear();
	snprintf(path, sizeof(path), "%s/missing", root);
	assert_true(chk_recording_read(&log, path) < 0);
	util_error_clear();
}

/* A kernel that writes nothing and prints: its lines compared, sorted
 * (threads print in no fixed order), numbers within 1e-5. */
static void printer(const char *run, const char *text)
{
	char log[512];

	put(run, "0.printf", text, strlen(text));
	snprintf(log, sizeof(log),
		 "launch 0 walk list.cu:9 grid 1 1 1 block 2 1 1 shared 0 status 0 0\n"
		 "arg 0 pointer i32 0 16 00000000000000aa 00000000000000aa -\n"
		 "printed %zu %016llx 0.printf\n",
		 strlen(text), (unsigned long long)chk_rec_hash((const unsigned char *)text, strlen(text)));
	put(run, "launches.log", log, strlen(log));
}

static void test_printed(void **state)
{
	(void)state;
	printer("pr-ref", "element 0: 1.5\nelement 1: 2.25\n");
	printer("pr-same", "element 1: 2.2500001\nelement 0: 1.5\n");
	printer("pr-other", "element 0: 1.5\nelement 1: 7\n");
	expect_kernel("pr-ref", "pr-same", REC_PASS, "1 output compared");
	expect_kernel("pr-ref", "pr-other", REC_FAIL,
		      "launch 0: printed 2 lines, the original 2; sorted, line 1 differs: expected \"element 1: 2.25\", "
		      "got \"element 1: 7\"");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pass),
		cmocka_unit_test(test_first_divergence),
		cmocka_unit_test(test_clock_readings),
		cmocka_unit_test(test_times),
		cmocka_unit_test(test_nondeterministic),
		cmocka_unit_test(test_nondeterministic_spread),
		cmocka_unit_test(test_within_tolerance_chain),
		cmocka_unit_test(test_counts_and_failures),
		cmocka_unit_test(test_failed_alike),
		cmocka_unit_test(test_hashed_nondeterministic),
		cmocka_unit_test(test_inexact_same_compiler),
		cmocka_unit_test(test_cut_run),
		cmocka_unit_test(test_flaky_original),
		cmocka_unit_test(test_uncaptured),
		cmocka_unit_test(test_struct_field),
		cmocka_unit_test(test_bad_log),
		cmocka_unit_test(test_printed),
	};

	return cmocka_run_group_tests(tests, setup, NULL);
}
