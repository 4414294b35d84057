/* The comparison code shared with check bundles: conversions, errors,
 * tolerances, NaN/Inf placement, the first mismatch. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <string.h>

#include "check/kernel/compare.h"

static void test_f16_round_trip(void **state)
{
	unsigned i;

	(void)state;
	for (i = 0; i < 65536; i++) {
		if (((i >> 10) & 0x1f) == 0x1f && (i & 0x3ff))
			continue; /* NaNs keep NaN-ness, not their payload */
		assert_int_equal(chk_f32_to_f16(chk_f16_to_f32((uint16_t)i)), i);
	}
	assert_int_equal(chk_f32_to_f16(1.0f), 0x3c00);
	assert_int_equal(chk_f32_to_f16(65504.0f), 0x7bff);
	assert_int_equal(chk_f32_to_f16(65520.0f), 0x7c00);  /* rounds to infinity */
	assert_int_equal(chk_f32_to_f16(1.0f + 1.0f / 2048), 0x3c00); /* a tie rounds to even */
	assert_int_equal(chk_f32_to_f16(5.96046448e-8f), 0x0001);      /* the smallest subnormal */
	assert_true(isnan(chk_f16_to_f32(chk_f32_to_f16(NAN))));
}

static void test_bf16(void **state)
{
	(void)state;
	assert_int_equal(chk_f32_to_bf16(1.0f), 0x3f80);
	assert_true(chk_bf16_to_f32(chk_f32_to_bf16(3.14159f)) == 3.140625f);
	assert_true(isnan(chk_bf16_to_f32(chk_f32_to_bf16(NAN))));
}

static void test_ulp(void **state)
{
	(void)state;
	assert_true(chk_ulp_distance(CHK_F32, 1.0, nextafterf(1.0f, 2.0f)) == 1);
	assert_true(chk_ulp_distance(CHK_F32, -0.0, 0.0) == 0);
	assert_true(chk_ulp_distance(CHK_F32, -nextafterf(0, 1), nextafterf(0, 1)) == 2); /* across zero */
	assert_true(chk_ulp_distance(CHK_F16, 1.0, 1.0 + 1.0 / 1024) == 1);
	assert_true(chk_ulp_distance(CHK_BF16, 1.0, 1.0 + 1.0 / 128) == 1);
	assert_true(chk_ulp_distance(CHK_F64, 1.0, nextafter(1.0, 2.0)) == 1);
}

static void test_compare_f32(void **state)
{
	float ref[4] = { 1.0f, 2.0f, 3.0f, 4.0f }, got[4] = { 1.0f, 2.00001f, 3.5f, 4.0f };
	chk_tolerance tol = { 1e-4, 0, 0 };
	chk_stats st;

	(void)state;
	assert_int_equal(chk_compare(&st, CHK_F32, ref, got, 4, &tol), 0);
	assert_int_equal(st.mismatches, 1);
	assert_int_equal(st.first_mismatch, 2);
	assert_true(st.expected_at_first == 3.0 && st.got_at_first == 3.5);
	assert_true(fabs(st.max_abs - 0.5) < 1e-9);
	assert_true(fabs(st.max_rel - 0.5 / 3) < 1e-9);
	tol.rel = 0.2; /* 0.5 <= 1e-4 + 0.2 * 3 */
	assert_int_equal(chk_compare(&st, CHK_F32, ref, got, 4, &tol), 1);
	tol.abs = tol.rel = 0;
	tol.ulp = 100;  /* 2.00001 is some 84 ULPs from 2; 3.5 is millions */
	assert_int_equal(chk_compare(&st, CHK_F32, ref, got, 4, &tol), 0);
	assert_int_equal(st.mismatches, 1);
}

static void test_compare_f16_tolerance(void **state)
{
	uint16_t ref[2], got[2];
	chk_tolerance tol = { 1e-2, 1e-2, 2 };
	chk_stats st;

	(void)state;
	ref[0] = chk_f32_to_f16(0.5f);
	got[0] = (uint16_t)(ref[0] + 1); /* one fp16 ULP */
	ref[1] = chk_f32_to_f16(100.0f);
	got[1] = chk_f32_to_f16(101.0f); /* 1 % off: abs 1 > 0.01 + 0.01 * 100? no: 1 <= 1.01 */
	assert_int_equal(chk_compare(&st, CHK_F16, ref, got, 2, &tol), 1);
	got[1] = chk_f32_to_f16(103.0f);
	assert_int_equal(chk_compare(&st, CHK_F16, ref, got, 2, &tol), 0);
	assert_int_equal(st.first_mismatch, 1);
	assert_true(st.max_ulp >= 10);
}

static void test_nan_inf(void **state)
{
	float ref[5] = { NAN, 1.0f, INFINITY, -INFINITY, 2.0f };
	float got[5] = { NAN, NAN, INFINITY, INFINITY, 2.0f };
	chk_tolerance tol = { 1, 1, 1000 };
	chk_stats st;

	(void)state;
	assert_int_equal(chk_compare(&st, CHK_F32, ref, got, 5, &tol), 0);
	assert_int_equal(st.nan_mismatches, 1);   /* NaN where 1.0 was expected */
	assert_int_equal(st.inf_mismatches, 1);   /* +Inf where -Inf was */
	assert_int_equal(st.mismatches, 2);
	assert_int_equal(st.first_mismatch, 1);
	got[1] = 1.0f;
	got[3] = -INFINITY;
	assert_int_equal(chk_compare(&st, CHK_F32, ref, got, 5, &tol), 1); /* NaN matches NaN in place */
}

static void test_integers_exact(void **state)
{
	int32_t ref[3] = { 5, -7, 1 << 30 }, got[3] = { 5, -7, (1 << 30) + 1 };
	uint64_t big_ref[1] = { 0xffffffffffffffffull }, big_got[1] = { 0xfffffffffffffffeull };
	chk_tolerance tol = { 0, 0, 0 };
	chk_stats st;

	(void)state;
	assert_int_equal(chk_compare(&st, CHK_I32, ref, got, 3, &tol), 0);
	assert_int_equal(st.first_mismatch, 2);
	assert_true(st.max_abs == 1);
	/* differences below a double's precision still count: the bits differ */
	assert_int_equal(chk_compare(&st, CHK_U64, big_ref, big_got, 1, &tol), 0);
}

static void test_fill_deterministic(void **state)
{
	float a[64], b[64];
	int32_t ints[1000];
	size_t i;

	(void)state;
	chk_fill_uniform(CHK_F32, a, 64, -1, 1, 1234);
	chk_fill_uniform(CHK_F32, b, 64, -1, 1, 1234);
	assert_memory_equal(a, b, sizeof(a));
	for (i = 0; i < 64; i++)
		assert_true(a[i] >= -1 && a[i] < 1);
	chk_fill_uniform(CHK_F32, b, 64, -1, 1, 1235);
	assert_memory_not_equal(a, b, sizeof(a));
	chk_fill_uniform(CHK_I32, ints, 1000, 0, 16, 1);
	for (i = 0; i < 1000; i++)
		assert_true(ints[i] >= 0 && ints[i] < 16);
	chk_fill_iota(CHK_I32, ints, 3, 10, 2);
	assert_int_equal(ints[2], 14);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_f16_round_trip), cmocka_unit_test(test_bf16),
		cmocka_unit_test(test_ulp), cmocka_unit_test(test_compare_f32),
		cmocka_unit_test(test_compare_f16_tolerance), cmocka_unit_test(test_nan_inf),
		cmocka_unit_test(test_integers_exact), cmocka_unit_test(test_fill_deterministic),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
