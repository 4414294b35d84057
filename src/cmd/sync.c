/* hipport sync: re-port after the CUDA code changed upstream, every
 * decision and hand edit carried (docs/sync.md). A family of verbs:
 *   sync [--from OLD] [--to NEW]   start a sync, or resume the one under way
 *   sync remove PATH...            take upstream's removal of a ported file
 *   sync keep PATH...              keep a file upstream removed, or one merged by hand
 * The plan is written before any file; each file is written, then marked
 * done, so that a killed sync resumes where it stopped. The review's S runs
 * the same sync (cmd_sync_run), with nothing printed. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analyze/analysis.h"
#include "build/build.h"
#include "cmd/cmd.h"
#include "cmd/propose.h"
#include "cmd/sync.h"
#include "review/proposal.h"
#include "review/session.h"
#include "sync/merge.h"
#include "sync/state.h"
#include "util/error.h"
#include "util/file.h"
#include "vcs/history.h"
#include "vcs/walk.h"

typedef struct syncer {
	cmd_context *ctx;
	vcs_walk where; /* root and git_dir */
	vcs_history *history;
	rv_session session;
	sy_state state;
	port_lexer *lexer;
	an_analyzer *analyzer;
	FILE *out;    /* hipport sync's line per file as it is written; NULL: none (the review) */
	bool resumed; /* the sync was under way */
	bool wrote;   /* the plan or a file */
} syncer;

static void syncer_dispose(syncer *s)
{
	an_analyzer_free(s->analyzer);
	port_lexer_free(s->lexer);
	sy_state_dispose(&s->state);
	rv_session_dispose(&s->session);
	vcs_history_free(s->history);
	vcs_walk_dispose(&s->where);
}

static char *fs_path(const syncer *s, const char *path)
{
	util_buf out = UTIL_BUF_INIT;

	util_buf_printf(&out, "%s%s", s->where.root, path);
	return util_buf_detach(&out);
}

/* The blob id of what the working tree holds at path, or "" when nothing. */
static int tree_blob(const syncer *s, const char *path, char id[41])
{
	char *fs = fs_path(s, path);
	util_buf text = UTIL_BUF_INIT;
	int error;

	id[0] = '\0';
	if (!fs)
		return util_error_set(UTIL_ENOMEM, "out of memory");
	if (access(fs, F_OK) != 0) {
		free(fs);
		return 0;
	}
	if ((error = util_file_read(&text, fs, 0)) == 0)
		rv_blob_id(id, text.ptr ? text.ptr : "", text.len);
	util_buf_dispose(&text);
	free(fs);
	return error;
}

/* path as commit holds it; blob "" (and text empty) when it has none. */
static int read_at(syncer *s, const char *commit, const char *path, util_buf *text, char blob[41])
{
	int error = vcs_history_read(s->history, commit, path, text, blob);

	blob[0] = error == 0 ? blob[0] : '\0';
	if (error == UTIL_ENOTFOUND) {
		util_error_clear();
		util_buf_clear(text);
		util_buf_puts(text, "");
		return 0;
	}
	return error;
}

/* The proposal of text, with the fixes taken (NULL: none), into out; the
 * text itself for a file the translation does not take. */
static int propose_text(syncer *s, const char *path, const util_buf *text, const char *fixes, util_buf *out)
{
	rv_proposal p;
	char *fs = fs_path(s, path);
	int error;

	memset(&p, 0, sizeof(p));
	util_buf_clear(out);
	if (!fs)
		return util_error_set(UTIL_ENOMEM, "out of memory");
	if ((!s->lexer && (error = port_lexer_new(&s->lexer)) < 0) ||
	    (fixes && !s->analyzer &&
	     (error = an_analyzer_new(&s->analyzer, s->ctx->compile_db, s->ctx->port.target_hip)) < 0) ||
	    (error = rv_proposal_from_text(&p, path, fs, text->ptr ? text->ptr : "", text->len)) < 0 ||
	    (fixes && (error = rv_proposal_analyze(&p, s->analyzer, s->lexer)) == UTIL_ENOMEM)) {
		rv_proposal_dispose(&p);
		free(fs);
		return error;
	}
	util_error_clear(); /* an analysis libclang cannot parse leaves the fixes out, as scan does */
	if ((error = rv_proposal_translate_fixed(&p, s->lexer, s->ctx->rules, &s->ctx->port, fixes)) == 0) {
		if (p.state == RV_PROPOSAL_OK)
			util_buf_put(out, p.port.output.ptr ? p.port.output.ptr : "", p.port.output.len);
		else
			util_buf_put(out, text->ptr ? text->ptr : "", text->len);
		util_buf_puts(out, "");
		if (util_buf_oom(out))
			error = util_error_set(UTIL_ENOMEM, "out of memory");
	}
	rv_proposal_dispose(&p);
	free(fs);
	return error;
}

