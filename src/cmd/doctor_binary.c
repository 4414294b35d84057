/* hipport doctor --binary FILE... [--gpu ARCH]... [--format text|json]: the
 * code objects of each file with their target ids, which one each GPU loads
 * (the --gpu ones, else those found) under HIP_VISIBLE_DEVICES,
 * HSA_OVERRIDE_GFX_VERSION and HSA_XNACK, and ENV findings for what will
 * not load or may misbehave. */
#include "cmd/doctor_binary.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/finding.h"
#include "check/binary/fatbin.h"
#include "check/binary/match.h"
#include "check/toolchain/env.h"
#include "check/toolchain/gpu.h"
#include "cmd/scan.h"
#include "util/error.h"

typedef struct binary_doctor {
	tc_gpu_list probed;       /* without --gpu */
	bin_gpu *gpus;            /* the AMD GPUs compared with */
	size_t ngpus;
	tc_env_vars vars;
	tc_env_finding *findings; /* about the GPUs and variables alone */
	size_t nfindings;
	bin_file *files;
	bin_report *reports;
	size_t nfiles;
} binary_doctor;

/* The variables doctor --binary reads, in the order it shows them. */
static const char *const var_names[] = { "HIP_VISIBLE_DEVICES", "HSA_OVERRIDE_GFX_VERSION", "HSA_XNACK",
					 "PYTORCH_ROCM_ARCH" };

static const char *var_value(const tc_env_vars *v, size_t i)
{
	const char *const values[] = { v->hip_visible_devices, v->hsa_override_gfx_version, v->hsa_xnack,
				       v->pytorch_rocm_arch };

	return values[i];
}

/* The GPUs: the --gpu values, else the AMD GPUs probed. */
static int collect_gpus(binary_doctor *d)
{
	size_t n, i;
	const char *const *given = cmd_doctor_gpus(&n);
	bool from_option = n > 0;
	int error;

	if (!from_option) {
		if ((error = tc_gpu_probe(&d->probed)) < 0)
			return error;
		n = tc_gpu_list_amd_count(&d->probed);
	}
	if (n && !(d->gpus = calloc(n, sizeof(*d->gpus))))
		return util_error_set(UTIL_ENOMEM, "out of memory");
	if (from_option) {
		for (i = 0; i < n; i++)
			d->gpus[i] = (bin_gpu){ (int)i, given[i], "option" };
		d->ngpus = n;
		return 0;
	}
	for (i = 0; i < d->probed.count; i++) {
		const tc_gpu *g = &d->probed.items[i];

		if (g->vendor == TC_GPU_AMD)
			d->gpus[d->ngpus++] = (bin_gpu){ g->index, g->arch, g->source };
	}
	return 0;
}

static void print_finding(const tc_env_finding *f, bool color, const char *indent)
{
	printf("%s%s %s%s%s: %s\n%s    advice: %s\n", indent, f->id, cmd_severity_color(f->severity, color),
	       an_severity_name(f->severity), color ? "\033[m" : "", f->message, indent, f->advice);
}

static const char *kind_name(bin_object_kind kind)
{
	return kind == BIN_CODE_OBJECT ? "code object" : kind == BIN_BITCODE ? "bitcode" : "other";
}

/* What a GPU does with the file, in words. */
static void print_verdict(const bin_gpu_result *r)
{
	printf("  GPU %d (%s): ", r->gpu->index, r->gpu->arch ? r->gpu->arch : "arch unknown");
	switch (r->verdict) {
	case BIN_RUNS:
		printf("loads %s\n", r->chosen->target);
		break;
	case BIN_RUNS_OVERRIDDEN:
		printf("loads %s, built for another processor (HSA_OVERRIDE_GFX_VERSION)\n", r->chosen->target);
		break;
	case BIN_NO_PROCESSOR:
		printf("no code object for %s: hipErrorNoBinaryForGpu\n", r->looks_for);
		break;
	case BIN_NO_FEATURE:
		printf("no code object for %s (only other features): hipErrorNoBinaryForGpu\n", r->looks_for);
		break;
	case BIN_HIDDEN:
		printf("hidden by HIP_VISIBLE_DEVICES\n");
		break;
	default:
		printf("not compared\n");
	}
}

