/* hipport check draft FILE... (--draft-spec): a spec per kernel of the
 * named files into .hipport/checks/, from each kernel's signature and the
 * program's launch sites. */
#include <stdio.h>
#include <stdlib.h>

#include "check/kernel/draft.h"
#include "check/kernel/spec.h"
#include "cmd/check.h"
#include "util/error.h"
#include "util/file.h"
#include "vcs/walk.h"

int cmd_check_draft(cmd_context *ctx)
{
	vcs_walk walk;
	util_buf text = UTIL_BUF_INIT, path = UTIL_BUF_INIT;
	size_t i, k;
	int code = CMD_EXIT_OK, error;

	if (ctx->nargs < 1)
		return cmd_fail(CMD_EXIT_USAGE, "check --draft-spec: name the CUDA files whose kernels to draft specs for");
	if ((error = vcs_walk_paths(&walk, ctx->args, (size_t)ctx->nargs)) < 0)
		return cmd_fail(cmd_exit_for(error), "%s", util_error_last());
	for (i = 0; i < walk.nfiles; i++) {
		const vcs_file *f = &walk.files[i];
		chk_spec *specs = NULL;
		size_t n = 0;

		if ((error = util_file_read(&text, f->fs_path, UTIL_FILE_DEFAULT_MAX_SIZE)) < 0 ||
		    (error = chk_draft(&specs, &n, f->path, f->fs_path, text.ptr, text.len, NULL)) < 0) {
			code = cmd_fail(cmd_exit_for(error), "%s", util_error_last());
			continue;
		}
		if (!n && f->named)
			fprintf(stderr, "hipport: %s: no __global__ function defined here\n", f->path);
		for (k = 0; k < n; k++) {
			if ((error = chk_draft_place(&path, walk.root, &specs[k])) < 0) {
				code = cmd_fail(cmd_exit_for(error), "%s", util_error_last());
			} else if (error == 1) {
				printf("%s: kept (exists; remove it to draft it again)\n", path.ptr);
			} else if ((error = chk_spec_write(&specs[k], path.ptr)) < 0) {
				code = cmd_fail(cmd_exit_for(error), "%s", util_error_last());
			} else {
				printf("%s: drafted for %s in %s\n", path.ptr, specs[k].kernel, f->path);
			}
			chk_spec_dispose(&specs[k]);
		}
		free(specs);
	}
	util_buf_dispose(&text);
	util_buf_dispose(&path);
	vcs_walk_dispose(&walk);
	return code;
}
