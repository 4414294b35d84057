/* Check bundles: a self-contained directory with the original and ported
 * sources, one harness per spec, the specs, golden outputs, the proxy
 * headers and run.sh, which needs only a POSIX shell and hipcc and/or nvcc
 * (docs/checks.md has the layout). */
#ifndef HIPPORT_CHECK_BUNDLE_H
#define HIPPORT_CHECK_BUNDLE_H

#include <stdbool.h>
#include <stddef.h>

#include "check/kernel/spec.h"
#include "vcs/config.h"
#include "port/rules.h"
#include "util/buf.h"

typedef struct bundle_source {
	const char *path; /* relative to the work tree */
	const char *orig; /* the original CUDA text */
	size_t orig_len;
	const char *port; /* the port as the engineer gets it */
	size_t port_len;
} bundle_source;

typedef struct bundle_input {
	const chk_spec *specs;
	size_t nspecs;
	const bundle_source *sources;
	size_t nsources;
	const char *includes;     /* include directories of the sources, relative, space separated */
	const char *flags;        /* check.flags: defines and the like for every build, or NULL */
	const struct vcs_record *records; /* programs to record and compare (records.list) */
	size_t nrecords;
	const struct bundle_program *program; /* the program's other files and includes (bundle/program.h) */
	/* a program file's text as the original (port false) or the port holds it */
	int (*read_program_file)(util_buf *out, const char *path, bool port, void *payload);
	void *payload;
	const port_rules *rules;
	const char *offload_arch; /* the default for run.sh (gfx90a) */
	const char *golden_root;  /* the repository's .hipport/golden, or NULL */
	unsigned build_timeout;   /* seconds */
	bool tune;                /* the record runs tune the port's Triton kernels (TUNE=1) */
} bundle_input;

/* Writes the bundle into dir (created; a previous bundle there is
 * replaced, anything else refused). */
int bundle_write(const char *dir, const bundle_input *in);

/* Copies the files directly under from into to (created); nothing when
 * from is missing. */
int bundle_copy_files(const char *from, const char *to);

/* Removes path and everything under it (no error when missing). */
int bundle_remove_tree(const char *path);

#endif
