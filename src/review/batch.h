/* Proposals for many files at once, over threads, in the files' order. */
#ifndef HIPPORT_REVIEW_BATCH_H
#define HIPPORT_REVIEW_BATCH_H

#include "review/cache.h"
#include "review/proposal.h"
#include "vcs/walk.h"

typedef struct rv_batch_options {
	const port_rules *rules;
	const port_options *port;
	rv_cache *cache;           /* NULL: no cache */
	unsigned jobs;             /* threads; 0: the number of cores */
	size_t max_size;
	bool analyze;              /* run the analyzer (findings beyond API names) */
	const char *compile_db;    /* directory of compile_commands.json, or NULL */
	const char *fixes;         /* fixes to take into the ports ("all", ids), or NULL */
	/* called from worker threads after each file (done of total), may be NULL */
	void (*progress)(size_t done, size_t total, void *payload);
	void *payload;
} rv_batch_options;

/* Makes one proposal per file of walk into out (an array of walk->nfiles). */
int rv_batch_propose(rv_proposal *out, const vcs_walk *walk, const rv_batch_options *opts);

#endif
