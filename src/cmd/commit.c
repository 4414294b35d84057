/* hipport commit [PATH...]: commit the reviewed files whose checks passed on
 * exactly their current content, with a message a reviewer can trust. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check/toolchain/arch.h"
#include "check/kernel/spec_list.h"
#include "cmd/check_compile.h"
#include "cmd/commit.h"
#include "cmd/propose.h"
#include "review/message.h"
#include "review/validate.h"
#include "util/error.h"
#include "vcs/config.h"
#include "vcs/commit.h"

void cmd_commit_plan_dispose(cmd_commit_plan *plan)
{
	size_t i;

	for (i = 0; i < plan->n; i++) {
		rv_proposal_dispose(&plan->reviewed[i]);
		free(plan->validations[i]);
	}
	free(plan->reviewed);
	free(plan->validations);
	free(plan->files);
	free(plan->blobs);
	chk_spec_list_dispose(&plan->specs);
	tc_arch_choice_dispose(&plan->arch);
	an_analyzer_free(plan->analyzer);
	port_lexer_free(plan->lexer);
	if (plan->session_open)
		rv_session_dispose(&plan->session);
	cmd_commit_plan_upstream_dispose(plan);
	cmd_proposals_dispose(&plan->set);
	memset(plan, 0, sizeof(*plan));
}

/* check.perfBlocks: a kernel of the file below the budget keeps it out. */
static void refuse_slow(rv_validation *v, const char *path)
{
	util_buf why = UTIL_BUF_INIT;
	char line[512];
	size_t k;

	for (k = 0; k < v->nkernels; k++) {
		if (!v->kernels[k]->time.slow)
			continue;
		rv_check_time_format(line, sizeof(line), &v->kernels[k]->time);
		v->committable = false;
		util_buf_printf(&why, "kernel check %s of %s is slow (check.perfBlocks = true): %s", v->kernels[k]->name,
				path, line);
		snprintf(v->why, sizeof(v->why), "%s", why.ptr ? why.ptr : "slow");
		util_buf_dispose(&why);
		return;
	}
}

/* One reviewed file: its proposal of the original, its decisions counted,
 * its findings left open, its validation. */
static int plan_file(cmd_context *ctx, cmd_commit_plan *plan, rv_proposal *p, rv_session_file *rec)
{
	size_t k = plan->n, i, pending = 0;
	rv_commit_file *f = &plan->files[k];
	rv_tree_reader tree = { plan->set.walk.root, &plan->session };
	util_buf original = UTIL_BUF_INIT;
	rv_check_content now;
	rv_validation *v;
	rv_hunks hunks;
	rv_decision *d;
	const char *specs[64];
	size_t nspecs = chk_spec_list_covering(&plan->specs, p->path, specs, 64);
	int error;

	if (!(v = calloc(1, sizeof(*v))))
		return util_error_set(UTIL_ENOMEM, "out of memory");
	plan->validations[k] = v;
	plan->n++; /* disposed with the plan from here on */
	if ((error = cmd_proposal_reviewed(ctx, &plan->session, rec, p, &plan->reviewed[k], plan->lexer,
					   plan->analyzer)) < 0)
		return error;
	f->path = p->path;
	f->proposal = &plan->reviewed[k];
	f->rec = rec;
	f->validation = v;
	if ((error = rv_hunks_make(&hunks, f->proposal->source.ptr, f->proposal->source.len,
				   f->proposal->port.output.ptr, f->proposal->port.output.len)) < 0)
		return error;
	if (!(d = calloc(hunks.count + 1, sizeof(*d)))) {
		rv_hunks_dispose(&hunks);
		return util_error_set(UTIL_ENOMEM, "out of memory");
	}
	rv_session_decisions(rec, &hunks, d, NULL);
	for (i = 0; i < hunks.count; i++) {
		pending += !rv_decided(d[i]); /* a sync's conflicts too */
		f->edited += d[i] == RV_EDITED;
		f->rejected += d[i] == RV_REJECTED;
		f->bulk += d[i] == RV_ACCEPTED && rv_session_hunk_bulk(rec, &hunks.items[i]);
	}
	free(d);
	rv_hunks_dispose(&hunks);
	if ((error = cmd_count_findings(ctx, f->proposal, rec->fixes, f->findings, NULL)) < 0)
		return error;
	rv_check_content_of(&now, &original, &tree, p->path, p->source.ptr ? p->source.ptr : "", p->source.len);
	rv_validate(v, &plan->session, rec, p->path, pending, rv_session_stale(rec, p->source.ptr, p->source.len), &now,
		    plan->arch.value, cmd_compile_applies(p->path), specs, nspecs);
	util_buf_dispose(&original);
	if (v->committable && plan->perf_blocks)
		refuse_slow(v, p->path);
	plan->refused += !v->committable;
	return 0;
}

