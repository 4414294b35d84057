#include "cmd/check_record.h"

#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check/kernel/clocked.h"
#include "check/kernel/source.h"
#include "check/record/record.h"
#include "cmd/check.h"
#include "review/proposal.h"
#include "review/session.h"
#include "util/buf.h"
#include "util/error.h"
#include "util/file.h"
#include "vcs/walk.h"

static const char *status_of(rec_verdict v)
{
	return v == REC_PASS ? "pass" : v == REC_FAIL ? "fail" : "error";
}

/* The bundle a record run is in (BUNDLE/work/record/NAME/port, or
 * .../record/port): false where there is none. */
static bool bundle_of(util_buf *bundle, const char *run)
{
	util_buf path = UTIL_BUF_INIT;
	size_t i;

	util_buf_puts(bundle, run);
	for (i = 0; i < 5; i++) {
		util_buf_puts(bundle, "/..");
		util_buf_clear(&path);
		util_buf_printf(&path, "%s/bundle.conf", bundle->ptr);
		if (util_buf_oom(&path) || access(path.ptr, F_OK) == 0)
			break;
	}
	util_buf_dispose(&path);
	return i < 5 && !util_buf_oom(bundle);
}

/* rec_clocked_fn over the bundle's original sources (data: BUNDLE): the
 * kernel as the file of its launch defines it. */
static uint64_t clocked_in_bundle(const char *kernel, const char *site, void *data)
{
	util_buf path = UTIL_BUF_INIT, text = UTIL_BUF_INIT, definition = UTIL_BUF_INIT;
	const char *colon = strrchr(site, ':');
	uint64_t clocked = 0;

	util_buf_printf(&path, "%s/orig/%.*s", (const char *)data, (int)(colon ? colon - site : (long)strlen(site)), site);
	if (!util_buf_oom(&path) && util_file_read(&text, path.ptr, UTIL_FILE_DEFAULT_MAX_SIZE) == 0 && text.ptr) {
		chk_kernel_definitions(&definition, text.ptr, text.len, kernel);
		if (definition.ptr)
			clocked = chk_kernel_clocked_params(definition.ptr, definition.len);
	}
	util_error_clear();
	util_buf_dispose(&path);
	util_buf_dispose(&text);
	util_buf_dispose(&definition);
	return clocked;
}

/* k's times as the session keeps them: the launches' sums and the median
 * of their ratios, judged against budget; the GPUs are one (a record run
 * runs both sides on the machine it is on). */
static void time_of(rv_check_time *out, const rec_kernel *k, double budget)
{
	memset(out, 0, sizeof(*out));
	if (!rec_kernel_ratio(k, &out->low, &out->ratio, &out->high))
		return;
	out->timed = true;
	out->ref_us = k->ref_us;
	out->port_us = k->port_us;
	out->budget = budget;
	out->slow = rec_kernel_slow(k, budget);
}

/* A bundle's record run (BUNDLE/work/record/NAME/port): each kernel's result
 * recorded in the session as check record.KERNEL of its launch's file,
 * against the port of that file the bundle ran. 0 when port is not in a
 * bundle or not inside a git repository: then there is nothing to record. */
