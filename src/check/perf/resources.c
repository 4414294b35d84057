#include "check/perf/resources.h"

#include <ctype.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* A mangled kernel's qualified name, without its template arguments and
 * parameters: _Z5scalePfi is scale, _ZN4corr6kernelIfEEvPf corr::kernel;
 * anything else as it is. */
static void unmangled(char *out, size_t size, const char *m, size_t len)
{
	const char *p = m + 2, *end = m + len;
	size_t used = 0;
	bool nested;

	if (len < 3 || strncmp(m, "_Z", 2) != 0) {
		snprintf(out, size, "%.*s", (int)len, m);
		return;
	}
	out[0] = '\0';
	nested = *p == 'N';
	p += nested;
	while (p < end && isdigit((unsigned char)*p)) {
		char *after;
		long n = strtol(p, &after, 10);

		if (n <= 0 || after + n > end)
			break;
		/* an anonymous namespace is _GLOBAL__N_1 */
		if (n == 12 && !strncmp(after, "_GLOBAL__N_1", 12))
			used += (size_t)snprintf(out + used, used < size ? size - used : 0, "%s(anonymous)",
						 used ? "::" : "");
		else
			used += (size_t)snprintf(out + used, used < size ? size - used : 0, "%s%.*s", used ? "::" : "",
						 (int)n, after);
		p = after + n;
		if (!nested || used >= size)
			break;
	}
	if (!out[0])
		snprintf(out, size, "%.*s", (int)len, m);
}

/* The value after "KEY: " in a remark line, as an int (True: 1). */
static int value_of(const char *at)
{
	while (*at == ' ')
		at++;
	return strncmp(at, "True", 4) == 0 ? 1 : atoi(at);
}

/* Each remark's key, as clang 15 to 21 spell them, and its field. */
static const struct {
	const char *key;
	size_t field;
} keys[] = {
	{ "TotalSGPRs:", offsetof(perf_resources, sgprs) },
	{ "SGPRs:", offsetof(perf_resources, sgprs) },
	{ "VGPRs:", offsetof(perf_resources, vgprs) },
	{ "AGPRs:", offsetof(perf_resources, agprs) },
	{ "ScratchSize", offsetof(perf_resources, scratch) },
	{ "Dynamic Stack:", offsetof(perf_resources, dynamic_stack) },
	{ "Occupancy", offsetof(perf_resources, occupancy) },
	{ "SGPRs Spill:", offsetof(perf_resources, sgpr_spill) },
	{ "VGPRs Spill:", offsetof(perf_resources, vgpr_spill) },
	{ "LDS Size", offsetof(perf_resources, lds) },
};

int perf_resources_parse(perf_resources **out, size_t *n, const char *output)
{
	static const char name_key[] = "remark: Function Name: ";
	const char *line = output;
	perf_resources *cur = NULL;

	*out = NULL;
	*n = 0;
	while (line && *line) {
		const char *eol = strchr(line, '\n'), *at, *tag;
		size_t len = eol ? (size_t)(eol - line) : strlen(line);
		char text[1024];
		size_t k;

		snprintf(text, sizeof(text), "%.*s", (int)(len < sizeof(text) ? len : sizeof(text) - 1), line);
		line = eol ? eol + 1 : NULL;
		if (!(tag = strstr(text, " [-Rpass-analysis=kernel-resource-usage]")))
			continue;
		if ((at = strstr(text, name_key))) {
			perf_resources *m = realloc(*out, (*n + 1) * sizeof(*m));
			const char *colon = strstr(text, ": remark:");

			if (!m)
				return -1;
			*out = m;
			cur = &m[(*n)++];
			memset(cur, 0, sizeof(*cur));
			cur->occupancy = -1;
			at += strlen(name_key);
			unmangled(cur->name, sizeof(cur->name), at, (size_t)(tag - at));
			/* FILE:LINE:COL: remark -> FILE:LINE */
			if (colon) {
				const char *col = colon;

				while (col > text && col[-1] != ':')
					col--;
				snprintf(cur->where, sizeof(cur->where), "%.*s", (int)(col > text ? col - 1 - text : 0), text);
			}
			continue;
		}
		if (!cur || !(at = strstr(text, "remark:")))
			continue;
		at += strlen("remark:");
		while (*at == ' ')
			at++;
		for (k = 0; k < sizeof(keys) / sizeof(*keys); k++)
			if (!strncmp(at, keys[k].key, strlen(keys[k].key)) && strchr(at, ':')) {
				int v = value_of(strchr(at, ':') + 1);

				if (keys[k].field == offsetof(perf_resources, dynamic_stack))
					cur->dynamic_stack = v != 0;
				else
					*(int *)((char *)cur + keys[k].field) = v;
				break;
			}
	}
	return 0;
}

