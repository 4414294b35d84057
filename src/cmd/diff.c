/* hipport diff [PATH...]: unified diffs of the proposals. */
#include <string.h>

#include "cmd/propose.h"
#include "util/error.h"

int cmd_diff(cmd_context *ctx)
{
	cmd_proposals set;
	util_buf out = UTIL_BUF_INIT;
	size_t i;
	int code, error = 0;

	ctx->build_files = true;
	if ((code = cmd_proposals_make(ctx, &set)) != 0)
		goto done;
	for (i = 0; i < set.n && error == 0; i++) {
		util_buf_clear(&out);
		error = rv_proposal_diff(&set.items[i], &out, ctx->color);
		if (error == 0 && out.len && fwrite(out.ptr, 1, out.len, stdout) != out.len)
			error = util_error_set(UTIL_ERROR, "cannot write to standard output");
	}
	if (error < 0 || fflush(stdout) != 0)
		code = cmd_fail(CMD_EXIT_USAGE, "%s", error < 0 ? util_error_last() : "cannot write to standard output");
	else
		code = set.named_bad ? CMD_EXIT_USAGE : CMD_EXIT_OK;
done:
	util_buf_dispose(&out);
	cmd_proposals_dispose(&set);
	return code;
}
