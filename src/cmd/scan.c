/* hipport scan [PATH...]: findings and translation statistics, no changes. */
#include "cmd/scan.h"

#include <stdlib.h>
#include <string.h>

#include "util/error.h"

/* What remains after the renames: automatic (nothing), review (findings
 * with fixes to look at), manual (errors or warnings without a fix). Notes
 * without a fix are hints and leave the estimate alone. */
static void estimate_effort(scan_file *f)
{
	size_t i;

	for (i = 0; i < f->nfindings; i++) {
		if (f->findings[i].nedits)
			f->fixable++;
		else if (f->findings[i].severity != AN_NOTE)
			f->manual++;
	}
	f->effort = f->manual ? "manual" : f->fixable ? "review" : "automatic";
}

/* Leaves out the findings whose ids the user suppressed. */
static void drop_suppressed(scan_file *f, const char *ids)
{
	size_t i, k = 0;

	for (i = 0; i < f->nfindings; i++) {
		if (an_id_listed(ids, strlen(ids), f->findings[i].id))
			free(f->findings[i].message);
		else
			f->findings[k++] = f->findings[i];
	}
	f->nfindings = k;
}

static int collect(scan_report *r)
{
	size_t i, k;
	int error;

	r->files = calloc(r->set->n ? r->set->n : 1, sizeof(*r->files));
	if (!r->files)
		return util_error_set(UTIL_ENOMEM, "out of memory");
	for (i = 0; i < r->set->n; i++) {
		const rv_proposal *p = &r->set->items[i];
		scan_file *f;

		if (p->state != RV_PROPOSAL_OK)
			continue;
		f = &r->files[r->nfiles++];
		f->p = p;
		if ((error = rv_proposal_findings(&f->findings, &f->nfindings, p, &r->ctx->port)) < 0)
			return error;
		if (r->ctx->suppress)
			drop_suppressed(f, r->ctx->suppress);
		for (k = 0; k < p->port.nrefs; k++)
			port_ref_is_problem(&p->port.refs[k]) ? f->unconverted++ : f->converted++;
		estimate_effort(f);
	}
	return 0;
}

static void print_text(FILE *out, const scan_report *r, bool color)
{
	const char *bold = color ? "\033[1m" : "", *reset = color ? "\033[m" : "";
	size_t i, k, lines = 0, added = 0, removed = 0, conv = 0, unconv = 0, counts[3] = { 0, 0, 0 };
	size_t effort[3] = { 0, 0, 0 }, fixable = 0, manual = 0;

	for (i = 0; i < r->nfiles; i++) {
		const scan_file *f = &r->files[i];

		for (k = 0; k < f->nfindings; k++) {
			const an_finding *fd = &f->findings[k];
			const char *sev = cmd_severity_color(fd->severity, color);

			fprintf(out, "%s%s:%u:%u:%s %s%s:%s %s [%s]\n", bold, f->p->path, fd->line, fd->col, reset,
				sev, an_severity_name(fd->severity), reset, fd->message, fd->id);
			if (fd->fix)
				fprintf(out, "    fix: %s (--fix=%s)\n", fd->fix, fd->id);
			counts[fd->severity]++;
		}
		fprintf(out, "%s%s%s: %zu lines, %zu changed (+%zu -%zu), %zu references converted, %zu left; %s",
			bold, f->p->path, reset, f->p->lines, f->p->additions + f->p->deletions, f->p->additions,
			f->p->deletions, f->converted, f->unconverted, f->effort);
		if (f->fixable || f->manual)
			fprintf(out, " (%zu with fixes, %zu by hand)", f->fixable, f->manual);
		fputc('\n', out);
		fixable += f->fixable;
		manual += f->manual;
		lines += f->p->lines;
		added += f->p->additions;
		removed += f->p->deletions;
		conv += f->converted;
		unconv += f->unconverted;
		effort[strcmp(f->effort, "automatic") == 0 ? 0 : strcmp(f->effort, "review") == 0 ? 1 : 2]++;
	}
	fprintf(out,
		"%stotal%s: %zu files, %zu lines, %zu changed (+%zu -%zu), %zu references converted, %zu left; "
		"%zu errors, %zu warnings, %zu notes (%zu with fixes, %zu by hand); effort: %zu automatic, "
		"%zu review, %zu manual\n",
		bold, reset, r->nfiles, lines, added + removed, added, removed, conv, unconv, counts[AN_ERROR], counts[AN_WARNING],
		counts[AN_NOTE], fixable, manual, effort[0], effort[1], effort[2]);
}

static bool fails(const scan_report *r, int level)
{
	size_t i, k;

	if (level < 0)
		return false;
	for (i = 0; i < r->nfiles; i++)
		for (k = 0; k < r->files[i].nfindings; k++)
			if ((int)r->files[i].findings[k].severity >= level)
				return true;
	return false;
}

int cmd_scan(cmd_context *ctx)
{
	cmd_proposals set;
	scan_report report;
	const char *format = ctx->format ? ctx->format : "text";
	size_t i;
	int code, error;

	if (strcmp(format, "text") != 0 && strcmp(format, "json") != 0 && strcmp(format, "sarif") != 0)
		return cmd_fail(CMD_EXIT_USAGE, "scan: --format must be text, json or sarif, not '%s'", format);
	memset(&report, 0, sizeof(report));
	ctx->analyze = !ctx->no_analysis;
	ctx->build_files = true;
	if ((code = cmd_proposals_make(ctx, &set)) != 0)
		goto done;
	report.ctx = ctx;
	report.set = &set;
	if ((error = collect(&report)) < 0) {
		code = cmd_fail(CMD_EXIT_USAGE, "%s", util_error_last());
		goto done;
	}
	if (strcmp(format, "json") == 0)
		error = scan_print_json(stdout, &report);
	else if (strcmp(format, "sarif") == 0)
		error = scan_print_sarif(stdout, &report);
	else
		print_text(stdout, &report, ctx->color);
	if (error < 0 || fflush(stdout) != 0) {
		code = cmd_fail(CMD_EXIT_USAGE, "cannot write the report");
		goto done;
	}
	code = set.named_bad ? CMD_EXIT_USAGE : fails(&report, ctx->fail_on) ? CMD_EXIT_FINDINGS : CMD_EXIT_OK;
done:
	for (i = 0; i < report.nfiles; i++)
		an_findings_free(report.files[i].findings, report.files[i].nfindings);
	free(report.files);
	cmd_proposals_dispose(&set);
	return code;
}
