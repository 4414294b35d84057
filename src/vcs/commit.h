/* A commit of exactly some files of the working tree, through libgit2: the
 * tree is HEAD's with those files' contents, the index gets those files
 * (the user's other staged and unstaged changes stay as they were), the
 * commit goes on the current branch, or on a new branch made from HEAD,
 * with the signature of the git configuration and a reflog entry. Git hooks
 * do not run (libgit2 has none). */
#ifndef HIPPORT_VCS_COMMIT_H
#define HIPPORT_VCS_COMMIT_H

#include <stddef.h>

typedef struct vcs_commit_request {
	const char *root;          /* the work tree (its .git is found from there) */
	const char *const *paths;  /* relative to the work tree */
	size_t npaths;
	const char *message;       /* the whole message */
	const char *branch;        /* a new branch made from HEAD and checked out (no file changes), or NULL */
	const char *const *removed; /* files the commit removes (gone from the working tree) */
	size_t nremoved;
	const char *merge_parent;  /* a second parent (a sync's upstream commit), or NULL */
} vcs_commit_request;

/* What a commit can be made on, checked before anything is written: a
 * branch with a first commit (not a detached HEAD, unless a new branch is
 * asked for), an index without conflicts and not locked, a signature in the
 * configuration. UTIL_EINPUT with a message saying what to do otherwise. */
int vcs_commit_check(const vcs_commit_request *req);

/* Makes the commit (after vcs_commit_check's checks); out receives its id
 * and branch the branch's short name. Nothing is changed on an error,
 * except that a commit made could leave the index still to be written (said
 * in the message). */
int vcs_commit_files(const vcs_commit_request *req, char out[41], char branch[256]);

#endif
