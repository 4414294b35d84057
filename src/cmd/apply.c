/* hipport apply [PATH...]: write the proposals into the working tree, keeping
 * the originals; hipport apply --undo [PATH...] puts them back. */
#include <stdlib.h>
#include <string.h>

#include "cmd/propose.h"
#include "review/apply.h"
#include "review/session.h"
#include "util/error.h"

/* The key a file's backup is stored under: its path in the repository, or
 * outside one its absolute path without the leading '/'. */
static char *backup_key(const vcs_walk *w, const char *fs_path)
{
	char *real = realpath(fs_path, NULL), *key = NULL;

	if (!real)
		return NULL;
	if (w->root && strncmp(real, w->root, strlen(w->root)) == 0)
		key = strdup(real + strlen(w->root));
	else if (w->root && strlen(real) + 1 == strlen(w->root) && strncmp(real, w->root, strlen(real)) == 0)
		key = strdup("");
	else if (!w->root)
		key = strdup(real + 1);
	free(real);
	return key;
}

static char *key_to_path(const vcs_walk *w, const char *key)
{
	util_buf b = UTIL_BUF_INIT;

	util_buf_printf(&b, "%s%s", w->root ? w->root : "/", key);
	return util_buf_detach(&b);
}

/* In a repository, apply is a review that accepts every hunk: the session
 * records it like the TUI's decisions (saved before the file is written). */
typedef struct apply_session {
	rv_session session;
	bool open;
	port_lexer *lexer;       /* for files reviewed before: made when first needed */
	an_analyzer *analyzer;
} apply_session;

static void apply_session_dispose(apply_session *as)
{
	if (as->open)
		rv_session_dispose(&as->session);
	an_analyzer_free(as->analyzer);
	port_lexer_free(as->lexer);
}

/* A file the session knows: its pending hunks (of the proposal made from its
 * original) are accepted and the file is written; 1 when it changed. */
static int accept_reviewed(cmd_context *ctx, apply_session *as, rv_session_file *rec, rv_proposal *p)
{
	rv_proposal o;
	rv_hunks hunks;
	util_buf composed = UTIL_BUF_INIT;
	int error;
	bool changed;

	memset(&o, 0, sizeof(o));
	if (rv_session_stale(rec, p->source.ptr, p->source.len) &&
	    (error = rv_session_rebase(&as->session, p->path, p->source.ptr, p->source.len)) < 0)
		return error;
	if ((!as->lexer && (error = port_lexer_new(&as->lexer)) < 0) ||
	    (!as->analyzer && (error = an_analyzer_new(&as->analyzer, ctx->compile_db, ctx->port.target_hip)) < 0))
		return error;
	if ((error = cmd_proposal_reviewed(ctx, &as->session, rec, p, &o, as->lexer, as->analyzer)) < 0) {
		rv_proposal_dispose(&o);
		return error;
	}
	if ((error = rv_hunks_make(&hunks, o.source.ptr, o.source.len, o.port.output.ptr, o.port.output.len)) == 0) {
		/* a decision a kill interrupted is written first, as the review does */
		error = rv_session_resume(&as->session, p->path, p->fs_path, o.source.ptr, o.source.len,
					  o.port.output.ptr, o.port.output.len, &hunks);
		if (error >= 0)
			error = rv_session_decide_pending(&as->session, p->path, p->fs_path, o.source.ptr, o.source.len,
						  o.port.output.ptr, o.port.output.len, &hunks, RV_ACCEPTED, true,
						  &composed);
		rv_hunks_dispose(&hunks);
	}
	changed = error == 0 && (composed.len != p->source.len || memcmp(composed.ptr, p->source.ptr, composed.len));
	util_buf_dispose(&composed);
	rv_proposal_dispose(&o);
	return error < 0 ? error : changed;
}

/* A file new to the session: every hunk accepted, the fixes taken recorded;
 * the caller writes it (with a backup). */
static int record_accepted(cmd_context *ctx, apply_session *as, const rv_proposal *p)
{
	rv_hunks hunks;
	int error;

	if (ctx->fixes && p->fixes_applied &&
	    (error = rv_session_choose_fix(&as->session, p->path, p->fs_path, p->source.ptr, p->source.len,
					   ctx->fixes)) < 0)
		return error;
	if ((error = rv_hunks_make(&hunks, p->source.ptr, p->source.len, p->port.output.ptr, p->port.output.len)) < 0)
		return error;
	error = rv_session_decide_pending(&as->session, p->path, p->fs_path, p->source.ptr, p->source.len,
					  p->port.output.ptr, p->port.output.len, &hunks, RV_ACCEPTED, false, NULL);
	rv_hunks_dispose(&hunks);
	return error;
}

