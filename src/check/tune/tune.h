/* Tuning of Triton kernels (hipport check tune, docs/checks.md "Tuning
 * Triton kernels"): the sweeps a bundle's record run left
 * (work/record/NAME/tune/tune.json, written by record/triton/hipport_tune.py)
 * read and held to the bundle, their time tables, and what the session
 * keeps of them (.git/hipport/tune.json) for TRITON-009's fix; the kernels
 * are the analyzer's an_tuned_kernel, which the finding reads. */
#ifndef HIPPORT_CHECK_TUNE_H
#define HIPPORT_CHECK_TUNE_H

#include <stdio.h>

#include "analyze/analysis.h"

typedef an_tuned_option tune_option;
typedef an_tuned_kernel tune_kernel;
typedef an_tuned_set tune_set;

/* Reads a tune.json the hook wrote in a bundle's record run of the port
 * tree bundle/work/record/NAME/trees/port: each kernel's file made relative
 * to the tree, and held to the bundle: UTIL_EINPUT naming the entry where a
 * file is not one of bundle/port/ or a name is no Python identifier. */
int tune_read_run(tune_set *out, const char *path, const char *bundle);

/* The time table of a tune.json (every config, as measured). */
int tune_print_table(FILE *f, const char *path);

/* Records the kernels in the session (git_dir/hipport/tune.json), each
 * replacing what was kept of the same kernel of the same file. */
int tune_store(const char *git_dir, const tune_set *set);

/* What the session keeps of the kernels of source (relative to the
 * repository); an empty set when nothing. */
int tune_load(tune_set *out, const char *git_dir, const char *source);


#endif
