/* hipport status [PATH...] [--format text|json]: what the review session
 * holds for each file (CUDA, Triton, build file): its state, its hunks by
 * decision (a hunk split in the review as its pieces), its findings,
 * whether it is marked reviewed, and its checks with their times. */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/finding.h"
#include "cmd/propose.h"
#include "cmd/scan.h"
#include "review/check_scope.h"
#include "review/hunks.h"
#include "review/session.h"
#include "sync/state.h"
#include "util/error.h"

typedef struct file_status {
	const char *path;
	rv_file_state state;
	size_t hunks, by_decision[RV_DECISIONS]; /* indexed by rv_decision */
	size_t merged_clean;           /* of the conflicts, those git merged clean (to confirm) */
	size_t findings[3];            /* indexed by an_severity */
	size_t checks[5];              /* kernel checks of this content, by status (check_statuses) */
	size_t checks_stale;           /* kernel checks of an earlier content */
	const rv_session_check *timed[64]; /* those of this content with times (the first 64) */
	size_t ntimed;
	bool reviewed;                 /* marked reviewed in the review, for this proposal */
	size_t bulk;                   /* hunks accepted in bulk (rename only) */
} file_status;

static const char *const check_statuses[] = { "pass", "fail", "error", "no-device", "skipped" };

/* The kernel checks recorded for the file, by status, against the port it
 * would be checked with now. */
static void count_checks(const rv_session *s, file_status *st, const rv_check_content *now)
{
	size_t i, k;

	for (i = 0; i < s->nchecks; i++) {
		const rv_session_check *c = &s->checks[i];

		if (strcmp(c->path, st->path) != 0)
			continue;
		if (!rv_check_current(c, now)) {
			st->checks_stale++;
			continue;
		}
		for (k = 0; k < 5; k++)
			if (strcmp(c->status, check_statuses[k]) == 0)
				st->checks[k]++;
		if (c->time.timed && st->ntimed < sizeof(st->timed) / sizeof(*st->timed))
			st->timed[st->ntimed++] = c;
	}
}

static int file_of(cmd_context *ctx, const rv_session *s, const char *root, const rv_proposal *now,
		   file_status *st, port_lexer *lexer, an_analyzer *analyzer)
{
	const rv_session_file *rec = rv_session_find(s, now->path);
	rv_proposal orig;
	const rv_proposal *p = now;
	rv_hunks whole, hunks;
	rv_decision *d;
	size_t i;
	int error;

	memset(&orig, 0, sizeof(orig));
	memset(st, 0, sizeof(*st));
	st->path = now->path;
	if (rec) {
		if ((error = cmd_proposal_reviewed(ctx, s, rec, now, &orig, lexer, analyzer)) < 0)
			return error;
		p = &orig;
	}
	if ((error = rv_hunks_make(&whole, p->source.ptr, p->source.len, p->port.output.ptr, p->port.output.len)) <
		    0 ||
	    (error = rv_session_hunks(rec, &whole, &hunks)) < 0) {
		rv_hunks_dispose(&whole);
		rv_proposal_dispose(&orig);
		return error;
	}
	st->reviewed = rv_session_reviewed(rec, &whole);
	rv_hunks_dispose(&whole);
	d = calloc(hunks.count + 1, sizeof(*d));
	if (!d || (error = cmd_count_findings(ctx, p, NULL, st->findings, NULL)) < 0) {
		free(d);
		rv_hunks_dispose(&hunks);
		rv_proposal_dispose(&orig);
		return error < 0 ? error : util_error_set(UTIL_ENOMEM, "out of memory");
	}
	rv_session_decisions(rec, &hunks, d, NULL);
	st->hunks = hunks.count;
	for (i = 0; i < hunks.count; i++) {
		const rv_session_hunk *sh = d[i] == RV_CONFLICT ? rv_session_hunk_of(rec, hunks.items[i].key) : NULL;

		st->by_decision[d[i]]++;
		st->merged_clean += sh && sh->clean;
		st->bulk += d[i] == RV_ACCEPTED && rv_session_hunk_bulk(rec, &hunks.items[i]);
	}
	st->state = rv_session_state(rec, &hunks, now->source.ptr, now->source.len);
	{
		/* under review, the working tree is the port; else the proposal */
		const char *port = rec ? now->source.ptr : p->port.output.ptr ? p->port.output.ptr : "";
		size_t port_len = rec ? now->source.len : p->port.output.len;
		rv_tree_reader tree = { root, s };
		util_buf original = UTIL_BUF_INIT;
		rv_check_content content;

		rv_check_content_of(&content, &original, &tree, now->path, port, port_len);
		count_checks(s, st, &content);
		util_buf_dispose(&original);
	}
	free(d);
	rv_hunks_dispose(&hunks);
	rv_proposal_dispose(&orig);
	return 0;
}

