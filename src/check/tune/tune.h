/* Tuning of Triton kernels (hipport check tune, docs/checks.md "Tuning
 * Triton kernels"): the sweeps a bundle's record run left
 * (work/record/NAME/tune/tune.json, written by record/triton/hipport_tune.py)
 * read and held to the bundle, their time tables, and what the session
 * keeps of them (.git/hipport/tune.json) for TRITON-009's fix. */
#ifndef HIPPORT_CHECK_TUNE_H
#define HIPPORT_CHECK_TUNE_H

#include <stdio.h>

/* One launch option: its value in the program's config and in the best. */
typedef struct tune_option {
	char *name;
	long program, best;
	int given; /* the launch names it (else Triton's default stood for it) */
} tune_option;

/* One kernel's sweep. */
typedef struct tune_kernel {
	char *source; /* the file of its def, relative to the repository */
	char *kernel;
	unsigned line;
	char *backend; /* "cuda" or "hip": where it was measured */
	char *device;
	double program_ms, best_ms; /* medians; 0 when not timed */
	double program_q1, best_q3; /* the quartiles that tell a difference from noise */
	tune_option *options;       /* the swept options of the best config */
	size_t noptions;
	size_t nconfigs, nok, ndiffer, nfailed;
	char *skipped; /* why nothing was swept, or NULL */
	char *autotuned; /* the constexprs of the config an autotuner chose, as a Python dict
			  * ({"BLOCK_M": 128}), or NULL when the launch was no autotuner's */
} tune_kernel;

typedef struct tune_set {
	tune_kernel *kernels;
	size_t n;
} tune_set;

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

/* Whether the best config is worth a fix: it differs from the program's, its
 * median is at least 5% below the program's and its upper quartile below
 * the program's lower one (faster beyond the spread of the repeats). */
int tune_kernel_improves(const tune_kernel *k);

void tune_set_dispose(tune_set *set);

#endif