bool perf_resources_notable(const perf_resources *r)
{
	return r->scratch > 0 || r->sgpr_spill > 0 || r->vgpr_spill > 0 || r->dynamic_stack;
}

void perf_resources_print_header(FILE *f)
{
	fprintf(f, "  %-36s %5s %5s %5s %8s %7s %6s %9s\n", "KERNEL", "VGPR", "AGPR", "SGPR", "SCRATCH", "SPILLS", "LDS",
		"WAVES/SIMD");
}

void perf_resources_print(FILE *f, const perf_resources *r)
{
	char waves[16] = "-";

	if (r->occupancy >= 0)
		snprintf(waves, sizeof(waves), "%d", r->occupancy);
	fprintf(f, "  %-36s %5d %5d %5d %8d %7d %6d %9s%s\n", r->name, r->vgprs, r->agprs, r->sgprs, r->scratch,
		r->sgpr_spill + r->vgpr_spill, r->lds, waves,
		r->sgpr_spill + r->vgpr_spill > 0 ? "  spills registers to scratch memory"
		: r->scratch > 0 || r->dynamic_stack ? "  uses scratch memory (a private array indexed at run time, or a call)"
						      : "");
}

/* Whether two reports of a kernel give it the same registers and scratch. */
static bool same_figures(const perf_resources *a, const perf_resources *b)
{
	return a->vgprs == b->vgprs && a->agprs == b->agprs && a->sgprs == b->sgprs && a->scratch == b->scratch &&
	       a->sgpr_spill + a->vgpr_spill == b->sgpr_spill + b->vgpr_spill && a->occupancy == b->occupancy;
}

void perf_resources_print_bounded(FILE *f, const perf_resources *r, const perf_resources *b, int bound)
{
	char label[64], waves[16] = "-";
	int spills = r->sgpr_spill + r->vgpr_spill, bspills = b->sgpr_spill + b->vgpr_spill;

	if (same_figures(r, b))
		return;
	if (b->occupancy >= 0)
		snprintf(waves, sizeof(waves), "%d", b->occupancy);
	snprintf(label, sizeof(label), "  with __launch_bounds__(%d)", bound);
	fprintf(f, "  %-36s %5d %5d %5d %8d %7d %6d %9s  %s%s%s\n", label, b->vgprs, b->agprs, b->sgprs, b->scratch,
		bspills, b->lds, waves,
		bspills >= spills ? "the same spills with the bound"
		: bspills	  ? "fewer spills with the bound"
				  : "no spills with the bound",
		b->occupancy >= 0 && b->occupancy < r->occupancy ? ", fewer waves per SIMD" : "",
		bspills < spills ? ": write it if no launch is larger (ARCH-006), and time both" : "");
}

/* ", N more|fewer WHAT(s)" when a and b differ, appended to note. */
static void delta(char *note, size_t size, int a, int b, const char *what)
{
	size_t used = strlen(note);

	if (a != b && used < size)
		snprintf(note + used, size - used, "%s%d %s %s%s", used ? ", " : "", a > b ? a - b : b - a,
			 b > a ? "more" : "fewer", what, a - b == 1 || b - a == 1 ? "" : "s");
}

void perf_resources_print_variant(FILE *f, const perf_resources *r, const perf_resources *v, const char *label)
{
	char row[64], note[256] = "", waves[16] = "-";

	if (same_figures(r, v) && r->lds == v->lds)
		return;
	if (v->occupancy >= 0)
		snprintf(waves, sizeof(waves), "%d", v->occupancy);
	delta(note, sizeof(note), r->vgprs, v->vgprs, "VGPR");
	delta(note, sizeof(note), r->agprs, v->agprs, "AGPR");
	delta(note, sizeof(note), r->sgprs, v->sgprs, "SGPR");
	delta(note, sizeof(note), r->scratch, v->scratch, "scratch byte");
	delta(note, sizeof(note), r->sgpr_spill + r->vgpr_spill, v->sgpr_spill + v->vgpr_spill, "spill");
	delta(note, sizeof(note), r->lds, v->lds, "LDS byte");
	if (r->occupancy >= 0 && v->occupancy >= 0 && strlen(note) < sizeof(note))
		snprintf(note + strlen(note), sizeof(note) - strlen(note), "%s%s waves per SIMD",
			 *note ? ", " : "", v->occupancy == r->occupancy ? "the same"
					    : v->occupancy > r->occupancy ? "more" : "fewer");
	snprintf(row, sizeof(row), "  %s", label);
	fprintf(f, "  %-36s %5d %5d %5d %8d %7d %6d %9s  %s\n", row, v->vgprs, v->agprs, v->sgprs, v->scratch,
		v->sgpr_spill + v->vgpr_spill, v->lds, waves, note);
}
