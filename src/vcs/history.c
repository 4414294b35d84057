#include "vcs/history.h"

#include <git2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"

struct vcs_history {
	git_repository *repo;
};

static int git_failed(const char *what)
{
	const git_error *e = git_error_last();

	return util_error_set(UTIL_ERROR, "%s: %s", what, e && e->message ? e->message : "libgit2 failed");
}

int vcs_history_open(vcs_history **out, const char *root)
{
	vcs_history *h = calloc(1, sizeof(*h));

	*out = NULL;
	if (!h)
		return util_error_set(UTIL_ENOMEM, "out of memory");
	git_libgit2_init();
	if (git_repository_open_ext(&h->repo, root, 0, NULL) < 0) {
		vcs_history_free(h);
		return util_error_set(UTIL_EINPUT, "%s: not inside a git repository", root);
	}
	*out = h;
	return 0;
}

void vcs_history_free(vcs_history *h)
{
	if (!h)
		return;
	git_repository_free(h->repo);
	free(h);
	git_libgit2_shutdown();
}

static int lookup_commit(git_commit **out, vcs_history *h, const char *spec)
{
	git_object *obj = NULL;
	int error = 0;

	*out = NULL;
	if (git_revparse_single(&obj, h->repo, spec) < 0 ||
	    git_object_peel((git_object **)out, obj, GIT_OBJECT_COMMIT) < 0)
		error = util_error_set(UTIL_EINPUT, "%s: no such commit", spec);
	git_object_free(obj);
	return error;
}

int vcs_history_resolve(vcs_history *h, const char *spec, char id[41])
{
	git_commit *c;
	int error = lookup_commit(&c, h, spec);

	if (error == 0)
		git_oid_tostr(id, 41, git_commit_id(c));
	git_commit_free(c);
	return error;
}

int vcs_history_trailer(vcs_history *h, const char *key, size_t depth, char *value, size_t size, char commit[41])
{
	git_commit *c = NULL, *parent;
	size_t n, i;
	int error = UTIL_ENOTFOUND;

	if (git_repository_head_unborn(h->repo) == 1 || lookup_commit(&c, h, "HEAD") < 0)
		return util_error_set(UTIL_ENOTFOUND, "the branch has no commit");
	for (n = 0; c && n < depth && error == UTIL_ENOTFOUND; n++) {
		git_message_trailer_array trailers = { 0 };

		if (git_message_trailers(&trailers, git_commit_message(c)) == 0)
			for (i = 0; i < trailers.count && error == UTIL_ENOTFOUND; i++)
				if (strcmp(trailers.trailers[i].key, key) == 0) {
					snprintf(value, size, "%s", trailers.trailers[i].value);
					git_oid_tostr(commit, 41, git_commit_id(c));
					error = 0;
				}
		git_message_trailer_array_free(&trailers);
		parent = NULL;
		if (error == UTIL_ENOTFOUND && git_commit_parentcount(c) > 0 && git_commit_parent(&parent, c, 0) < 0)
			parent = NULL;
		git_commit_free(c);
		c = error == UTIL_ENOTFOUND ? parent : NULL;
		if (error != UTIL_ENOTFOUND)
			git_commit_free(parent);
	}
	git_commit_free(c);
	return error == UTIL_ENOTFOUND ? util_error_set(UTIL_ENOTFOUND, "no commit has a %s trailer", key) : error;
}

/* How far back the trailer is looked for. */
#define TRAILER_DEPTH 10000

int vcs_history_ported_from(vcs_history *h, char id[41])
{
	char value[128], commit[41];
	int error;

	if ((error = vcs_history_trailer(h, "Ported-from", TRAILER_DEPTH, value, sizeof(value), commit)) < 0)
		return error;
	if (vcs_history_resolve(h, value, id) < 0)
		return util_error_set(UTIL_EINPUT, "commit %.12s: Ported-from: %s: no such commit", commit, value);
	return 0;
}