static void print_text(const binary_doctor *d, bool color)
{
	const char *bold = color ? "\033[1m" : "", *reset = color ? "\033[m" : "";
	size_t i, j;

	printf("%sGPUs%s\n", bold, reset);
	if (!d->ngpus)
		printf("  none%s%s\n", d->probed.amd_tried ? ": " : "", d->probed.amd_tried ? d->probed.amd_tried : "");
	for (i = 0; i < d->ngpus; i++) {
		const bin_gpu *g = &d->gpus[i];
		const bin_gpu_result *r = d->nfiles ? &d->reports[0].gpus[i] : NULL;

		printf("  GPU %d: %s (%s)", g->index, g->arch ? g->arch : "arch unknown",
		       strcmp(g->source, "option") == 0 ? "--gpu" : g->source);
		if (r && !r->used)
			printf(", hidden by HIP_VISIBLE_DEVICES");
		else if (r && r->looks_for[0])
			printf(", the runtime looks for %s", r->looks_for);
		fputc('\n', stdout);
	}
	printf("\n%sEnvironment%s\n", bold, reset);
	for (i = 0; i < sizeof(var_names) / sizeof(var_names[0]); i++)
		printf("  %-25s %s\n", var_names[i], var_value(&d->vars, i) ? var_value(&d->vars, i) : "(unset)");
	for (i = 0; i < d->nfindings; i++)
		print_finding(&d->findings[i], color, "");
	for (i = 0; i < d->nfiles; i++) {
		const bin_file *f = &d->files[i];
		const bin_report *r = &d->reports[i];

		printf("\n%s%s%s: %s", bold, f->path, reset, f->format);
		if (f->bundles > 1 || (f->bundles && strcmp(f->format, "offload bundle") != 0 &&
					       strcmp(f->format, "compressed offload bundle") != 0))
			printf(", %u offload bundle%s%s", f->bundles, f->bundles == 1 ? "" : "s",
			       f->compressed ? (f->compressed == f->bundles ? " (compressed)" : " (some compressed)") : "");
		fputc('\n', stdout);
		for (j = 0; j < f->count; j++) {
			const bin_object *o = &f->objects[j];

			printf("  %-24s %s, %llu bytes", o->target[0] ? o->target : "(unknown)", kind_name(o->kind),
			       (unsigned long long)o->size);
			if (o->bundle_id)
				printf(", bundle %u: %s", o->bundle, o->bundle_id);
			fputc('\n', stdout);
		}
		if (!f->count)
			printf("  no GPU code\n");
		for (j = 0; j < f->nnotes; j++)
			printf("  note: %s\n", f->notes[j]);
		for (j = 0; j < r->ngpus; j++)
			if (bin_file_code_objects(f))
				print_verdict(&r->gpus[j]);
		for (j = 0; j < r->nfindings; j++)
			print_finding(&r->findings[j], color, "");
	}
}

static json_t *string_or_null(const char *s)
{
	return s ? json_string(s) : json_null();
}

static json_t *findings_json(const tc_env_finding *f, size_t n)
{
	json_t *a = json_array();
	size_t i;

	for (i = 0; i < n; i++)
		json_array_append_new(a, json_pack("{s:s, s:s, s:s, s:s}", "id", f[i].id, "severity",
						   an_severity_name(f[i].severity), "message", f[i].message, "advice",
						   f[i].advice));
	return a;
}

static json_t *file_json(const bin_file *f, const bin_report *r)
{
	json_t *objects = json_array(), *notes = json_array(), *gpus = json_array();
	size_t i;

	for (i = 0; i < f->count; i++) {
		const bin_object *o = &f->objects[i];

		json_array_append_new(objects,
				      json_pack("{s:o, s:s, s:I, s:i, s:o, s:b}", "target",
						o->target[0] ? json_string(o->target) : json_null(), "kind",
						o->kind == BIN_CODE_OBJECT ? "code-object"
						: o->kind == BIN_BITCODE  ? "bitcode"
									  : "other",
						"size", (json_int_t)o->size, "bundle", (int)o->bundle, "bundle_id",
						string_or_null(o->bundle_id), "compressed", o->compressed));
	}
	for (i = 0; i < f->nnotes; i++)
		json_array_append_new(notes, json_string(f->notes[i]));
	for (i = 0; i < r->ngpus; i++) {
		const bin_gpu_result *g = &r->gpus[i];

		json_array_append_new(gpus, json_pack("{s:i, s:o, s:b, s:o, s:s, s:o}", "index", g->gpu->index, "arch",
						      string_or_null(g->gpu->arch), "used", g->used, "looks_for",
						      g->looks_for[0] ? json_string(g->looks_for) : json_null(), "verdict",
						      bin_verdict_name(g->verdict), "code_object",
						      g->chosen ? json_string(g->chosen->target) : json_null()));
	}
	return json_pack("{s:s, s:s, s:i, s:i, s:o, s:o, s:o, s:b, s:o}", "path", f->path, "format", f->format,
			 "bundles", (int)f->bundles, "compressed_bundles", (int)f->compressed, "code_objects", objects,
			 "notes", notes, "gpus", gpus, "error", r->error, "findings",
			 findings_json(r->findings, r->nfindings));
}

/* The doctor document (docs/doctor-json.schema.json) of the binary mode:
 * schema, version, gpus, env, findings and binaries. */
