#include "vcs/tracked.h"

#include <git2.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"

int vcs_tracked_under(vcs_tracked *out, const char *root, const char *dir)
{
	git_repository *repo = NULL;
	git_index *index = NULL;
	size_t i, n, len = strcmp(dir, ".") == 0 ? 0 : strlen(dir);
	int error = 0;

	git_libgit2_init();
	if (git_repository_open_ext(&repo, root, GIT_REPOSITORY_OPEN_NO_SEARCH, NULL) < 0) {
		git_libgit2_shutdown();
		return 0;
	}
	if (git_repository_index(&index, repo) < 0) {
		error = util_error_set(UTIL_EINPUT, "%s: cannot read the git index: %s", root,
				       git_error_last() ? git_error_last()->message : "unknown error");
		goto done;
	}
	n = git_index_entrycount(index);
	for (i = 0; i < n; i++) {
		const git_index_entry *e = git_index_get_byindex(index, i);
		char **m;

		if (len && (strncmp(e->path, dir, len) != 0 || e->path[len] != '/'))
			continue;
		if (!(m = realloc(out->paths, (out->n + 1) * sizeof(*m))) || !(m[out->n] = strdup(e->path))) {
			if (m)
				out->paths = m;
			error = util_error_set(UTIL_ENOMEM, "out of memory");
			break;
		}
		out->paths = m;
		out->n++;
	}
done:
	git_index_free(index);
	git_repository_free(repo);
	git_libgit2_shutdown();
	return error;
}

void vcs_tracked_dispose(vcs_tracked *t)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		free(t->paths[i]);
	free(t->paths);
	memset(t, 0, sizeof(*t));
}
