/* Kernel timing (check/perf): a check's "time" object read and held to
 * account, the verdict against the budget with the spread, and the peak
 * bandwidth table. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include "check/perf/perf.h"
#include "util/error.h"

static perf_timing parse(const char *text, int expect)
{
	json_error_t e;
	json_t *j = json_loads(text, 0, &e);
	perf_timing t;

	assert_non_null(j);
	assert_int_equal(perf_timing_read(&t, j) < 0, expect < 0);
	json_decref(j);
	return t;
}

static void timing_read(void **state)
{
	perf_timing t;

	(void)state;
	t = parse("{\"reference\": {\"median_us\": 10, \"q1_us\": 9, \"q3_us\": 11, \"runs\": 25, \"device\": \"NVIDIA H100 "
		  "80GB HBM3\"}, \"port\": null, \"bytes\": 4096, \"note\": \"HIPPORT_TIME=0\"}",
		  0);
	assert_true(t.ref.measured);
	assert_false(t.port.measured);
	assert_int_equal(t.ref.runs, 25);
	assert_string_equal(t.note, "HIPPORT_TIME=0");
	/* quartiles that do not hold the median, no runs, negative bytes */
	parse("{\"port\": {\"median_us\": 10, \"q1_us\": 11, \"q3_us\": 12, \"runs\": 5, \"device\": \"x\"}}", -1);
	assert_non_null(strstr(util_error_last(), "time.port"));
	util_error_clear();
	parse("{\"port\": {\"median_us\": 10, \"q1_us\": 9, \"q3_us\": 12, \"runs\": 0, \"device\": \"x\"}}", -1);
	util_error_clear();
	parse("{\"bytes\": -1}", -1);
	util_error_clear();
	assert_int_equal(perf_timing_read(&t, NULL), 0);
	assert_false(t.ref.measured || t.port.measured);
}

static perf_timing sides(double ref, double ref_q1, double ref_q3, double port, double port_q1, double port_q3)
{
	perf_timing t;

	memset(&t, 0, sizeof(t));
	t.ref = (perf_side){ true, ref, ref_q1, ref_q3, 25, "NVIDIA H100 80GB HBM3" };
	t.port = (perf_side){ true, port, port_q1, port_q3, 25, "NVIDIA H100 80GB HBM3" };
	t.bytes = 3.35e12; /* 1 s of the H100's peak */
	return t;
}

static void verdict(void **state)
{
	perf_timing t = sides(100, 99, 101, 200, 198, 202);
	perf_verdict v;

	(void)state;
	perf_judge(&v, &t, 0.8);
	assert_true(v.comparable && v.same_gpu);
	assert_true(v.slow); /* 0.5x, and at best 101/198 */
	assert_true(v.ratio > 0.49 && v.ratio < 0.51);
	/* 0.75x by the medians, but the spread reaches 0.8: not called slow */
	t = sides(75, 70, 85, 100, 90, 104);
	perf_judge(&v, &t, 0.8);
	assert_true(v.ratio < 0.8);
	assert_false(v.slow);
	/* bandwidth and its share of the device's peak */
	t = sides(1e6, 1e6, 1e6, 2e6, 2e6, 2e6);
	perf_judge(&v, &t, 0.8);
	assert_true(v.gbps > 1674 && v.gbps < 1676);
	assert_true(v.peak_gbps == 3350);
	/* one side alone: nothing to compare */
	t.ref.measured = false;
	perf_judge(&v, &t, 0.8);
	assert_false(v.comparable || v.slow);
}

static void peaks(void **state)
{
	const char *source;

	(void)state;
	assert_true(perf_gpu_peak("AMD Instinct MI300X", &source) == 5300);
	assert_non_null(strstr(source, "amd.com"));
	assert_true(perf_gpu_peak("NVIDIA H200", NULL) == 4800);
	assert_true(perf_gpu_peak("NVIDIA H100 PCIe", NULL) == 2000);
	assert_true(perf_gpu_peak("nvidia a100-sxm4-80gb", NULL) == 2039);
	/* a device in no row has no peak: never a guess */
	assert_true(perf_gpu_peak("mock device", &source) == 0);
	assert_null(source);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(timing_read),
		cmocka_unit_test(verdict),
		cmocka_unit_test(peaks),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
