#include "cmd/check_record.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check/record.h"
#include "review/proposal.h"
#include "review/session.h"
#include "util/buf.h"
#include "util/error.h"
#include "util/file.h"
#include "vcs/walk.h"

static const char *status_of(chk_rec_verdict v)
{
	return v == CHK_REC_PASS ? "pass" : v == CHK_REC_FAIL ? "fail" : "error";
}

/* A bundle's record run (BUNDLE/work/record/port): each kernel's result
 * recorded in the session as check record.KERNEL of its launch's file,
 * against the port of that file the bundle ran. 0 when port is not in a
 * bundle or not inside a git repository: then there is nothing to record. */
static int record_in_session(const chk_rec_report *r, const char *port)
{
	util_buf bundle = UTIL_BUF_INIT, path = UTIL_BUF_INIT, text = UTIL_BUF_INIT, platform = UTIL_BUF_INIT;
	rv_session_check *checks = NULL;
	rv_session session;
	vcs_walk walk;
	size_t i, n = 0;
	int error = 0;

	memset(&walk, 0, sizeof(walk));
	memset(&session, 0, sizeof(session));
	util_buf_printf(&bundle, "%s/../../..", port);
	util_buf_printf(&path, "%s/bundle.conf", bundle.ptr ? bundle.ptr : "");
	if (util_buf_oom(&path) || access(path.ptr, F_OK) != 0 || vcs_walk_locate(&walk, ".") < 0 || !walk.git_dir) {
		util_error_clear();
		goto done;
	}
	util_buf_clear(&path);
	util_buf_printf(&path, "%s/platform", port);
	if (util_file_read(&platform, path.ptr, 256) < 0)
		util_error_clear();
	while (platform.len && (platform.ptr[platform.len - 1] == '\n' || platform.ptr[platform.len - 1] == ' '))
		platform.ptr[--platform.len] = '\0';
	if (!(checks = calloc(r->n + 1, sizeof(*checks)))) {
		error = util_error_set(UTIL_ENOMEM, "out of memory");
		goto done;
	}
	for (i = 0; i < r->n && error == 0; i++) {
		const chk_rec_kernel *k = &r->kernels[i];
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
		c->platform = strdup(platform.len ? platform.ptr : "nvidia-proxy");
		c->arch = strdup("");
		c->message = strdup(k->message);
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
	util_buf_dispose(&platform);
	return error;
}

int cmd_check_compare(cmd_context *ctx)
{
	chk_rec_log ref, port, ref2;
	chk_rec_report report;
	int code = CMD_EXIT_OK, error;
	size_t i;

	if (ctx->nargs < 2 || ctx->nargs > 3)
		return cmd_fail(CMD_EXIT_USAGE, "check --compare: name the original's record directory, the port's, and "
						"optionally a second run of the original");
	if ((error = chk_rec_log_read(&ref, ctx->args[0])) < 0)
		return cmd_fail(cmd_exit_for(error), "%s", util_error_last());
	if ((error = chk_rec_log_read(&port, ctx->args[1])) < 0) {
		chk_rec_log_dispose(&ref);
		return cmd_fail(cmd_exit_for(error), "%s", util_error_last());
	}
	if (ctx->nargs == 3 && (error = chk_rec_log_read(&ref2, ctx->args[2])) < 0) {
		chk_rec_log_dispose(&ref);
		chk_rec_log_dispose(&port);
		return cmd_fail(cmd_exit_for(error), "%s", util_error_last());
	}
	if ((error = chk_rec_compare(&report, &ref, ctx->nargs == 3 ? &ref2 : NULL, &port)) < 0) {
		code = cmd_fail(cmd_exit_for(error), "%s", util_error_last());
	} else {
		chk_rec_report_print(stdout, &report);
		if ((error = record_in_session(&report, ctx->args[1])) < 0)
			code = cmd_fail(cmd_exit_for(error), "%s", util_error_last());
		for (i = 0; i < report.n; i++)
			if (report.kernels[i].verdict != CHK_REC_PASS)
				code = CMD_EXIT_FINDINGS;
		if (!report.n) {
			fprintf(stderr, "hipport: %s and %s record no launch\n", ctx->args[0], ctx->args[1]);
			code = CMD_EXIT_FINDINGS;
		}
		chk_rec_report_dispose(&report);
	}
	chk_rec_log_dispose(&ref);
	chk_rec_log_dispose(&port);
	if (ctx->nargs == 3)
		chk_rec_log_dispose(&ref2);
	return code;
}
