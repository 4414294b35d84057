#include "check/binary/match.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/buf.h"
#include "util/error.h"

const char *bin_verdict_name(bin_verdict verdict)
{
	switch (verdict) {
	case BIN_RUNS:
		return "runs";
	case BIN_RUNS_OVERRIDDEN:
		return "runs-overridden";
	case BIN_NO_PROCESSOR:
		return "no-code-object";
	case BIN_NO_FEATURE:
		return "feature-mismatch";
	case BIN_HIDDEN:
		return "hidden";
	default:
		return "not-compared";
	}
}

typedef struct finding_list {
	tc_env_finding *items;
	size_t count;
	bool oom;
} finding_list;

/* A formatted string (free it), or NULL without memory. */
static char *vtext(const char *fmt, va_list ap)
{
	util_buf b = UTIL_BUF_INIT;

	util_buf_vprintf(&b, fmt, ap);
	if (util_buf_oom(&b)) {
		util_buf_dispose(&b);
		return NULL;
	}
	return util_buf_detach(&b);
}

static char *text(const char *fmt, ...) UTIL_PRINTF(1, 2);

static char *text(const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	s = vtext(fmt, ap);
	va_end(ap);
	return s;
}

/* Adds a finding: advice is a finished string (taken over; NULL: out of
 * memory), the message a format. */
static void add(finding_list *f, const char *id, an_severity severity, char *advice, const char *fmt, ...)
	UTIL_PRINTF(5, 6);

static void add(finding_list *f, const char *id, an_severity severity, char *advice, const char *fmt, ...)
{
	tc_env_finding *grown;
	char *message;
	va_list ap;

	va_start(ap, fmt);
	message = vtext(fmt, ap);
	va_end(ap);
	grown = message && advice ? realloc(f->items, (f->count + 1) * sizeof(*grown)) : NULL;
	if (!grown) {
		f->oom = true;
		free(message);
		free(advice);
		return;
	}
	f->items = grown;
	grown[f->count].id = id;
	grown[f->count].severity = severity;
	grown[f->count].message = message;
	grown[f->count].advice = advice;
	f->count++;
}

static int finish(finding_list *f, tc_env_finding **out, size_t *count)
{
	if (f->oom) {
		tc_env_findings_free(f->items, f->count);
		*out = NULL;
		*count = 0;
		return util_error_set(UTIL_ENOMEM, "out of memory");
	}
	*out = f->items;
	*count = f->count;
	return 0;
}

bool bin_gpu_visible(const char *visible, int index, size_t ngpus)
{
	const char *p = visible;

	if (!visible)
		return true;
	while (*p) {
		size_t n = strcspn(p, ",");
		char *end;
		long i = strtol(p, &end, 10);

		if (n >= 4 && strncmp(p, "GPU-", 4) == 0)
			return true;
		if (end != p + n || n == 0 || i < 0 || (ngpus && (size_t)i >= ngpus))
			return false; /* the runtime stops at the first invalid entry */
		if (i == index)
			return true;
		p += n;
		p += *p == ',';
	}
	return false;
}

/* The processors a generic target's code runs on (LLVM's AMDGPUUsage). */
static const struct {
	const char *generic;
	const char *members;
} generics[] = {
	{ "gfx9-generic", " gfx900 gfx902 gfx904 gfx906 gfx909 gfx90c " },
	{ "gfx9-4-generic", " gfx940 gfx941 gfx942 gfx950 " },
	{ "gfx10-1-generic", " gfx1010 gfx1011 gfx1012 gfx1013 " },
	{ "gfx10-3-generic", " gfx1030 gfx1031 gfx1032 gfx1033 gfx1034 gfx1035 gfx1036 " },
	{ "gfx11-generic", " gfx1100 gfx1101 gfx1102 gfx1103 gfx1150 gfx1151 gfx1152 gfx1153 " },
	{ "gfx12-generic", " gfx1200 gfx1201 " },
};

