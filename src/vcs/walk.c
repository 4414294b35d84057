#include "vcs/walk.h"

#include <dirent.h>
#include <errno.h>
#include <git2.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "build/build.h"
#include "util/buf.h"
#include "util/error.h"

static const char *const candidate_exts[] = { ".cu", ".cuh", ".cpp", ".cc", ".cxx", ".h", ".hpp", ".hip", ".py", NULL };

bool vcs_walk_is_candidate_name(const char *path)
{
	const char *dot = strrchr(path, '.'), *slash = strrchr(path, '/');
	size_t i;

	if (!dot || (slash && dot < slash))
		return false;
	for (i = 0; candidate_exts[i]; i++)
		if (strcmp(dot, candidate_exts[i]) == 0)
			return true;
	return false;
}

/* A candidate of this walk: a CUDA source name, or a build file's when asked. */
static bool is_candidate(const vcs_walk *w, const char *path)
{
	return vcs_walk_is_candidate_name(path) || (w->build_files && bld_kind_of(path) != BLD_NONE);
}

static int add_note(vcs_walk *w, const char *fmt, const char *a, const char *b)
{
	util_buf note = UTIL_BUF_INIT;
	char **grown = realloc(w->notes, (w->nnotes + 1) * sizeof(*grown));

	if (!grown)
		return util_error_set(UTIL_ENOMEM, "out of memory");
	w->notes = grown;
	util_buf_printf(&note, fmt, a, b);
	if (util_buf_oom(&note))
		return util_error_set(UTIL_ENOMEM, "out of memory");
	w->notes[w->nnotes++] = util_buf_detach(&note);
	return 0;
}

static int add_file(vcs_walk *w, const char *path, const char *fs_path, bool named)
{
	vcs_file *grown = realloc(w->files, (w->nfiles + 1) * sizeof(*grown));

	if (!grown)
		return util_error_set(UTIL_ENOMEM, "out of memory");
	w->files = grown;
	grown[w->nfiles].path = strdup(path);
	grown[w->nfiles].fs_path = strdup(fs_path);
	grown[w->nfiles].named = named;
	if (!grown[w->nfiles].path || !grown[w->nfiles].fs_path) {
		free(grown[w->nfiles].path);
		free(grown[w->nfiles].fs_path);
		return util_error_set(UTIL_ENOMEM, "out of memory");
	}
	w->nfiles++;
	return 0;
}

/* Whether the real path of fs_path lies under root (a resolved directory with '/'). */
static bool stays_inside(const char *fs_path, const char *root)
{
	char *real = realpath(fs_path, NULL);
	bool inside = real && strncmp(real, root, strlen(root)) == 0;

	free(real);
	return inside;
}

/* ---- inside a repository ---- */

typedef struct repo_walk {
	vcs_walk *w;
	git_repository *repo;
	const char *prefix; /* the walked directory, relative to the root ("" for all) */
	int error;
} repo_walk;

static int note_submodule(git_submodule *sm, const char *name, void *payload)
{
	repo_walk *rw = payload;
	const char *path = git_submodule_path(sm);
	size_t n = strlen(rw->prefix);

	(void)name;
	if (strncmp(path, rw->prefix, n) == 0)
		rw->error = add_note(rw->w, "%s: submodule, skipped%s", path, "");
	return rw->error;
}

