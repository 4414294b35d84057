/* Translation results cached in .git/hipport/cache/, keyed by the file's
 * blob id, the rules' digest, the options and hipport's version, so that
 * scanning an unchanged repository again is nearly free. */
#ifndef HIPPORT_REVIEW_CACHE_H
#define HIPPORT_REVIEW_CACHE_H

#include "review/proposal.h"

typedef struct rv_cache rv_cache;

/* Opens (creating lazily) the cache of the repository whose .git directory
 * is git_dir; variant names what else shapes a proposal (analysis, fixes). */
int rv_cache_open(rv_cache **out, const char *git_dir, const port_rules *rules, const port_options *opts,
		  const char *variant);
void rv_cache_free(rv_cache *cache);

/* Fills a proposal that was read (rv_proposal_read) from the cache: 1 on a
 * hit, 0 on a miss (p left as read, its blob id computed for the store). */
int rv_cache_load(rv_cache *cache, rv_proposal *p, const port_rules *rules);

/* Adds a proposal (in memory; thread-safe). Failures are ignored: the cache
 * is only an accelerator. */
void rv_cache_store(rv_cache *cache, const rv_proposal *p);

/* Writes the cache if anything was added (one file, atomically). */
int rv_cache_save(rv_cache *cache);

#endif