/* Whether code for processor code runs on processor device: the same, or
 * a generic target that covers it. */
static bool processor_covers(const char *code, const char *device, bool *generic)
{
	char word[24];
	size_t i;

	*generic = false;
	if (strcmp(code, device) == 0)
		return true;
	snprintf(word, sizeof(word), " %s ", device);
	for (i = 0; i < sizeof(generics) / sizeof(generics[0]); i++)
		if (strcmp(code, generics[i].generic) == 0 && strstr(generics[i].members, word))
			return *generic = true;
	return false;
}

/* Whether the processor has an XNACK mode (AMDGPUUsage's processor table). */
static bool has_xnack(const char *processor)
{
	return (strncmp(processor, "gfx9", 4) == 0 && strlen(processor) == 6) || strcmp(processor, "gfx801") == 0 ||
	       strcmp(processor, "gfx810") == 0 || strncmp(processor, "gfx101", 6) == 0 ||
	       strcmp(processor, "gfx9-generic") == 0 || strcmp(processor, "gfx9-4-generic") == 0 ||
	       strcmp(processor, "gfx10-1-generic") == 0;
}

static bool feature_fits(tc_feature code, tc_feature device)
{
	return code == TC_FEATURE_ANY || device == TC_FEATURE_ANY || code == device;
}

static const char *feature_text(tc_feature f, const char *name)
{
	static char buf[2][16];
	static int k;

	if (f == TC_FEATURE_ANY)
		return "";
	k = !k;
	snprintf(buf[k], sizeof(buf[k]), ":%s%c", name, f == TC_FEATURE_ON ? '+' : '-');
	return buf[k];
}

/* What the runtime looks for on gpu: the override's processor or its own,
 * its sramecc as its target id says, its xnack as the target id says, else
 * on with HSA_XNACK=1, else off (the driver's default). */
static bool looks_for(tc_arch *out, const tc_arch *device, const tc_env_vars *vars)
{
	char overridden[sizeof(out->processor)];
	bool changed = false;

	*out = *device;
	if (vars->hsa_override_gfx_version &&
	    tc_arch_from_gfx_version(overridden, sizeof(overridden), vars->hsa_override_gfx_version) == 0 &&
	    strcmp(overridden, device->processor) != 0) {
		memcpy(out->processor, overridden, sizeof(overridden));
		changed = true;
	}
	util_error_clear();
	if (out->xnack == TC_FEATURE_ANY && has_xnack(device->processor))
		out->xnack = vars->hsa_xnack && strcmp(vars->hsa_xnack, "1") == 0 ? TC_FEATURE_ON : TC_FEATURE_OFF;
	return changed;
}

/* The targets of the file's code objects, "gfx90a, gfx942" (at most size). */
static void list_targets(char *out, size_t size, const bin_file *file)
{
	size_t i, len = 0;

	*out = '\0';
	for (i = 0; i < file->count && len < size; i++)
		if (file->objects[i].target[0] && !strstr(out, file->objects[i].target))
			len += (size_t)snprintf(out + len, size - len, "%s%s", len ? ", " : "", file->objects[i].target);
	if (!*out)
		snprintf(out, size, "none");
}

/* The verdict for one GPU that the runtime looks at as want. */
static bin_verdict choose(const bin_file *file, const tc_arch *want, const bin_object **chosen)
{
	const bin_object *generic_match = NULL;
	bool same_processor = false, generic;
	size_t i;
	tc_arch code;

	*chosen = NULL;
	for (i = 0; i < file->count; i++) {
		const bin_object *o = &file->objects[i];

		if (o->kind != BIN_CODE_OBJECT || tc_arch_parse(&code, o->target) < 0 ||
		    !processor_covers(code.processor, want->processor, &generic))
			continue;
		same_processor = true;
		if (!feature_fits(code.xnack, want->xnack) || !feature_fits(code.sramecc, want->sramecc))
			continue;
		if (!generic) {
			*chosen = o;
			return BIN_RUNS;
		}
		if (!generic_match)
			generic_match = o;
	}
	util_error_clear();
	*chosen = generic_match;
	return generic_match ? BIN_RUNS : same_processor ? BIN_NO_FEATURE : BIN_NO_PROCESSOR;
}

