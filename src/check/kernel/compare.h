/* Output comparison for kernel checks: plain C (C11 and C++11), with no
 * hipport dependencies. It is compiled into hipport and copied into every
 * check bundle, where the generated harness includes it, so that the numbers
 * a bundle reports and the ones hipport computes come from the same code.
 * Element types (dtypes), the deterministic input generator, half and
 * bfloat16 conversions, error statistics and their JSON form. */
#ifndef HIPPORT_CHECK_COMPARE_H
#define HIPPORT_CHECK_COMPARE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef enum chk_dtype {
	CHK_F16, CHK_BF16, CHK_F32, CHK_F64,
	CHK_I8, CHK_U8, CHK_I16, CHK_U16, CHK_I32, CHK_U32, CHK_I64, CHK_U64,
	CHK_DTYPE_COUNT
} chk_dtype;

/* "f16", "bf16", "f32", ...; chk_dtype_parse returns -1 for an unknown name. */
const char *chk_dtype_name(chk_dtype t);
int chk_dtype_parse(const char *name);
size_t chk_dtype_size(chk_dtype t);
int chk_dtype_is_float(chk_dtype t);

/* IEEE binary16 and bfloat16 from and to float, rounding to nearest even. */
float chk_f16_to_f32(uint16_t h);
uint16_t chk_f32_to_f16(float f);
float chk_bf16_to_f32(uint16_t b);
uint16_t chk_f32_to_bf16(float f);

/* Element i of buf as a double, and v stored as element i (converted, with
 * integers truncated toward zero). */
double chk_load(chk_dtype t, const void *buf, size_t i);
void chk_store(chk_dtype t, void *buf, size_t i, double v);

/* splitmix64: the generator of every input, the same on every platform. */
uint64_t chk_splitmix64(uint64_t *state);

/* Inputs: n elements uniform in [lo, hi) from seed (integers: lo..hi-1),
 * constant v, or start, start + step, ... */
void chk_fill_uniform(chk_dtype t, void *buf, size_t n, double lo, double hi, uint64_t seed);
void chk_fill_constant(chk_dtype t, void *buf, size_t n, double v);
void chk_fill_iota(chk_dtype t, void *buf, size_t n, double start, double step);

/* An element passes when it is bit-identical, or both are NaN, or its
 * absolute error is at most abs + rel * |reference|, or it lies at most ulp
 * units in the last place away. Integers pass within abs (+ rel), and
 * only when equal with abs 0. */
typedef struct chk_tolerance {
	double abs, rel, ulp;
} chk_tolerance;

/* A dtype's tolerance when the spec gives none: a few units in the last
 * place, and 1e-2 for the 16-bit floats (the harness's too, for a type
 * whose dtype only the compiler knows). */
chk_tolerance chk_default_tolerance(chk_dtype t);

typedef struct chk_stats {
	size_t count;
	size_t mismatches;
	size_t first_mismatch;     /* index, or (size_t)-1 when none */
	double expected_at_first, got_at_first;
	size_t nan_mismatches;     /* NaN on one side only */
	size_t inf_mismatches;     /* an infinity on one side only, or of the other sign */
	double max_abs, max_rel, max_ulp; /* over elements finite on both sides */
} chk_stats;

/* Compares got with the reference ref, n elements each; 1 when every
 * element passes. */
int chk_compare(chk_stats *out, chk_dtype t, const void *ref, const void *got, size_t n,
		const chk_tolerance *tol);

/* Distance in units in the last place between two values of a float dtype
 * (0 for integers' equal values, else |a - b|). */
double chk_ulp_distance(chk_dtype t, double a, double b);

/* FNV-1a over bytes, as 16 hex digits in out. */
void chk_checksum(char out[17], const void *data, size_t len);

/* s as a JSON string (quotes and escapes included). */
void chk_json_string(FILE *f, const char *s);

/* {"arg": ..., "dtype": ..., "count": ..., "mismatches": ..., ...} */
void chk_json_stats(FILE *f, const char *arg, chk_dtype t, const chk_stats *st, const chk_tolerance *tol,
		    int pass);

#endif