/* Whether the review takes the file: a source hipport ports, or a build file. */
static bool reviewable(const char *path)
{
	return vcs_walk_is_candidate_name(path) || bld_kind_of(path) != BLD_NONE;
}

/* What the sync does with one file upstream changed; -1 for nothing. */
static int plan_one(syncer *s, const vcs_change *c, char head_blob[41])
{
	util_buf text = UTIL_BUF_INIT;
	int error = read_at(s, s->state.head, c->path, &text, head_blob);

	util_buf_dispose(&text);
	if (error < 0)
		return error;
	switch (c->kind) {
	case VCS_ADDED:
		return !head_blob[0] ? SY_ADD : strcmp(head_blob, c->new_blob) == 0 ? -1 : SY_BY_HAND;
	case VCS_DELETED:
		return !head_blob[0] ? -1 : strcmp(head_blob, c->old_blob) == 0 ? SY_DELETE : SY_REMOVE;
	default:
		if (!head_blob[0])
			return -1; /* the port removed it: it stays removed */
		/* as upstream had it: left alone, unless it was reviewed and
		 * every hunk rejected (by a decision or by hand), which the
		 * merge carries over to the new file's proposal */
		if (strcmp(head_blob, c->old_blob) == 0)
			return reviewable(c->path) && rv_session_find(&s->session, c->path) ? SY_MERGE : SY_TAKE;
		return strcmp(head_blob, c->new_blob) == 0 ? -1 : SY_MERGE;
	}
}

/* The plan: every file upstream changed, what the sync does with it; the
 * working tree must hold the port's commit there (nothing of the engineer's
 * is overwritten): else an error naming the files that do not. */
static int make_plan(syncer *s)
{
	vcs_change *changes = NULL;
	util_buf dirty = UTIL_BUF_INIT;
	size_t n = 0, i;
	int error;

	if ((error = vcs_history_changes(s->history, s->state.from, s->state.to, &changes, &n)) < 0)
		return error;
	for (i = 0; i < n && error == 0; i++) {
		char head_blob[41], now[41];
		int kind = plan_one(s, &changes[i], head_blob);

		if (kind < -1 || (kind >= 0 && (error = tree_blob(s, changes[i].path, now)) < 0)) {
			error = kind < -1 ? kind : error;
			break;
		}
		if (kind < 0)
			continue;
		if (strcmp(now, head_blob) != 0)
			util_buf_printf(&dirty, "%s%s", dirty.len ? ", " : "", changes[i].path);
		else if (!sy_state_add(&s->state, changes[i].path, (sy_kind)kind))
			error = util_error_set(UTIL_ENOMEM, "out of memory");
	}
	vcs_changes_free(changes, n);
	if (error == 0 && util_buf_oom(&dirty))
		error = util_error_set(UTIL_ENOMEM, "out of memory");
	else if (error == 0 && dirty.len)
		error = util_error_set(UTIL_EINPUT, "these files differ from the port's commit %.12s: %s; commit or "
						    "stash them first, nothing was changed", s->state.head, dirty.ptr);
	util_buf_dispose(&dirty);
	return error;
}

static int write_upstream(syncer *s, const char *path)
{
	util_buf text = UTIL_BUF_INIT;
	char blob[41], *fs = fs_path(s, path);
	int error = fs ? read_at(s, s->state.to, path, &text, blob) : util_error_set(UTIL_ENOMEM, "out of memory");

	if (error == 0 && (error = util_file_make_parents(fs)) == 0)
		error = util_file_write_atomic(fs, text.ptr ? text.ptr : "", text.len);
	util_buf_dispose(&text);
	free(fs);
	return error;
}

