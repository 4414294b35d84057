#include "check/perf/perf.h"

#include <string.h>
#include <strings.h>

#include "util/embedded.h"
#include "util/error.h"

extern const util_embedded_file perf_gpus_builtin[];

static int read_side(perf_side *out, const json_t *side, const char *key)
{
	const json_t *median = json_object_get(side, "median_us"), *q1 = json_object_get(side, "q1_us"),
		     *q3 = json_object_get(side, "q3_us"), *runs = json_object_get(side, "runs"),
		     *device = json_object_get(side, "device");

	memset(out, 0, sizeof(*out));
	if (!side || json_is_null(side))
		return 0;
	if (!json_is_object(side) || !json_is_number(median) || !json_is_number(q1) || !json_is_number(q3) ||
	    !json_is_integer(runs) || !json_is_string(device) || json_number_value(median) < 0 ||
	    json_number_value(q1) > json_number_value(median) || json_number_value(q3) < json_number_value(median) ||
	    json_integer_value(runs) < 1)
		return util_error_set(UTIL_EINPUT, "time.%s: not {median_us, q1_us <= median_us <= q3_us, runs >= 1, device}",
				      key);
	out->measured = true;
	out->median_us = json_number_value(median);
	out->q1_us = json_number_value(q1);
	out->q3_us = json_number_value(q3);
	out->runs = (int)json_integer_value(runs);
	snprintf(out->device, sizeof(out->device), "%s", json_string_value(device));
	return 0;
}

int perf_timing_read(perf_timing *out, const json_t *time)
{
	const json_t *bytes = json_object_get(time, "bytes"), *note = json_object_get(time, "note");
	int error;

	memset(out, 0, sizeof(*out));
	if (!time)
		return 0;
	if (!json_is_object(time) || (bytes && (!json_is_number(bytes) || json_number_value(bytes) < 0)))
		return util_error_set(UTIL_EINPUT, "time: not an object with a number of bytes");
	if ((error = read_side(&out->ref, json_object_get(time, "reference"), "reference")) < 0 ||
	    (error = read_side(&out->port, json_object_get(time, "port"), "port")) < 0)
		return error;
	out->bytes = bytes ? json_number_value(bytes) : 0;
	if (json_is_string(note))
		snprintf(out->note, sizeof(out->note), "%s", json_string_value(note));
	return 0;
}

/* Whether needle is in haystack, case ignored. */
static bool contains(const char *haystack, const char *needle, size_t n)
{
	size_t i;

	for (i = 0; haystack[i]; i++)
		if (strncasecmp(haystack + i, needle, n) == 0)
			return true;
	return false;
}

double perf_gpu_peak(const char *device, const char **source)
{
	const char *p = perf_gpus_builtin[0].data, *end = p + perf_gpus_builtin[0].len;

	if (source)
		*source = NULL;
	while (device && *device && p < end) {
		const char *eol = memchr(p, '\n', (size_t)(end - p)), *tab;

		eol = eol ? eol : end;
		tab = memchr(p, '\t', (size_t)(eol - p));
		if (*p != '#' && tab && tab > p && contains(device, p, (size_t)(tab - p))) {
			const char *last = tab;

			for (const char *q = tab + 1; q < eol; q++)
				if (*q == '\t')
					last = q;
			if (source)
				*source = last + 1;
			return strtod(tab + 1, NULL);
		}
		p = eol + 1;
	}
	return 0;
}

void perf_judge(perf_verdict *out, const perf_timing *t, double budget)
{
	memset(out, 0, sizeof(*out));
	if (t->port.measured && t->port.median_us > 0 && t->bytes > 0) {
		out->gbps = t->bytes / (t->port.median_us * 1e3);
		out->peak_gbps = perf_gpu_peak(t->port.device, NULL);
		/* no share is better than a false one */
		out->above_peak = out->peak_gbps > 0 && out->gbps > 1.05 * out->peak_gbps;
	}
	if (!t->ref.measured || !t->port.measured || t->port.median_us <= 0 || t->port.q1_us <= 0)
		return;
	out->comparable = true;
	out->ratio = t->ref.median_us / t->port.median_us;
	out->low = t->ref.q1_us / t->port.q3_us;
	out->high = t->ref.q3_us / t->port.q1_us;
	out->same_gpu = strcmp(t->ref.device, t->port.device) == 0;
	/* slow only beyond the noise: even its best reading is under budget */
	out->slow = out->high < budget;
}

void perf_print_header(FILE *f)
{
	fprintf(f, "%-44s %10s %10s %7s %15s %9s %6s\n", "CHECK", "REF us", "PORT us", "RATIO", "RANGE", "GB/s", "PEAK");
}

void perf_print_row(FILE *f, const char *name, const perf_timing *t, const perf_verdict *v)
{
	char ref[16] = "-", port[16] = "-", ratio[16] = "-", range[24] = "-", gbps[16] = "-", peak[16] = "-";

	if (t->ref.measured)
		snprintf(ref, sizeof(ref), "%.2f", t->ref.median_us);
	if (t->port.measured)
		snprintf(port, sizeof(port), "%.2f", t->port.median_us);
	if (v->comparable) {
		snprintf(ratio, sizeof(ratio), "%.2fx", v->ratio);
		snprintf(range, sizeof(range), "%.2f-%.2f", v->low, v->high);
	}
	if (v->gbps > 0)
		snprintf(gbps, sizeof(gbps), "%.1f", v->gbps);
	if (v->peak_gbps > 0 && !v->above_peak)
		snprintf(peak, sizeof(peak), "%.0f%%", 100 * v->gbps / v->peak_gbps);
	else if (v->peak_gbps > 0)
		snprintf(peak, sizeof(peak), "n/a");
	fprintf(f, "%-44s %10s %10s %7s %15s %9s %6s%s%s%s%s\n", name, ref, port, ratio, range, gbps, peak,
		v->slow ? "  slow: below the budget beyond the spread" : "", t->note[0] ? "  (" : "", t->note,
		t->note[0] ? ")" : "");
}
