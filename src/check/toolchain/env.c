#include "check/toolchain/env.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/buf.h"
#include "util/error.h"

const char *const tc_env_var_names[TC_ENV_NVARS] = { "HIP_PLATFORM", "PYTORCH_ROCM_ARCH", "HSA_OVERRIDE_GFX_VERSION",
					    "HIP_VISIBLE_DEVICES", "HSA_XNACK" };

const char *tc_env_var_value(const tc_env_vars *vars, size_t i)
{
	const char *const values[] = { vars->hip_platform, vars->pytorch_rocm_arch, vars->hsa_override_gfx_version,
				       vars->hip_visible_devices, vars->hsa_xnack };

	return i < sizeof(values) / sizeof(values[0]) ? values[i] : NULL;
}

void tc_env_vars_read(tc_env_vars *out)
{
	out->hip_platform = getenv(tc_env_var_names[0]);
	out->pytorch_rocm_arch = getenv(tc_env_var_names[1]);
	out->hsa_override_gfx_version = getenv(tc_env_var_names[2]);
	out->hip_visible_devices = getenv(tc_env_var_names[3]);
	out->hsa_xnack = getenv(tc_env_var_names[4]);
}

typedef struct finding_list {
	tc_env_finding *items;
	size_t count;
	bool oom;
} finding_list;

/* Adds a finding: advice is a finished string (taken over, NULL: out of
 * memory), the message a format. */
static void add(finding_list *f, const char *id, an_severity severity, char *advice, const char *fmt, ...)
	UTIL_PRINTF(5, 6);

static void add(finding_list *f, const char *id, an_severity severity, char *advice, const char *fmt, ...)
{
	util_buf message = UTIL_BUF_INIT;
	tc_env_finding *grown;
	va_list ap;

	va_start(ap, fmt);
	util_buf_vprintf(&message, fmt, ap);
	va_end(ap);
	grown = util_buf_oom(&message) || !advice ? NULL : realloc(f->items, (f->count + 1) * sizeof(*grown));
	if (!grown) {
		f->oom = true;
		util_buf_dispose(&message);
		free(advice);
		return;
	}
	f->items = grown;
	grown[f->count].id = id;
	grown[f->count].severity = severity;
	grown[f->count].message = util_buf_detach(&message);
	grown[f->count].advice = advice;
	f->count++;
}

/* A formatted string (free it), or NULL without memory. */
static char *text(const char *fmt, ...) UTIL_PRINTF(1, 2);

static char *text(const char *fmt, ...)
{
	util_buf b = UTIL_BUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	util_buf_vprintf(&b, fmt, ap);
	va_end(ap);
	if (util_buf_oom(&b)) {
		util_buf_dispose(&b);
		return NULL;
	}
	return util_buf_detach(&b);
}

static const char *source_words(tc_arch_source source)
{
	switch (source) {
	case TC_ARCH_FROM_OPTION:
		return "from --offload-arch";
	case TC_ARCH_FROM_CONFIG:
		return "from check.offloadArch";
	case TC_ARCH_FROM_DEVICE:
		return "the GPU's";
	default:
		return "";
	}
}

static bool set(const char *value)
{
	return value != NULL;
}

/* ENV-001: the offload arch against each AMD GPU. */
static void offload_vs_devices(finding_list *f, const tc_env_facts *x, const tc_arch *offload)
{
	size_t i;

	for (i = 0; i < x->gpus->count; i++) {
		const tc_gpu *g = &x->gpus->items[i];
		tc_arch device;

		if (g->vendor != TC_GPU_AMD || tc_arch_parse(&device, g->arch) < 0 ||
		    tc_arch_runs_on(offload, &device))
			continue;
		add(f, "ENV-001", AN_ERROR,
		    text("build for the GPU: --offload-arch=%s, or check.offloadArch = %s in .hipport/config "
			 "(several archs: one --offload-arch per GPU model)",
			 device.processor, device.processor),
		    "the offload arch %s (%s) does not run on GPU %d, %s%s%s: its kernels fail with \"Illegal "
		    "instruction\" or \"no kernel image is available\"",
		    x->offload->value, source_words(x->offload->source), g->index, g->arch, g->name ? ", " : "",
		    g->name ? g->name : "");
	}
}

