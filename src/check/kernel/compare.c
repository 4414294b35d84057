/* Plain C shared with the check bundles: see compare.h. No hipport headers,
 * and nothing C++ would reject (the harness compiles it as CUDA or HIP). */
#include "compare.h"

#include <float.h>
#include <math.h>
#include <string.h>

static const struct {
	const char *name;
	size_t size;
	int is_float;
} dtypes[CHK_DTYPE_COUNT] = {
	{ "f16", 2, 1 }, { "bf16", 2, 1 }, { "f32", 4, 1 }, { "f64", 8, 1 },
	{ "i8", 1, 0 }, { "u8", 1, 0 }, { "i16", 2, 0 }, { "u16", 2, 0 },
	{ "i32", 4, 0 }, { "u32", 4, 0 }, { "i64", 8, 0 }, { "u64", 8, 0 },
};

const char *chk_dtype_name(chk_dtype t)
{
	return (unsigned)t < CHK_DTYPE_COUNT ? dtypes[t].name : "?";
}

int chk_dtype_parse(const char *name)
{
	int i;

	for (i = 0; i < CHK_DTYPE_COUNT; i++)
		if (strcmp(dtypes[i].name, name) == 0)
			return i;
	return -1;
}

size_t chk_dtype_size(chk_dtype t)
{
	return dtypes[t].size;
}

int chk_dtype_is_float(chk_dtype t)
{
	return dtypes[t].is_float;
}

static uint32_t f32_bits(float f)
{
	uint32_t u;

	memcpy(&u, &f, 4);
	return u;
}

static float bits_f32(uint32_t u)
{
	float f;

	memcpy(&f, &u, 4);
	return f;
}

float chk_f16_to_f32(uint16_t h)
{
	uint32_t sign = (uint32_t)(h & 0x8000u) << 16, exp = (h >> 10) & 0x1fu, mant = h & 0x3ffu;

	if (exp == 0x1f)
		return bits_f32(sign | 0x7f800000u | (mant << 13));
	if (exp == 0) {
		float v = (float)mant * (1.0f / 16777216.0f); /* mant * 2^-24 */
		return sign ? -v : v;
	}
	return bits_f32(sign | ((exp + 112u) << 23) | (mant << 13));
}

uint16_t chk_f32_to_f16(float f)
{
	uint32_t u = f32_bits(f), sign = (u >> 16) & 0x8000u, abs = u & 0x7fffffffu;

	if (abs >= 0x7f800000u) /* Inf, NaN (quiet, keeps the top payload bits) */
		return (uint16_t)(sign | 0x7c00u | (abs > 0x7f800000u ? 0x200u | ((abs >> 13) & 0x3ffu) : 0));
	if (abs >= 0x477ff000u) /* rounds to 65520 or more: infinity */
		return (uint16_t)(sign | 0x7c00u);
	if (abs < 0x38800000u) { /* below 2^-14: subnormal or zero */
		uint32_t mant = (abs & 0x7fffffu) | 0x800000u, shift, half, rest;

		if (abs < 0x33000000u) /* 2^-25 or less: rounds to zero */
			return (uint16_t)sign;
		shift = 126u - (abs >> 23); /* units of 2^-24 */
		half = mant >> shift;
		rest = mant & ((1u << shift) - 1u);
		if (rest > (1u << (shift - 1u)) || (rest == (1u << (shift - 1u)) && (half & 1u)))
			half++;
		return (uint16_t)(sign | half);
	}
	{
		uint32_t h = ((abs - 0x38000000u) >> 13), rest = abs & 0x1fffu;

		if (rest > 0x1000u || (rest == 0x1000u && (h & 1u)))
			h++;
		return (uint16_t)(sign | h);
	}
}

float chk_bf16_to_f32(uint16_t b)
{
	return bits_f32((uint32_t)b << 16);
}

uint16_t chk_f32_to_bf16(float f)
{
	uint32_t u = f32_bits(f);

	if ((u & 0x7fffffffu) > 0x7f800000u)
		return (uint16_t)((u >> 16) | 0x40u); /* quiet NaN */
	u += 0x7fffu + ((u >> 16) & 1u);
	return (uint16_t)(u >> 16);
}