static void print_text(const file_status *st, size_t n)
{
	size_t i, k;

	for (i = 0; i < n; i++) {
		printf("%s: %s, %zu hunks (%zu accepted, %zu rejected, %zu edited, %zu pending); "
		       "%zu errors, %zu warnings, %zu notes",
		       st[i].path, rv_file_state_name(st[i].state), st[i].hunks, st[i].by_decision[RV_ACCEPTED],
		       st[i].by_decision[RV_REJECTED], st[i].by_decision[RV_EDITED], st[i].by_decision[RV_PENDING],
		       st[i].findings[AN_ERROR], st[i].findings[AN_WARNING], st[i].findings[AN_NOTE]);
		for (k = 0; k < 5; k++)
			if (st[i].checks[k])
				printf("; %zu checks %s", st[i].checks[k], check_statuses[k]);
		if (st[i].by_decision[RV_CONFLICT])
			printf("; %zu conflict%s to resolve (%zu merged clean, to confirm)", st[i].by_decision[RV_CONFLICT],
			       st[i].by_decision[RV_CONFLICT] == 1 ? "" : "s", st[i].merged_clean);
		if (st[i].checks_stale)
			printf("; %zu checks of an earlier content", st[i].checks_stale);
		if (st[i].bulk)
			printf("; %zu hunk%s accepted in bulk (rename only)", st[i].bulk, st[i].bulk == 1 ? "" : "s");
		if (st[i].reviewed)
			printf("; reviewed");
		putchar('\n');
		for (k = 0; k < st[i].ntimed; k++) {
			char line[512];

			rv_check_time_format(line, sizeof(line), &st[i].timed[k]->time);
			printf("  %s: %s\n", st[i].timed[k]->name, line);
		}
	}
}

static const file_status *status_of(const file_status *st, size_t n, const char *path)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strcmp(st[i].path, path) == 0)
			return &st[i];
	return NULL;
}

/* What a sync under way leaves: hunks to decide, conflicts to resolve,
 * files to check again, files to decide. */
typedef struct sync_left {
	size_t decide, resolve, check, files;
} sync_left;

static sync_left left_of(const sy_state *sync, const file_status *st, size_t n)
{
	sync_left left = { 0, 0, 0, 0 };
	size_t i;

	for (i = 0; i < sync->n; i++) {
		const sy_file *f = &sync->files[i];
		const file_status *s = status_of(st, n, f->path);

		left.files += !f->done || ((f->kind == SY_REMOVE || f->kind == SY_BY_HAND) && !f->decision);
		if (!s || (f->kind != SY_MERGE && f->kind != SY_ADD))
			continue;
		left.decide += s->by_decision[RV_PENDING];
		left.resolve += s->by_decision[RV_CONFLICT];
		left.check += s->checks_stale > 0; /* checks of the content before the sync: to run again */
	}
	return left;
}

static void print_sync(const sy_state *sync, const file_status *st, size_t n)
{
	sync_left left = left_of(sync, st, n);
	size_t i;

	printf("sync %.12s..%.12s under way: %zu file%s changed upstream; %zu hunk%s to decide, %zu conflict%s to "
	       "resolve, %zu file%s to check, %zu file%s to decide (hipport commit finishes it)\n",
	       sync->from, sync->to, sync->n, sync->n == 1 ? "" : "s", left.decide, left.decide == 1 ? "" : "s",
	       left.resolve, left.resolve == 1 ? "" : "s", left.check, left.check == 1 ? "" : "s", left.files,
	       left.files == 1 ? "" : "s");
	for (i = 0; i < sync->n; i++) {
		const sy_file *f = &sync->files[i];

		if (!f->done)
			printf("  %s: not synced yet (hipport sync resumes)\n", f->path);
		else if (f->kind == SY_REMOVE && !f->decision)
			printf("  %s: removed upstream, ported here (hipport sync remove|keep)\n", f->path);
		else if (f->kind == SY_BY_HAND && !f->decision)
			printf("  %s: changed on both sides; merge it by hand, then hipport sync keep\n", f->path);
	}
}

static json_t *sync_json(const sy_state *sync, const file_status *st, size_t n)
{
	sync_left left = left_of(sync, st, n);
	json_t *files = json_array();
	size_t i;

	for (i = 0; i < sync->n; i++) {
		const sy_file *f = &sync->files[i];

		json_array_append_new(files, json_pack("{s:s, s:s, s:b, s:s*}", "path", f->path, "kind",
						       sy_kind_name(f->kind), "done", f->done, "decision",
						       f->decision == SY_REMOVED ? "removed"
						       : f->decision == SY_KEPT  ? "kept"
										 : NULL));
	}
	return json_pack("{s:s, s:s, s:{s:I, s:I, s:I, s:I}, s:o}", "from", sync->from, "to", sync->to, "left",
			 "decide", (json_int_t)left.decide, "resolve", (json_int_t)left.resolve, "check",
			 (json_int_t)left.check, "files", (json_int_t)left.files, "files", files);
}

/* [{"check": NAME, "ref_us": ...}] of the file's timed checks */
static json_t *times_json(const file_status *st)
{
	json_t *times = json_array();
	size_t k;

	for (k = 0; times && k < st->ntimed; k++) {
		json_t *t = rv_check_time_to_json(&st->timed[k]->time);

		if (t)
			json_object_set_new(t, "check", json_string(st->timed[k]->name));
		json_array_append_new(times, t);
	}
	return times;
}