static int apply_all(cmd_context *ctx)
{
	cmd_proposals set;
	apply_session as;
	char *backups = NULL;
	size_t i, applied = 0, refused = 0;
	int code, error;

	memset(&as, 0, sizeof(as));
	ctx->build_files = true;
	if ((code = cmd_proposals_make(ctx, &set)) != 0)
		goto done;
	if (set.named_bad) {
		code = cmd_fail(CMD_EXIT_USAGE, "nothing applied");
		goto done;
	}
	if (set.walk.git_dir) {
		if ((error = rv_session_open(&as.session, set.walk.git_dir)) < 0) {
			code = cmd_fail(cmd_exit_for(error), "%s", util_error_last());
			goto done;
		}
		as.open = true;
	}
	backups = rv_backup_dir(set.walk.git_dir);
	for (i = 0; backups && i < set.n; i++) {
		rv_proposal *p = &set.items[i];
		rv_session_file *rec = as.open && p->state == RV_PROPOSAL_OK ? rv_session_find(&as.session, p->path) : NULL;
		char *key;

		if (rec) {
			if ((error = accept_reviewed(ctx, &as, rec, p)) < 0) {
				fprintf(stderr, "hipport: %s\n", util_error_last());
				refused++;
			} else if (error > 0) {
				applied++;
				if (ctx->verbosity > 0)
					fprintf(stderr, "applied %s (every pending hunk of its review)\n", p->path);
			}
			continue;
		}
		if (!rv_proposal_changed(p))
			continue;
		if (as.open && record_accepted(ctx, &as, p) < 0) {
			fprintf(stderr, "hipport: %s\n", util_error_last());
			refused++;
			continue;
		}
		key = backup_key(&set.walk, p->fs_path);
		if (key) {
			const char *shown = p->path;

			p->path = key; /* the backup is filed under the key */
			if (rv_apply(p, backups) < 0) {
				fprintf(stderr, "hipport: %s\n", util_error_last());
				refused++;
			} else {
				applied++;
				if (ctx->verbosity > 0)
					fprintf(stderr, "applied %s\n", shown);
			}
			p->path = shown;
			free(key);
		}
	}
	if (!backups)
		code = cmd_fail(CMD_EXIT_USAGE, "out of memory");
	else if (ctx->verbosity >= 0)
		fprintf(stderr, "hipport: applied %zu file%s%s%s%s\n", applied, applied == 1 ? "" : "s",
			applied ? " (originals kept in " : "", applied ? backups : "", applied ? ")" : "");
	if (!code && refused)
		code = CMD_EXIT_FINDINGS;
done:
	free(backups);
	apply_session_dispose(&as);
	cmd_proposals_dispose(&set);
	return code;
}

static bool under(const char *key, const char *prefix)
{
	size_t n = strlen(prefix);

	return n == 0 || (strncmp(key, prefix, n) == 0 && (key[n] == '\0' || key[n] == '/'));
}

static int undo_all(cmd_context *ctx)
{
	vcs_walk w;
	rv_session session;
	bool in_session = false;
	char *backups = NULL, **keys = NULL, **prefixes = NULL;
	size_t nkeys = 0, i, k, restored = 0, refused = 0;
	int nprefixes = ctx->nargs ? ctx->nargs : 1, code = 0;

	if (vcs_walk_locate(&w, ctx->nargs ? ctx->args[0] : ".") < 0)
		return cmd_fail(CMD_EXIT_USAGE, "%s", util_error_last());
	if (w.git_dir) {
		if (rv_session_open(&session, w.git_dir) < 0) {
			code = cmd_fail(CMD_EXIT_USAGE, "%s", util_error_last());
			goto done;
		}
		in_session = true;
	}
	backups = rv_backup_dir(w.git_dir);
	prefixes = calloc((size_t)nprefixes, sizeof(*prefixes));
	if (!backups || !prefixes || rv_backup_list(&keys, &nkeys, backups) < 0) {
		code = cmd_fail(CMD_EXIT_USAGE, "%s", util_error_last());
		goto done;
	}
	for (i = 0; i < (size_t)nprefixes; i++) {
		const char *arg = ctx->nargs ? ctx->args[i] : ".";

		prefixes[i] = backup_key(&w, arg);
		if (!prefixes[i]) {
			/* a file that no longer exists: resolve its directory */
			code = cmd_fail(CMD_EXIT_USAGE, "%s: no such file, or outside the repository", arg);
			goto done;
		}
	}
	for (k = 0; k < nkeys; k++) {
		for (i = 0; i < (size_t)nprefixes && !under(keys[k], prefixes[i]); i++)
			;
		if (i == (size_t)nprefixes)
			continue;
		{
			char *fs = key_to_path(&w, keys[k]);

			/* the original is back: the session forgets what apply recorded */
			if (rv_undo(backups, keys[k], fs) < 0 ||
			    (in_session && rv_session_forget(&session, keys[k]) < 0)) {
				fprintf(stderr, "hipport: %s\n", util_error_last());
				refused++;
			} else {
				restored++;
				if (ctx->verbosity > 0)
					fprintf(stderr, "restored %s\n", keys[k]);
			}
			free(fs);
		}
	}
	if (ctx->verbosity >= 0)
		fprintf(stderr, "hipport: restored %zu file%s\n", restored, restored == 1 ? "" : "s");
	code = refused ? CMD_EXIT_FINDINGS : CMD_EXIT_OK;
done:
	for (k = 0; k < nkeys; k++)
		free(keys[k]);
	free(keys);
	for (i = 0; prefixes && i < (size_t)nprefixes; i++)
		free(prefixes[i]);
	free(prefixes);
	free(backups);
	if (in_session)
		rv_session_dispose(&session);
	vcs_walk_dispose(&w);
	return code;
}

int cmd_apply(cmd_context *ctx)
{
	return ctx->undo ? undo_all(ctx) : apply_all(ctx);
}
