/* AMD GPU architectures: target ids (gfx90a:sramecc+:xnack-), the lists of
 * PYTORCH_ROCM_ARCH, HSA_OVERRIDE_GFX_VERSION, and which offload arch a
 * build uses: the option, else the repository's check.offloadArch, else the
 * AMD GPU found. */
#ifndef HIPPORT_CHECK_ARCH_H
#define HIPPORT_CHECK_ARCH_H

#include <stdbool.h>
#include <stddef.h>

/* A target feature's setting: "xnack+" on, "xnack-" off, absent any. */
typedef enum chk_feature {
	CHK_FEATURE_ANY = 0,
	CHK_FEATURE_ON,
	CHK_FEATURE_OFF
} chk_feature;

typedef struct chk_arch {
	char processor[16]; /* "gfx90a": "gfx" and 3 or 4 hex digits, lower case */
	chk_feature xnack;
	chk_feature sramecc;
} chk_arch;

/* Parses a target id: gfxNNN[:feature(+|-)]..., where the features are
 * xnack and sramecc. Returns 0, or UTIL_EINPUT for anything else. */
int chk_arch_parse(chk_arch *out, const char *text);

/* Whether code built for target runs on device: the same processor, and no
 * feature that target pins and device has the other way. */
bool chk_arch_runs_on(const chk_arch *target, const chk_arch *device);

/* HSA_OVERRIDE_GFX_VERSION MAJOR.MINOR.STEPPING -> the processor it makes the
 * runtime report (9.4.2 -> gfx942, 9.0.10 -> gfx90a, 10.3.0 -> gfx1030).
 * Returns 0, or UTIL_EINPUT for a value that is not such a version. */
int chk_arch_from_gfx_version(char *out, size_t size, const char *version);
/* The reverse: gfx90a -> "9.0.10". Returns 0, or UTIL_EINPUT. */
int chk_arch_to_gfx_version(char *out, size_t size, const char *processor);

/* Splits a list of archs (PYTORCH_ROCM_ARCH: "gfx90a;gfx942", commas and
 * blanks work too) into *out (free each and the array with
 * chk_arch_list_free). Empty entries are skipped; entries are not checked. */
int chk_arch_list_split(char ***out, size_t *count, const char *text);
void chk_arch_list_free(char **list, size_t count);

typedef enum chk_arch_source {
	CHK_ARCH_FROM_NONE = 0,
	CHK_ARCH_FROM_OPTION,  /* --offload-arch */
	CHK_ARCH_FROM_CONFIG,  /* check.offloadArch of .hipport/config */
	CHK_ARCH_FROM_DEVICE   /* the first AMD GPU found */
} chk_arch_source;

typedef struct chk_arch_choice {
	char *value;             /* the target id, or NULL with CHK_ARCH_FROM_NONE */
	chk_arch_source source;
} chk_arch_choice;

/* "option", "config", "device", "none". */
const char *chk_arch_source_name(chk_arch_source source);

/* The offload arch from cli_arch (may be NULL), else config_arch (may be
 * NULL), else device_arch (the AMD GPU's target id, may be NULL). A given
 * value that is not a target id is UTIL_EINPUT naming where it came from. */
int chk_offload_arch_choose(chk_arch_choice *out, const char *cli_arch, const char *config_arch,
			    const char *device_arch);

/* The same, reading check.offloadArch from repo_root/.hipport/config
 * (repo_root ends in '/', or is NULL outside a repository) and probing the
 * GPUs only when neither the option nor the configuration names an arch. */
int chk_offload_arch_resolve(const char *cli_arch, const char *repo_root, chk_arch_choice *out);

void chk_arch_choice_dispose(chk_arch_choice *choice);

#endif
