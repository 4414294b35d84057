/* What a sync reads of a repository's history through libgit2: commits by
 * name, a file as a commit holds it, the files changed between two commits,
 * and the trailers of the commits on HEAD's first-parent line. */
#ifndef HIPPORT_VCS_HISTORY_H
#define HIPPORT_VCS_HISTORY_H

#include <stddef.h>

#include "util/buf.h"

typedef struct vcs_history vcs_history;

typedef enum vcs_change_kind {
	VCS_ADDED,
	VCS_DELETED,
	VCS_MODIFIED
} vcs_change_kind;

typedef struct vcs_change {
	char *path;
	vcs_change_kind kind;
	char old_blob[41]; /* "" when added */
	char new_blob[41]; /* "" when deleted */
} vcs_change;

/* The repository whose work tree is (or holds) root; UTIL_EINPUT outside one. */
int vcs_history_open(vcs_history **out, const char *root);
void vcs_history_free(vcs_history *h);

/* A commit named as git names them (id, branch, tag, HEAD~2): its id.
 * UTIL_EINPUT naming spec when there is none. */
int vcs_history_resolve(vcs_history *h, const char *spec, char id[41]);

/* The value of the first trailer `key` (as "Ported-from") on HEAD's
 * first-parent line, newest first, and the commit that has it;
 * UTIL_ENOTFOUND when none of the last `depth` commits has one. */
int vcs_history_trailer(vcs_history *h, const char *key, size_t depth, char *value, size_t size, char commit[41]);

/* The upstream commit the port on HEAD's branch follows: the value of the
 * newest Ported-from trailer on its first-parent line, resolved (id).
 * UTIL_ENOTFOUND when no commit says it, UTIL_EINPUT (naming the commit)
 * when the one it names is not in the repository. */
int vcs_history_ported_from(vcs_history *h, char id[41]);

/* path as commit holds it (out replaced; blob: its id, may be NULL);
 * UTIL_ENOTFOUND when it has no such file. */
int vcs_history_read(vcs_history *h, const char *commit, const char *path, util_buf *out, char blob[41]);

/* The files that differ between two commits' trees, by path (a rename is
 * a deletion and an addition). */
int vcs_history_changes(vcs_history *h, const char *from, const char *to, vcs_change **out, size_t *n);
void vcs_changes_free(vcs_change *changes, size_t n);

#endif
