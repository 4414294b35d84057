#include "review/batch.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/error.h"

typedef struct batch {
	rv_proposal *out;
	const vcs_walk *walk;
	const rv_batch_options *opts;
	atomic_size_t next;
	atomic_size_t done;
	atomic_int error;
	char message[512];
	pthread_mutex_t lock;
} batch;

static void fail(batch *b, int error)
{
	int expected = 0;

	if (atomic_compare_exchange_strong(&b->error, &expected, error)) {
		pthread_mutex_lock(&b->lock);
		strncpy(b->message, util_error_last(), sizeof(b->message) - 1);
		pthread_mutex_unlock(&b->lock);
	}
}

static void *worker(void *arg)
{
	batch *b = arg;
	port_lexer *lexer = NULL;
	an_analyzer *analyzer = NULL;
	bool analyze = b->opts->analyze || b->opts->fixes;
	int error;

	if ((error = port_lexer_new(&lexer)) < 0 ||
	    (analyze && (error = an_analyzer_new(&analyzer, b->opts->compile_db, b->opts->port->target_hip)) < 0)) {
		fail(b, error);
		port_lexer_free(lexer);
		return NULL;
	}
	for (;;) {
		size_t i = atomic_fetch_add(&b->next, 1);
		const vcs_file *f;
		rv_proposal *p;

		if (i >= b->walk->nfiles || atomic_load(&b->error))
			break;
		f = &b->walk->files[i];
		p = &b->out[i];
		if ((error = rv_proposal_read(p, f->path, f->fs_path, f->named || f->reviewed, b->opts->max_size)) < 0) {
			fail(b, error);
			break;
		}
		if (b->opts->cache && rv_cache_load(b->opts->cache, p, b->opts->rules) == 1) {
			/* hit */
		} else if ((analyze && (error = rv_proposal_analyze(p, analyzer, lexer)) == UTIL_ENOMEM) ||
			   (error = rv_proposal_translate_fixed(p, lexer, b->opts->rules, b->opts->port,
								b->opts->fixes)) < 0) {
			/* an analysis libclang cannot parse is left out; only memory stops the batch */
			fail(b, error);
			break;
		} else if (b->opts->cache && p->state == RV_PROPOSAL_OK) {
			rv_cache_store(b->opts->cache, p); /* a cache that cannot be written is no error */
		}
		if (b->opts->progress)
			b->opts->progress(atomic_fetch_add(&b->done, 1) + 1, b->walk->nfiles, b->opts->payload);
	}
	an_analyzer_free(analyzer);
	port_lexer_free(lexer);
	return NULL;
}

int rv_batch_propose(rv_proposal *out, const vcs_walk *walk, const rv_batch_options *opts)
{
	batch b;
	pthread_t threads[64];
	unsigned jobs = opts->jobs, started = 0, i;

	memset(out, 0, walk->nfiles * sizeof(*out));
	memset(&b, 0, sizeof(b));
	b.out = out;
	b.walk = walk;
	b.opts = opts;
	atomic_init(&b.next, 0);
	atomic_init(&b.done, 0);
	atomic_init(&b.error, 0);
	pthread_mutex_init(&b.lock, NULL);
	if (!jobs) {
		long cores = sysconf(_SC_NPROCESSORS_ONLN);

		jobs = cores > 0 ? (unsigned)cores : 1;
	}
	if (jobs > 64)
		jobs = 64;
	if (jobs > walk->nfiles)
		jobs = walk->nfiles ? (unsigned)walk->nfiles : 1;
	/* the calling thread works too */
	for (i = 1; i < jobs; i++)
		if (pthread_create(&threads[started], NULL, worker, &b) == 0)
			started++;
	worker(&b);
	for (i = 0; i < started; i++)
		pthread_join(threads[i], NULL);
	pthread_mutex_destroy(&b.lock);
	if (atomic_load(&b.error)) {
		util_error_set(atomic_load(&b.error), "%s", b.message);
		return atomic_load(&b.error);
	}
	return 0;
}
