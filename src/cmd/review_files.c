/* The review's files, proposed in the background: the walk is read on the
 * UI thread (cheap), the proposals are made by tui/loader.c's workers, each
 * with its own lexer and analyzer (libclang's translation units are never
 * shared between threads), and the results are joined with the session and
 * the model on the UI thread, which alone writes either. */
#include "cmd/review_files.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sync/merge.h"
#include "util/error.h"
#include "util/file.h"

/* What a worker holds: libclang's objects are its own. */
typedef struct worker {
	port_lexer *lexer;
	an_analyzer *analyzer;
} worker;

static int worker_start(void *payload, unsigned index, void **state)
{
	cmd_review_files *rf = payload;
	worker *w = calloc(1, sizeof(*w));
	int error;

	(void)index;
	*state = w;
	if (!w)
		return util_error_set(UTIL_ENOMEM, "out of memory");
	if ((error = port_lexer_new(&w->lexer)) < 0 ||
	    (error = an_analyzer_new(&w->analyzer, rf->snapshot.compile_db, rf->snapshot.port.target_hip)) < 0) {
		an_analyzer_free(w->analyzer);
		port_lexer_free(w->lexer);
		free(w);
		*state = NULL;
		return error;
	}
	return 0;
}

static void worker_finish(void *payload, void *state)
{
	worker *w = state;

	(void)payload;
	an_analyzer_free(w->analyzer);
	port_lexer_free(w->lexer);
	free(w);
}

/* File k's proposal, as the batch of scan makes it (through the cache), or
 * of its original with its fixes when the session knows it. */
static int propose(cmd_review_files *rf, worker *w, size_t k)
{
	const cmd_context *snap = &rf->snapshot;
	const rv_proposal *read = &rf->set.items[rf->index_of[k]];
	rv_proposal *p = &rf->proposals[k];
	const char *text = rf->originals[k] ? rf->originals[k] : read->source.ptr;
	size_t len = rf->originals[k] ? strlen(rf->originals[k]) : read->source.len;
	int error;

	if ((error = rv_proposal_from_text(p, read->path, read->fs_path, text ? text : "", len)) < 0)
		return error;
	if (rf->originals[k])
		return (error = rv_proposal_analyze(p, w->analyzer, w->lexer)) < 0
			       ? error
			       : rv_proposal_translate_fixed(p, w->lexer, snap->rules, &snap->port, rf->fixes[k]);
	if (rf->cache && rv_cache_load(rf->cache, p, snap->rules) == 1)
		return 0;
	/* an analysis libclang cannot parse is left out, as scan leaves it */
	if ((error = rv_proposal_analyze(p, w->analyzer, w->lexer)) == UTIL_ENOMEM)
		return error;
	util_error_clear();
	if ((error = rv_proposal_translate_fixed(p, w->lexer, snap->rules, &snap->port, snap->fixes)) < 0)
		return error;
	if (rf->cache && p->state == RV_PROPOSAL_OK)
		rv_cache_store(rf->cache, p); /* thread-safe; a cache that cannot be written is no error */
	return 0;
}

/* Why a file failed when even that message could not be kept. */
static char out_of_memory[] = "out of memory";

static void worker_compute(void *payload, void *state, size_t k)
{
	cmd_review_files *rf = payload;
	worker *w = state;
	rv_proposal *p = &rf->proposals[k];
	int error;

	if ((error = propose(rf, w, k)) == 0 && p->state != RV_PROPOSAL_OK)
		error = util_error_set(UTIL_EINPUT, "%s", p->message ? p->message : "not a source hipport ports");
	if (error == 0)
		error = cmd_count_findings(&rf->snapshot, p, NULL, rf->findings[k], &rf->marks[k]);
	if (error == 0)
		error = tui_file_prepare(&rf->prepared[k], p, w->lexer);
	if (error < 0 && !(rf->failed[k] = strdup(util_error_last())))
		rf->failed[k] = out_of_memory;
}

static double seconds_since(const struct timespec *t)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - t->tv_sec) + (double)(now.tv_nsec - t->tv_nsec) / 1e9;
}

/* The files to list: each CUDA file the walk read; the session's stale
 * files rebased first, and for a file decided before, its original. */
