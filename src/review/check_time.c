#include "review/check_time.h"

#include <stdio.h>
#include <string.h>

json_t *rv_check_time_to_json(const rv_check_time *t)
{
	if (!t->timed)
		return NULL;
	return json_pack("{s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:b, s:s, s:s}", "ref_us", t->ref_us, "port_us",
			 t->port_us, "ratio", t->ratio, "low", t->low, "high", t->high, "gbps", t->gbps, "peak_share",
			 t->peak_share, "budget", t->budget, "slow", t->slow, "ref_device", t->ref_device,
			 "port_device", t->port_device);
}

static bool number(double *out, const json_t *object, const char *key)
{
	const json_t *v = json_object_get(object, key);

	*out = json_number_value(v);
	return json_is_number(v) && *out >= 0;
}

static bool device(char *out, size_t size, const json_t *object, const char *key)
{
	const char *s = json_string_value(json_object_get(object, key));

	if (!s || strlen(s) >= size)
		return false;
	memcpy(out, s, strlen(s) + 1);
	return true;
}

bool rv_check_time_from_json(rv_check_time *out, const json_t *object)
{
	memset(out, 0, sizeof(*out));
	if (!object)
		return true;
	out->timed = json_is_object(object) && number(&out->ref_us, object, "ref_us") &&
		     number(&out->port_us, object, "port_us") && number(&out->ratio, object, "ratio") &&
		     number(&out->low, object, "low") && number(&out->high, object, "high") &&
		     number(&out->gbps, object, "gbps") && number(&out->peak_share, object, "peak_share") &&
		     number(&out->budget, object, "budget") && json_is_boolean(json_object_get(object, "slow")) &&
		     device(out->ref_device, sizeof(out->ref_device), object, "ref_device") &&
		     device(out->port_device, sizeof(out->port_device), object, "port_device");
	out->slow = out->timed && json_is_true(json_object_get(object, "slow"));
	return out->timed;
}

void rv_check_time_format(char *out, size_t size, const rv_check_time *t)
{
	int n;

	if (!t->timed) {
		snprintf(out, size, "not timed");
		return;
	}
	n = snprintf(out, size, "%.2fx (%.2f-%.2f) of the reference: %.2f us vs %.2f us", t->ratio, t->low, t->high,
		     t->port_us, t->ref_us);
	if (n >= 0 && (size_t)n < size && t->gbps > 0)
		n += snprintf(out + n, size - (size_t)n, t->gbps < 10 ? ", %.2f GB/s" : ", %.0f GB/s", t->gbps);
	if (n >= 0 && (size_t)n < size && t->gbps > 0 && t->peak_share >= 0.005)
		n += snprintf(out + n, size - (size_t)n, " (%.0f%% of peak)", 100 * t->peak_share);
	/* across vendors the ratio is only a ratio of these two GPUs */
	if (n >= 0 && (size_t)n < size && *t->ref_device && *t->port_device)
		n += snprintf(out + n, size - (size_t)n, ", %s vs %s", t->port_device, t->ref_device);
	if (n >= 0 && (size_t)n < size && t->slow)
		snprintf(out + n, size - (size_t)n, "; slow: below the budget %.2fx beyond the spread", t->budget);
}
