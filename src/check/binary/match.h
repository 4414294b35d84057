/* A built file's code objects against the GPUs that will run it: which code
 * object the HIP runtime loads on each GPU, taking HIP_VISIBLE_DEVICES,
 * HSA_OVERRIDE_GFX_VERSION and HSA_XNACK into account, and the ENV findings
 * for what will not load or may misbehave. A pure function of its inputs. */
#ifndef HIPPORT_CHECK_BINARY_MATCH_H
#define HIPPORT_CHECK_BINARY_MATCH_H

#include <stdbool.h>
#include <stddef.h>

#include "check/binary/fatbin.h"
#include "check/toolchain/env.h"

typedef struct bin_gpu {
	int index;               /* the runtime's device number (--gpu: 0, 1, ... in order) */
	const char *arch;        /* its target id ("gfx90a:sramecc+:xnack-", "gfx942"), or NULL when unknown */
	const char *source;      /* "option", "hip", "rocminfo" */
} bin_gpu;

typedef enum bin_verdict {
	BIN_RUNS,                /* a code object for what the runtime looks for */
	BIN_RUNS_OVERRIDDEN,     /* one for the processor HSA_OVERRIDE_GFX_VERSION names, not the GPU's own */
	BIN_NO_PROCESSOR,        /* no code object for the processor the runtime looks for */
	BIN_NO_FEATURE,          /* code objects for the processor, none for its xnack or sramecc mode */
	BIN_HIDDEN,              /* HIP_VISIBLE_DEVICES leaves the GPU out */
	BIN_NOT_COMPARED         /* its arch is unknown, or the file has no code object */
} bin_verdict;

/* "runs", "runs-overridden", "no-code-object", "feature-mismatch", "hidden", "not-compared". */
const char *bin_verdict_name(bin_verdict verdict);

typedef struct bin_gpu_result {
	const bin_gpu *gpu;
	bool used;               /* HIP_VISIBLE_DEVICES leaves it to the program */
	char looks_for[64];      /* the target id the runtime looks for ("" when the arch is unknown) */
	bin_verdict verdict;
	const bin_object *chosen; /* the code object it loads, or NULL */
} bin_gpu_result;

typedef struct bin_report {
	bin_gpu_result *gpus;    /* one per GPU, in the order given */
	size_t ngpus;
	tc_env_finding *findings;
	size_t nfindings;
	bool error;              /* GPUs are used, and none of them can run the file's code */
} bin_report;

/* Compares file with the GPUs under the variables of vars (HIP_PLATFORM
 * is not read). */
int bin_report_make(bin_report *out, const bin_file *file, const bin_gpu *gpus, size_t ngpus,
		    const tc_env_vars *vars);
void bin_report_dispose(bin_report *report);

/* The findings about the GPUs and variables alone, once for every file:
 * no AMD GPU to compare with (ENV-006), HIP_VISIBLE_DEVICES hiding them all
 * (ENV-009, an error here: no file can run), an override that is no
 * version (ENV-003). */
int bin_setting_findings(tc_env_finding **out, size_t *count, const bin_gpu *gpus, size_t ngpus,
			 const tc_env_vars *vars);

/* Whether HIP_VISIBLE_DEVICES (NULL: unset) leaves device index of ngpus to
 * the program: the runtime reads device numbers up to the first invalid
 * entry; a UUID (GPU-...) cannot be told apart here and leaves every GPU. */
bool bin_gpu_visible(const char *visible, int index, size_t ngpus);

#endif