/* ENV-011, ENV-012, ENV-013 for one used GPU. */
static void gpu_findings(finding_list *f, const bin_file *file, const bin_gpu_result *r, const tc_arch *device,
			 const tc_arch *want, bool error, const tc_env_vars *vars)
{
	const char *path = file->path, *override = vars->hsa_override_gfx_version;
	an_severity severity = error ? AN_ERROR : AN_WARNING;
	bool overridden = strcmp(want->processor, device->processor) != 0;
	char has[256];

	list_targets(has, sizeof(has), file);
	if (r->verdict == BIN_NO_PROCESSOR && overridden) {
		bool own = false, generic;
		size_t i;
		tc_arch code;

		for (i = 0; i < file->count; i++)
			if (file->objects[i].kind == BIN_CODE_OBJECT && tc_arch_parse(&code, file->objects[i].target) == 0 &&
			    processor_covers(code.processor, device->processor, &generic))
				own = true;
		util_error_clear();
		add(f, "ENV-011", severity,
		    own ? text("unset HSA_OVERRIDE_GFX_VERSION: %s has code for the GPU's own %s", path, device->processor)
			: text("unset HSA_OVERRIDE_GFX_VERSION and rebuild with --offload-arch=%s added", device->processor),
		    "%s: HSA_OVERRIDE_GFX_VERSION=%s makes the runtime look for %s on GPU %d (%s), and the file has no "
		    "code object for it (it has %s): hipErrorNoBinaryForGpu (\"no binary for GPU\") when it loads, "
		    "\"invalid device function\" at a kernel launch",
		    path, override, want->processor, r->gpu->index, r->gpu->arch, has);
	} else if (r->verdict == BIN_NO_PROCESSOR) {
		add(f, "ENV-011", severity,
		    text("rebuild with --offload-arch=%s added (one --offload-arch per GPU model; for a PyTorch "
			 "extension, add %s to PYTORCH_ROCM_ARCH)",
			 want->processor, want->processor),
		    "%s has no code object for GPU %d (%s; it has %s): hipErrorNoBinaryForGpu (\"no binary for GPU\") "
		    "when it loads, \"invalid device function\" at a kernel launch",
		    path, r->gpu->index, r->gpu->arch, has);
	} else if (r->verdict == BIN_NO_FEATURE) {
		bool xnack_on = want->xnack == TC_FEATURE_ON;
		char why[128] = "";

		if (device->xnack == TC_FEATURE_ANY && has_xnack(device->processor))
			snprintf(why, sizeof(why), ", HSA_XNACK%s%s", vars->hsa_xnack ? "=" : " unset: XNACK off",
				 vars->hsa_xnack ? vars->hsa_xnack : "");
		if (strcmp(want->processor, device->processor) != 0)
			snprintf(why + strlen(why), sizeof(why) - strlen(why), ", posing as %s by HSA_OVERRIDE_GFX_VERSION",
				 want->processor);
		add(f, "ENV-012", severity,
		    want->xnack != TC_FEATURE_ANY
			    ? text("rebuild for %s without the feature (--offload-arch=%s runs in either mode), or %s",
				   want->processor, want->processor,
				   xnack_on ? "run with HSA_XNACK=0 (XNACK off)" : "run with HSA_XNACK=1 (XNACK on)")
			    : text("rebuild for %s without the feature (--offload-arch=%s)", want->processor,
				   want->processor),
		    "%s has code for %s only with other features (%s) than GPU %d runs with (%s%s): "
		    "hipErrorNoBinaryForGpu (\"no binary for GPU\") when it loads, \"invalid device function\" at a "
		    "kernel launch",
		    path, want->processor, has, r->gpu->index, r->looks_for, why);
	} else if (r->verdict == BIN_RUNS_OVERRIDDEN) {
		add(f, "ENV-013", AN_WARNING,
		    text("unset HSA_OVERRIDE_GFX_VERSION and rebuild with --offload-arch=%s", device->processor),
		    "%s: HSA_OVERRIDE_GFX_VERSION=%s makes GPU %d (%s) load the code object for %s, built for another "
		    "processor: \"Illegal instruction\", memory faults or wrong results wherever the two instruction "
		    "sets differ",
		    path, override, r->gpu->index, r->gpu->arch, r->chosen->target);
	}
}

