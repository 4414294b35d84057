#include "cmd/propose.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "analyze/finding.h"
#include "check/toolchain/arch.h"
#include "review/batch.h"
#include "review/cache.h"
#include "review/session.h"
#include "vcs/config.h"
#include "util/error.h"

typedef struct progress {
	pthread_mutex_t lock;
	const cmd_context *ctx;
	struct timespec start;
	bool shown;
	size_t last;
} progress;

static double seconds_since(const struct timespec *t)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - t->tv_sec) + (double)(now.tv_nsec - t->tv_nsec) / 1e9;
}

/* A bar on stderr (or the command's own), once the work has taken more
 * than half a second. */
static void show_progress(size_t done, size_t total, void *payload)
{
	progress *pg = payload;
	int width = 30, filled;

	pthread_mutex_lock(&pg->lock);
	if ((pg->shown || seconds_since(&pg->start) > 0.5) && (done == total || done * 100 / total != pg->last)) {
		pg->last = done * 100 / total;
		if (pg->ctx->progress) {
			pg->ctx->progress(done, total, pg->ctx->progress_payload);
			pthread_mutex_unlock(&pg->lock);
			return;
		}
		filled = (int)(done * (size_t)width / total);
		fprintf(stderr, "\r[%.*s%*s] %zu/%zu files", filled, "##############################",
			width - filled, "", done, total);
		pg->shown = true;
	}
	pthread_mutex_unlock(&pg->lock);
}

int cmd_repository_config(cmd_context *ctx, const char *root)
{
	vcs_config cfg;
	int code, error;

	if ((error = vcs_config_read(&cfg, root)) < 0)
		return cmd_fail(CMD_EXIT_USAGE, "%s", util_error_last());
	if (cfg.port_target_torch && !ctx->torch_given && cmd_set_target_torch(ctx, cfg.port_target_torch) < 0) {
		code = cmd_fail(CMD_EXIT_USAGE, "%s.hipport/config: port.targetTorch: '%s' is not a version like "
				"2.11, or none", root, cfg.port_target_torch);
		vcs_config_dispose(&cfg);
		return code;
	}
	if (cfg.port_single_source && strcmp(cfg.port_single_source, "true") != 0 &&
	    strcmp(cfg.port_single_source, "false") != 0 && !cmd_is_macro_name(cfg.port_single_source)) {
		code = cmd_fail(CMD_EXIT_USAGE, "%s.hipport/config: port.singleSource: '%s' is not true, false or "
				"a macro name", root, cfg.port_single_source);
		vcs_config_dispose(&cfg);
		return code;
	}
	if (cfg.port_single_source && !ctx->port.single_source &&
	    strcmp(cfg.port_single_source, "false") != 0) {
		/* kept for the walk: check and commit must build what apply wrote */
		ctx->configured_single_source = cfg.port_single_source;
		cfg.port_single_source = NULL;
		ctx->port.single_source = strcmp(ctx->configured_single_source, "true") == 0
						  ? ""
						  : ctx->configured_single_source;
	}
	if (cfg.scan_max_size && !ctx->max_size_given)
		ctx->max_size = (size_t)cfg.scan_max_size;
	if (!ctx->port.offload_arch && cfg.check_offload_arch) {
		tc_arch arch;

		/* a bad value is check's and doctor's to report */
		if (tc_arch_parse(&arch, cfg.check_offload_arch) == 0) {
			ctx->configured_arch = cfg.check_offload_arch;
			cfg.check_offload_arch = NULL;
			ctx->port.offload_arch = ctx->configured_arch;
		}
		util_error_clear();
	}
	if (cfg.scan_suppress && cmd_add_suppressed(ctx, cfg.scan_suppress) < 0) {
		vcs_config_dispose(&cfg);
		return cmd_fail(CMD_EXIT_USAGE, "out of memory");
	}
	vcs_config_dispose(&cfg);
	return 0;
}

/* The walk and what the repository's configuration says, the session's
 * files marked, and room for the proposals. */
