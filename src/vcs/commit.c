#include "vcs/commit.h"

#include <git2.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "util/buf.h"
#include "util/error.h"

static int git_failed(const char *what)
{
	const git_error *e = git_error_last();

	return util_error_set(UTIL_ERROR, "%s: %s", what, e && e->message ? e->message : "libgit2 failed");
}

typedef struct repo {
	git_repository *repo;
	git_index *index;
	git_signature *sig;
} repo;

static void repo_dispose(repo *r)
{
	git_signature_free(r->sig);
	git_index_free(r->index);
	git_repository_free(r->repo);
	memset(r, 0, sizeof(*r));
}

static const char *state_name(int state)
{
	switch (state) {
	case GIT_REPOSITORY_STATE_MERGE:
		return "a merge";
	case GIT_REPOSITORY_STATE_REVERT:
	case GIT_REPOSITORY_STATE_REVERT_SEQUENCE:
		return "a revert";
	case GIT_REPOSITORY_STATE_CHERRYPICK:
	case GIT_REPOSITORY_STATE_CHERRYPICK_SEQUENCE:
		return "a cherry-pick";
	case GIT_REPOSITORY_STATE_BISECT:
		return "a bisect";
	default:
		return "a rebase or an am";
	}
}

/* Opens the repository and checks what vcs_commit_check promises. */
static int open_checked(const vcs_commit_request *req, repo *r)
{
	util_buf path = UTIL_BUF_INIT;
	struct stat st;
	size_t i;
	int state, error;

	memset(r, 0, sizeof(*r));
	if (git_repository_open_ext(&r->repo, req->root, 0, NULL) < 0)
		return util_error_set(UTIL_EINPUT, "%s: not inside a git repository", req->root);
	if (git_repository_is_bare(r->repo))
		return util_error_set(UTIL_EINPUT, "%s: a bare repository has no working tree to commit", req->root);
	if (git_repository_head_unborn(r->repo) == 1)
		return util_error_set(UTIL_EINPUT,
				      "the current branch has no commit yet: make a first commit with git, then commit "
				      "the port on top of it");
	if (git_repository_head_detached(r->repo) == 1 && !req->branch)
		return util_error_set(UTIL_EINPUT,
				      "HEAD is detached: check out a branch, or give --branch NAME to start one here");
	if ((state = git_repository_state(r->repo)) != GIT_REPOSITORY_STATE_NONE)
		return util_error_set(UTIL_EINPUT, "%s is in progress: finish or abort it first", state_name(state));
	if (req->branch) {
		git_reference *existing = NULL;
		int valid = 0;

		util_buf_printf(&path, "refs/heads/%s", req->branch);
		if (util_buf_oom(&path))
			return util_error_set(UTIL_ENOMEM, "out of memory");
		error = git_reference_name_is_valid(&valid, path.ptr) < 0 || !valid
				? util_error_set(UTIL_EINPUT, "--branch %s: not a valid branch name", req->branch)
			: git_branch_lookup(&existing, r->repo, req->branch, GIT_BRANCH_LOCAL) == 0
				? util_error_set(UTIL_EINPUT, "--branch %s: the branch exists already", req->branch)
				: 0;
		git_reference_free(existing);
		util_buf_dispose(&path);
		if (error)
			return error;
	}
	util_buf_printf(&path, "%sindex.lock", git_repository_path(r->repo));
	if (util_buf_oom(&path))
		return util_error_set(UTIL_ENOMEM, "out of memory");
	error = stat(path.ptr, &st) == 0
			? util_error_set(UTIL_EINPUT,
					 "%s exists: another git process is working on the index, or one was killed "
					 "(remove the file if none runs)",
					 path.ptr)
			: 0;
	util_buf_dispose(&path);
	if (error)
		return error;
	if (git_repository_index(&r->index, r->repo) < 0)
		return git_failed("the index");
	if (git_index_has_conflicts(r->index))
		return util_error_set(UTIL_EINPUT, "the index has conflicts: resolve them first");
	if (git_signature_default(&r->sig, r->repo) < 0)
		return util_error_set(UTIL_EINPUT, "no committer identity: set user.name and user.email "
						   "(git config user.name \"Your Name\"; git config user.email you@example.com)");
	for (i = 0; i < req->npaths; i++) {
		util_buf_printf(&path, "%s%s", git_repository_workdir(r->repo), req->paths[i]);
		error = util_buf_oom(&path)			   ? util_error_set(UTIL_ENOMEM, "out of memory")
			: lstat(path.ptr, &st) != 0 || !S_ISREG(st.st_mode) ? util_error_set(UTIL_EINPUT,
										"%s: not a file of the working tree",
										req->paths[i])
									  : 0;
		util_buf_dispose(&path);
		if (error)
			return error;
	}
	return 0;
}

int vcs_commit_check(const vcs_commit_request *req)
{
	repo r;
	int error = open_checked(req, &r);

	repo_dispose(&r);
	return error;
}