/* A file both changed: the three-way merge of its proposals and the port. */
static int merge_one(syncer *s, sy_file *f)
{
	util_buf old = UTIL_BUF_INIT, ours = UTIL_BUF_INIT, now = UTIL_BUF_INIT, base = UTIL_BUF_INIT,
		 theirs = UTIL_BUF_INIT;
	const rv_session_file *rec = rv_session_find(&s->session, f->path);
	const char *fixes = rec ? rec->fixes : NULL;
	char blob[41], holds[41], *fs = fs_path(s, f->path);
	bool review = reviewable(f->path);
	sy_merge m;
	int error;

	memset(&m, 0, sizeof(m));
	if (!fs)
		return util_error_set(UTIL_ENOMEM, "out of memory");
	if ((error = read_at(s, s->state.from, f->path, &old, blob)) < 0 ||
	    (error = read_at(s, s->state.head, f->path, &ours, holds)) < 0 ||
	    (error = read_at(s, s->state.to, f->path, &now, blob)) < 0)
		goto done;
	if (review) {
		if ((error = propose_text(s, f->path, &old, fixes, &base)) < 0 ||
		    (error = propose_text(s, f->path, &now, fixes, &theirs)) < 0)
			goto done;
	} else { /* not the review's: a plain three-way merge */
		util_buf_put(&base, old.ptr, old.len);
		util_buf_put(&theirs, now.ptr, now.len);
		util_buf_puts(&base, "");
		util_buf_puts(&theirs, "");
	}
	{
		sy_inputs in = { base.ptr, base.len, ours.ptr, ours.len, now.ptr, now.len, theirs.ptr, theirs.len };

		if ((error = sy_merge_file(&m, &in)) < 0) {
			error = util_error_set(error, "%s: %s", f->path, util_error_last());
			goto done;
		}
	}
	f->carried = m.carried;
	f->proposed = m.proposed;
	f->merged = m.merged;
	f->conflicts = m.conflicts;
	f->edits_kept = m.edits_kept;
	if (!review) {
		f->kind = m.conflicts ? SY_BY_HAND : SY_TEXT; /* by hand: nothing written, the engineer merges it */
		if (!m.conflicts)
			error = util_file_write_atomic(fs, m.result, m.result_len);
		goto done;
	}
	{
		rv_session_synced in = { now.ptr, now.len, theirs.ptr, theirs.len, fixes, m.regions, m.nregions,
					 m.hunks, m.nhunks };

		error = rv_session_sync_file(&s->session, f->path, fs, &in, holds);
	}
done:
	sy_merge_dispose(&m);
	util_buf_dispose(&old);
	util_buf_dispose(&ours);
	util_buf_dispose(&now);
	util_buf_dispose(&base);
	util_buf_dispose(&theirs);
	free(fs);
	return error;
}

/* A file is written only while it holds what the port's commit has, or
 * what the sync wrote (a sync killed and run again). */
static int untouched(syncer *s, const sy_file *f)
{
	util_buf text = UTIL_BUF_INIT;
	char now[41], head[41], upstream[41];
	int error;

	if ((error = tree_blob(s, f->path, now)) == 0 && (error = read_at(s, s->state.head, f->path, &text, head)) == 0 &&
	    (error = read_at(s, s->state.to, f->path, &text, upstream)) == 0 && strcmp(now, head) != 0 &&
	    strcmp(now, upstream) != 0)
		error = util_error_set(UTIL_EINPUT, "%s: changed since the sync started: commit or stash it, then run "
					"hipport sync again", f->path);
	util_buf_dispose(&text);
	return error;
}

static int step(syncer *s, sy_file *f)
{
	char *fs;
	int error = 0;

	if ((f->kind == SY_TAKE || f->kind == SY_ADD || f->kind == SY_DELETE) && (error = untouched(s, f)) < 0)
		return error;
	switch (f->kind) {
	case SY_TAKE:
	case SY_ADD:
		return write_upstream(s, f->path);
	case SY_DELETE:
		if (!(fs = fs_path(s, f->path)))
			return util_error_set(UTIL_ENOMEM, "out of memory");
		if (unlink(fs) != 0 && errno != ENOENT)
			error = util_error_set(UTIL_ERROR, "%s: cannot be removed: %s", f->path, strerror(errno));
		free(fs);
		return error;
	case SY_MERGE:
		return merge_one(s, f);
	default:
		return 0; /* a decision of the engineer's */
	}
}