double chk_load(chk_dtype t, const void *buf, size_t i)
{
	const unsigned char *p = (const unsigned char *)buf + i * dtypes[t].size;

	switch (t) {
	case CHK_F16: { uint16_t v; memcpy(&v, p, 2); return chk_f16_to_f32(v); }
	case CHK_BF16: { uint16_t v; memcpy(&v, p, 2); return chk_bf16_to_f32(v); }
	case CHK_F32: { float v; memcpy(&v, p, 4); return v; }
	case CHK_F64: { double v; memcpy(&v, p, 8); return v; }
	case CHK_I8: { int8_t v; memcpy(&v, p, 1); return v; }
	case CHK_U8: { uint8_t v; memcpy(&v, p, 1); return v; }
	case CHK_I16: { int16_t v; memcpy(&v, p, 2); return v; }
	case CHK_U16: { uint16_t v; memcpy(&v, p, 2); return v; }
	case CHK_I32: { int32_t v; memcpy(&v, p, 4); return v; }
	case CHK_U32: { uint32_t v; memcpy(&v, p, 4); return v; }
	case CHK_I64: { int64_t v; memcpy(&v, p, 8); return (double)v; }
	case CHK_U64: { uint64_t v; memcpy(&v, p, 8); return (double)v; }
	default: return 0;
	}
}

void chk_store(chk_dtype t, void *buf, size_t i, double v)
{
	unsigned char *p = (unsigned char *)buf + i * dtypes[t].size;

	switch (t) {
	case CHK_F16: { uint16_t h = chk_f32_to_f16((float)v); memcpy(p, &h, 2); break; }
	case CHK_BF16: { uint16_t h = chk_f32_to_bf16((float)v); memcpy(p, &h, 2); break; }
	case CHK_F32: { float f = (float)v; memcpy(p, &f, 4); break; }
	case CHK_F64: memcpy(p, &v, 8); break;
	case CHK_I8: { int8_t x = (int8_t)v; memcpy(p, &x, 1); break; }
	case CHK_U8: { uint8_t x = (uint8_t)v; memcpy(p, &x, 1); break; }
	case CHK_I16: { int16_t x = (int16_t)v; memcpy(p, &x, 2); break; }
	case CHK_U16: { uint16_t x = (uint16_t)v; memcpy(p, &x, 2); break; }
	case CHK_I32: { int32_t x = (int32_t)v; memcpy(p, &x, 4); break; }
	case CHK_U32: { uint32_t x = (uint32_t)v; memcpy(p, &x, 4); break; }
	case CHK_I64: { int64_t x = (int64_t)v; memcpy(p, &x, 8); break; }
	case CHK_U64: { uint64_t x = (uint64_t)v; memcpy(p, &x, 8); break; }
	default: break;
	}
}

