/* The installed toolchains: hipcc and the HIP it brings, the clang behind
 * it and the offload archs that clang knows, nvcc and its CUDA, rocminfo.
 * Tools are run without a shell and with a time limit (HIPPORT_TOOL_TIMEOUT
 * seconds, default 10), so a hanging tool cannot hang hipport. */
#ifndef HIPPORT_CHECK_TOOLCHAIN_H
#define HIPPORT_CHECK_TOOLCHAIN_H

#include <stdbool.h>
#include <stddef.h>

#include "port/version.h"
#include "util/process.h"

typedef struct tc_toolchain {
	char *hipcc;               /* path (tc_toolchain_rocm_tool), or NULL when not found */
	char *hipconfig;           /* path, or NULL */
	char *hip_version;         /* "5.2.21153" (hipconfig --version, else hip_version.h), or NULL */
	const char *hip_version_from; /* "hipconfig" or "hip_version.h", or NULL */
	port_version hip;          /* its MAJOR.MINOR, or 0 */
	char *hip_platform;        /* "amd" or "nvidia": HIP_PLATFORM, else hipconfig --platform; or NULL */
	char *clang;               /* the clang hipcc runs (hipconfig --hipclangpath, HIP_CLANG_PATH,
				      next to hipcc, PATH), or NULL */
	char *clang_version;       /* "15.0.6", or NULL */
	char **offload_archs;      /* the gfx processors that clang knows, sorted as clang lists them */
	size_t noffload_archs;
	char *nvcc;                /* $CUDA_HOME, $CUDA_PATH, PATH, /usr/local/cuda; or NULL */
	char *cuda_version;        /* "13.0.88" (nvcc --version), or NULL */
	char *rocminfo;            /* path (as tc_toolchain_rocm_tool finds it), or NULL */
	char **notes;              /* what did not work, in words ("hipconfig --version: timed out after 10 s") */
	size_t nnotes;
} tc_toolchain;

/* Detects everything above. A tool that is missing or misbehaves is left
 * NULL and noted; only running out of memory is an error. */
int tc_toolchain_detect(tc_toolchain *out);
void tc_toolchain_dispose(tc_toolchain *tc);

/* Whether tc's clang accepts --offload-arch=arch for HIP (it compiles an
 * empty file for the device, syntax only). The answer is cached per arch for
 * the process. False without a clang. */
bool tc_toolchain_knows_arch(const tc_toolchain *tc, const char *arch);

/* The HIP version of the installed hipcc (read from its hip_version.h),
 * or 0 when no HIP installation is found. */
port_version tc_toolchain_hip_version(void);
/* The installed PyTorch's MAJOR.MINOR (python3, or $PYTHON), or 0 without one. */
port_version tc_toolchain_torch_version(void);

/* An executable in PATH, resolved (free it), or NULL. */
char *tc_toolchain_which(const char *name);
/* A ROCm tool (hipcc, rocminfo): in PATH, else $HIP_PATH/bin, $ROCM_PATH/bin,
 * /opt/rocm/bin; resolved (free it), or NULL. */
char *tc_toolchain_rocm_tool(const char *name);

/* Runs a tool with the tool time limit (util_process_run). */
int tc_toolchain_run(util_process_result *out, const char *const *argv);
/* The tool time limit in milliseconds (HIPPORT_TOOL_TIMEOUT). */
int tc_toolchain_timeout_ms(void);

/* What a run that failed said, in one line (free it): its exit status or
 * signal or timeout, and the last non-empty line of its standard output,
 * else of its standard error (terminal escapes removed). */
char *tc_toolchain_outcome(const util_process_result *r);

/* Parsers, for tests. Each returns 0 and a new string, or UTIL_EINPUT. */
/* "5.2.21153-0", "6.2.41133-dd7f95766" -> "5.2.21153" */
int tc_parse_hipconfig_version(char **out, const char *text);
/* hip_version.h's HIP_VERSION_MAJOR/MINOR/PATCH -> "5.2.21153" */
int tc_parse_hip_version_header(char **out, const char *text);
/* nvcc --version: "Cuda compilation tools, release 13.0, V13.0.88" -> "13.0.88" */
int tc_parse_nvcc_version(char **out, const char *text);
/* clang --version: "Debian clang version 15.0.6" -> "15.0.6" */
int tc_parse_clang_version(char **out, const char *text);
/* clang --print-supported-cpus for amdgcn: the gfx processors listed, gfx600 before gfx1030. */
int tc_parse_supported_cpus(char ***out, size_t *count, const char *text);

#endif