static void print_file(FILE *out, const sy_file *f)
{
	switch (f->kind) {
	case SY_MERGE:
		fprintf(out, "merged    %s: %zu carried, %zu proposed, %zu merged clean, %zu conflict%s, %zu edit%s "
			"kept\n", f->path, f->carried, f->proposed, f->merged, f->conflicts, f->conflicts == 1 ? "" : "s",
			f->edits_kept, f->edits_kept == 1 ? "" : "s");
		break;
	case SY_TAKE:
		fprintf(out, "updated   %s (the port left it alone)\n", f->path);
		break;
	case SY_ADD:
		fprintf(out, "added     %s (proposed fresh in the review)\n", f->path);
		break;
	case SY_DELETE:
		fprintf(out, "deleted   %s\n", f->path);
		break;
	case SY_REMOVE:
		fprintf(out, "removed upstream, ported here: %s (hipport sync remove|keep)\n", f->path);
		break;
	case SY_BY_HAND:
		fprintf(out, "by hand   %s: changed on both sides, not a file the review takes (merge it, then "
			"hipport sync keep)\n", f->path);
		break;
	case SY_TEXT:
		fprintf(out, "merged    %s (not a file the review takes: merged clean)\n", f->path);
		break;
	}
}

/* The sync's counts in one line, "sync OLD..NEW: ..." (what: "sync");
 * returns whether it left something to do (the CLI's "next:" line). */
static bool summarize(const sy_state *st, const char *what, char *out, size_t size)
{
	size_t i, merged = 0, carried = 0, proposed = 0, clean = 0, conflicts = 0, kept = 0;

	for (i = 0; i < st->n; i++) {
		const sy_file *f = &st->files[i];

		merged += f->kind == SY_MERGE;
		carried += f->carried;
		proposed += f->proposed;
		clean += f->merged;
		conflicts += f->conflicts;
		kept += f->edits_kept;
	}
	/* what is left to do first: the review's status bar may cut the rest */
	snprintf(out, size, "%s %.12s..%.12s: %zu file%s changed upstream, %zu merged into the review: %zu "
		 "conflict%s, %zu merged clean, %zu proposed, %zu carried, %zu edit%s kept", what, st->from, st->to,
		 st->n, st->n == 1 ? "" : "s", merged, conflicts, conflicts == 1 ? "" : "s", clean, proposed, carried,
		 kept, kept == 1 ? "" : "s");
	return sy_state_open_files(st) || proposed || conflicts;
}

/* Upstream's old commit: --from, else the Ported-from trailer. */
static int find_from(syncer *s, char id[41])
{
	int error;

	if (s->ctx->sync_from)
		return vcs_history_resolve(s->history, s->ctx->sync_from, id);
	if ((error = vcs_history_ported_from(s->history, id)) == UTIL_ENOTFOUND)
		return util_error_set(UTIL_EINPUT,
				      "no commit on this branch says which upstream commit it was ported from "
				      "(a Ported-from trailer): give --from OLD");
	return error;
}

static int start(syncer *s, const char *to_name)
{
	char from[41], to[41];
	int error;

	if ((error = find_from(s, from)) < 0 || (error = vcs_history_resolve(s->history, to_name, to)) < 0 ||
	    (error = vcs_history_resolve(s->history, "HEAD", s->state.head)) < 0)
		return error;
	if (strcmp(from, to) == 0)
		return util_error_set(UTIL_EINPUT, "%s is the commit the port was made from: nothing to sync", to_name);
	memcpy(s->state.from, from, 41);
	memcpy(s->state.to, to, 41);
	if ((error = make_plan(s)) < 0)
		return error;
	/* a record run's launches come from the program's host code, in any
	 * of its files: after a sync they are to record again */
	s->wrote = true;
	if (s->state.n && (error = rv_session_outdate_checks(&s->session, "record.")) < 0)
		return error;
	return sy_state_save(&s->state); /* the plan, before any file */
}

static int run_steps(syncer *s)
{
	size_t i;
	int error;

	for (i = 0; i < s->state.n; i++) {
		sy_file *f = &s->state.files[i];

		if (f->done)
			continue;
		s->wrote = true;
		if ((error = step(s, f)) < 0)
			return error;
		f->done = true;
		if ((error = sy_state_save(&s->state)) < 0)
			return error;
		if (s->out)
			print_file(s->out, f);
	}
	return 0;
}

/* What a sync reads: the repository, its history, the session and the sync
 * under way; 1 when there is one, 0 when not. */
static int syncer_open(syncer *s, cmd_context *ctx)
{
	int error;

	memset(s, 0, sizeof(*s));
	s->ctx = ctx;
	if ((error = vcs_walk_locate(&s->where, ".")) < 0 || !s->where.root)
		return util_error_set(UTIL_EINPUT, "not inside a git repository");
	if ((error = vcs_history_open(&s->history, s->where.root)) < 0 ||
	    (error = rv_session_open(&s->session, s->where.git_dir)) < 0)
		return error;
	return sy_state_open(&s->state, s->where.git_dir);
}

/* The sync to `to` started, or the one under way resumed (`to` NULL, or
 * naming its commit), and run to its end. */
