/* Kernel timing (check/perf): a check's "time" object read and held to
 * account, the verdict against the budget with the spread, and the peak
 * bandwidth table. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include <stdlib.h>

#include "check/perf/perf.h"
#include "check/perf/resources.h"
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

static void resources(void **state)
{
	/* as hipcc 7.0 (clang 21) prints them, a line of source between, and
	 * an older clang's "SGPRs" */
	static const char output[] =
		"k.hip:2:1: remark: Function Name: _Z5scalePfi [-Rpass-analysis=kernel-resource-usage]\n"
		"    2 | __global__ void scale(float *x, int n) { ... }\n"
		"      | ^\n"
		"k.hip:2:1: remark:     TotalSGPRs: 11 [-Rpass-analysis=kernel-resource-usage]\n"
		"k.hip:2:1: remark:     VGPRs: 3 [-Rpass-analysis=kernel-resource-usage]\n"
		"k.hip:2:1: remark:     AGPRs: 0 [-Rpass-analysis=kernel-resource-usage]\n"
		"k.hip:2:1: remark:     ScratchSize [bytes/lane]: 0 [-Rpass-analysis=kernel-resource-usage]\n"
		"k.hip:2:1: remark:     Dynamic Stack: False [-Rpass-analysis=kernel-resource-usage]\n"
		"k.hip:2:1: remark:     Occupancy [waves/SIMD]: 8 [-Rpass-analysis=kernel-resource-usage]\n"
		"k.hip:2:1: remark:     SGPRs Spill: 0 [-Rpass-analysis=kernel-resource-usage]\n"
		"k.hip:2:1: remark:     VGPRs Spill: 0 [-Rpass-analysis=kernel-resource-usage]\n"
		"k.hip:2:1: remark:     LDS Size [bytes/block]: 0 [-Rpass-analysis=kernel-resource-usage]\n"
		"src/a/b.cu:30:1: remark: Function Name: _ZN12_GLOBAL__N_13bigILi256EEEvPf "
		"[-Rpass-analysis=kernel-resource-usage]\n"
		"src/a/b.cu:30:1: remark:     SGPRs: 40 [-Rpass-analysis=kernel-resource-usage]\n"
		"src/a/b.cu:30:1: remark:     VGPRs: 128 [-Rpass-analysis=kernel-resource-usage]\n"
		"src/a/b.cu:30:1: remark:     ScratchSize [bytes/lane]: 96 [-Rpass-analysis=kernel-resource-usage]\n"
		"src/a/b.cu:30:1: remark:     Occupancy [waves/SIMD]: 4 [-Rpass-analysis=kernel-resource-usage]\n"
		"src/a/b.cu:30:1: remark:     VGPRs Spill: 23 [-Rpass-analysis=kernel-resource-usage]\n"
		"src/a/b.cu:30:1: remark:     LDS Size [bytes/block]: 4096 [-Rpass-analysis=kernel-resource-usage]\n"
		"src/a/b.cu:31:5: warning: loop not unrolled [-Wpass-failed=transform-warning]\n";
	perf_resources *k;
	size_t n;

	(void)state;
	assert_int_equal(perf_resources_parse(&k, &n, output), 0);
	assert_int_equal(n, 2);
	assert_string_equal(k[0].name, "scale");
	assert_string_equal(k[0].where, "k.hip:2");
	assert_int_equal(k[0].sgprs, 11);
	assert_int_equal(k[0].vgprs, 3);
	assert_int_equal(k[0].occupancy, 8);
	assert_false(perf_resources_notable(&k[0]));
	assert_string_equal(k[1].name, "(anonymous)::big");
	assert_string_equal(k[1].where, "src/a/b.cu:30");
	assert_int_equal(k[1].sgprs, 40);
	assert_int_equal(k[1].vgpr_spill, 23);
	assert_int_equal(k[1].scratch, 96);
	assert_int_equal(k[1].lds, 4096);
	assert_true(perf_resources_notable(&k[1]));
	free(k);
	assert_int_equal(perf_resources_parse(&k, &n, "no remarks\n"), 0);
	assert_int_equal(n, 0);
	assert_null(k);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(timing_read),
		cmocka_unit_test(verdict),
		cmocka_unit_test(peaks),
		cmocka_unit_test(resources),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
