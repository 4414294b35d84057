/* The GPUs of this machine: AMD ones through the HIP runtime (loaded with
 * dlopen, so that hipport runs where it is absent) or rocminfo, NVIDIA ones
 * through nvidia-smi. */
#ifndef HIPPORT_CHECK_GPU_H
#define HIPPORT_CHECK_GPU_H

#include <stdbool.h>
#include <stddef.h>

typedef enum tc_gpu_vendor {
	TC_GPU_AMD,
	TC_GPU_NVIDIA
} tc_gpu_vendor;

typedef struct tc_gpu {
	tc_gpu_vendor vendor;
	int index;             /* the runtime's device number, ignoring *_VISIBLE_DEVICES */
	char *name;            /* "AMD Instinct MI250X", "NVIDIA H200", or NULL */
	char *arch;            /* "gfx90a:sramecc+:xnack-" or "sm_90", or NULL when unknown */
	long long memory_mib;  /* 0 when unknown */
	const char *source;    /* "hip", "rocminfo" or "nvidia-smi" */
} tc_gpu;

typedef struct tc_gpu_list {
	tc_gpu *items;
	size_t count;
	char *hip_library;     /* the HIP runtime loaded ("libamdhip64.so"), or NULL */
	char *hip_version;     /* its hipRuntimeGetVersion, "5.2.21153", or NULL */
	int hip_error;         /* hipGetDeviceCount's hipError_t; -1 when the runtime was not loaded */
	char *hip_error_name;  /* "hipErrorNoDevice", or NULL */
	int rocminfo_status;   /* rocminfo's exit status; -1 when it was not run (or did not finish) */
	char *rocminfo_said;   /* where it failed: its outcome in one line, else NULL */
	char *amd_tried;       /* where no AMD GPU was found: what was tried, in words; else NULL */
	char *nvidia_tried;    /* likewise for NVIDIA */
} tc_gpu_list;

/* Probes the GPUs. The HIP runtime runs in a child process with a time
 * limit, so that a broken driver costs a timeout, not hipport; the child
 * sees HIP_VISIBLE_DEVICES, CUDA_VISIBLE_DEVICES and HSA_OVERRIDE_GFX_VERSION
 * unset, so the list holds the hardware as it is. HIPPORT_HIP_RUNTIME names
 * the library to load instead of the usual ones ("none": do not load one).
 * Finding no GPU is no error: out says what was tried. */
int tc_gpu_probe(tc_gpu_list *out);
void tc_gpu_list_dispose(tc_gpu_list *list);

/* The first AMD GPU's arch, or NULL. */
const char *tc_gpu_list_amd_arch(const tc_gpu_list *list);
/* The number of AMD GPUs. */
size_t tc_gpu_list_amd_count(const tc_gpu_list *list);

/* The parsers behind the probe, for tests: the HIP probe child's lines,
 * rocminfo's output, nvidia-smi --query-gpu=index,name,compute_cap,memory.total
 * --format=csv,noheader. Each adds the GPUs it finds to out. */
int tc_gpu_parse_probe(tc_gpu_list *out, const char *text);
int tc_gpu_parse_rocminfo(tc_gpu_list *out, const char *text);
int tc_gpu_parse_nvidia_smi(tc_gpu_list *out, const char *text);

/* Finds a target id (gfx90a:sramecc+:xnack-) among the NUL-terminated
 * strings of a hipDeviceProp_t filled by the runtime, without knowing the
 * layout (it differs between HIP versions): the first string that parses as
 * a target id with features, else the first that parses at all. */
bool tc_gpu_find_target_id(char *out, size_t size, const unsigned char *props, size_t len);

#endif
