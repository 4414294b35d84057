/* hipport check import FILE (--import): the results.json a bundle's run.sh
 * wrote, held to the checks the bundle made, recorded in the session (and
 * the reference outputs as golden outputs with --record), then the
 * bundle's record runs compared and their tuning sweeps kept. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check/bundle/bundle.h"
#include "check/bundle/bundle_list.h"
#include "check/kernel/results.h"
#include "check/kernel/spec_list.h"
#include "cmd/check.h"
#include "cmd/check_record.h"
#include "cmd/check_tune.h"
#include "review/check_scope.h"
#include "review/session.h"
#include "util/error.h"
#include "util/file.h"
#include "vcs/config.h"
#include "vcs/walk.h"

void cmd_check_print_results(const chk_results *r)
{
	size_t i;

	for (i = 0; i < r->n; i++) {
		const rv_session_check *c = &r->checks[i];

		printf("%s: %s (%s%s%s)%s%s\n", c->name, c->status, c->platform, *c->arch ? " " : "", c->arch,
		       *c->message ? ": " : "", c->message);
	}
}

void cmd_check_print_times(const chk_results *r, double budget)
{
	size_t i, slow = 0, shown = 0;

	for (i = 0; i < r->n; i++) {
		perf_verdict v;

		if (!r->times[i].ref.measured && !r->times[i].port.measured)
			continue;
		if (!shown++) {
			printf("\ntimes (median of the runs; range: the ratio over both sides' quartiles; budget %.2fx):\n",
			       budget);
			perf_print_header(stdout);
		}
		perf_judge(&v, &r->times[i], budget);
		perf_print_row(stdout, r->checks[i].name, &r->times[i], &v);
		slow += v.slow;
	}
	if (shown && slow)
		printf("%zu port%s below the performance budget (check.perfBudget = %.2f)\n", slow, slow == 1 ? "" : "s",
		       budget);
}

/* Exit 1 when a check failed or could not run its harness. */
int cmd_check_results_code(const chk_results *r)
{
	size_t i;

	for (i = 0; i < r->n; i++)
		if (strcmp(r->checks[i].status, "fail") == 0 || strcmp(r->checks[i].status, "error") == 0)
			return CMD_EXIT_FINDINGS;
	return CMD_EXIT_OK;
}

/* Stores the reference outputs a bundle's run left (work/ref/NAME) as golden outputs. */
static int record_golden(const char *bundle_dir, const char *root, const chk_results *r)
{
	util_buf from = UTIL_BUF_INIT, to = UTIL_BUF_INIT;
	size_t i;
	int error = 0;

	for (i = 0; !error && i < r->n; i++) {
		util_buf_clear(&from);
		util_buf_clear(&to);
		util_buf_printf(&from, "%s/work/ref/%s", bundle_dir, r->checks[i].name);
		util_buf_printf(&to, "%s.hipport/golden/%s", root, r->checks[i].name);
		util_buf_puts(&from, "/meta.txt");
		if (util_buf_oom(&from) || util_buf_oom(&to) || access(from.ptr, F_OK) != 0) {
			printf("%s: no reference outputs to record\n", r->checks[i].name);
			continue;
		}
		from.ptr[from.len -= strlen("/meta.txt")] = '\0';
		if ((error = bundle_remove_tree(to.ptr)) == 0 && (error = bundle_copy_files(from.ptr, to.ptr)) == 0)
			printf("%s: reference outputs recorded in %s\n", r->checks[i].name, to.ptr);
	}
	util_buf_dispose(&from);
	util_buf_dispose(&to);
	return error;
}

/* The checks results may speak of: those of the bundle beside them (its
 * port/ holds their sources), else the repository's specs (the work tree). */
static int known_checks(chk_results_known *out, bundle_list *list, chk_spec_list *specs, util_buf *files,
			const char *bundle_dir, const char *root)
{
	const char **names, **srcs;
	size_t i, n;
	int error;

	util_buf_printf(files, "%s/bundle.conf", bundle_dir);
	if (util_buf_oom(files))
		return util_error_set(UTIL_ENOMEM, "out of memory");
	if (access(files->ptr, F_OK) == 0) {
		util_buf_clear(files);
		util_buf_printf(files, "%s/port", bundle_dir);
		if ((error = bundle_list_read(list, bundle_dir)) < 0)
			return error;
		n = list->nchecks;
	} else {
		util_buf_clear(files);
		util_buf_puts(files, root);
		if ((error = chk_spec_list_load(specs, root)) < 0)
			return error;
		n = specs->n;
	}
	names = calloc(n + 1, sizeof(*names));
	srcs = calloc(n + 1, sizeof(*srcs));
	if (!names || !srcs || util_buf_oom(files)) {
		free(names);
		free(srcs);
		return util_error_set(UTIL_ENOMEM, "out of memory");
	}
	for (i = 0; i < n; i++) {
		names[i] = list->nchecks ? list->items[i].name : specs->items[i].name;
		srcs[i] = list->nchecks ? list->items[i].source : specs->items[i].source;
	}
	out->names = names;
	out->sources = srcs;
	out->n = n;
	out->files = files->ptr;
	return 0;
}

double cmd_check_perf_budget(const char *root)
{
	vcs_config cfg;
	double budget;

	if (vcs_config_read(&cfg, root) < 0) {
		util_error_clear();
		return 0.8;
	}
	budget = cfg.check_perf_budget;
	vcs_config_dispose(&cfg);
	return budget;
}