static int walk_repo_dir(vcs_walk *w, git_repository *repo, const char *prefix)
{
	git_status_options opts;
	git_status_list *list = NULL;
	util_buf fs = UTIL_BUF_INIT;
	char *spec = (char *)prefix;
	repo_walk rw = { w, repo, prefix, 0 };
	size_t i, n;
	int error;

	git_status_options_init(&opts, GIT_STATUS_OPTIONS_VERSION);
	opts.show = GIT_STATUS_SHOW_INDEX_AND_WORKDIR;
	opts.flags = GIT_STATUS_OPT_INCLUDE_UNTRACKED | GIT_STATUS_OPT_RECURSE_UNTRACKED_DIRS |
		     GIT_STATUS_OPT_INCLUDE_UNMODIFIED | GIT_STATUS_OPT_EXCLUDE_SUBMODULES |
		     GIT_STATUS_OPT_DISABLE_PATHSPEC_MATCH;
	if (*prefix) {
		opts.pathspec.strings = &spec;
		opts.pathspec.count = 1;
		opts.flags &= ~(unsigned)GIT_STATUS_OPT_DISABLE_PATHSPEC_MATCH;
	}
	if (git_status_list_new(&list, repo, &opts) < 0)
		return util_error_set(UTIL_ERROR, "git status: %s", git_error_last() ? git_error_last()->message : "?");
	n = git_status_list_entrycount(list);
	for (i = 0; i < n; i++) {
		const git_status_entry *e = git_status_byindex(list, i);
		const git_diff_delta *d = e->index_to_workdir ? e->index_to_workdir : e->head_to_index;
		const char *path;
		struct stat st;

		if (!d || (e->status & (GIT_STATUS_WT_DELETED | GIT_STATUS_INDEX_DELETED)) ||
		    (e->status & GIT_STATUS_IGNORED))
			continue;
		path = d->new_file.path;
		if (*prefix && strncmp(path, prefix, strlen(prefix)) != 0)
			continue;
		if (!is_candidate(w, path))
			continue;
		util_buf_clear(&fs);
		util_buf_printf(&fs, "%s%s", w->root, path);
		if (util_buf_oom(&fs)) {
			error = util_error_set(UTIL_ENOMEM, "out of memory");
			goto done;
		}
		if (lstat(fs.ptr, &st) < 0)
			continue;
		if (S_ISLNK(st.st_mode)) {
			error = add_note(w, "%s: symbolic link%s, skipped", path,
					 stays_inside(fs.ptr, w->root) ? "" : " leaving the repository");
			if (error < 0)
				goto done;
			continue;
		}
		if (!S_ISREG(st.st_mode))
			continue;
		if ((error = add_file(w, path, fs.ptr, false)) < 0)
			goto done;
	}
	git_submodule_foreach(repo, note_submodule, &rw);
	error = rw.error;
done:
	git_status_list_free(list);
	util_buf_dispose(&fs);
	return error;
}

/* ---- outside a repository ---- */

static int walk_plain_dir(vcs_walk *w, const char *dir, const char *top)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	util_buf child = UTIL_BUF_INIT;
	int error = 0;

	if (!d)
		return add_note(w, "%s: cannot read directory (%s)", dir, strerror(errno));
	while (!error && (de = readdir(d)) != NULL) {
		struct stat st;

		if (de->d_name[0] == '.')
			continue; /* ., .., and hidden directories such as .git */
		util_buf_clear(&child);
		util_buf_printf(&child, "%s%s%s", dir, dir[strlen(dir) - 1] == '/' ? "" : "/", de->d_name);
		if (util_buf_oom(&child) || lstat(child.ptr, &st) < 0)
			continue;
		if (S_ISLNK(st.st_mode)) {
			struct stat target;

			if (is_candidate(w, child.ptr) ||
			    (stat(child.ptr, &target) == 0 && S_ISDIR(target.st_mode)))
				error = add_note(w, "%s: symbolic link%s, skipped", child.ptr,
						 stays_inside(child.ptr, top) ? "" : " leaving the directory");
		} else if (S_ISDIR(st.st_mode)) {
			error = walk_plain_dir(w, child.ptr, top);
		} else if (S_ISREG(st.st_mode) && is_candidate(w, child.ptr)) {
			error = add_file(w, child.ptr, child.ptr, false);
		}
	}
	closedir(d);
	util_buf_dispose(&child);
	return error;
}

/* ---- entry point ---- */

static int compare_files(const void *a, const void *b)
{
	return strcmp(((const vcs_file *)a)->path, ((const vcs_file *)b)->path);
}

static void sort_unique(vcs_walk *w)
{
	size_t i, k = 0;

	if (!w->nfiles)
		return;
	qsort(w->files, w->nfiles, sizeof(*w->files), compare_files);
	for (i = 0; i < w->nfiles; i++) {
		if (k && strcmp(w->files[k - 1].path, w->files[i].path) == 0) {
			w->files[k - 1].named |= w->files[i].named;
			free(w->files[i].path);
			free(w->files[i].fs_path);
			continue;
		}
		w->files[k++] = w->files[i];
	}
	w->nfiles = k;
}

/* The path of real (resolved) relative to the root, or NULL when outside. */
static const char *relative_to_root(const vcs_walk *w, const char *real)
{
	size_t n = strlen(w->root);

	if (strncmp(real, w->root, n) == 0)
		return real + n;
	if (strlen(real) + 1 == n && strncmp(real, w->root, n - 1) == 0)
		return "";
	return NULL;
}

static int open_repository(vcs_walk *w, git_repository **repo, const char *start)
{
	const char *workdir;
	char *real;

	if (git_repository_open_ext(repo, start, 0, NULL) < 0) {
		*repo = NULL;
		return 0;
	}
	workdir = git_repository_workdir(*repo);
	if (!workdir) {
		git_repository_free(*repo);
		*repo = NULL;
		return 0; /* bare: walk plainly */
	}
	real = realpath(workdir, NULL);
	if (!real)
		return util_error_set(UTIL_ERROR, "%s: cannot resolve the work tree", workdir);
	w->root = malloc(strlen(real) + 2);
	w->git_dir = realpath(git_repository_path(*repo), NULL);
	if (!w->root || !w->git_dir) {
		free(real);
		return util_error_set(UTIL_ENOMEM, "out of memory");
	}
	sprintf(w->root, "%s/", real);
	free(real);
	return 0;
}

