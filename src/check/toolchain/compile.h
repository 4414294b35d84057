/* Compile checks: a file of the port built by hipcc for the offload arch,
 * its diagnostics parsed (file:line:col: severity: message), and the result
 * cached by what decides it: the sources, the compiler, the arch, the flags. */
#ifndef HIPPORT_CHECK_COMPILE_H
#define HIPPORT_CHECK_COMPILE_H

#include <stdbool.h>
#include <stddef.h>

typedef struct tc_diagnostic {
	char *file;       /* as the compiler printed it */
	unsigned line, col;
	char *severity;   /* "error", "fatal error", "warning", "note" */
	char *message;
	bool in_file;     /* about the file compiled (not a header it includes) */
} tc_diagnostic;

typedef struct tc_compile_result {
	const char *status;    /* "pass", "fail" (the compiler's errors), "error" (timed out, crashed,
				  could not run), "skipped" (no hipcc, or an arch it does not know) */
	char *summary;         /* one line: the first error, or why it did not run */
	char *output;          /* what the compiler printed */
	tc_diagnostic *diags;
	size_t ndiags;
	bool cached;           /* the result of an earlier run on the same inputs */
} tc_compile_result;

typedef struct tc_compile_options {
	const char *hipcc;            /* path; NULL: skipped */
	const char *compiler_version; /* part of the cache key ("15.0.6") */
	const char *arch;             /* the offload arch; NULL: skipped */
	bool arch_known;              /* the compiler accepts it */
	const char *const *flags;     /* -I, -D, -std ... for this file */
	size_t nflags;
	const char *sources_digest;   /* of every source of the repository (headers change results) */
	const char *cache_dir;        /* where results are kept, or NULL */
	int timeout_ms;
	bool resources;               /* ask for each kernel's resources (remarks in the output) */
	int max_threads;              /* the bound of kernels without __launch_bounds__; 0: the compiler's (1024) */
	/* told of the compiler's output as it comes, or NULL */
	void (*watch)(const char *data, size_t len, void *payload);
	void *payload;
} tc_compile_options;

/* Whether a path names a header (compiled for syntax only) rather than a
 * translation unit (compiled to an object). */
bool tc_compile_is_header(const char *path);

/* Compiles fs_path (its content's blob id is blob, for the cache key).
 * Returns 0 with the result in out (whatever the compiler said), or a
 * negative code when hipport itself failed. */
int tc_compile_file(tc_compile_result *out, const tc_compile_options *o, const char *fs_path, const char *blob);
void tc_compile_result_dispose(tc_compile_result *r);

/* The diagnostics in a compiler's output; in_file marks those whose file
 * is fs_path as the compiler was given it. */
int tc_compile_parse(tc_diagnostic **out, size_t *n, const char *output, const char *fs_path);

#endif