static int list_files(cmd_review_files *rf)
{
	size_t i, k;
	int error;

	rf->index_of = calloc(rf->set.n + 1, sizeof(*rf->index_of));
	rf->reviewed = calloc(rf->set.n + 1, sizeof(*rf->reviewed));
	rf->originals = calloc(rf->set.n + 1, sizeof(*rf->originals));
	rf->fixes = calloc(rf->set.n + 1, sizeof(*rf->fixes));
	rf->adopt = calloc(rf->set.n + 1, sizeof(*rf->adopt));
	if (!rf->index_of || !rf->reviewed || !rf->originals || !rf->fixes || !rf->adopt)
		return util_error_set(UTIL_ENOMEM, "out of memory");
	for (i = 0; i < rf->set.n; i++) {
		rv_proposal *p = &rf->set.items[i];
		const rv_session_file *rec;

		if (p->state != RV_PROPOSAL_OK)
			continue;
		k = rf->n++;
		rf->index_of[k] = i;
		rf->reviewed[k] = p;
		if (!(rec = rv_session_find(&rf->session, p->path)))
			continue;
		if (!rv_session_stale(rec, p->source.ptr, p->source.len)) {
			/* as its decisions left it */
		} else if (rec->committed[0]) {
			/* a committed port changed by hand (a git commit of an edit):
			 * its changes become edits of the port once it is ready */
			rf->adopt[k] = true;
			rf->adopted++;
		} else {
			/* changed outside hipport: re-proposed from what it holds now */
			if ((error = rv_session_rebase(&rf->session, p->path, p->source.ptr, p->source.len)) < 0)
				return error;
			rf->rebased++;
			rec = rv_session_find(&rf->session, p->path);
		}
		{
			util_buf original = UTIL_BUF_INIT;

			if ((error = rv_session_original(&rf->session, rec, &original)) < 0) {
				util_buf_dispose(&original);
				return error;
			}
			if (!original.ptr)
				util_buf_puts(&original, "");
			rf->originals[k] = util_buf_detach(&original);
			if (!rf->originals[k] || (rec->fixes && !(rf->fixes[k] = strdup(rec->fixes))))
				return util_error_set(UTIL_ENOMEM, "out of memory");
		}
	}
	rf->proposals = calloc(rf->n + 1, sizeof(*rf->proposals));
	rf->prepared = calloc(rf->n + 1, sizeof(*rf->prepared));
	rf->findings = calloc(rf->n + 1, sizeof(*rf->findings));
	rf->marks = calloc(rf->n + 1, sizeof(*rf->marks));
	rf->failed = calloc(rf->n + 1, sizeof(*rf->failed));
	if (!rf->proposals || !rf->prepared || !rf->findings || !rf->marks || !rf->failed)
		return util_error_set(UTIL_ENOMEM, "out of memory");
	return 0;
}

int cmd_review_files_open(cmd_context *ctx, cmd_review_files *rf)
{
	int code, error;

	memset(rf, 0, sizeof(*rf));
	clock_gettime(CLOCK_MONOTONIC, &rf->start);
	rf->ctx = ctx;
	ctx->analyze = true;
	ctx->build_files = true;
	if ((code = cmd_proposals_read(ctx, &rf->set)) != 0)
		return code;
	if (!rf->set.walk.git_dir)
		return cmd_fail(CMD_EXIT_USAGE, "review: not inside a git repository (the session lives in .git/hipport)");
	if ((error = rv_session_open(&rf->session, rf->set.walk.git_dir)) < 0 || (error = list_files(rf)) < 0)
		return cmd_fail(cmd_exit_for(error), "%s", util_error_last());
	return 0;
}

int cmd_review_files_start(cmd_review_files *rf, bool held)
{
	tui_loader_ops ops = {
		.start = worker_start, .finish = worker_finish, .compute = worker_compute, .payload = rf
	};
	cmd_context *ctx = rf->ctx;
	int code, error = 0;

	/* the rules, and the toolchains that settle the target versions, once the list is up */
	if ((code = cmd_load_rules(ctx)) != 0)
		return code;
	cmd_proposals_cache(ctx, &rf->set, &rf->cache);
	rf->snapshot = *ctx;
	rf->snapshot.suppress = NULL;
	if ((ctx->suppress && !(rf->snapshot.suppress = strdup(ctx->suppress))) ||
	    (error = port_lexer_new(&rf->lexer)) < 0 ||
	    (error = an_analyzer_new(&rf->analyzer, ctx->compile_db, ctx->port.target_hip)) < 0 ||
	    (error = tui_loader_new(&rf->loader, &ops, rf->n, ctx->jobs, held ? 0 : SIZE_MAX)) < 0)
		return cmd_fail(error == UTIL_ETOOLCHAIN ? CMD_EXIT_TOOLCHAIN : CMD_EXIT_USAGE, "%s",
				error ? util_error_last() : "out of memory");
	return 0;
}

/* A committed port changed by hand since: the three-way merge a sync does,
 * upstream unchanged (base and theirs the proposal of the original the
 * session keeps, ours the file), gives its changes as decisions: accepted,
 * rejected, edited, or a region; the file is left as it is. */