/* Whether a list entry names the processor of arch. */
static bool list_has(char **list, size_t n, const tc_arch *arch)
{
	size_t i;
	tc_arch entry;

	for (i = 0; i < n; i++)
		if (tc_arch_parse(&entry, list[i]) == 0 && tc_arch_runs_on(&entry, arch))
			return true;
	return false;
}

/* ENV-002: PYTORCH_ROCM_ARCH against the offload arch and the GPUs. */
static void pytorch_arch(finding_list *f, const tc_env_facts *x, const tc_arch *offload)
{
	const char *value = x->vars.pytorch_rocm_arch;
	char **list = NULL;
	size_t n = 0, i;
	tc_arch a;

	if (!set(value))
		return;
	if (tc_arch_list_split(&list, &n, value) < 0) {
		f->oom = true;
		return;
	}
	for (i = 0; i < n; i++)
		if (tc_arch_parse(&a, list[i]) < 0)
			add(f, "ENV-002", AN_WARNING,
			    text("list AMD GPU archs separated by ';' (PYTORCH_ROCM_ARCH=\"gfx90a;gfx942\")"),
			    "PYTORCH_ROCM_ARCH holds '%s', which is not an AMD GPU arch", list[i]);
	if (n == 0)
		add(f, "ENV-002", AN_WARNING, text("unset it, or list the archs to build for"),
		    "PYTORCH_ROCM_ARCH is set but empty: PyTorch extensions would be built for no GPU");
	for (i = 0; i < x->gpus->count; i++) {
		const tc_gpu *g = &x->gpus->items[i];

		if (g->vendor == TC_GPU_AMD && tc_arch_parse(&a, g->arch) == 0 && n && !list_has(list, n, &a))
			add(f, "ENV-002", AN_ERROR, text("add %s: PYTORCH_ROCM_ARCH=\"%s;%s\"", a.processor, value, a.processor),
			    "PYTORCH_ROCM_ARCH=%s has no arch that runs on GPU %d (%s): PyTorch extensions built "
			    "with it fail there with \"Illegal instruction\" or \"invalid device function\"",
			    value, g->index, g->arch);
	}
	if (offload && n && !list_has(list, n, offload) && x->offload->source != TC_ARCH_FROM_DEVICE)
		add(f, "ENV-002", AN_WARNING,
		    text("build both for the same GPU: add %s to PYTORCH_ROCM_ARCH (\"%s;%s\"), or build the port "
			 "for one of its archs",
			 offload->processor, value, offload->processor),
		    "PYTORCH_ROCM_ARCH=%s does not include the offload arch %s (%s): PyTorch extensions and the "
		    "port are built for different GPUs",
		    value, x->offload->value, source_words(x->offload->source));
	tc_arch_list_free(list, n);
}

/* ENV-003 and ENV-004: HSA_OVERRIDE_GFX_VERSION against the offload arch
 * and the GPUs. */