static int record_in_session(const rec_report *r, const chk_recording *port_run)
{
	util_buf bundle = UTIL_BUF_INIT, path = UTIL_BUF_INIT, text = UTIL_BUF_INIT;
	const char *port = port_run->dir;
	rv_session_check *checks = NULL;
	rv_session session;
	vcs_walk walk;
	size_t i, n = 0;
	double budget;
	int error = 0;

	memset(&walk, 0, sizeof(walk));
	memset(&session, 0, sizeof(session));
	if (!bundle_of(&bundle, port) || vcs_walk_locate(&walk, ".") < 0 || !walk.git_dir) {
		util_error_clear();
		goto done;
	}
	budget = cmd_check_perf_budget(walk.root);
	if (!(checks = calloc(r->n + 1, sizeof(*checks)))) {
		error = util_error_set(UTIL_ENOMEM, "out of memory");
		goto done;
	}
	for (i = 0; i < r->n && error == 0; i++) {
		const rec_kernel *k = &r->kernels[i];
		const char *colon = strrchr(k->site, ':');
		rv_session_check *c = &checks[n];

		if (!colon)
			continue;
		util_buf_clear(&path);
		util_buf_printf(&path, "%s/port/%.*s", bundle.ptr, (int)(colon - k->site), k->site);
		if (util_file_read(&text, path.ptr, UTIL_FILE_DEFAULT_MAX_SIZE) < 0) {
			util_error_clear();
			continue;
		}
		rv_blob_id(c->port, text.ptr ? text.ptr : "", text.len);
		c->path = strndup(k->site, (size_t)(colon - k->site));
		c->status = strdup(status_of(k->verdict));
		c->platform = strdup(port_run->platform[0] ? port_run->platform : "nvidia-proxy");
		c->arch = strdup("");
		c->message = strdup(k->message);
		time_of(&c->time, k, budget);
		if (asprintf(&c->name, "record.%s", k->kernel) < 0)
			c->name = NULL;
		n++;
		if (!c->path || !c->status || !c->platform || !c->arch || !c->message || !c->name)
			error = util_error_set(UTIL_ENOMEM, "out of memory");
	}
	if (error == 0 && n && (error = rv_session_open(&session, walk.git_dir)) == 0 &&
	    (error = rv_session_record_checks(&session, checks, n)) == 0)
		printf("recorded %zu record-and-compare result%s in the review session\n", n, n == 1 ? "" : "s");
done:
	for (i = 0; checks && i < n; i++)
		rv_session_check_dispose(&checks[i]);
	free(checks);
	rv_session_dispose(&session);
	vcs_walk_dispose(&walk);
	util_buf_dispose(&bundle);
	util_buf_dispose(&path);
	util_buf_dispose(&text);
	return error;
}

/* check.perfBudget of the repository here, else its default. */
static double budget_here(void)
{
	vcs_walk walk;
	double budget = 0.8;

	memset(&walk, 0, sizeof(walk));
	if (vcs_walk_locate(&walk, ".") == 0 && walk.root)
		budget = cmd_check_perf_budget(walk.root);
	util_error_clear();
	vcs_walk_dispose(&walk);
	return budget;
}

/* Compares one record run (ref2 may be NULL); CMD_EXIT_* */
static int compare_runs(const char *ref_dir, const char *port_dir, const char *ref2_dir)
{
	chk_recording ref, port, ref2;
	rec_report report;
	util_buf bundle = UTIL_BUF_INIT;
	int code = CMD_EXIT_OK, error;
	size_t i;

	if ((error = chk_recording_read(&ref, ref_dir)) < 0)
		return cmd_fail(cmd_exit_for(error), "%s", util_error_last());
	if ((error = chk_recording_read(&port, port_dir)) < 0) {
		chk_recording_dispose(&ref);
		return cmd_fail(cmd_exit_for(error), "%s", util_error_last());
	}
	if (ref2_dir && (error = chk_recording_read(&ref2, ref2_dir)) < 0) {
		chk_recording_dispose(&ref);
		chk_recording_dispose(&port);
		return cmd_fail(cmd_exit_for(error), "%s", util_error_last());
	}
	/* outputs that hold clock readings, where the run is a bundle's */
	if (bundle_of(&bundle, port_dir))
		error = rec_compare(&report, &ref, ref2_dir ? &ref2 : NULL, &port, clocked_in_bundle, bundle.ptr);
	else
		error = rec_compare(&report, &ref, ref2_dir ? &ref2 : NULL, &port, NULL, NULL);
	util_buf_dispose(&bundle);
	if (error < 0) {
		code = cmd_fail(cmd_exit_for(error), "%s", util_error_last());
	} else {
		rec_report_print(stdout, &report);
		rec_report_print_times(stdout, &report, budget_here());
		for (i = 0; i < report.n; i++)
			if (report.kernels[i].verdict != REC_PASS)
				code = CMD_EXIT_FINDINGS;
		if (!report.n) {
			fprintf(stderr, "hipport: %s and %s record no launch\n", ref_dir, port_dir);
			code = CMD_EXIT_FINDINGS;
		}
		if ((error = record_in_session(&report, &port)) < 0)
			code = cmd_fail(cmd_exit_for(error), "%s", util_error_last());
		rec_report_dispose(&report);
	}
	chk_recording_dispose(&ref);
	chk_recording_dispose(&port);
	if (ref2_dir)
		chk_recording_dispose(&ref2);
	return code;
}