/* ENV-014: archs of PYTORCH_ROCM_ARCH the file has no code object for. */
static void pytorch_findings(finding_list *f, const bin_file *file, const tc_env_vars *vars)
{
	char **list = NULL, has[256];
	size_t n = 0, i;
	tc_arch want;
	const bin_object *chosen;

	if (!vars->pytorch_rocm_arch || tc_arch_list_split(&list, &n, vars->pytorch_rocm_arch) < 0) {
		f->oom = vars->pytorch_rocm_arch != NULL;
		return;
	}
	list_targets(has, sizeof(has), file);
	for (i = 0; i < n; i++) {
		if (tc_arch_parse(&want, list[i]) < 0) {
			util_error_clear();
			continue;
		}
		if (choose(file, &want, &chosen) != BIN_RUNS)
			add(f, "ENV-014", AN_WARNING,
			    text("rebuild it with PYTORCH_ROCM_ARCH set as now (a clean build: stale objects keep the old "
				 "archs), or take %s out of the list if it was not meant for it",
				 list[i]),
			    "%s has no code object for %s of PYTORCH_ROCM_ARCH=%s (it has %s): it was built with another "
			    "list, and fails on a %s with hipErrorNoBinaryForGpu",
			    file->path, list[i], vars->pytorch_rocm_arch, has, want.processor);
	}
	tc_arch_list_free(list, n);
}

/* ENV-015: a file with nothing to compare. */
static void nothing_findings(finding_list *f, const bin_file *file)
{
	size_t i, bitcode = 0;
	char has[256];

	for (i = 0; i < file->count; i++)
		bitcode += file->objects[i].kind == BIN_BITCODE;
	list_targets(has, sizeof(has), file);
	if (bitcode)
		add(f, "ENV-015", AN_NOTE, text("check the executable or library it is linked into"),
		    "%s holds device bitcode for %s (an -fgpu-rdc object), no code object: its kernels are compiled "
		    "at the link",
		    file->path, has);
	else if (file->compressed && file->nnotes)
		add(f, "ENV-015", AN_NOTE,
		    text("run hipport built with zstd and zlib, or list it with clang-offload-bundler --list"),
		    "%s: %s", file->path, file->notes[0]);
	else
		add(f, "ENV-015", AN_NOTE, text("nothing to do if it launches no kernel of its own"),
		    "%s holds no HIP code object (no %s): it launches no kernel of its own", file->path,
		    file->bundles ? "device entry in its offload bundles" : ".hip_fatbin section or offload bundle");
}