/* t's figures as the session keeps them, judged against budget. */
static void time_of(rv_check_time *out, const perf_timing *t, double budget)
{
	perf_verdict v;

	memset(out, 0, sizeof(*out));
	perf_judge(&v, t, budget);
	if (!v.comparable)
		return;
	out->timed = true;
	out->ref_us = t->ref.median_us;
	out->port_us = t->port.median_us;
	out->ratio = v.ratio;
	out->low = v.low;
	out->high = v.high;
	out->gbps = v.gbps;
	out->peak_share = v.peak_gbps > 0 && !v.above_peak ? v.gbps / v.peak_gbps : 0;
	out->budget = budget;
	out->slow = v.slow;
	snprintf(out->ref_device, sizeof(out->ref_device), "%s", t->ref.device);
	snprintf(out->port_device, sizeof(out->port_device), "%s", t->port.device);
}

/* Reads a file of the bundle's copies: port/ or orig/. */
static int read_in_bundle(void *payload, const char *path, bool port, util_buf *out)
{
	util_buf fs = UTIL_BUF_INIT;
	int error;

	util_buf_printf(&fs, "%s/%s/%s", (const char *)payload, port ? "port" : "orig", path);
	error = util_buf_oom(&fs) ? util_error_set(UTIL_ENOMEM, "out of memory")
				  : util_file_read(out, fs.ptr, UTIL_FILE_DEFAULT_MAX_SIZE);
	util_buf_dispose(&fs);
	return error;
}

/* Gives check c (of a bundle's file, its port blob set) the scope of kernel
 * in the bundle's orig/ and port/ copies, and the kernel's name, so that a
 * later change to another kernel of the file leaves it standing; no scope
 * where the copies are not what it ran on. */
static int scope_in_bundle(rv_session_check *c, const char *bundle_dir, const char *kernel)
{
	util_buf orig = UTIL_BUF_INIT, port = UTIL_BUF_INIT;
	rv_check_content now;
	int error = 0;

	if (read_in_bundle((void *)bundle_dir, c->path, false, &orig) == 0 &&
	    read_in_bundle((void *)bundle_dir, c->path, true, &port) == 0) {
		rv_check_content_init(&now, c->path, orig.ptr, orig.len, port.ptr ? port.ptr : "", port.len,
				      read_in_bundle, (void *)bundle_dir);
		/* only for the content the check ran on */
		if (strcmp(now.blob, c->port) == 0)
			rv_check_scope(c->scope, &now, kernel);
	}
	util_error_clear(); /* no such file: the check is held to its whole file */
	if (c->scope[0] && !(c->kernel = strdup(kernel)))
		error = util_error_set(UTIL_ENOMEM, "out of memory");
	util_buf_dispose(&orig);
	util_buf_dispose(&port);
	return error;
}

/* Each check of the bundle's kernels with its kernel and scope. */
static int scope_checks(chk_results *r, const bundle_list *list, const char *bundle_dir)
{
	size_t i, k;
	int error = 0;

	for (i = 0; i < r->n && error == 0; i++) {
		const char *name = r->checks[i].name, *at = strchr(name, '@');
		size_t len = at ? (size_t)(at - name) : strlen(name);

		for (k = 0; k < list->nchecks; k++)
			if (strlen(list->items[k].name) == len && !memcmp(list->items[k].name, name, len) &&
			    list->items[k].kernel && *list->items[k].kernel)
				break;
		if (k < list->nchecks)
			error = scope_in_bundle(&r->checks[i], bundle_dir, list->items[k].kernel);
	}
	return error;
}

/* Reads results.json, records it in the session (and golden outputs), prints it. */
int cmd_check_import(cmd_context *ctx, const char *path, const char *bundle_dir)
{
	vcs_walk walk;
	rv_session session;
	chk_results r;
	chk_results_known known = { .n = 0 };
	bundle_list list = { .nitems = 0 };
	chk_spec_list specs = { .n = 0 };
	util_buf files = UTIL_BUF_INIT;
	double budget;
	size_t i;
	int error, code;

	memset(&walk, 0, sizeof(walk));
	memset(&session, 0, sizeof(session));
	if ((error = chk_results_read(&r, path)) < 0)
		return cmd_fail(CMD_EXIT_USAGE, "%s", util_error_last());
	if ((error = vcs_walk_locate(&walk, ".")) < 0 || !walk.git_dir) {
		code = cmd_fail(CMD_EXIT_USAGE, "check: not inside a git repository (results are recorded in .git/hipport)");
		goto done;
	}
	if ((error = known_checks(&known, &list, &specs, &files, bundle_dir, walk.root)) < 0 ||
	    (error = chk_results_match(&r, path, &known)) < 0) {
		code = cmd_fail(CMD_EXIT_USAGE, "%s", util_error_last());
		goto done;
	}
	budget = cmd_check_perf_budget(walk.root);
	for (i = 0; i < r.n; i++)
		time_of(&r.checks[i].time, &r.times[i], budget);
	if ((error = scope_checks(&r, &list, bundle_dir)) < 0 || (error = rv_session_open(&session, walk.git_dir)) < 0 ||
	    (error = rv_session_record_checks(&session, r.checks, r.n)) < 0 ||
	    (ctx->record && (error = record_golden(bundle_dir, walk.root, &r)) < 0)) {
		code = cmd_fail(cmd_exit_for(error), "%s", util_error_last());
		goto done;
	}
	cmd_check_print_results(&r);
	cmd_check_print_times(&r, budget);
	code = cmd_check_compare_bundle(bundle_dir, cmd_check_results_code(&r));
	code = cmd_check_tune_bundle(bundle_dir, code);
done:
	free((void *)known.names);
	free((void *)known.sources);
	bundle_list_dispose(&list);
	chk_spec_list_dispose(&specs);
	util_buf_dispose(&files);
	rv_session_dispose(&session);
	vcs_walk_dispose(&walk);
	chk_results_dispose(&r);
	return code;
}