int vcs_history_read(vcs_history *h, const char *commit, const char *path, util_buf *out, char blob[41])
{
	git_commit *c;
	git_tree *tree = NULL;
	git_tree_entry *entry = NULL;
	git_blob *b = NULL;
	int error;

	util_buf_clear(out);
	if ((error = lookup_commit(&c, h, commit)) < 0)
		return error;
	if (git_commit_tree(&tree, c) < 0) {
		error = git_failed(commit);
	} else if (git_tree_entry_bypath(&entry, tree, path) < 0 || git_tree_entry_type(entry) != GIT_OBJECT_BLOB ||
		   git_blob_lookup(&b, h->repo, git_tree_entry_id(entry)) < 0) {
		error = util_error_set(UTIL_ENOTFOUND, "%s: not in %.12s", path, commit);
	} else {
		util_buf_put(out, git_blob_rawcontent(b), (size_t)git_blob_rawsize(b));
		util_buf_puts(out, "");
		if (blob)
			git_oid_tostr(blob, 41, git_blob_id(b));
		if (util_buf_oom(out))
			error = util_error_set(UTIL_ENOMEM, "out of memory");
	}
	git_blob_free(b);
	git_tree_entry_free(entry);
	git_tree_free(tree);
	git_commit_free(c);
	return error;
}

static int commit_tree(git_tree **out, vcs_history *h, const char *spec)
{
	git_commit *c;
	int error = lookup_commit(&c, h, spec);

	if (error == 0 && git_commit_tree(out, c) < 0)
		error = git_failed(spec);
	git_commit_free(c);
	return error;
}

int vcs_history_changes(vcs_history *h, const char *from, const char *to, vcs_change **out, size_t *n)
{
	git_tree *a = NULL, *b = NULL;
	git_diff *diff = NULL;
	git_diff_options opts;
	size_t i, count;
	int error;

	*out = NULL;
	*n = 0;
	git_diff_options_init(&opts, GIT_DIFF_OPTIONS_VERSION);
	if ((error = commit_tree(&a, h, from)) < 0 || (error = commit_tree(&b, h, to)) < 0)
		goto done;
	if (git_diff_tree_to_tree(&diff, h->repo, a, b, &opts) < 0) {
		error = git_failed("diff");
		goto done;
	}
	count = git_diff_num_deltas(diff);
	if (!(*out = calloc(count + 1, sizeof(**out)))) {
		error = util_error_set(UTIL_ENOMEM, "out of memory");
		goto done;
	}
	for (i = 0; i < count; i++) {
		const git_diff_delta *d = git_diff_get_delta(diff, i);
		vcs_change *c = &(*out)[*n];

		if (d->status != GIT_DELTA_ADDED && d->status != GIT_DELTA_DELETED && d->status != GIT_DELTA_MODIFIED)
			continue; /* a type change (link, submodule) is no file to port */
		if ((d->old_file.mode != GIT_FILEMODE_BLOB && d->old_file.mode != GIT_FILEMODE_BLOB_EXECUTABLE &&
		     d->status != GIT_DELTA_ADDED) ||
		    (d->new_file.mode != GIT_FILEMODE_BLOB && d->new_file.mode != GIT_FILEMODE_BLOB_EXECUTABLE &&
		     d->status != GIT_DELTA_DELETED))
			continue;
		c->kind = d->status == GIT_DELTA_ADDED ? VCS_ADDED : d->status == GIT_DELTA_DELETED ? VCS_DELETED
												   : VCS_MODIFIED;
		if (c->kind != VCS_ADDED)
			git_oid_tostr(c->old_blob, 41, &d->old_file.id);
		if (c->kind != VCS_DELETED)
			git_oid_tostr(c->new_blob, 41, &d->new_file.id);
		if (!(c->path = strdup(c->kind == VCS_DELETED ? d->old_file.path : d->new_file.path))) {
			error = util_error_set(UTIL_ENOMEM, "out of memory");
			goto done;
		}
		(*n)++;
	}
done:
	if (error < 0) {
		vcs_changes_free(*out, *n);
		*out = NULL;
		*n = 0;
	}
	git_diff_free(diff);
	git_tree_free(a);
	git_tree_free(b);
	return error;
}

void vcs_changes_free(vcs_change *changes, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(changes[i].path);
	free(changes);
}
