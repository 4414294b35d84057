#include "review/validate.h"

#include <stdio.h>
#include <string.h>

bool rv_checks_passed(const rv_session *s, const char *path, const rv_check_content *now)
{
	bool compiled = false;
	size_t i;

	for (i = 0; i < s->nchecks; i++) {
		const rv_session_check *c = &s->checks[i];

		if (strcmp(c->path, path) != 0 || !rv_check_current(c, now))
			continue;
		if (strcmp(c->status, "pass") != 0)
			return false;
		compiled |= strcmp(c->name, RV_COMPILE_CHECK) == 0;
	}
	return compiled;
}

static void refuse(rv_validation *out, const char *fmt, const char *a, const char *b)
{
	out->committable = false;
	snprintf(out->why, sizeof(out->why), fmt, a ? a : "", b ? b : "");
}

/* Why a kernel check's result is no pass on this content, or NULL when it is one. */
static const char *kernel_problem(const rv_session_check *c, const rv_check_content *now)
{
	if (!c)
		return "has not run: hipport check %s";
	if (!rv_check_current(c, now))
		return "ran on other content: hipport check %s";
	if (strcmp(c->status, "no-device") == 0)
		return "could not run here (no-device): run hipport check --bundle DIR %s on a GPU machine, then "
		       "hipport check --import DIR/results.json";
	if (strcmp(c->status, "pass") != 0)
		return "did not pass: hipport check %s shows why";
	return NULL;
}

void rv_validate(rv_validation *out, const rv_session *s, const rv_session_file *rec, const char *path,
		 size_t pending, bool stale, const rv_check_content *now, const char *arch, bool needs_compile,
		 const char *const *specs, size_t nspecs)
{
	const rv_session_check *compile = rv_session_check_find(s, path, RV_COMPILE_CHECK);
	char what[256];
	size_t i;

	memset(out, 0, sizeof(*out));
	if (!rec)
		return refuse(out, "not reviewed: hipport review or hipport apply %s first", path, NULL);
	if (stale)
		return refuse(out, "changed outside hipport since its last decision: hipport review %s", path, NULL);
	if (pending) {
		snprintf(what, sizeof(what), "%zu hunk%s pending", pending, pending == 1 ? "" : "s");
		return refuse(out, "%s: hipport review %s", what, path);
	}
	if (!rec->written[0] || strcmp(rec->written, now->blob) != 0)
		return refuse(out, "does not hold what its decisions wrote: hipport review %s%s", path, NULL);
	if (!needs_compile) {
		out->committable = true;
		return;
	}
	/* without an offload arch here, the arch it was checked for stands */
	if (!compile || strcmp(compile->port, now->blob) != 0 || (arch && strcmp(compile->arch, arch) != 0)) {
		snprintf(what, sizeof(what), "no compile check of its current content%s%s", arch ? " for " : "",
			 arch ? arch : "");
		out->committable = false;
		snprintf(out->why, sizeof(out->why), "%s: hipport check --offload-arch=%s %s", what,
			 arch ? arch : "gfxNNN", path);
		return;
	}
	if (strcmp(compile->status, "pass") != 0) {
		snprintf(what, sizeof(what), "the compile check for %s %s", compile->arch,
			 strcmp(compile->status, "fail") == 0 ? "failed" : compile->status);
		return refuse(out, "%s: %s", what, compile->message);
	}
	out->compile = compile;
	for (i = 0; i < nspecs; i++) {
		const rv_session_check *c = rv_session_check_find(s, path, specs[i]);
		const char *problem = kernel_problem(c, now);

		if (problem) {
			char fmt[512];

			snprintf(fmt, sizeof(fmt), "kernel check %%s %s", problem);
			snprintf(out->why, sizeof(out->why), fmt, specs[i], path);
			return;
		}
		if (out->nkernels < sizeof(out->kernels) / sizeof(out->kernels[0]))
			out->kernels[out->nkernels++] = c;
	}
	out->committable = true;
}
