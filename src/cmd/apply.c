/* hipport apply [PATH...]: write the proposals into the working tree, keeping
 * the originals; hipport apply --undo [PATH...] puts them back. */
#include <stdlib.h>
#include <string.h>

#include "cmd/propose.h"
#include "review/apply.h"
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

static int apply_all(cmd_context *ctx)
{
	cmd_proposals set;
	char *backups = NULL;
	size_t i, applied = 0, refused = 0;
	int code;

	if ((code = cmd_proposals_make(ctx, &set)) != 0)
		goto done;
	if (set.named_bad) {
		code = cmd_fail(CMD_EXIT_USAGE, "nothing applied");
		goto done;
	}
	backups = rv_backup_dir(set.walk.git_dir);
	for (i = 0; backups && i < set.n; i++) {
		rv_proposal *p = &set.items[i];
		char *key;

		if (!rv_proposal_changed(p))
			continue;
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
	char *backups = NULL, **keys = NULL, **prefixes = NULL;
	size_t nkeys = 0, i, k, restored = 0, refused = 0;
	int nprefixes = ctx->nargs ? ctx->nargs : 1, code = 0;

	if (vcs_walk_locate(&w, ctx->nargs ? ctx->args[0] : ".") < 0)
		return cmd_fail(CMD_EXIT_USAGE, "%s", util_error_last());
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

			if (rv_undo(backups, keys[k], fs) < 0) {
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
	vcs_walk_dispose(&w);
	return code;
}

int cmd_apply(cmd_context *ctx)
{
	return ctx->undo ? undo_all(ctx) : apply_all(ctx);
}