static int sync_go(syncer *s, bool under_way, const char *to)
{
	char id[41];
	int error;

	if (!under_way) {
		if (!to)
			return util_error_set(UTIL_ENOTFOUND, "name the upstream commit to sync to with --to NEW");
		if ((error = start(s, to)) < 0)
			return error;
	} else if (to && (vcs_history_resolve(s->history, to, id) < 0 || strcmp(id, s->state.to) != 0)) {
		return util_error_set(UTIL_EINPUT, "a sync to %.12s is under way: finish it (hipport commit) before "
						   "another", s->state.to);
	} else {
		s->resumed = true;
		if (s->out)
			fprintf(s->out, "resuming the sync %.12s..%.12s\n", s->state.from, s->state.to);
	}
	return run_steps(s);
}

int cmd_sync_run(cmd_context *ctx, const char *to, char *summary, size_t size, bool *wrote)
{
	syncer s;
	int error = syncer_open(&s, ctx);

	if (error >= 0 && (error = sync_go(&s, error > 0, to)) == 0)
		summarize(&s.state, s.resumed ? "resumed the sync" : "sync", summary, size);
	*wrote = s.wrote;
	syncer_dispose(&s);
	return error;
}

/* sync remove|keep PATH...: the engineer's decision on a file the sync left open. */
static int decide(syncer *s, bool remove)
{
	int i, error;

	if (s->ctx->nargs < 2)
		return cmd_fail(CMD_EXIT_USAGE, "sync %s: name the files", remove ? "remove" : "keep");
	for (i = 1; i < s->ctx->nargs; i++) {
		sy_file *f = sy_state_find(&s->state, s->ctx->args[i]);

		if (!f || (f->kind != SY_REMOVE && (remove || f->kind != SY_BY_HAND)))
			return cmd_fail(CMD_EXIT_USAGE, "sync %s: %s: not a file the sync left to decide%s",
					remove ? "remove" : "keep", s->ctx->args[i],
					remove ? " (upstream removed it, and it was ported)" : "");
	}
	for (i = 1; i < s->ctx->nargs; i++) {
		sy_file *f = sy_state_find(&s->state, s->ctx->args[i]);
		char *fs = fs_path(s, f->path);

		if (!fs)
			return cmd_fail(CMD_EXIT_USAGE, "out of memory");
		if (remove && unlink(fs) != 0 && errno != ENOENT) {
			free(fs);
			return cmd_fail(CMD_EXIT_USAGE, "sync remove: %s: %s", f->path, strerror(errno));
		}
		free(fs);
		f->decision = remove ? SY_REMOVED : SY_KEPT;
		if ((error = sy_state_save(&s->state)) < 0)
			return cmd_fail(cmd_exit_for(error), "sync: %s", util_error_last());
		if (s->ctx->verbosity >= 0)
			printf("%s %s\n", remove ? "removed" : "kept", f->path);
	}
	return 0;
}

int cmd_sync(cmd_context *ctx)
{
	syncer s;
	const char *verb = ctx->nargs > 0 ? ctx->args[0] : NULL;
	char summary[512];
	int error, code = 0, under_way;

	if (verb && strcmp(verb, "remove") != 0 && strcmp(verb, "keep") != 0)
		return cmd_fail(CMD_EXIT_USAGE, "sync: '%s' is not a verb of sync (remove, keep)", verb);
	if ((under_way = syncer_open(&s, ctx)) < 0) {
		code = cmd_fail(cmd_exit_for(under_way), "sync: %s", util_error_last());
		goto done;
	}
	if ((code = cmd_repository_config(ctx, s.where.root)) != 0 || (code = cmd_load_rules(ctx)) != 0)
		goto done;
	if (verb) {
		code = under_way ? decide(&s, strcmp(verb, "remove") == 0)
				 : cmd_fail(CMD_EXIT_USAGE, "sync %s: no sync is under way", verb);
		goto done;
	}
	s.out = ctx->verbosity >= 0 ? stdout : NULL;
	if ((error = sync_go(&s, under_way > 0, ctx->sync_to)) < 0) {
		code = cmd_fail(cmd_exit_for(error), "sync: %s", util_error_last());
	} else if (ctx->verbosity >= 0) {
		bool left = summarize(&s.state, "sync", summary, sizeof(summary));

		printf("%s\n", summary);
		if (left)
			printf("next: hipport review (decide, resolve), hipport check, hipport commit\n");
	}
done:
	syncer_dispose(&s);
	return code;
}
