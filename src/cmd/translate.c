/* hipport translate FILE [-o OUT] [--fix=IDS]: the proposed HIP source of one file. */
#include <stdio.h>
#include <string.h>

#include "analyze/finding.h"
#include "build/build.h"
#include "cmd/cmd.h"
#include "review/proposal.h"
#include "util/error.h"
#include "util/file.h"

static void report_refs(const cmd_context *ctx, const char *path, const port_result *res)
{
	util_buf msg = UTIL_BUF_INIT;
	size_t i, converted = 0, problems = 0;

	for (i = 0; i < res->nrefs; i++) {
		const port_ref *ref = &res->refs[i];
		const an_catalog_entry *entry;
		bool problem = port_ref_is_problem(ref);

		problem ? problems++ : converted++;
		if (ctx->verbosity < 0 || (!problem && !(ctx->verbosity > 0 && ref->status == PORT_REF_FALLBACK)))
			continue;
		util_buf_clear(&msg);
		port_ref_message(&msg, ref, &ctx->port);
		/* the catalog's severity, as scan reports the same finding */
		entry = problem ? an_catalog_find(port_ref_finding_id(ref)) : NULL;
		fprintf(stderr, "%s:%u:%u: %s: %s [%s]\n", path, ref->line, ref->col,
			!problem ? "note" : an_severity_name(entry ? entry->severity : AN_ERROR), msg.ptr,
			problem ? port_ref_finding_id(ref) : "PORT");
	}
	if (ctx->verbosity > 0)
		fprintf(stderr, "%s: %zu references converted, %zu left as they are, %zu kernel launches%s\n",
			path, converted, problems, res->launches,
			res->header_inserted ? ", hip/hip_runtime.h inserted" : "");
	util_buf_dispose(&msg);
}

/* A build file's findings, as compilers print theirs. */
static void report_hits(const cmd_context *ctx, const char *path, const an_analysis *analysis)
{
	size_t i;

	if (ctx->verbosity < 0)
		return;
	for (i = 0; i < analysis->count; i++) {
		const an_hit *h = &analysis->hits[i];

		fprintf(stderr, "%s:%u:%u: %s: %s [%s]\n", path, h->line, h->col, an_severity_name(h->severity),
			h->message, h->id);
	}
}

int cmd_translate(cmd_context *ctx)
{
	rv_proposal p;
	port_lexer *lexer = NULL;
	an_analyzer *analyzer = NULL;
	const char *path;
	int code = CMD_EXIT_OK, error;

	memset(&p, 0, sizeof(p));
	if (ctx->nargs != 1)
		return cmd_fail(CMD_EXIT_USAGE, "translate: expected one FILE, got %d (see 'hipport translate --help')",
				ctx->nargs);
	path = ctx->args[0];
	if ((code = cmd_load_rules(ctx)) != 0)
		return code;
	if ((error = port_lexer_new(&lexer)) < 0 ||
	    (ctx->fixes && (error = an_analyzer_new(&analyzer, ctx->compile_db, ctx->port.target_hip)) < 0) ||
	    (error = rv_proposal_read(&p, path, path, true, UTIL_FILE_DEFAULT_MAX_SIZE)) < 0 ||
	    (analyzer && (error = rv_proposal_analyze(&p, analyzer, lexer)) < 0) ||
	    (error = rv_proposal_translate_fixed(&p, lexer, ctx->rules, &ctx->port, ctx->fixes)) < 0) {
		code = cmd_fail(cmd_exit_for(error), "%s", util_error_last());
		goto done;
	}
	if (p.state == RV_PROPOSAL_BAD_INPUT) {
		code = cmd_fail(CMD_EXIT_USAGE, "%s", p.message);
		goto done;
	}
	report_refs(ctx, path, &p.port);
	if (bld_kind_of(path) != BLD_NONE)
		report_hits(ctx, path, &p.analysis);
	if (ctx->fixes && ctx->verbosity > 0)
		fprintf(stderr, "%s: %zu fixes applied\n", path, p.fixes_applied);
	if (ctx->output) {
		if (util_file_write_atomic(ctx->output, p.port.output.ptr, p.port.output.len) < 0)
			code = cmd_fail(CMD_EXIT_USAGE, "%s", util_error_last());
	} else if (fwrite(p.port.output.ptr, 1, p.port.output.len, stdout) != p.port.output.len ||
		   fflush(stdout) != 0) {
		code = cmd_fail(CMD_EXIT_USAGE, "cannot write to standard output");
	}
done:
	rv_proposal_dispose(&p);
	an_analyzer_free(analyzer);
	port_lexer_free(lexer);
	return code;
}