int bin_report_make(bin_report *out, const bin_file *file, const bin_gpu *gpus, size_t ngpus,
		    const tc_env_vars *vars)
{
	finding_list f = { NULL, 0, false };
	tc_arch *device = NULL, *want = NULL;
	size_t i, used = 0, running = 0;
	bool listed = bin_file_code_objects(file) > 0;
	int error;

	memset(out, 0, sizeof(*out));
	if (ngpus && (!(out->gpus = calloc(ngpus, sizeof(*out->gpus))) || !(device = calloc(ngpus, sizeof(*device))) ||
		      !(want = calloc(ngpus, sizeof(*want))))) {
		free(device);
		bin_report_dispose(out);
		return util_error_set(UTIL_ENOMEM, "out of memory");
	}
	out->ngpus = ngpus;
	for (i = 0; i < ngpus; i++) {
		bin_gpu_result *r = &out->gpus[i];

		r->gpu = &gpus[i];
		r->used = bin_gpu_visible(vars->hip_visible_devices, gpus[i].index, ngpus);
		r->verdict = BIN_NOT_COMPARED;
		if (!gpus[i].arch || tc_arch_parse(&device[i], gpus[i].arch) < 0) {
			util_error_clear();
			continue;
		}
		looks_for(&want[i], &device[i], vars);
		snprintf(r->looks_for, sizeof(r->looks_for), "%s%s%s", want[i].processor,
			 feature_text(want[i].sramecc, "sramecc"), feature_text(want[i].xnack, "xnack"));
		if (!r->used) {
			r->verdict = BIN_HIDDEN;
			continue;
		}
		used++;
		if (!listed)
			continue;
		r->verdict = choose(file, &want[i], &r->chosen);
		if (r->verdict == BIN_RUNS && strcmp(want[i].processor, device[i].processor) != 0)
			r->verdict = BIN_RUNS_OVERRIDDEN;
		running += r->verdict == BIN_RUNS || r->verdict == BIN_RUNS_OVERRIDDEN;
	}
	out->error = listed && used && !running;
	for (i = 0; i < ngpus; i++)
		if (out->gpus[i].used && out->gpus[i].verdict != BIN_NOT_COMPARED)
			gpu_findings(&f, file, &out->gpus[i], &device[i], &want[i], out->error, vars);
	if (listed)
		pytorch_findings(&f, file, vars);
	else
		nothing_findings(&f, file);
	free(device);
	free(want);
	if ((error = finish(&f, &out->findings, &out->nfindings)) < 0)
		bin_report_dispose(out);
	return error;
}

void bin_report_dispose(bin_report *report)
{
	tc_env_findings_free(report->findings, report->nfindings);
	free(report->gpus);
	memset(report, 0, sizeof(*report));
}

int bin_setting_findings(tc_env_finding **out, size_t *count, const bin_gpu *gpus, size_t ngpus,
			 const tc_env_vars *vars)
{
	finding_list f = { NULL, 0, false };
	char processor[32];
	size_t i, visible = 0;

	if (vars->hsa_override_gfx_version &&
	    tc_arch_from_gfx_version(processor, sizeof(processor), vars->hsa_override_gfx_version) < 0) {
		util_error_clear();
		add(&f, "ENV-003", AN_WARNING,
		    text("unset it, or write MAJOR.MINOR.STEPPING in decimal (9.4.2 for gfx942, 9.0.10 for gfx90a)"),
		    "HSA_OVERRIDE_GFX_VERSION=%s is not a gfx version like 9.4.2 or 10.3.0: taken as unset here",
		    vars->hsa_override_gfx_version);
	}
	if (!ngpus)
		add(&f, "ENV-006", AN_NOTE,
		    text("name the GPUs the files will run on: --gpu gfx942 (repeat it for several)"),
		    "no AMD GPU found: the files are listed, not compared with a GPU");
	for (i = 0; i < ngpus; i++)
		visible += bin_gpu_visible(vars->hip_visible_devices, gpus[i].index, ngpus);
	if (ngpus && !visible)
		add(&f, "ENV-009", AN_ERROR, text("unset HIP_VISIBLE_DEVICES, or list device numbers from 0 to %zu", ngpus - 1),
		    "HIP_VISIBLE_DEVICES=\"%s\" leaves none of the %zu GPUs visible: no file's kernels can run "
		    "(hipErrorNoDevice)",
		    vars->hip_visible_devices, ngpus);
	return finish(&f, out, count);
}
