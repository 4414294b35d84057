/* hipport check draft FILE... (--draft-spec): a spec per kernel of the
 * named files into .hipport/checks/, from each kernel's signature and the
 * program's launch sites; with --from-record DIR, from the launches a
 * record run logged there. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check/kernel/draft.h"
#include "check/kernel/draft_record.h"
#include "check/kernel/spec.h"
#include "cmd/check.h"
#include "cmd/check_compile.h"
#include "util/error.h"
#include "util/file.h"
#include "vcs/config.h"
#include "vcs/walk.h"

int cmd_check_draft(cmd_context *ctx)
{
	vcs_walk walk;
	util_buf text = UTIL_BUF_INIT, path = UTIL_BUF_INIT;
	chk_recording rec, *recorded = NULL;
	chk_draft_options options = { NULL, NULL, NULL, NULL };
	vcs_config cfg;
	char *includes = NULL;
	size_t i, k;
	int code = CMD_EXIT_OK, error;

	memset(&cfg, 0, sizeof(cfg));
	if (ctx->nargs < 1)
		return cmd_fail(CMD_EXIT_USAGE, "check --draft-spec: name the CUDA files whose kernels to draft specs for");
	if (cmd_check_from_record()) {
		if ((error = chk_recording_read(&rec, cmd_check_from_record())) < 0)
			return cmd_fail(CMD_EXIT_USAGE, "check --from-record: %s", util_error_last());
		recorded = &rec;
	}
	if ((error = vcs_walk_paths(&walk, ctx->args, (size_t)ctx->nargs)) < 0) {
		if (recorded)
			chk_recording_dispose(recorded);
		return cmd_fail(cmd_exit_for(error), "%s", util_error_last());
	}
	/* parsed with the include directories the harnesses are built with */
	if ((error = vcs_config_read(&cfg, walk.root ? walk.root : "")) < 0 ||
	    !(includes = cmd_check_includes(walk.root ? walk.root : "", &cfg))) {
		code = cmd_fail(cmd_exit_for(error), "%s", error ? util_error_last() : "out of memory");
		goto done;
	}
	options.rec = recorded;
	options.root = walk.root;
	options.includes = includes;
	for (i = 0; i < walk.nfiles; i++) {
		const vcs_file *f = &walk.files[i];
		chk_spec *specs = NULL;
		size_t n = 0;

		if ((error = util_file_read(&text, f->fs_path, UTIL_FILE_DEFAULT_MAX_SIZE)) < 0 ||
		    (error = chk_draft_with(&specs, &n, f->path, f->fs_path, text.ptr, text.len, &options)) < 0) {
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
			} else if ((error = chk_draft_write(&specs[k], path.ptr)) < 0) {
				code = cmd_fail(cmd_exit_for(error), "%s", util_error_last());
			} else {
				printf("%s: drafted for %s in %s%s\n", path.ptr, specs[k].kernel, f->path,
				       recorded && specs[k].comment && strstr(specs[k].comment, "recorded launch") ? " (recorded)"
														     : "");
			}
			chk_spec_dispose(&specs[k]);
		}
		free(specs);
	}
done:
	util_buf_dispose(&text);
	util_buf_dispose(&path);
	vcs_walk_dispose(&walk);
	vcs_config_dispose(&cfg);
	free(includes);
	if (recorded)
		chk_recording_dispose(recorded);
	return code;
}