static int print_json(const file_status *st, size_t n, const sy_state *sync)
{
	json_t *files = json_array();
	size_t i;

	for (i = 0; i < n; i++) {
		json_t *checks = json_pack("{s:i, s:i, s:i, s:i, s:i, s:i}", "pass", (json_int_t)st[i].checks[0], "fail",
					   (json_int_t)st[i].checks[1], "error", (json_int_t)st[i].checks[2], "no-device",
					   (json_int_t)st[i].checks[3], "skipped", (json_int_t)st[i].checks[4], "stale",
					   (json_int_t)st[i].checks_stale);
		json_t *file = json_pack("{s:s, s:s, s:{s:i, s:i, s:i, s:i, s:i}, s:{s:i, s:i, s:i}}", "path", st[i].path,
					 "state", rv_file_state_name(st[i].state), "hunks", "total", (json_int_t)st[i].hunks,
					 "accepted", (json_int_t)st[i].by_decision[RV_ACCEPTED], "rejected",
					 (json_int_t)st[i].by_decision[RV_REJECTED], "edited",
					 (json_int_t)st[i].by_decision[RV_EDITED], "pending",
					 (json_int_t)st[i].by_decision[RV_PENDING], "findings", "error",
					 (json_int_t)st[i].findings[AN_ERROR], "warning",
					 (json_int_t)st[i].findings[AN_WARNING], "note", (json_int_t)st[i].findings[AN_NOTE]);

		json_object_set_new(json_object_get(file, "hunks"), "conflict",
				    json_integer((json_int_t)st[i].by_decision[RV_CONFLICT]));
		json_object_set_new(json_object_get(file, "hunks"), "mergedClean", json_integer((json_int_t)st[i].merged_clean));
		json_object_set_new(file, "checks", checks);
		json_object_set_new(file, "times", times_json(&st[i]));
		json_object_set_new(file, "reviewed", json_boolean(st[i].reviewed));
		json_object_set_new(file, "bulk", json_integer((json_int_t)st[i].bulk));
		json_array_append_new(files, file);
	}
	return scan_print_document(stdout, json_pack("{s:s, s:i, s:o, s:o*}", "schema", "hipport-status", "version", 1,
						     "files", files, "sync", sync->n ? sync_json(sync, st, n) : NULL));
}

int cmd_status(cmd_context *ctx)
{
	const char *format = ctx->format ? ctx->format : "text";
	cmd_proposals set;
	rv_session session;
	sy_state sync;
	file_status *st = NULL;
	port_lexer *lexer = NULL;
	an_analyzer *analyzer = NULL;
	size_t i, n = 0;
	int code, error;

	if (strcmp(format, "text") != 0 && strcmp(format, "json") != 0)
		return cmd_fail(CMD_EXIT_USAGE, "status: --format must be text or json, not '%s'", format);
	ctx->analyze = true;
	ctx->build_files = true;
	if ((code = cmd_proposals_make(ctx, &set)) != 0) {
		cmd_proposals_dispose(&set);
		return code;
	}
	if (!set.walk.git_dir) {
		cmd_proposals_dispose(&set);
		return cmd_fail(CMD_EXIT_USAGE, "status: not inside a git repository (the session lives in .git/hipport)");
	}
	if ((error = rv_session_open(&session, set.walk.git_dir)) < 0 ||
	    (error = sy_state_open(&sync, set.walk.git_dir)) < 0) {
		cmd_proposals_dispose(&set);
		rv_session_dispose(&session);
		sy_state_dispose(&sync);
		return cmd_fail(cmd_exit_for(error), "%s", util_error_last());
	}
	st = calloc(set.n + 1, sizeof(*st));
	if (!st || (error = port_lexer_new(&lexer)) < 0 ||
	    (error = an_analyzer_new(&analyzer, ctx->compile_db, ctx->port.target_hip)) < 0) {
		code = cmd_fail(CMD_EXIT_USAGE, "%s", st ? util_error_last() : "out of memory");
		goto done;
	}
	for (i = 0; i < set.n; i++) {
		if (set.items[i].state != RV_PROPOSAL_OK)
			continue;
		if ((error = file_of(ctx, &session, set.walk.root, &set.items[i], &st[n], lexer, analyzer)) < 0) {
			code = cmd_fail(cmd_exit_for(error), "%s", util_error_last());
			goto done;
		}
		n++;
	}
	if (strcmp(format, "json") == 0) {
		if (print_json(st, n, &sync) < 0)
			code = cmd_fail(CMD_EXIT_USAGE, "cannot write the report");
	} else {
		print_text(st, n);
		if (sync.n)
			print_sync(&sync, st, n);
	}
	if (set.named_bad && code == 0)
		code = CMD_EXIT_USAGE;
done:
	an_analyzer_free(analyzer);
	port_lexer_free(lexer);
	free(st);
	sy_state_dispose(&sync);
	rv_session_dispose(&session);
	cmd_proposals_dispose(&set);
	return code;
}