static int adopt_edits(cmd_review_files *rf, size_t k)
{
	rv_proposal *p = &rf->proposals[k];
	const char *port = p->port.output.ptr ? p->port.output.ptr : "";
	util_buf tree = UTIL_BUF_INIT;
	char holds[41];
	sy_merge m;
	int error;

	memset(&m, 0, sizeof(m));
	if ((error = util_file_read(&tree, p->fs_path, 0)) == 0) {
		sy_inputs in = { port, p->port.output.len, tree.ptr ? tree.ptr : "", tree.len,
				 p->source.ptr ? p->source.ptr : "", p->source.len, port, p->port.output.len };

		rv_blob_id(holds, tree.ptr ? tree.ptr : "", tree.len);
		if ((error = sy_merge_file(&m, &in)) == 0) {
			rv_session_synced synced = { in.source, in.source_len, port, p->port.output.len, rf->fixes[k],
						     m.regions, m.nregions, m.hunks, m.nhunks };

			error = rv_session_sync_file(&rf->session, p->path, p->fs_path, &synced, holds);
		}
	}
	if (error < 0)
		error = util_error_set(error, "%s: its edits since it was committed: %s", p->path, util_error_last());
	sy_merge_dispose(&m);
	util_buf_dispose(&tree);
	return error;
}

/* Joins file k, done by a worker, with the session and the model. */
static int install(cmd_review_files *rf, tui_model *m, size_t k)
{
	rv_proposal *p = &rf->proposals[k];
	int error;

	if (rf->failed[k])
		return tui_model_failed(m, k, rf->failed[k]);
	if (rf->adopt[k] && (error = adopt_edits(rf, k)) < 0)
		return error;
	/* decisions a kill interrupted are written first */
	if (rf->originals[k] &&
	    (error = rv_session_resume(&rf->session, p->path, p->fs_path, p->source.ptr, p->source.len,
				       p->port.output.ptr, p->port.output.len, &rf->prepared[k].hunks)) < 0)
		return error;
	rf->reviewed[k] = p;
	return tui_model_ready(m, k, p, &rf->prepared[k], rf->findings[k], rf->marks[k]);
}

bool cmd_review_files_loading(const cmd_review_files *rf)
{
	return rf->loader && rf->installed < rf->n;
}

int cmd_review_files_poll(cmd_review_files *rf, tui_model *m, bool wait)
{
	size_t done[64], n, i;
	int error = 0;

	if (!cmd_review_files_loading(rf))
		return 0;
	if (m->nfiles)
		tui_loader_want(rf->loader, m->selected);
	n = tui_loader_take(rf->loader, done, sizeof(done) / sizeof(done[0]), wait);
	for (i = 0; i < n; i++) {
		rf->installed++;
		if (error == 0)
			error = install(rf, m, done[i]);
	}
	if (error < 0)
		return error;
	if (n && rf->installed == rf->n) {
		rf->seconds = seconds_since(&rf->start);
		if (rf->cache && rv_cache_save(rf->cache) < 0)
			util_error_clear(); /* a cache that cannot be written is no error */
		return 1;
	}
	return 0;
}

int cmd_review_files_load(cmd_review_files *rf, tui_model *m, size_t n)
{
	size_t target = n > rf->n - rf->installed ? rf->n : rf->installed + n;
	int error;

	if (!cmd_review_files_loading(rf))
		return 0;
	if (m->nfiles)
		tui_loader_want(rf->loader, m->selected);
	tui_loader_allow(rf->loader, n);
	while (rf->installed < target) {
		size_t before = rf->installed;

		if ((error = cmd_review_files_poll(rf, m, true)) < 0)
			return error;
		if (rf->installed == before)
			break; /* none will come */
	}
	return 0;
}

void cmd_review_files_dispose(cmd_review_files *rf)
{
	size_t k;

	tui_loader_free(rf->loader); /* the workers are gone after it */
	rf->loader = NULL;
	if (rf->cache && rf->installed < rf->n && rv_cache_save(rf->cache) < 0)
		util_error_clear();
	rv_cache_free(rf->cache);
	for (k = 0; rf->originals && k < rf->n; k++) {
		free(rf->originals[k]);
		free(rf->fixes[k]);
	}
	for (k = 0; rf->proposals && rf->prepared && rf->marks && rf->failed && k < rf->n; k++) {
		rv_proposal_dispose(&rf->proposals[k]);
		tui_prepared_dispose(&rf->prepared[k]);
		free(rf->marks[k]);
		if (rf->failed[k] != out_of_memory)
			free(rf->failed[k]);
	}
	free(rf->originals);
	free(rf->fixes);
	free(rf->adopt);
	free(rf->proposals);
	free(rf->prepared);
	free(rf->findings);
	free(rf->marks);
	free(rf->failed);
	free(rf->reviewed);
	free(rf->index_of);
	free(rf->snapshot.suppress);
	an_analyzer_free(rf->analyzer);
	port_lexer_free(rf->lexer);
	rv_session_dispose(&rf->session);
	cmd_proposals_dispose(&rf->set);
	memset(rf, 0, sizeof(*rf));
}