static void gfx_override(finding_list *f, const tc_env_facts *x, const tc_arch *offload)
{
	const char *value = x->vars.hsa_override_gfx_version;
	char reported[32], wanted[32];
	size_t i;

	if (!set(value))
		return;
	if (tc_arch_from_gfx_version(reported, sizeof(reported), value) < 0) {
		add(f, "ENV-003", AN_WARNING,
		    text("unset it, or write MAJOR.MINOR.STEPPING in decimal (9.4.2 for gfx942, 9.0.10 for gfx90a)"),
		    "HSA_OVERRIDE_GFX_VERSION=%s is not a gfx version like 9.4.2 or 10.3.0", value);
		return;
	}
	if (offload && strcmp(reported, offload->processor) != 0)
		add(f, "ENV-003", AN_ERROR,
		    tc_arch_to_gfx_version(wanted, sizeof(wanted), offload->processor) == 0
			    ? text("unset HSA_OVERRIDE_GFX_VERSION, or set it to %s (%s)", wanted, offload->processor)
			    : text("unset HSA_OVERRIDE_GFX_VERSION"),
		    "HSA_OVERRIDE_GFX_VERSION=%s makes the runtime take the GPU for %s, but the code is built for "
		    "%s (%s): its kernels will not load",
		    value, reported, x->offload->value, source_words(x->offload->source));
	for (i = 0; i < x->gpus->count; i++) {
		const tc_gpu *g = &x->gpus->items[i];
		tc_arch device;

		if (g->vendor != TC_GPU_AMD || tc_arch_parse(&device, g->arch) < 0 ||
		    strcmp(device.processor, reported) == 0)
			continue;
		add(f, "ENV-004", AN_WARNING,
		    text("unset HSA_OVERRIDE_GFX_VERSION and build for %s; the override is for GPUs whose "
			 "instruction set matches the arch they pose as (10.3.0 on a gfx1031)",
			 device.processor),
		    "HSA_OVERRIDE_GFX_VERSION=%s makes GPU %d (%s) pose as %s: code for %s runs on it only if "
		    "the two instruction sets agree, else \"Illegal instruction\"",
		    value, g->index, g->arch, reported, reported);
	}
}

/* ENV-005: an offload arch the compiler rejects. */
static void unknown_arch(finding_list *f, const tc_env_facts *x, const tc_arch *offload)
{
	const tc_toolchain *tc = x->toolchain;
	const char *newer = strncmp(offload->processor, "gfx94", 5) == 0 ? " (ROCm 6.0 or newer for MI300's gfx94x)"
			    : strncmp(offload->processor, "gfx95", 5) == 0 ? " (ROCm 7.0 or newer for gfx950)"
									   : "";

	if (x->offload_known != 0)
		return;
	add(f, "ENV-005", AN_ERROR,
	    tc->noffload_archs
		    ? text("install a ROCm whose compiler knows %s%s; until then only compile checks for an arch "
			   "this compiler knows (%s to %s) can run here",
			   offload->processor, newer, tc->offload_archs[0], tc->offload_archs[tc->noffload_archs - 1])
		    : text("install a ROCm whose compiler knows %s%s", offload->processor, newer),
	    "the installed compiler (clang %s%s%s) does not know the offload arch %s (%s): hipcc stops with "
	    "\"invalid target ID\"",
	    tc->clang_version ? tc->clang_version : "of unknown version", tc->hip_version ? ", HIP " : "",
	    tc->hip_version ? tc->hip_version : "", x->offload->value, source_words(x->offload->source));
}

/* ENV-009: HIP_VISIBLE_DEVICES that leaves no GPU. */
static void visible_devices(finding_list *f, const tc_env_facts *x)
{
	const char *p = x->vars.hip_visible_devices;
	size_t amd = tc_gpu_list_amd_count(x->gpus);
	bool any = false;

	if (!set(p))
		return;
	while (*p) {
		size_t n = strcspn(p, ",");
		char *end;
		long i = strtol(p, &end, 10);

		if (n >= 4 && strncmp(p, "GPU-", 4) == 0)
			any = true; /* a UUID: cannot tell */
		else if (end == p + n && n && i >= 0 && (amd == 0 || (size_t)i < amd))
			any = true;
		else
			break; /* the runtime stops at the first invalid entry */
		p += n;
		p += *p == ',';
	}
	if (!any)
		add(f, "ENV-009", AN_WARNING,
		    text("unset HIP_VISIBLE_DEVICES, or list device numbers from 0 to %zu", amd ? amd - 1 : 0),
		    "HIP_VISIBLE_DEVICES=\"%s\" leaves no GPU visible%s: every HIP program here sees no device",
		    x->vars.hip_visible_devices, amd ? "" : " (and none was found)");
}

