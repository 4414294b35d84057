#include "vcs/head.h"

#include <git2.h>
#include <stdlib.h>

#include "util/error.h"

struct vcs_head {
	git_repository *repo;
	git_tree *tree;
};

int vcs_head_open(vcs_head **out, const char *root)
{
	vcs_head *h;
	git_object *obj = NULL;

	*out = NULL;
	if (!(h = calloc(1, sizeof(*h))))
		return util_error_set(UTIL_ENOMEM, "out of memory");
	git_libgit2_init();
	if (git_repository_open_ext(&h->repo, root, GIT_REPOSITORY_OPEN_NO_SEARCH, NULL) < 0 ||
	    git_revparse_single(&obj, h->repo, "HEAD^{tree}") < 0) {
		vcs_head_free(h); /* no repository, or no commit yet: no originals to read */
		return 0;
	}
	h->tree = (git_tree *)obj;
	*out = h;
	return 0;
}

int vcs_head_read(util_buf *out, vcs_head *head, const char *path)
{
	git_tree_entry *entry = NULL;
	git_blob *blob = NULL;
	int error = 0;

	util_buf_clear(out);
	if (!head || git_tree_entry_bypath(&entry, head->tree, path) < 0 ||
	    git_tree_entry_type(entry) != GIT_OBJECT_BLOB ||
	    git_blob_lookup(&blob, head->repo, git_tree_entry_id(entry)) < 0) {
		error = util_error_set(UTIL_ENOTFOUND, "%s: not in HEAD", path);
		goto done;
	}
	util_buf_put(out, git_blob_rawcontent(blob), (size_t)git_blob_rawsize(blob));
	if (util_buf_oom(out))
		error = util_error_set(UTIL_ENOMEM, "out of memory");
done:
	git_blob_free(blob);
	git_tree_entry_free(entry);
	return error;
}

void vcs_head_free(vcs_head *head)
{
	if (!head)
		return;
	git_tree_free(head->tree);
	git_repository_free(head->repo);
	free(head);
	git_libgit2_shutdown();
}