static int print_json(const binary_doctor *d)
{
	json_t *gpus = json_array(), *env = json_object(), *binaries = json_array();
	size_t i;

	for (i = 0; i < d->ngpus; i++) {
		const bin_gpu *g = &d->gpus[i];
		const tc_gpu *probed = NULL;
		size_t k;

		for (k = 0; strcmp(g->source, "option") != 0 && k < d->probed.count; k++)
			if (d->probed.items[k].vendor == TC_GPU_AMD && d->probed.items[k].index == g->index)
				probed = &d->probed.items[k];
		json_array_append_new(
			gpus, json_pack("{s:s, s:i, s:o, s:o, s:o, s:o, s:s}", "vendor", "amd", "index", g->index, "name",
					string_or_null(probed ? probed->name : NULL), "arch", string_or_null(g->arch), "xnack",
					g->arch && strstr(g->arch, ":xnack") ? json_boolean(strstr(g->arch, ":xnack+") != NULL)
									     : json_null(),
					"memory_mib",
					probed && probed->memory_mib ? json_integer(probed->memory_mib) : json_null(),
					"source", g->source));
	}
	for (i = 0; i < TC_ENV_NVARS; i++)
		json_object_set_new(env, tc_env_var_names[i], string_or_null(tc_env_var_value(&d->vars, i)));
	for (i = 0; i < d->nfiles; i++)
		json_array_append_new(binaries, file_json(&d->files[i], &d->reports[i]));
	return scan_print_document(stdout, json_pack("{s:s, s:i, s:o, s:o, s:o, s:o}", "schema", "hipport-doctor",
						     "version", 1, "gpus", gpus, "env", env, "findings",
						     findings_json(d->findings, d->nfindings), "binaries", binaries));
}

static void dispose(binary_doctor *d)
{
	size_t i;

	for (i = 0; i < d->nfiles; i++) {
		bin_report_dispose(&d->reports[i]);
		bin_file_dispose(&d->files[i]);
	}
	free(d->reports);
	free(d->files);
	tc_env_findings_free(d->findings, d->nfindings);
	free(d->gpus);
	tc_gpu_list_dispose(&d->probed);
}

static bool has_error(const tc_env_finding *f, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (f[i].severity == AN_ERROR)
			return true;
	return false;
}

int cmd_doctor_binary(cmd_context *ctx)
{
	const char *format = ctx->format ? ctx->format : "text";
	binary_doctor d;
	int i, error, code = CMD_EXIT_OK;

	if (ctx->offload_arch)
		return cmd_fail(CMD_EXIT_USAGE, "doctor: --offload-arch does not go with --binary (name GPUs with --gpu)");
	if (!ctx->nargs)
		return cmd_fail(CMD_EXIT_USAGE, "doctor --binary: name the files to read (executables, libraries, "
				"objects, code objects)");
	memset(&d, 0, sizeof(d));
	if (!(d.files = calloc((size_t)ctx->nargs, sizeof(*d.files))) ||
	    !(d.reports = calloc((size_t)ctx->nargs, sizeof(*d.reports)))) {
		free(d.files);
		return cmd_fail(CMD_EXIT_USAGE, "out of memory");
	}
	for (i = 0; i < ctx->nargs; i++) {
		if (bin_file_read(&d.files[d.nfiles], ctx->args[i]) < 0)
			code = cmd_fail(CMD_EXIT_USAGE, "doctor --binary: %s", util_error_last());
		else
			d.nfiles++;
	}
	if (code != CMD_EXIT_OK)
		goto done;
	tc_env_vars_read(&d.vars);
	if ((error = collect_gpus(&d)) < 0 ||
	    (error = bin_setting_findings(&d.findings, &d.nfindings, d.gpus, d.ngpus, &d.vars)) < 0) {
		code = cmd_fail(cmd_exit_for(error), "doctor: %s", util_error_last());
		goto done;
	}
	for (i = 0; i < (int)d.nfiles; i++)
		if ((error = bin_report_make(&d.reports[i], &d.files[i], d.gpus, d.ngpus, &d.vars)) < 0) {
			code = cmd_fail(cmd_exit_for(error), "doctor: %s", util_error_last());
			goto done;
		}
	if (strcmp(format, "json") == 0) {
		if (print_json(&d) < 0)
			code = cmd_fail(CMD_EXIT_USAGE, "doctor: cannot write the JSON report");
	} else {
		print_text(&d, ctx->color);
	}
	if (code == CMD_EXIT_OK && has_error(d.findings, d.nfindings))
		code = CMD_EXIT_FINDINGS;
	for (i = 0; code == CMD_EXIT_OK && i < (int)d.nfiles; i++)
		if (d.reports[i].error || has_error(d.reports[i].findings, d.reports[i].nfindings))
			code = CMD_EXIT_FINDINGS;
done:
	dispose(&d);
	return code;
}