uint64_t chk_splitmix64(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

void chk_fill_uniform(chk_dtype t, void *buf, size_t n, double lo, double hi, uint64_t seed)
{
	uint64_t state = seed;
	size_t i;

	for (i = 0; i < n; i++) {
		double u = (double)(chk_splitmix64(&state) >> 11) * (1.0 / 9007199254740992.0); /* [0, 1) */

		if (dtypes[t].is_float)
			chk_store(t, buf, i, lo + (hi - lo) * u);
		else
			chk_store(t, buf, i, floor(lo + floor((hi - lo) * u)));
	}
}

void chk_fill_constant(chk_dtype t, void *buf, size_t n, double v)
{
	size_t i;

	for (i = 0; i < n; i++)
		chk_store(t, buf, i, v);
}

void chk_fill_iota(chk_dtype t, void *buf, size_t n, double start, double step)
{
	size_t i;

	for (i = 0; i < n; i++)
		chk_store(t, buf, i, start + step * (double)i);
}

static int is_nan(double v)
{
	return v != v;
}

static int is_inf(double v)
{
	return v > DBL_MAX || v < -DBL_MAX;
}

/* The float's bits mapped to integers that are ordered like the values. */
static double ordered(chk_dtype t, double v)
{
	switch (t) {
	case CHK_F16:
	case CHK_BF16: {
		uint16_t h = t == CHK_F16 ? chk_f32_to_f16((float)v) : chk_f32_to_bf16((float)v);
		return (h & 0x8000u) ? -(double)(h & 0x7fffu) : (double)h;
	}
	case CHK_F32: {
		uint32_t u = f32_bits((float)v);
		return (u & 0x80000000u) ? -(double)(u & 0x7fffffffu) : (double)u;
	}
	default:
		return v;
	}
}

/* The same for doubles, in integers: a double cannot hold the difference. */
static int64_t ordered64(double v)
{
	int64_t i;

	memcpy(&i, &v, 8);
	return i < 0 ? INT64_MIN - i : i;
}

double chk_ulp_distance(chk_dtype t, double a, double b)
{
	if (t == CHK_F64) {
		int64_t x = ordered64(a), y = ordered64(b);

		return x >= y ? (double)((uint64_t)x - (uint64_t)y) : (double)((uint64_t)y - (uint64_t)x);
	}
	return fabs(ordered(t, a) - ordered(t, b));
}

int chk_compare(chk_stats *out, chk_dtype t, const void *ref, const void *got, size_t n,
		const chk_tolerance *tol)
{
	size_t i, size = dtypes[t].size;

	memset(out, 0, sizeof(*out));
	out->count = n;
	out->first_mismatch = (size_t)-1;
	for (i = 0; i < n; i++) {
		double e = chk_load(t, ref, i), g = chk_load(t, got, i), abs_err, rel_err = 0, ulp;
		int ok;

		if (memcmp((const unsigned char *)ref + i * size, (const unsigned char *)got + i * size, size) == 0)
			continue;
		if (is_nan(e) || is_nan(g)) {
			if (is_nan(e) && is_nan(g))
				continue;
			out->nan_mismatches++;
			ok = 0;
		} else if (is_inf(e) || is_inf(g)) {
			if (e == g)
				continue;
			out->inf_mismatches++;
			ok = 0;
		} else {
			abs_err = fabs(g - e);
			if (e != 0)
				rel_err = abs_err / fabs(e);
			ulp = dtypes[t].is_float ? chk_ulp_distance(t, e, g) : abs_err;
			if (abs_err > out->max_abs)
				out->max_abs = abs_err;
			if (rel_err > out->max_rel)
				out->max_rel = rel_err;
			if (ulp > out->max_ulp)
				out->max_ulp = ulp;
			if (dtypes[t].is_float)
				ok = abs_err <= tol->abs + tol->rel * fabs(e) || ulp <= tol->ulp;
			else /* the bits differ: exact means unequal even past a double's 53 bits */
				ok = tol->abs > 0 && abs_err <= tol->abs + tol->rel * fabs(e);
		}
		if (!ok) {
			if (!out->mismatches) {
				out->first_mismatch = i;
				out->expected_at_first = e;
				out->got_at_first = g;
			}
			out->mismatches++;
		}
	}
	return out->mismatches == 0;
}

void chk_checksum(char out[17], const void *data, size_t len)
{
	const unsigned char *p = (const unsigned char *)data;
	uint64_t h = 0xcbf29ce484222325ull;
	size_t i;

	for (i = 0; i < len; i++) {
		h ^= p[i];
		h *= 0x100000001b3ull;
	}
	snprintf(out, 17, "%016llx", (unsigned long long)h);
}

void chk_json_string(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	fputc('"', f);
	for (; *p; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(f, "\\%c", *p);
		else if (*p == '\n')
			fputs("\\n", f);
		else if (*p == '\t')
			fputs("\\t", f);
		else if (*p < 0x20)
			fprintf(f, "\\u%04x", *p);
		else
			fputc(*p, f);
	}
	fputc('"', f);
}

/* A number JSON can hold (NaN and infinities are not numbers there). */
static void json_number(FILE *f, double v)
{
	if (is_nan(v) || is_inf(v))
		fputs("null", f);
	else
		fprintf(f, "%.9g", v);
}

/* sep "key": v */
static void json_pair(FILE *f, const char *sep, const char *key, double v)
{
	fprintf(f, "%s\"%s\": ", sep, key);
	json_number(f, v);
}

void chk_json_stats(FILE *f, const char *arg, chk_dtype t, const chk_stats *st, const chk_tolerance *tol,
		    int pass)
{
	fputs("{\"arg\": ", f);
	chk_json_string(f, arg);
	fprintf(f, ", \"dtype\": \"%s\", \"count\": %lu, \"pass\": %s, \"mismatches\": %lu, \"first_mismatch\": ",
		chk_dtype_name(t), (unsigned long)st->count, pass ? "true" : "false", (unsigned long)st->mismatches);
	if (st->mismatches) {
		fprintf(f, "%lu, \"expected\": ", (unsigned long)st->first_mismatch);
		json_number(f, st->expected_at_first);
		fputs(", \"got\": ", f);
		json_number(f, st->got_at_first);
	} else {
		fputs("null", f);
	}
	fprintf(f, ", \"nan_mismatches\": %lu, \"inf_mismatches\": %lu", (unsigned long)st->nan_mismatches,
		(unsigned long)st->inf_mismatches);
	json_pair(f, ", ", "max_abs", st->max_abs);
	json_pair(f, ", ", "max_rel", st->max_rel);
	json_pair(f, ", ", "max_ulp", st->max_ulp);
	json_pair(f, ", \"tolerance\": {", "abs", tol->abs);
	json_pair(f, ", ", "rel", tol->rel);
	json_pair(f, ", ", "ulp", tol->ulp);
	fputs("}}", f);
}

chk_tolerance chk_default_tolerance(chk_dtype t)
{
	chk_tolerance tol = { 0, 0, 0 };

	if (t == CHK_F16 || t == CHK_BF16) {
		tol.abs = 1e-2;
		tol.rel = 1e-2;
		tol.ulp = 2;
	} else if (t == CHK_F32) {
		tol.abs = 1e-5;
		tol.rel = 1e-5;
		tol.ulp = 4;
	} else if (t == CHK_F64) {
		tol.abs = 1e-12;
		tol.rel = 1e-12;
		tol.ulp = 4;
	}
	return tol;
}
