/* What a commit says of upstream: the commit the port follows (its
 * Ported-from trailer), and when a sync is under way, every file the sync
 * touched, committed with upstream's commit as second parent. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/commit.h"
#include "util/buf.h"
#include "util/error.h"
#include "vcs/history.h"

static int add_line(char ***list, size_t *n, const char *fmt, const char *a, const char *b)
{
	util_buf line = UTIL_BUF_INIT;
	char **grown = realloc(*list, (*n + 1) * sizeof(*grown));

	if (!grown)
		return util_error_set(UTIL_ENOMEM, "out of memory");
	*list = grown;
	util_buf_printf(&line, fmt, a, b);
	if (util_buf_oom(&line) || !((*list)[*n] = util_buf_detach(&line)))
		return util_error_set(UTIL_ENOMEM, "out of memory");
	(*n)++;
	return 0;
}

static const rv_commit_file *planned(const cmd_commit_plan *plan, const char *path)
{
	size_t i;

	for (i = 0; i < plan->n; i++)
		if (strcmp(plan->files[i].path, path) == 0)
			return &plan->files[i];
	return NULL;
}

/* The walk's file at path, or NULL. */
static const rv_proposal *walked(const cmd_commit_plan *plan, const char *path)
{
	size_t i;

	for (i = 0; i < plan->set.n; i++)
		if (strcmp(plan->set.items[i].path, path) == 0)
			return &plan->set.items[i];
	return NULL;
}

/* Whether a merged file holds its new original as it is: every hunk of its
 * port rejected, which the commit's plan of ports leaves out. */
static bool as_upstream(const cmd_commit_plan *plan, const char *path)
{
	const rv_proposal *p = walked(plan, path);
	const rv_session_file *rec = rv_session_find(&plan->session, path);
	char blob[41];

	if (!p || !rec || !p->source.ptr)
		return false;
	rv_blob_id(blob, p->source.ptr, p->source.len);
	return strcmp(blob, rec->base) == 0;
}

/* Whether the review would change the file (a new upstream file to port). */
static bool to_port(const cmd_commit_plan *plan, const char *path)
{
	size_t i;

	for (i = 0; i < plan->set.n; i++)
		if (strcmp(plan->set.items[i].path, path) == 0)
			return plan->set.items[i].state == RV_PROPOSAL_OK && rv_proposal_changed(&plan->set.items[i]);
	return false;
}

/* A file taken as upstream (or the engineer, by hand) has it. */
static int take(cmd_commit_plan *plan, const char *verb, const char *path, bool gone)
{
	int error = add_line(&plan->taken, &plan->ntaken, "%s %s", verb, path);
	const char **list = gone ? plan->removed : plan->extra, **grown;
	size_t *n = gone ? &plan->nremoved : &plan->nextra;

	if (error < 0)
		return error;
	if (!(grown = realloc(list, (*n + 1) * sizeof(*grown))))
		return util_error_set(UTIL_ENOMEM, "out of memory");
	grown[(*n)++] = plan->taken[plan->ntaken - 1] + strlen(verb) + 1;
	if (gone)
		plan->removed = grown;
	else
		plan->extra = grown;
	return 0;
}

/* One file of the sync: in the commit, or why it cannot be yet (named:
 * paths were named, and the commit takes those). */