int cmd_check_compare(cmd_context *ctx)
{
	if (ctx->nargs < 2 || ctx->nargs > 3)
		return cmd_fail(CMD_EXIT_USAGE, "check --compare: name the original's record directory, the port's, and "
						"optionally a second run of the original");
	return compare_runs(ctx->args[0], ctx->args[1], ctx->nargs == 3 ? ctx->args[2] : NULL);
}

int cmd_check_compare_bundle(const char *bundle, int code)
{
	util_buf dir = UTIL_BUF_INIT, ref = UTIL_BUF_INIT, port = UTIL_BUF_INIT, ref2 = UTIL_BUF_INIT;
	struct dirent **names = NULL;
	int n, i;

	util_buf_printf(&dir, "%s/work/record", bundle);
	if (util_buf_oom(&dir) || (n = scandir(dir.ptr, &names, NULL, alphasort)) < 0)
		n = 0;
	for (i = 0; i < n; i++) {
		if (names[i]->d_name[0] != '.') {
			int rc;

			util_buf_clear(&ref);
			util_buf_clear(&port);
			util_buf_clear(&ref2);
			util_buf_printf(&ref, "%s/%s/ref", dir.ptr, names[i]->d_name);
			util_buf_printf(&port, "%s/%s/port/launches.log", dir.ptr, names[i]->d_name);
			util_buf_printf(&ref2, "%s/%s/ref2/launches.log", dir.ptr, names[i]->d_name);
			util_buf_puts(&ref, "/launches.log");
			if (util_buf_oom(&ref) || util_buf_oom(&port) || util_buf_oom(&ref2)) {
				code = cmd_fail(CMD_EXIT_USAGE, "out of memory");
			} else if (access(port.ptr, F_OK) == 0 && access(ref.ptr, F_OK) == 0) {
				ref.ptr[ref.len - strlen("/launches.log")] = '\0';
				port.ptr[port.len - strlen("/launches.log")] = '\0';
				ref2.ptr[ref2.len - strlen("/launches.log")] = '\0';
				printf("\nrecord and compare: %s\n", names[i]->d_name);
				rc = compare_runs(ref.ptr, port.ptr, access(ref2.ptr, F_OK) == 0 ? ref2.ptr : NULL);
				if (rc > code)
					code = rc;
			} else {
				/* which side is short: the original (then nothing is judged:
				 * not the port's fault), both, or the port */
				bool port_ran = access(port.ptr, F_OK) == 0, ref_ran = access(ref.ptr, F_OK) == 0;

				printf("\nrecord and compare: %s: %s (see %s/%s/*.log)\n", names[i]->d_name,
				       !ref_ran && port_ran
					       ? "the original recorded no launch (it did not build or run as the record "
						 "section says): nothing to compare the port with, the reference's fault"
				       : !ref_ran ? "neither side recorded a launch (a build failed, or the kernels are launched "
						    "otherwise than by <<<>>>: a function pointer, cudaLaunchKernel)"
						  : "the port recorded nothing",
				       dir.ptr, names[i]->d_name);
				if (code < CMD_EXIT_FINDINGS)
					code = CMD_EXIT_FINDINGS;
			}
		}
		free(names[i]);
	}
	free(names);
	util_buf_dispose(&dir);
	util_buf_dispose(&ref);
	util_buf_dispose(&port);
	util_buf_dispose(&ref2);
	return code;
}