int cmd_commit_plan_make(cmd_context *ctx, cmd_commit_plan *plan)
{
	vcs_config cfg;
	size_t i;
	int code, error;

	memset(plan, 0, sizeof(*plan));
	ctx->analyze = true; /* the findings left open go into the message */
	ctx->build_files = true;
	if ((code = cmd_proposals_make(ctx, &plan->set)) != 0)
		return code;
	if (!plan->set.walk.git_dir)
		return cmd_fail(CMD_EXIT_USAGE, "commit: not inside a git repository");
	if ((error = rv_session_open(&plan->session, plan->set.walk.git_dir)) < 0)
		return cmd_fail(cmd_exit_for(error), "%s", util_error_last());
	plan->session_open = true;
	if ((error = vcs_config_read(&cfg, plan->set.walk.root)) < 0)
		return cmd_fail(cmd_exit_for(error), "%s", util_error_last());
	plan->perf_blocks = cfg.check_perf_blocks;
	vcs_config_dispose(&cfg);
	if ((error = tc_offload_arch_resolve(ctx->offload_arch, plan->set.walk.root, &plan->arch)) < 0 ||
	    (error = chk_spec_list_load(&plan->specs, plan->set.walk.root)) < 0 ||
	    (error = port_lexer_new(&plan->lexer)) < 0 ||
	    (error = an_analyzer_new(&plan->analyzer, ctx->compile_db, ctx->port.target_hip)) < 0)
		return cmd_fail(cmd_exit_for(error), "%s", util_error_last());
	plan->files = calloc(plan->set.n + 1, sizeof(*plan->files));
	plan->reviewed = calloc(plan->set.n + 1, sizeof(*plan->reviewed));
	plan->validations = calloc(plan->set.n + 1, sizeof(*plan->validations));
	plan->blobs = calloc(plan->set.n + 1, sizeof(*plan->blobs));
	if (!plan->files || !plan->reviewed || !plan->validations || !plan->blobs)
		return cmd_fail(CMD_EXIT_USAGE, "out of memory");
	for (i = 0; i < plan->set.n; i++) {
		rv_proposal *p = &plan->set.items[i];
		rv_session_file *rec = p->state == RV_PROPOSAL_OK ? rv_session_find(&plan->session, p->path) : NULL;
		char *blob = plan->blobs[plan->n]; /* the next file's slot */

		if (!rec)
			continue; /* not reviewed: not the commit's business */
		rv_blob_id(blob, p->source.ptr, p->source.len);
		if (strcmp(blob, rec->committed) == 0 || strcmp(blob, rec->base) == 0)
			continue; /* committed already, or nothing of the port in it */
		if ((error = plan_file(ctx, plan, p, rec)) < 0)
			return cmd_fail(cmd_exit_for(error), "%s", util_error_last());
	}
	return cmd_commit_plan_upstream(ctx, plan);
}

