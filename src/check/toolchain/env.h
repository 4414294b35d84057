/* The ENV findings of hipport doctor: what in the toolchain, the GPUs and
 * the environment variables will make a port fail to build or to run. A
 * pure function of the facts, so that tests can give it any machine. */
#ifndef HIPPORT_CHECK_ENV_H
#define HIPPORT_CHECK_ENV_H

#include <stddef.h>

#include "analyze/analysis.h"
#include "check/toolchain/arch.h"
#include "check/toolchain/gpu.h"
#include "check/toolchain/toolchain.h"

/* The variables that decide which code a GPU runs (NULL: unset). */
typedef struct tc_env_vars {
	const char *hip_platform;             /* HIP_PLATFORM */
	const char *pytorch_rocm_arch;        /* PYTORCH_ROCM_ARCH */
	const char *hsa_override_gfx_version; /* HSA_OVERRIDE_GFX_VERSION */
	const char *hip_visible_devices;      /* HIP_VISIBLE_DEVICES */
	const char *hsa_xnack;                /* HSA_XNACK */
} tc_env_vars;

/* The names of the variables, in the order of tc_env_vars' fields. */
#define TC_ENV_NVARS 5
extern const char *const tc_env_var_names[TC_ENV_NVARS];

/* The value of the i-th variable of tc_env_var_names, or NULL. */
const char *tc_env_var_value(const tc_env_vars *vars, size_t i);

/* Reads the variables from the environment (the strings are borrowed). */
void tc_env_vars_read(tc_env_vars *out);

typedef struct tc_env_facts {
	tc_env_vars vars;
	const tc_toolchain *toolchain;
	const tc_gpu_list *gpus;
	const tc_arch_choice *offload;
	int offload_known; /* whether the compiler accepts the offload arch: 1, 0, or -1 not known */
} tc_env_facts;

typedef struct tc_env_finding {
	const char *id;        /* "ENV-001" */
	an_severity severity;
	char *message;
	char *advice;
} tc_env_finding;

/* The findings, in id order (free with tc_env_findings_free). */
int tc_env_findings(tc_env_finding **out, size_t *count, const tc_env_facts *facts);
void tc_env_findings_free(tc_env_finding *findings, size_t count);

#endif