static int sync_file(cmd_commit_plan *plan, const sy_file *f, bool named)
{
	static const char *const open_kinds[] = { "merged", "updated", "added", "deleted", "removed upstream",
						  "merged by hand", "merged" };
	const rv_session_file *rec;
	size_t k, conflicts = 0;

	if (!f->done)
		return add_line(&plan->blocked, &plan->nblocked, "%s: the sync did not finish it (%s): run hipport sync",
				f->path, open_kinds[f->kind]);
	/* a new file that is no CUDA (a Go file, a workflow) is no walk's */
	if (f->kind == SY_ADD && !walked(plan, f->path) && !named)
		return take(plan, "added", f->path, false);
	if ((f->kind == SY_MERGE || f->kind == SY_ADD) && !walked(plan, f->path))
		return add_line(&plan->blocked, &plan->nblocked, "%s: %s", f->path,
				"part of the sync, not among the paths named: a sync is committed whole");
	switch (f->kind) {
	case SY_MERGE:
		/* a conflict is never committed, --force or not */
		for (k = 0, rec = rv_session_find(&plan->session, f->path); rec && k < rec->nhunks; k++)
			conflicts += rec->hunks[k].decision == RV_CONFLICT;
		if (conflicts)
			return add_line(&plan->blocked, &plan->nblocked, "%s: %s", f->path,
					conflicts == 1 ? "a conflict to resolve in the review" : "conflicts to resolve in the review");
		if (planned(plan, f->path))
			return 0;
		if (as_upstream(plan, f->path))
			return take(plan, "merged", f->path, false);
		return add_line(&plan->blocked, &plan->nblocked, "%s: %s: decide its hunks in the review", f->path,
				"merged, nothing decided");
	case SY_TEXT:
		return take(plan, "merged", f->path, false);
	case SY_TAKE:
		return take(plan, "updated", f->path, false);
	case SY_ADD:
		if (planned(plan, f->path))
			return 0;
		if (to_port(plan, f->path))
			return add_line(&plan->blocked, &plan->nblocked, "%s: %s", f->path,
					"new upstream: review its port first");
		return take(plan, "added", f->path, false);
	case SY_DELETE:
		return take(plan, "removed", f->path, true);
	case SY_REMOVE:
		if (f->decision == SY_REMOVED)
			return take(plan, "removed", f->path, true);
		return f->decision == SY_KEPT ? 0
					      : add_line(&plan->blocked, &plan->nblocked, "%s: %s", f->path,
							 "removed upstream: hipport sync remove, or keep");
	default:
		return f->decision == SY_KEPT
			       ? take(plan, "merged by hand", f->path, false)
			       : add_line(&plan->blocked, &plan->nblocked, "%s: %s", f->path,
					  "changed on both sides: merge it by hand, then hipport sync keep");
	}
}

int cmd_commit_plan_upstream(cmd_context *ctx, cmd_commit_plan *plan)
{
	vcs_history *h = NULL;
	size_t i;
	int error, found;

	if ((found = sy_state_open(&plan->sync, plan->set.walk.git_dir)) < 0)
		return cmd_fail(cmd_exit_for(found), "%s", util_error_last());
	plan->syncing = found == 1;
	if ((error = vcs_history_open(&h, plan->set.walk.root)) < 0)
		return cmd_fail(cmd_exit_for(error), "%s", util_error_last());
	if (plan->syncing)
		memcpy(plan->ported_from, plan->sync.to, 41);
	else if (vcs_history_ported_from(h, plan->ported_from) == 0)
		; /* the port follows the same upstream commit */
	else if (vcs_history_resolve(h, "HEAD", plan->ported_from) < 0)
		plan->ported_from[0] = '\0'; /* no commit yet: the commit says why */
	util_error_clear();
	vcs_history_free(h);
	for (i = 0; plan->syncing && i < plan->sync.n; i++)
		if ((error = sync_file(plan, &plan->sync.files[i], ctx->nargs > 0)) < 0)
			return cmd_fail(cmd_exit_for(error), "%s", util_error_last());
	return 0;
}

void cmd_commit_plan_upstream_dispose(cmd_commit_plan *plan)
{
	size_t i;

	for (i = 0; i < plan->ntaken; i++)
		free(plan->taken[i]);
	for (i = 0; i < plan->nblocked; i++)
		free(plan->blocked[i]);
	free(plan->taken);
	free(plan->blocked);
	free(plan->extra);
	free(plan->removed);
	sy_state_dispose(&plan->sync);
}