int tc_env_findings(tc_env_finding **out, size_t *count, const tc_env_facts *x)
{
	finding_list f = { NULL, 0, false };
	tc_arch offload_arch;
	const tc_arch *offload = NULL;
	const tc_toolchain *tc = x->toolchain;
	size_t amd = tc_gpu_list_amd_count(x->gpus), i;

	*out = NULL;
	*count = 0;
	if (x->offload->value && tc_arch_parse(&offload_arch, x->offload->value) == 0)
		offload = &offload_arch;
	if (offload && x->offload->source != TC_ARCH_FROM_DEVICE)
		offload_vs_devices(&f, x, offload);
	pytorch_arch(&f, x, offload);
	gfx_override(&f, x, offload);
	if (offload)
		unknown_arch(&f, x, offload);
	if (amd == 0)
		add(&f, "ENV-006", AN_NOTE,
		    text("compile checks work here; run kernel checks on a machine with an AMD GPU "
			 "(hipport check --bundle), or check that the amdgpu driver is loaded and /dev/kfd is "
			 "readable"),
		    "no AMD GPU found (%s)", x->gpus->amd_tried ? x->gpus->amd_tried : "nothing to ask");
	for (i = 0; i < x->gpus->count; i++) {
		const tc_gpu *g = &x->gpus->items[i];
		const char *xn = x->vars.hsa_xnack;

		if (g->vendor == TC_GPU_AMD && g->arch && strstr(g->arch, ":xnack") && (!xn || strcmp(xn, "1") != 0)) {
			add(&f, "ENV-007", AN_NOTE,
			    text("if hipport scan reports MEM-001 (managed memory), export HSA_XNACK=1 before the "
				 "program starts, and build for %.*s:xnack+ or without the feature",
				 (int)strcspn(g->arch, ":"), g->arch),
			    "HSA_XNACK is %s%s%s on GPU %d (%s): managed memory is not migrated on a GPU page "
			    "fault, so kernels that touch it fault or crawl",
			    xn ? "\"" : "unset", xn ? xn : "", xn ? "\"" : "", g->index, g->arch);
			break;
		}
	}
	if (set(x->vars.hip_platform) && strcmp(x->vars.hip_platform, "amd") != 0) {
		const char *v = x->vars.hip_platform;
		bool nvidia = strcmp(v, "nvidia") == 0 || strcmp(v, "nvcc") == 0;
		bool cuda13 = tc->cuda_version && atoi(tc->cuda_version) >= 13;

		if (nvidia)
			add(&f, "ENV-008", cuda13 ? AN_ERROR : AN_WARNING,
			    text("unset HIP_PLATFORM (or HIP_PLATFORM=amd); compare with NVIDIA through the original "
				 "CUDA source and nvcc instead"),
			    "HIP_PLATFORM=%s builds HIP code with nvcc%s%s%s", v,
			    cuda13 ? ": HIP's NVIDIA headers do not compile with CUDA " : "",
			    cuda13 ? tc->cuda_version : "", cuda13 ? " (texture references and cudaDeviceProp fields are gone)"
								: "; hipport's checks are for AMD GPUs");
		else
			add(&f, "ENV-008", AN_WARNING, text("set HIP_PLATFORM=amd, or unset it"),
			    "HIP_PLATFORM=%s is neither amd nor nvidia", v);
	}
	visible_devices(&f, x);
	if (!tc->hipcc)
		add(&f, "ENV-010", AN_WARNING,
		    text("install hipcc (Debian: apt install hipcc; else ROCm) or put it on PATH, or set ROCM_PATH"),
		    "hipcc not found (PATH, $HIP_PATH/bin, $ROCM_PATH/bin, /opt/rocm/bin): no compile checks");
	if (f.oom) {
		tc_env_findings_free(f.items, f.count);
		return util_error_set(UTIL_ENOMEM, "out of memory");
	}
	*out = f.items;
	*count = f.count;
	return 0;
}

void tc_env_findings_free(tc_env_finding *findings, size_t count)
{
	size_t i;

	for (i = 0; i < count; i++) {
		free(findings[i].message);
		free(findings[i].advice);
	}
	free(findings);
}