static int walk_one(vcs_walk *w, git_repository *repo, const char *arg)
{
	struct stat st, lst;
	char *real = NULL;
	const char *rel;
	int error = 0;

	if (lstat(arg, &lst) < 0)
		return util_error_set(UTIL_ENOTFOUND, "%s: no such file or directory", arg);
	if (stat(arg, &st) < 0)
		return util_error_set(UTIL_EINPUT, "%s: a broken symbolic link", arg);
	real = realpath(arg, NULL);
	if (!real)
		return util_error_set(UTIL_EINPUT, "%s: cannot resolve: %s", arg, strerror(errno));
	if (repo) {
		rel = relative_to_root(w, real);
		if (!rel) {
			error = util_error_set(UTIL_EINPUT, "%s: %s the repository at %s", arg,
					       S_ISLNK(lst.st_mode) ? "a symbolic link leaving" : "outside", w->root);
		} else if (S_ISDIR(st.st_mode)) {
			util_buf prefix = UTIL_BUF_INIT;

			if (*rel)
				util_buf_printf(&prefix, "%s/", rel);
			else
				util_buf_puts(&prefix, "");
			error = util_buf_oom(&prefix) ? util_error_set(UTIL_ENOMEM, "out of memory")
						      : walk_repo_dir(w, repo, prefix.ptr);
			util_buf_dispose(&prefix);
		} else if (S_ISREG(st.st_mode)) {
			error = add_file(w, rel, real, true);
		} else {
			error = util_error_set(UTIL_EINPUT, "%s: not a regular file", arg);
		}
	} else if (S_ISDIR(st.st_mode)) {
		error = walk_plain_dir(w, arg, real);
	} else if (S_ISREG(st.st_mode)) {
		error = add_file(w, arg, arg, true);
	} else {
		error = util_error_set(UTIL_EINPUT, "%s: not a regular file", arg);
	}
	free(real);
	return error;
}

int vcs_walk_paths(vcs_walk *out, char *const *paths, size_t npaths)
{
	return vcs_walk_paths_with(out, paths, npaths, false);
}

int vcs_walk_paths_with(vcs_walk *out, char *const *paths, size_t npaths, bool build_files)
{
	static char *const here[] = { "." };
	git_repository *repo = NULL;
	size_t i;
	int error;

	memset(out, 0, sizeof(*out));
	out->build_files = build_files;
	if (npaths == 0) {
		paths = here;
		npaths = 1;
	}
	git_libgit2_init();
	{
		/* the repository is the one containing the first path */
		struct stat st;
		util_buf start = UTIL_BUF_INIT;

		if (stat(paths[0], &st) == 0 && !S_ISDIR(st.st_mode)) {
			const char *slash = strrchr(paths[0], '/');

			if (slash)
				util_buf_put(&start, paths[0], (size_t)(slash - paths[0]) + 1);
			else
				util_buf_puts(&start, ".");
		} else {
			util_buf_puts(&start, paths[0]);
		}
		error = util_buf_oom(&start) ? util_error_set(UTIL_ENOMEM, "out of memory")
					     : open_repository(out, &repo, start.ptr);
		util_buf_dispose(&start);
	}
	for (i = 0; !error && i < npaths; i++)
		error = walk_one(out, repo, paths[i]);
	git_repository_free(repo);
	git_libgit2_shutdown();
	if (error < 0) {
		vcs_walk_dispose(out);
		return error;
	}
	sort_unique(out);
	return 0;
}

int vcs_walk_locate(vcs_walk *out, const char *start)
{
	git_repository *repo = NULL;
	int error;

	memset(out, 0, sizeof(*out));
	git_libgit2_init();
	error = open_repository(out, &repo, start);
	git_repository_free(repo);
	git_libgit2_shutdown();
	if (error < 0)
		vcs_walk_dispose(out);
	return error;
}

void vcs_walk_dispose(vcs_walk *walk)
{
	size_t i;

	for (i = 0; i < walk->nfiles; i++) {
		free(walk->files[i].path);
		free(walk->files[i].fs_path);
	}
	for (i = 0; i < walk->nnotes; i++)
		free(walk->notes[i]);
	free(walk->files);
	free(walk->notes);
	free(walk->root);
	free(walk->git_dir);
	memset(walk, 0, sizeof(*walk));
}
