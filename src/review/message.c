#include "review/message.h"

#include <stdio.h>
#include <string.h>

#include "review/single_source.h"
#include "util/error.h"

/* "12 runtime, 3 device": the rules applied, by family, most first. */
static void rules_line(util_buf *out, const rv_proposal *p)
{
	const char *names[32];
	size_t counts[32], n = 0, i, k, total = 0;

	for (i = 0; p && i < p->port.nrefs; i++) {
		const port_ref *r = &p->port.refs[i];
		const char *family = r->rule && r->rule->family && *r->rule->family ? r->rule->family : "other";

		if (r->status != PORT_REF_CONVERTED && r->status != PORT_REF_FALLBACK)
			continue;
		total++;
		for (k = 0; k < n && strcmp(names[k], family) != 0; k++)
			;
		if (k == n) {
			if (n == 32)
				continue;
			names[n] = family;
			counts[n++] = 0;
		}
		counts[k]++;
	}
	if (!total) {
		util_buf_puts(out, "  rules: none (no CUDA names)\n");
		return;
	}
	util_buf_printf(out, "  rules: %zu applied (", total);
	for (k = 0; k < n; k++) { /* most first; ties in first-seen order */
		size_t best = k;

		for (i = k + 1; i < n; i++)
			if (counts[i] > counts[best])
				best = i;
		if (best != k) {
			const char *tn = names[k];
			size_t tc = counts[k];

			names[k] = names[best];
			counts[k] = counts[best];
			names[best] = tn;
			counts[best] = tc;
		}
		util_buf_printf(out, "%s%zu %s", k ? ", " : "", counts[k], names[k]);
	}
	util_buf_puts(out, ")\n");
}

static void checks_line(util_buf *out, const rv_validation *v)
{
	size_t i;

	if (!v || !v->committable) {
		util_buf_printf(out, "  checks: not validated (committed with --force: %s)\n", v ? v->why : "");
		return;
	}
	if (!v->compile) {
		util_buf_puts(out, "  checks: none apply (a Triton or build file): every hunk reviewed\n");
		return;
	}
	util_buf_printf(out, "  checks: compile for %s pass", v->compile->arch);
	for (i = 0; i < v->nkernels; i++) {
		const rv_session_check *c = v->kernels[i];

		util_buf_printf(out, "; %s pass (%s%s%s)", c->name, c->platform, *c->arch ? " " : "", c->arch);
	}
	util_buf_puts(out, "\n");
}

/* A Perf: trailer per kernel check of f that ran below the budget. */
static void perf_lines(util_buf *out, const rv_commit_file *f)
{
	const rv_validation *v = f->validation;
	char line[512];
	size_t k;

	for (k = 0; v && v->committable && k < v->nkernels; k++) {
		if (!v->kernels[k]->time.slow)
			continue;
		rv_check_time_format(line, sizeof(line), &v->kernels[k]->time);
		util_buf_printf(out, "Perf: %s (%s) %s\n", v->kernels[k]->name, f->path, line);
	}
}

/* The arch a check validated the port on, as its trailer says it. */
static void validated_on(char *out, size_t size, const rv_session_check *c)
{
	snprintf(out, size, "%s%s", *c->arch ? c->arch : c->platform,
		 strcmp(c->platform, "nvidia-proxy") == 0 ? "-proxy" : "");
}

static void add_arch(char (*archs)[64], size_t *n, const rv_session_check *c)
{
	char a[64];
	size_t i;

	validated_on(a, sizeof(a), c);
	for (i = 0; i < *n; i++)
		if (strcmp(archs[i], a) == 0)
			return;
	if (*n < 16)
		memcpy(archs[(*n)++], a, sizeof(a));
}

int rv_commit_message(util_buf *out, const char *summary, const rv_commit_file *files, size_t n,
		      const char *target_hip, const char *target_torch, bool forced, const rv_commit_upstream *up)
{
	char archs[16][64];
	size_t i, k, narchs = 0;
	bool torch = false;

	if (summary && *summary)
		util_buf_printf(out, "%s\n\n", summary);
	else if (up && up->synced_from)
		util_buf_printf(out, "Sync the port with upstream %.12s\n\n", up->ported_from);
	else
		util_buf_printf(out, "Port %zu file%s to HIP\n\n", n, n == 1 ? "" : "s");
	for (i = 0; i < n; i++) {
		const rv_commit_file *f = &files[i];

		util_buf_printf(out, "%s\n", f->path);
		torch = torch || (f->proposal && f->proposal->source.ptr &&
				  rv_includes_torch(f->proposal->source.ptr, f->proposal->source.len));
		rules_line(out, f->proposal);
		if (f->rec && f->rec->fixes)
			util_buf_printf(out, "  fixes: %s\n", f->rec->fixes);
		if (f->bulk)
			util_buf_printf(out, "  in bulk: %zu hunk%s accepted (rename only)\n", f->bulk,
					f->bulk == 1 ? "" : "s");
		if (f->edited || f->rejected)
			util_buf_printf(out, "  by hand: %zu hunk%s edited, %zu kept as the original\n", f->edited,
					f->edited == 1 ? "" : "s", f->rejected);
		util_buf_printf(out, "  findings open: %zu error%s, %zu warning%s, %zu note%s\n", f->findings[AN_ERROR],
				f->findings[AN_ERROR] == 1 ? "" : "s", f->findings[AN_WARNING],
				f->findings[AN_WARNING] == 1 ? "" : "s", f->findings[AN_NOTE],
				f->findings[AN_NOTE] == 1 ? "" : "s");
		checks_line(out, f->validation);
		if (f->validation && f->validation->committable && f->validation->compile) {
			add_arch(archs, &narchs, f->validation->compile);
			for (k = 0; k < f->validation->nkernels; k++)
				add_arch(archs, &narchs, f->validation->kernels[k]);
		}
	}
	for (i = 0; up && i < up->ntaken; i++)
		util_buf_printf(out, "%s%s (as upstream has it)\n", i ? "" : "\n", up->taken[i]);
	util_buf_printf(out, "\nPorted-by: hipport %s\nTarget-HIP: %s\n", HIPPORT_VERSION, target_hip);
	if (torch && target_torch)
		util_buf_printf(out, "Target-Torch: %s\n", target_torch);
	if (forced)
		util_buf_puts(out, "Validated-on: none (forced)\n");
	else
		for (k = 0; k < narchs; k++)
			util_buf_printf(out, "Validated-on: %s\n", archs[k]);
	if (up && up->ported_from && *up->ported_from)
		util_buf_printf(out, "Ported-from: %s\n", up->ported_from);
	if (up && up->synced_from)
		util_buf_printf(out, "Synced-from: %s..%s\n", up->synced_from, up->ported_from);
	for (i = 0; i < n; i++)
		perf_lines(out, &files[i]);
	return util_buf_oom(out) ? util_error_set(UTIL_ENOMEM, "out of memory") : 0;
}
