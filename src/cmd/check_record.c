#include "cmd/check_record.h"

#include <stdio.h>

#include "check/record.h"
#include "util/error.h"

int cmd_check_compare(cmd_context *ctx)
{
	chk_rec_log ref, port, ref2;
	chk_rec_report report;
	int code = CMD_EXIT_OK, error;
	size_t i;

	if (ctx->nargs < 2 || ctx->nargs > 3)
		return cmd_fail(CMD_EXIT_USAGE, "check --compare: name the original's record directory, the port's, and "
						"optionally a second run of the original");
	if ((error = chk_rec_log_read(&ref, ctx->args[0])) < 0)
		return cmd_fail(cmd_exit_for(error), "%s", util_error_last());
	if ((error = chk_rec_log_read(&port, ctx->args[1])) < 0) {
		chk_rec_log_dispose(&ref);
		return cmd_fail(cmd_exit_for(error), "%s", util_error_last());
	}
	if (ctx->nargs == 3 && (error = chk_rec_log_read(&ref2, ctx->args[2])) < 0) {
		chk_rec_log_dispose(&ref);
		chk_rec_log_dispose(&port);
		return cmd_fail(cmd_exit_for(error), "%s", util_error_last());
	}
	if ((error = chk_rec_compare(&report, &ref, ctx->nargs == 3 ? &ref2 : NULL, &port)) < 0) {
		code = cmd_fail(cmd_exit_for(error), "%s", util_error_last());
	} else {
		chk_rec_report_print(stdout, &report);
		for (i = 0; i < report.n; i++)
			if (report.kernels[i].verdict != CHK_REC_PASS)
				code = CMD_EXIT_FINDINGS;
		if (!report.n) {
			fprintf(stderr, "hipport: %s and %s record no launch\n", ctx->args[0], ctx->args[1]);
			code = CMD_EXIT_FINDINGS;
		}
		chk_rec_report_dispose(&report);
	}
	chk_rec_log_dispose(&ref);
	chk_rec_log_dispose(&port);
	if (ctx->nargs == 3)
		chk_rec_log_dispose(&ref2);
	return code;
}
