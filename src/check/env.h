/* The ENV findings of hipport doctor: what in the toolchain, the GPUs and
 * the environment variables will make a port fail to build or to run. A
 * pure function of the facts, so that tests can give it any machine. */
#ifndef HIPPORT_CHECK_ENV_H
#define HIPPORT_CHECK_ENV_H

#include <stddef.h>

#include "analyze/analysis.h"
#include "check/arch.h"
#include "check/gpu.h"
#include "check/toolchain.h"

/* The variables that decide which code a GPU runs (NULL: unset). */
typedef struct chk_env_vars {
	const char *hip_platform;             /* HIP_PLATFORM */
	const char *pytorch_rocm_arch;        /* PYTORCH_ROCM_ARCH */
	const char *hsa_override_gfx_version; /* HSA_OVERRIDE_GFX_VERSION */
	const char *hip_visible_devices;      /* HIP_VISIBLE_DEVICES */
	const char *hsa_xnack;                /* HSA_XNACK */
} chk_env_vars;

/* The names of the variables, in the order of chk_env_vars' fields. */
#define CHK_ENV_NVARS 5
extern const char *const chk_env_var_names[CHK_ENV_NVARS];

/* The value of the i-th variable of chk_env_var_names, or NULL. */
const char *chk_env_var_value(const chk_env_vars *vars, size_t i);

/* Reads the variables from the environment (the strings are borrowed). */
void chk_env_vars_read(chk_env_vars *out);

typedef struct chk_env_facts {
	chk_env_vars vars;
	const chk_toolchain *toolchain;
	const chk_gpu_list *gpus;
	const chk_arch_choice *offload;
	int offload_known; /* whether the compiler accepts the offload arch: 1, 0, or -1 not known */
} chk_env_facts;

typedef struct chk_env_finding {
	const char *id;        /* "ENV-001" */
	an_severity severity;
	char *message;
	char *advice;
} chk_env_finding;

/* The findings, in id order (free with chk_env_findings_free). */
int chk_env_findings(chk_env_finding **out, size_t *count, const chk_env_facts *facts);
void chk_env_findings_free(chk_env_finding *findings, size_t count);

#endif
