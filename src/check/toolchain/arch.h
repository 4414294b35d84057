/* AMD GPU architectures: target ids (gfx90a:sramecc+:xnack-), the lists of
 * PYTORCH_ROCM_ARCH, HSA_OVERRIDE_GFX_VERSION, and which offload arch a
 * build uses: the option, else the repository's check.offloadArch, else the
 * AMD GPU found. */
#ifndef HIPPORT_CHECK_ARCH_H
#define HIPPORT_CHECK_ARCH_H

#include <stdbool.h>
#include <stddef.h>

/* A target feature's setting: "xnack+" on, "xnack-" off, absent any. */
typedef enum tc_feature {
	TC_FEATURE_ANY = 0,
	TC_FEATURE_ON,
	TC_FEATURE_OFF
} tc_feature;

typedef struct tc_arch {
	char processor[16]; /* "gfx90a": "gfx" and 3 or 4 hex digits, lower case */
	tc_feature xnack;
	tc_feature sramecc;
} tc_arch;

/* Parses a target id: gfxNNN[:feature(+|-)]..., where the features are
 * xnack and sramecc. Returns 0, or UTIL_EINPUT for anything else. */
int tc_arch_parse(tc_arch *out, const char *text);

/* Whether code built for target runs on device: the same processor, and no
 * feature that target pins and device has the other way. */
bool tc_arch_runs_on(const tc_arch *target, const tc_arch *device);

/* HSA_OVERRIDE_GFX_VERSION MAJOR.MINOR.STEPPING -> the processor it makes the
 * runtime report (9.4.2 -> gfx942, 9.0.10 -> gfx90a, 10.3.0 -> gfx1030).
 * Returns 0, or UTIL_EINPUT for a value that is not such a version. */
int tc_arch_from_gfx_version(char *out, size_t size, const char *version);
/* The reverse: gfx90a -> "9.0.10". Returns 0, or UTIL_EINPUT. */
int tc_arch_to_gfx_version(char *out, size_t size, const char *processor);

/* Splits a list of archs (PYTORCH_ROCM_ARCH: "gfx90a;gfx942", commas and
 * blanks work too) into *out (free each and the array with
 * tc_arch_list_free). Empty entries are skipped; entries are not checked. */
int tc_arch_list_split(char ***out, size_t *count, const char *text);
void tc_arch_list_free(char **list, size_t count);

typedef enum tc_arch_source {
	TC_ARCH_FROM_NONE = 0,
	TC_ARCH_FROM_OPTION,  /* --offload-arch */
	TC_ARCH_FROM_CONFIG,  /* check.offloadArch of .hipport/config */
	TC_ARCH_FROM_DEVICE   /* the first AMD GPU found */
} tc_arch_source;

typedef struct tc_arch_choice {
	char *value;             /* the target id, or NULL with TC_ARCH_FROM_NONE */
	tc_arch_source source;
} tc_arch_choice;

/* "option", "config", "device", "none". */
const char *tc_arch_source_name(tc_arch_source source);

/* The offload arch from cli_arch (may be NULL), else config_arch (may be
 * NULL), else device_arch (the AMD GPU's target id, may be NULL). A given
 * value that is not a target id is UTIL_EINPUT naming where it came from. */
int tc_offload_arch_choose(tc_arch_choice *out, const char *cli_arch, const char *config_arch,
			    const char *device_arch);

/* The same, reading check.offloadArch from repo_root/.hipport/config
 * (repo_root ends in '/', or is NULL outside a repository) and probing the
 * GPUs only when neither the option nor the configuration names an arch. */
int tc_offload_arch_resolve(const char *cli_arch, const char *repo_root, tc_arch_choice *out);

void tc_arch_choice_dispose(tc_arch_choice *choice);

#endif
