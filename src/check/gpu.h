/* The GPUs of this machine: AMD ones through the HIP runtime (loaded with
 * dlopen, so that hipport runs where it is absent) or rocminfo, NVIDIA ones
 * through nvidia-smi. */
#ifndef HIPPORT_CHECK_GPU_H
#define HIPPORT_CHECK_GPU_H

#include <stdbool.h>
#include <stddef.h>

typedef enum chk_gpu_vendor {
	CHK_GPU_AMD,
	CHK_GPU_NVIDIA
} chk_gpu_vendor;

typedef struct chk_gpu {
	chk_gpu_vendor vendor;
	int index;             /* the runtime's device number, ignoring *_VISIBLE_DEVICES */
	char *name;            /* "AMD Instinct MI250X", "NVIDIA H200", or NULL */
	char *arch;            /* "gfx90a:sramecc+:xnack-" or "sm_90", or NULL when unknown */
	long long memory_mib;  /* 0 when unknown */
	const char *source;    /* "hip", "rocminfo" or "nvidia-smi" */
} chk_gpu;

typedef struct chk_gpu_list {
	chk_gpu *items;
	size_t count;
	char *hip_library;     /* the HIP runtime loaded ("libamdhip64.so"), or NULL */
	char *hip_version;     /* its hipRuntimeGetVersion, "5.2.21153", or NULL */
	int hip_error;         /* hipGetDeviceCount's hipError_t; -1 when the runtime was not loaded */
	char *hip_error_name;  /* "hipErrorNoDevice", or NULL */
	int rocminfo_status;   /* rocminfo's exit status; -1 when it was not run (or did not finish) */
	char *rocminfo_said;   /* where it failed: its outcome in one line, else NULL */
	char *amd_tried;       /* where no AMD GPU was found: what was tried, in words; else NULL */
	char *nvidia_tried;    /* likewise for NVIDIA */
} chk_gpu_list;

/* Probes the GPUs. The HIP runtime runs in a child process with a time
 * limit, so that a broken driver costs a timeout, not hipport; the child
 * sees HIP_VISIBLE_DEVICES, CUDA_VISIBLE_DEVICES and HSA_OVERRIDE_GFX_VERSION
 * unset, so the list holds the hardware as it is. HIPPORT_HIP_RUNTIME names
 * the library to load instead of the usual ones ("none": do not load one).
 * Finding no GPU is no error: out says what was tried. */
int chk_gpu_probe(chk_gpu_list *out);
void chk_gpu_list_dispose(chk_gpu_list *list);

/* The first AMD GPU's arch, or NULL. */
const char *chk_gpu_list_amd_arch(const chk_gpu_list *list);
/* The number of AMD GPUs. */
size_t chk_gpu_list_amd_count(const chk_gpu_list *list);

/* The parsers behind the probe, for tests: the HIP probe child's lines,
 * rocminfo's output, nvidia-smi --query-gpu=index,name,compute_cap,memory.total
 * --format=csv,noheader. Each adds the GPUs it finds to out. */
int chk_gpu_parse_probe(chk_gpu_list *out, const char *text);
int chk_gpu_parse_rocminfo(chk_gpu_list *out, const char *text);
int chk_gpu_parse_nvidia_smi(chk_gpu_list *out, const char *text);

/* Finds a target id (gfx90a:sramecc+:xnack-) among the NUL-terminated
 * strings of a hipDeviceProp_t filled by the runtime, without knowing the
 * layout (it differs between HIP versions): the first string that parses as
 * a target id with features, else the first that parses at all. */
bool chk_gpu_find_target_id(char *out, size_t size, const unsigned char *props, size_t len);

#endif
