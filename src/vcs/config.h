/* The repository's shared hipport settings: .hipport/config at the root of
 * the work tree, in git-config syntax (read with libgit2's config API). */
#ifndef HIPPORT_VCS_CONFIG_H
#define HIPPORT_VCS_CONFIG_H

#include <git2.h>
#include <stddef.h>

typedef struct vcs_config {
	char *scan_suppress;  /* scan.suppress: finding ids, comma separated, or NULL */
	long long scan_max_size; /* scan.maxSize in bytes, or 0 when unset */
	char *check_includes; /* check.includes: include directories of the sources, space separated */
	char *check_flags;    /* check.flags: more flags for hipcc's compile checks and every bundle build, space separated */
	char *check_command;  /* check.command: the project's own tests, run after the kernel checks */
	char *check_offload_arch; /* check.offloadArch: the AMD GPU arch to build for, or NULL */
	double check_perf_budget; /* check.perfBudget: a port slower than this times the reference is slow (0.8) */
	int check_perf_blocks;    /* check.perfBlocks: a slow port is not committed (default 0: a warning) */
	char *port_target_torch; /* port.targetTorch: the PyTorch version torch files are ported for, or NULL */
	char *port_single_source; /* port.singleSource: true or the guard macro (--single-source), or NULL */
	struct vcs_record {   /* [record "DIR"] build = ..., run = ...: a program to record and compare */
		char *dir, *build, *run;
		char *origin; /* where build and run come from when not from this file, or NULL */
	} *records;
	size_t nrecords;
	char **key_names;     /* keys.<action> = <key> for the review's keys, in file order */
	char **key_values;
	size_t nkeys;
} vcs_config;

/* Reads root/.hipport/config (root ends in '/'); a missing file is an empty
 * configuration, a malformed one UTIL_EINPUT naming the file. */
int vcs_config_read(vcs_config *out, const char *root);
void vcs_config_dispose(vcs_config *cfg);

/* A string setting of cfg into *out (replacing what was there; left as it is
 * when unset); an unreadable one is UTIL_EINPUT naming path and the key.
 * For the sections other layers read themselves ([slurm]). */
int vcs_config_get_string(char **out, git_config *cfg, const char *name, const char *path);

#endif
