#include "cmd/check_tune.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check/tune/tune.h"
#include "cmd/cmd.h"
#include "util/buf.h"
#include "util/error.h"
#include "vcs/walk.h"

static void print_proposals(const tune_set *set)
{
	size_t i, j;

	for (i = 0; i < set->n; i++) {
		const tune_kernel *k = &set->kernels[i];

		if (!an_tuned_improves(k))
			continue;
		printf("TRITON-009 proposed for %s in %s:", k->kernel, k->source);
		for (j = 0; j < k->noptions; j++)
			if (k->options[j].best != k->options[j].program)
				printf(" %s %ld -> %ld", k->options[j].name, k->options[j].program, k->options[j].best);
		printf(" on %s (%.4f ms -> %.4f ms, %.2fx): hipport review %s, or hipport apply --fix=TRITON-009 %s\n",
		       k->backend, k->program_ms, k->best_ms, k->program_ms / k->best_ms, k->source, k->source);
	}
}

/* One record run's tune.json: shown, checked, kept; CMD_EXIT_*. */
static int take(const char *bundle, const char *path, const char *git_dir)
{
	tune_set set;
	int error;

	if ((error = tune_read_run(&set, path, bundle)) < 0)
		return cmd_fail(CMD_EXIT_USAGE, "%s", util_error_last());
	if ((error = tune_print_table(stdout, path)) < 0) {
		an_tuned_set_dispose(&set);
		return cmd_fail(CMD_EXIT_USAGE, "%s", util_error_last());
	}
	if (git_dir && (error = tune_store(git_dir, &set)) < 0) {
		an_tuned_set_dispose(&set);
		return cmd_fail(cmd_exit_for(error), "%s", util_error_last());
	}
	if (git_dir)
		printf("recorded %zu tuned kernel%s in the review session\n", set.n, set.n == 1 ? "" : "s");
	print_proposals(&set);
	an_tuned_set_dispose(&set);
	return CMD_EXIT_OK;
}

int cmd_check_tune_bundle(const char *bundle, int code)
{
	util_buf dir = UTIL_BUF_INIT, path = UTIL_BUF_INIT;
	struct dirent **names = NULL;
	vcs_walk walk;
	int n, i;

	memset(&walk, 0, sizeof(walk));
	if (vcs_walk_locate(&walk, ".") < 0)
		util_error_clear();
	util_buf_printf(&dir, "%s/work/record", bundle);
	if (util_buf_oom(&dir) || (n = scandir(dir.ptr, &names, NULL, alphasort)) < 0)
		n = 0;
	for (i = 0; i < n; i++) {
		util_buf_clear(&path);
		util_buf_printf(&path, "%s/%s/tune/tune.json", dir.ptr, names[i]->d_name);
		if (names[i]->d_name[0] != '.' && !util_buf_oom(&path) && access(path.ptr, F_OK) == 0) {
			int rc;

			printf("\ntune: %s\n", names[i]->d_name);
			rc = take(bundle, path.ptr, walk.git_dir);
			if (rc > code)
				code = rc;
		}
		free(names[i]);
	}
	free(names);
	vcs_walk_dispose(&walk);
	util_buf_dispose(&dir);
	util_buf_dispose(&path);
	return code;
}

int cmd_check_tuned_of(an_tuned_set *out, const char *fs_path)
{
	char *full = realpath(fs_path, NULL), *slash;
	vcs_walk walk;
	size_t n;
	int error = 0;

	memset(out, 0, sizeof(*out));
	memset(&walk, 0, sizeof(walk));
	if (!full || !(slash = strrchr(full, '/'))) {
		free(full);
		return 0;
	}
	*slash = '\0';
	if (vcs_walk_locate(&walk, *full ? full : "/") < 0)
		util_error_clear();
	*slash = '/';
	if (walk.git_dir && walk.root) {
		n = strlen(walk.root);
		while (n > 0 && walk.root[n - 1] == '/')
			n--;
		if (strncmp(full, walk.root, n) == 0 && full[n] == '/')
			error = tune_load(out, walk.git_dir, full + n + 1);
	}
	vcs_walk_dispose(&walk);
	free(full);
	return error;
}
