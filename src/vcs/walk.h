/* Which files a command works on: the paths the user named, with directories
 * walked through libgit2 (tracked and untracked-not-ignored files) inside a
 * repository, or plainly outside one. */
#ifndef HIPPORT_VCS_WALK_H
#define HIPPORT_VCS_WALK_H

#include <stdbool.h>
#include <stddef.h>

typedef struct vcs_file {
	char *path;    /* as shown to the user: relative to the repository root, or as named */
	char *fs_path; /* what to open */
	bool named;    /* the user named this file (not found by a walk) */
	bool reviewed; /* the review session knows it: proposed even once it holds no CUDA (its port) */
} vcs_file;

typedef struct vcs_walk {
	vcs_file *files;  /* sorted by path, no duplicates */
	size_t nfiles;
	char **notes;     /* "path: why it was skipped" */
	size_t nnotes;
	char *root;       /* the repository's work tree (with a trailing '/'), or NULL outside one */
	char *git_dir;    /* the repository's .git directory, or NULL */
	bool build_files; /* the walk took build files (CMakeLists.txt, *.cmake, Makefile, *.mk) too */
} vcs_walk;

/* Whether a file name has a candidate extension (.cu .cuh .cpp .cc .cxx .h .hpp .hip, and
 * .py for Triton kernels). */
bool vcs_walk_is_candidate_name(const char *path);

/* Walks paths (the current directory when npaths is 0). A named path that
 * does not exist, or a symbolic link leaving the repository, is an error
 * (UTIL_EINPUT / UTIL_ENOTFOUND). */
int vcs_walk_paths(vcs_walk *out, char *const *paths, size_t npaths);

/* vcs_walk_paths, with build files (CMakeLists.txt, *.cmake, Makefile,
 * makefile, GNUmakefile, *.mk) among the candidates when build_files is set. */
int vcs_walk_paths_with(vcs_walk *out, char *const *paths, size_t npaths, bool build_files);

/* Only finds the repository containing start (root and git_dir stay NULL outside one). */
int vcs_walk_locate(vcs_walk *out, const char *start);

void vcs_walk_dispose(vcs_walk *walk);

#endif