static int setup(cmd_context *ctx, cmd_proposals *out)
{
	size_t i;
	int error, code;

	memset(out, 0, sizeof(*out));
	if ((error = vcs_walk_paths_with(&out->walk, ctx->args, (size_t)ctx->nargs, ctx->build_files)) < 0)
		return cmd_fail(cmd_exit_for(error), "%s", util_error_last());
	if (out->walk.root && (code = cmd_repository_config(ctx, out->walk.root)) != 0)
		return code;
	if (out->walk.git_dir) { /* a ported file holds no CUDA any more, but is still the review's */
		rv_session session;

		if (rv_session_open(&session, out->walk.git_dir) < 0)
			return cmd_fail(CMD_EXIT_USAGE, "%s", util_error_last());
		for (i = 0; i < out->walk.nfiles; i++)
			out->walk.files[i].reviewed = rv_session_find(&session, out->walk.files[i].path) != NULL;
		rv_session_dispose(&session);
	}
	if (ctx->verbosity >= 0)
		for (i = 0; i < out->walk.nnotes; i++)
			fprintf(stderr, "hipport: note: %s\n", out->walk.notes[i]);
	out->n = out->walk.nfiles;
	out->items = calloc(out->n ? out->n : 1, sizeof(*out->items));
	if (!out->items)
		return cmd_fail(CMD_EXIT_USAGE, "out of memory");
	return 0;
}

void cmd_proposals_cache(cmd_context *ctx, const cmd_proposals *set, rv_cache **out)
{
	rv_cache *cache = NULL;

	if (!ctx->no_cache && set->walk.git_dir) {
		util_buf variant = UTIL_BUF_INIT;

		/* what else shapes a proposal keys the cache too */
		util_buf_printf(&variant, "analyze=%d fix=%s db=%s", ctx->analyze, ctx->fixes ? ctx->fixes : "",
				ctx->compile_db ? ctx->compile_db : "");
		if (util_buf_oom(&variant) ||
		    rv_cache_open(&cache, set->walk.git_dir, ctx->rules, &ctx->port, variant.ptr) < 0)
			cache = NULL;
		util_buf_dispose(&variant);
	}
	*out = cache;
}

/* Notes on the files that are bad input; set->named_bad when the user named one. */
static void report_bad(cmd_context *ctx, cmd_proposals *out)
{
	size_t i;

	for (i = 0; i < out->n; i++) {
		const rv_proposal *p = &out->items[i];

		if (p->state != RV_PROPOSAL_BAD_INPUT)
			continue;
		if (out->walk.files[i].named) {
			out->named_bad = true;
			fprintf(stderr, "hipport: %s\n", p->message);
		} else if (ctx->verbosity >= 0) {
			fprintf(stderr, "hipport: note: %s (skipped)\n", p->message);
		}
	}
}

int cmd_proposals_make(cmd_context *ctx, cmd_proposals *out)
{
	rv_batch_options opts;
	rv_cache *cache;
	progress pg;
	int error, code;

	memset(out, 0, sizeof(*out));
	if ((code = cmd_load_rules(ctx)) != 0 || (code = setup(ctx, out)) != 0)
		return code;
	cmd_proposals_cache(ctx, out, &cache);
	memset(&opts, 0, sizeof(opts));
	memset(&pg, 0, sizeof(pg));
	pthread_mutex_init(&pg.lock, NULL);
	pg.ctx = ctx;
	clock_gettime(CLOCK_MONOTONIC, &pg.start);
	opts.rules = ctx->rules;
	opts.port = &ctx->port;
	opts.cache = cache;
	opts.jobs = ctx->jobs;
	opts.max_size = ctx->max_size;
	opts.analyze = ctx->analyze;
	opts.compile_db = ctx->compile_db;
	opts.fixes = ctx->fixes;
	if (ctx->progress || (ctx->verbosity >= 0 && isatty(STDERR_FILENO))) {
		opts.progress = show_progress;
		opts.payload = &pg;
	}
	error = rv_batch_propose(out->items, &out->walk, &opts);
	if (pg.shown && !ctx->progress)
		fputs("\r\033[K", stderr);
	pthread_mutex_destroy(&pg.lock);
	if (cache && error == 0 && rv_cache_save(cache) < 0)
		util_error_clear(); /* a cache that cannot be written is no error */
	rv_cache_free(cache);
	if (error < 0)
		return cmd_fail(CMD_EXIT_USAGE, "%s", util_error_last());
	report_bad(ctx, out);
	return 0;
}