int cmd_commit_run(cmd_context *ctx, cmd_commit_plan *plan, const char *message, char id[41], char branch[256])
{
	const char **paths = calloc(plan->n + plan->nextra + 1, sizeof(*paths));
	vcs_commit_request req;
	size_t i;
	int error;

	if (!paths)
		return util_error_set(UTIL_ENOMEM, "out of memory");
	for (i = 0; i < plan->n; i++)
		paths[i] = plan->files[i].path;
	for (i = 0; i < plan->nextra; i++)
		paths[plan->n + i] = plan->extra[i];
	memset(&req, 0, sizeof(req));
	req.root = plan->set.walk.root;
	req.paths = paths;
	req.npaths = plan->n + plan->nextra;
	req.removed = plan->removed;
	req.nremoved = plan->nremoved;
	req.merge_parent = plan->syncing ? plan->sync.to : NULL;
	req.message = message;
	req.branch = ctx->branch;
	if ((error = vcs_commit_files(&req, id, branch)) == 0) {
		for (i = 0; i < plan->n && !error; i++)
			error = rv_session_mark_committed(&plan->session, paths[i], plan->blobs[i], id);
		if (!error && (error = rv_session_save(&plan->session)) < 0)
			error = util_error_set(error, "the commit %.12s is made, but the session could not record it: %s",
					       id, util_error_last());
		if (!error && plan->syncing && (error = sy_state_finish(&plan->sync)) < 0)
			error = util_error_set(error, "the commit %.12s is made, but the sync stays under way: %s", id,
					       util_error_last());
	}
	free(paths);
	return error;
}

int cmd_commit_message(cmd_context *ctx, const cmd_commit_plan *plan, util_buf *out)
{
	char target[32];
	rv_commit_upstream up = { plan->ported_from, plan->syncing ? plan->sync.from : NULL,
				  (const char *const *)plan->taken, plan->ntaken };

	port_version_format(target, sizeof(target), ctx->port.target_hip);
	return rv_commit_message(out, ctx->message, plan->files, plan->n, target,
				 ctx->port.torch == PORT_TORCH_V1   ? "before 2.11 (MasqueradingAsCUDA names)"
				 : ctx->port.torch == PORT_TORCH_V2 ? "2.11 and newer"
								    : NULL,
				 ctx->force && plan->refused, &up);
}

int cmd_commit(cmd_context *ctx)
{
	cmd_commit_plan plan;
	util_buf message = UTIL_BUF_INIT;
	char id[41], branch[256];
	size_t i;
	int code, error;

	if ((code = cmd_commit_plan_make(ctx, &plan)) != 0)
		goto done;
	if (plan.nblocked) {
		for (i = 0; i < plan.nblocked; i++)
			fprintf(stderr, "hipport: %s\n", plan.blocked[i]);
		code = cmd_fail(CMD_EXIT_FINDINGS, "nothing committed: the sync with upstream %.12s is not finished",
				plan.sync.to);
		goto done;
	}
	if (!plan.n && !plan.nextra && !plan.nremoved) {
		code = cmd_fail(CMD_EXIT_FINDINGS, "nothing to commit: no reviewed file holds a port that is not committed");
		goto done;
	}
	for (i = 0; i < plan.n; i++)
		if (!plan.validations[i]->committable)
			fprintf(stderr, "hipport: %s: %s\n", plan.files[i].path, plan.validations[i]->why);
	if (plan.refused && !ctx->force) {
		code = cmd_fail(CMD_EXIT_FINDINGS, "nothing committed: %zu of %zu file%s not validated (--force commits "
						   "them anyway, and says so in the message)",
				plan.refused, plan.n, plan.n == 1 ? "" : "s");
		goto done;
	}
	if ((error = cmd_commit_message(ctx, &plan, &message)) < 0 ||
	    (error = cmd_commit_run(ctx, &plan, message.ptr, id, branch)) < 0) {
		code = cmd_fail(cmd_exit_for(error), "%s", util_error_last());
		goto done;
	}
	printf("[%s %.7s] %.*s\n", branch, id, (int)strcspn(message.ptr, "\n"), message.ptr);
	for (i = 0; i < plan.n; i++)
		printf(" %s\n", plan.files[i].path);
	for (i = 0; i < plan.ntaken; i++)
		printf(" %s\n", plan.taken[i]);
	if (plan.refused)
		fprintf(stderr, "hipport: %zu file%s committed without validation (--force, said in the message)\n",
			plan.refused, plan.refused == 1 ? "" : "s");
	code = CMD_EXIT_OK;
done:
	util_buf_dispose(&message);
	cmd_commit_plan_dispose(&plan);
	return code;
}