/* HEAD's tree with the files' working-tree contents (blobs written). */
static int commit_tree(repo *r, const vcs_commit_request *req, git_commit *parent, git_tree **out)
{
	git_index *mem = NULL;
	git_tree *base = NULL;
	git_oid id;
	size_t i;
	int error = 0;

	if (git_commit_tree(&base, parent) < 0 || git_index_new(&mem) < 0 || git_index_read_tree(mem, base) < 0)
		error = git_failed("HEAD's tree");
	for (i = 0; !error && i < req->npaths; i++) {
		const git_index_entry *old = git_index_get_bypath(mem, req->paths[i], 0);
		git_index_entry e;
		char full[4096];
		struct stat st;

		memset(&e, 0, sizeof(e));
		e.path = req->paths[i];
		snprintf(full, sizeof(full), "%s%s", git_repository_workdir(r->repo), req->paths[i]);
		e.mode = old ? old->mode : stat(full, &st) == 0 && (st.st_mode & 0111) ? GIT_FILEMODE_BLOB_EXECUTABLE
											   : GIT_FILEMODE_BLOB;
		if (git_blob_create_from_workdir(&e.id, r->repo, req->paths[i]) < 0 || git_index_add(mem, &e) < 0)
			error = git_failed(req->paths[i]);
	}
	for (i = 0; !error && i < req->nremoved; i++)
		if (git_index_remove_bypath(mem, req->removed[i]) < 0)
			error = git_failed(req->removed[i]);
	if (!error && (git_index_write_tree_to(&id, mem, r->repo) < 0 || git_tree_lookup(out, r->repo, &id) < 0))
		error = git_failed("the new tree");
	git_index_free(mem);
	git_tree_free(base);
	return error;
}

/* The real index's entries of the paths before they were staged: put back
 * when the commit cannot be made. */
typedef struct saved_entry {
	git_index_entry entry;
	char *path;
	bool present;
} saved_entry;

static void restore_index(git_index *index, saved_entry *saved, const vcs_commit_request *req)
{
	size_t i;

	for (i = 0; i < req->npaths + req->nremoved; i++) {
		if (saved[i].present) {
			saved[i].entry.path = saved[i].path;
			git_index_add(index, &saved[i].entry);
		} else if (i < req->npaths) {
			git_index_remove_bypath(index, req->paths[i]);
		}
	}
	git_index_write(index);
}

int vcs_commit_files(const vcs_commit_request *req, char out[41], char branch[256])
{
	repo r;
	git_reference *head = NULL, *created = NULL;
	git_commit *parent = NULL, *upstream = NULL;
	const git_commit *parents[2];
	git_tree *tree = NULL;
	saved_entry *saved = NULL;
	git_buf message = GIT_BUF_INIT;
	git_oid id;
	size_t i;
	int error;

	if ((error = open_checked(req, &r)) < 0)
		goto done;
	if (git_repository_head(&head, r.repo) < 0 ||
	    git_reference_peel((git_object **)&parent, head, GIT_OBJECT_COMMIT) < 0) {
		error = git_failed("HEAD");
		goto done;
	}
	if ((error = commit_tree(&r, req, parent, &tree)) < 0)
		goto done;
	if (git_message_prettify(&message, req->message, 0, '#') < 0 || !message.size) {
		error = util_error_set(UTIL_EINPUT, "the commit message is empty");
		goto done;
	}
	/* the index first: a locked one stops here, with nothing changed */
	if (!(saved = calloc(req->npaths + req->nremoved + 1, sizeof(*saved)))) {
		error = util_error_set(UTIL_ENOMEM, "out of memory");
		goto done;
	}
	for (i = 0; i < req->npaths + req->nremoved; i++) {
		const char *path = i < req->npaths ? req->paths[i] : req->removed[i - req->npaths];
		const git_index_entry *old = git_index_get_bypath(r.index, path, 0);

		if (old && (saved[i].path = strdup(old->path))) {
			saved[i].entry = *old;
			saved[i].present = true;
		}
		if (i >= req->npaths) {
			if (old && git_index_remove_bypath(r.index, path) < 0) {
				error = git_failed(path);
				git_index_read(r.index, 1);
				goto done;
			}
			continue;
		}
		if (git_index_add_bypath(r.index, req->paths[i]) < 0) {
			error = git_failed(req->paths[i]);
			git_index_read(r.index, 1);
			goto done;
		}
	}
	if (git_index_write(r.index) < 0) {
		error = git_failed("writing the index");
		goto done;
	}
	if (req->branch && (git_branch_create(&created, r.repo, req->branch, parent, 0) < 0 ||
			    git_repository_set_head(r.repo, git_reference_name(created)) < 0)) {
		error = git_failed(req->branch);
		restore_index(r.index, saved, req);
		goto done;
	}
	/* updating HEAD's branch writes its reflog ("commit: <summary>") */
	if (req->merge_parent && (git_oid_fromstr(&id, req->merge_parent) < 0 ||
				  git_commit_lookup(&upstream, r.repo, &id) < 0)) {
		error = git_failed(req->merge_parent);
		restore_index(r.index, saved, req);
		goto done;
	}
	parents[0] = parent;
	parents[1] = upstream;
	if (git_commit_create(&id, r.repo, "HEAD", r.sig, r.sig, NULL, message.ptr, tree, upstream ? 2 : 1,
			      parents) < 0) {
		error = git_failed("the commit");
		restore_index(r.index, saved, req);
		if (created) { /* back where it was: HEAD on its branch, or detached */
			if (git_reference_type(head) == GIT_REFERENCE_SYMBOLIC || git_reference_is_branch(head))
				git_repository_set_head(r.repo, git_reference_name(head));
			else
				git_repository_set_head_detached(r.repo, git_commit_id(parent));
			git_branch_delete(created);
		}
		goto done;
	}
	git_oid_tostr(out, 41, &id);
	{
		git_reference *now = NULL;

		snprintf(branch, 256, "%s",
			 git_repository_head(&now, r.repo) == 0 ? git_reference_shorthand(now) : "HEAD");
		git_reference_free(now);
	}
done:
	for (i = 0; saved && i < req->npaths + req->nremoved; i++)
		free(saved[i].path);
	git_commit_free(upstream);
	free(saved);
	git_buf_dispose(&message);
	git_tree_free(tree);
	git_commit_free(parent);
	git_reference_free(created);
	git_reference_free(head);
	repo_dispose(&r);
	return error;
}