int cmd_proposals_read(cmd_context *ctx, cmd_proposals *out)
{
	size_t i;
	int error, code;

	if ((code = setup(ctx, out)) != 0)
		return code;
	for (i = 0; i < out->n; i++) {
		const vcs_file *f = &out->walk.files[i];
		rv_proposal *p = &out->items[i];

		if ((error = rv_proposal_read(p, f->path, f->fs_path, f->named || f->reviewed, ctx->max_size)) < 0)
			return cmd_fail(CMD_EXIT_USAGE, "%s", util_error_last());
		/* what the translation would refuse (empty, binary) is bad input now */
		if (p->state == RV_PROPOSAL_OK && port_source_check(p->path, p->source.ptr, p->source.len) < 0) {
			p->state = RV_PROPOSAL_BAD_INPUT;
			if (!(p->message = strdup(util_error_last())))
				return cmd_fail(CMD_EXIT_USAGE, "out of memory");
		}
	}
	report_bad(ctx, out);
	return 0;
}

void cmd_proposals_dispose(cmd_proposals *set)
{
	size_t i;

	for (i = 0; i < set->n; i++)
		rv_proposal_dispose(&set->items[i]);
	free(set->items);
	vcs_walk_dispose(&set->walk);
	memset(set, 0, sizeof(*set));
}

int cmd_proposal_fixed(const cmd_context *ctx, const rv_proposal *now, const util_buf *original, const char *fixes,
		       rv_proposal *out, port_lexer *lexer, an_analyzer *analyzer)
{
	int error;

	if ((error = rv_proposal_from_text(out, now->path, now->fs_path, original->ptr, original->len)) < 0 ||
	    (error = rv_proposal_analyze(out, analyzer, lexer)) < 0)
		return error;
	return rv_proposal_translate_fixed(out, lexer, ctx->rules, &ctx->port, fixes);
}

int cmd_proposal_reviewed(cmd_context *ctx, const rv_session *s, const rv_session_file *rec,
			  const rv_proposal *now, rv_proposal *out, port_lexer *lexer, an_analyzer *analyzer)
{
	util_buf original = UTIL_BUF_INIT;
	int error;

	if ((error = rv_session_original(s, rec, &original)) >= 0)
		error = cmd_proposal_fixed(ctx, now, &original, rec->fixes, out, lexer, analyzer);
	util_buf_dispose(&original);
	return error < 0 ? error : 0;
}

int cmd_count_findings(cmd_context *ctx, const rv_proposal *p, const char *taken, size_t out[3],
		       unsigned char **marks)
{
	an_finding *f = NULL;
	size_t n = 0, i;
	int error = rv_proposal_findings(&f, &n, p, &ctx->port);

	out[0] = out[1] = out[2] = 0;
	if (marks && !(*marks = calloc(p->lines + 2, 1))) {
		an_findings_free(f, n);
		return util_error_set(UTIL_ENOMEM, "out of memory");
	}
	for (i = 0; i < n; i++) {
		if (ctx->suppress && an_id_listed(ctx->suppress, strlen(ctx->suppress), f[i].id))
			continue;
		if (taken && f[i].nedits && (strcmp(taken, "all") == 0 || an_id_listed(taken, strlen(taken), f[i].id)))
			continue; /* fixed in the proposal */
		out[f[i].severity]++;
		if (marks && f[i].line >= 1 && f[i].line <= p->lines + 1 && (*marks)[f[i].line - 1] < f[i].severity + 1)
			(*marks)[f[i].line - 1] = (unsigned char)(f[i].severity + 1);
	}
	an_findings_free(f, n);
	return error;
}
