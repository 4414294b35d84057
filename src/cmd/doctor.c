/* hipport doctor [--offload-arch=gfxNNN] [--format text|json]: the
 * toolchains, the GPUs, the environment, the offload arch, and the ENV
 * findings with advice. --binary FILE... is doctor_binary.c's. */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/finding.h"
#include "check/toolchain/env.h"
#include "check/toolchain/root.h"
#include "cmd/cmd.h"
#include "cmd/doctor_binary.h"
#include "cmd/scan.h"
#include "util/error.h"
#include "vcs/config.h"
#include "vcs/walk.h"

typedef struct doctor {
	tc_toolchain tc;
	tc_gpu_list gpus;
	tc_arch_choice offload;
	tc_env_facts facts;
	tc_env_finding *findings;
	size_t nfindings;
} doctor;

static const char *or_unset(const char *s)
{
	return s ? s : "(unset)";
}

/* "  label      path (what version)", or "not found". */
static void print_tool(const char *label, const char *path, const char *what, const char *version)
{
	printf("  %-10s %s", label, path ? path : "not found");
	if (path && version)
		printf(" (%s%s)", what, version);
	fputc('\n', stdout);
}

static void print_text(const doctor *d, bool color)
{
	const tc_toolchain *tc = &d->tc;
	const char *bold = color ? "\033[1m" : "", *reset = color ? "\033[m" : "";
	size_t i;

	printf("%sToolchains%s\n", bold, reset);
	print_tool("hipcc", tc->hipcc, "", NULL);
	if (tc_root_holds(tc->hipcc))
		printf("  %-10s %s (HIPPORT_ROCM_ROOT, made by tools/rocm-root)\n", "root", tc_root_dir());
	if (tc->hip_version)
		printf("  %-10s %s (%s)\n", "HIP", tc->hip_version, tc->hip_version_from);
	printf("  %-10s %s\n", "platform", tc->hip_platform ? tc->hip_platform : "unknown");
	print_tool("clang", tc->clang, "", tc->clang_version);
	if (tc->noffload_archs) {
		printf("  %-10s", "archs");
		for (i = 0; i < tc->noffload_archs; i++)
			printf(" %s", tc->offload_archs[i]);
		fputc('\n', stdout);
	}
	print_tool("nvcc", tc->nvcc, "CUDA ", tc->cuda_version);
	print_tool("rocminfo", tc->rocminfo, "", NULL);
	for (i = 0; i < tc->nnotes; i++)
		printf("  note: %s\n", tc->notes[i]);

	printf("\n%sGPUs%s\n", bold, reset);
	if (d->gpus.hip_library)
		printf("  HIP runtime %s%s%s\n", d->gpus.hip_library, d->gpus.hip_version ? ", HIP " : "",
		       d->gpus.hip_version ? d->gpus.hip_version : "");
	for (i = 0; i < d->gpus.count; i++) {
		const tc_gpu *g = &d->gpus.items[i];

		printf("  %s %d: %s, %s", g->vendor == TC_GPU_AMD ? "AMD" : "NVIDIA", g->index,
		       g->name ? g->name : "(no name)", g->arch ? g->arch : "arch unknown");
		if (g->memory_mib)
			printf(", %lld MiB", g->memory_mib);
		printf(" (%s)\n", g->source);
	}
	if (d->gpus.amd_tried)
		printf("  no AMD GPU: %s\n", d->gpus.amd_tried);
	if (d->gpus.nvidia_tried)
		printf("  no NVIDIA GPU: %s\n", d->gpus.nvidia_tried);

	printf("\n%sEnvironment%s\n", bold, reset);
	for (i = 0; i < TC_ENV_NVARS; i++)
		printf("  %-25s %s\n", tc_env_var_names[i], or_unset(tc_env_var_value(&d->facts.vars, i)));

	printf("\n%sOffload arch%s\n", bold, reset);
	if (!d->offload.value)
		printf("  none: give --offload-arch, or set check.offloadArch in .hipport/config\n");
	else
		printf("  %s (%s)%s\n", d->offload.value, tc_arch_source_name(d->offload.source),
		       d->facts.offload_known == 1	? ", known to the compiler"
		       : d->facts.offload_known == 0 ? ", unknown to the compiler"
						     : "");

	printf("\n%sFindings%s\n", bold, reset);
	if (!d->nfindings)
		printf("  none\n");
	for (i = 0; i < d->nfindings; i++) {
		const tc_env_finding *f = &d->findings[i];

		printf("%s %s%s:%s %s\n    advice: %s\n", f->id, cmd_severity_color(f->severity, color),
		       an_severity_name(f->severity), color ? reset : "", f->message, f->advice);
	}
}

static json_t *string_or_null(const char *s)
{
	return s ? json_string(s) : json_null();
}

static json_t *string_list(char *const *items, size_t n)
{
	json_t *a = json_array();
	size_t i;

	for (i = 0; i < n; i++)
		json_array_append_new(a, json_string(items[i]));
	return a;
}

static int print_json(const doctor *d)
{
	const tc_toolchain *tc = &d->tc;
	const tc_gpu_list *g = &d->gpus;
	json_t *gpus = json_array(), *findings = json_array(), *env = json_object(), *doc;
	size_t i;

	for (i = 0; i < g->count; i++) {
		const tc_gpu *x = &g->items[i];
		json_t *xnack = json_null();

		if (x->vendor == TC_GPU_AMD && x->arch && strstr(x->arch, ":xnack"))
			xnack = json_boolean(strstr(x->arch, ":xnack+") != NULL);
		json_array_append_new(gpus, json_pack("{s:s, s:i, s:o, s:o, s:o, s:o, s:s}", "vendor",
						      x->vendor == TC_GPU_AMD ? "amd" : "nvidia", "index",
						      (json_int_t)x->index, "name", string_or_null(x->name), "arch",
						      string_or_null(x->arch), "xnack", xnack, "memory_mib",
						      x->memory_mib ? json_integer(x->memory_mib) : json_null(), "source",
						      x->source));
	}
	for (i = 0; i < d->nfindings; i++)
		json_array_append_new(findings, json_pack("{s:s, s:s, s:s, s:s}", "id", d->findings[i].id, "severity",
							  an_severity_name(d->findings[i].severity), "message",
							  d->findings[i].message, "advice", d->findings[i].advice));
	for (i = 0; i < TC_ENV_NVARS; i++)
		json_object_set_new(env, tc_env_var_names[i], string_or_null(tc_env_var_value(&d->facts.vars, i)));
	doc = json_pack("{s:s, s:i, s:{s:o, s:o, s:o, s:o, s:{s:o, s:o}, s:o, s:o}, s:{s:o, s:o}, "
			"s:{s:o, s:o, s:o}, s:{s:o, s:o, s:o, s:o}, s:o, s:o, s:{s:o, s:s, s:o}, s:o, s:o}",
			"schema", "hipport-doctor", "version", 1,
			"hip", "version", string_or_null(tc->hip_version), "version_from",
			string_or_null(tc->hip_version_from), "hipcc", string_or_null(tc->hipcc), "platform",
			string_or_null(tc->hip_platform), "clang", "path", string_or_null(tc->clang), "version",
			string_or_null(tc->clang_version), "offload_archs",
			string_list(tc->offload_archs, tc->noffload_archs), "hipconfig", string_or_null(tc->hipconfig),
			"cuda", "nvcc", string_or_null(tc->nvcc), "version", string_or_null(tc->cuda_version),
			"rocminfo", "path", string_or_null(tc->rocminfo), "status",
			g->rocminfo_status >= 0 ? json_integer(g->rocminfo_status) : json_null(), "message",
			string_or_null(g->rocminfo_said),
			"runtime", "library", string_or_null(g->hip_library), "version", string_or_null(g->hip_version),
			"error", g->hip_error >= 0 ? json_integer(g->hip_error) : json_null(), "error_name",
			string_or_null(g->hip_error_name),
			"gpus", gpus, "env", env,
			"offload_arch", "value", string_or_null(d->offload.value), "source",
			tc_arch_source_name(d->offload.source), "known_to_compiler",
			d->facts.offload_known < 0 ? json_null() : json_boolean(d->facts.offload_known),
			"notes", string_list(tc->notes, tc->nnotes), "findings", findings);
	if (doc && (g->amd_tried || g->nvidia_tried))
		json_object_set_new(doc, "not_found", json_pack("{s:o, s:o}", "amd", string_or_null(g->amd_tried),
								"nvidia", string_or_null(g->nvidia_tried)));
	return scan_print_document(stdout, doc);
}

/* check.offloadArch of the repository around the current directory. */
static int config_arch(char **out)
{
	vcs_walk where;
	vcs_config cfg;
	int error;

	*out = NULL;
	if (vcs_walk_locate(&where, ".") < 0 || !where.root) {
		util_error_clear(); /* outside a repository: no configuration */
		vcs_walk_dispose(&where);
		return 0;
	}
	error = vcs_config_read(&cfg, where.root);
	vcs_walk_dispose(&where);
	if (error < 0)
		return error;
	*out = cfg.check_offload_arch;
	cfg.check_offload_arch = NULL;
	vcs_config_dispose(&cfg);
	return 0;
}

static void doctor_dispose(doctor *d)
{
	tc_env_findings_free(d->findings, d->nfindings);
	tc_arch_choice_dispose(&d->offload);
	tc_gpu_list_dispose(&d->gpus);
	tc_toolchain_dispose(&d->tc);
}

int cmd_doctor(cmd_context *ctx)
{
	const char *format = ctx->format ? ctx->format : "text";
	doctor d;
	char *configured = NULL;
	int error, code = CMD_EXIT_OK;
	size_t i;

	if (strcmp(format, "text") != 0 && strcmp(format, "json") != 0)
		return cmd_fail(CMD_EXIT_USAGE, "doctor: --format must be text or json, not '%s'", format);
	if (cmd_doctor_binary_mode())
		return cmd_doctor_binary(ctx);
	if (cmd_doctor_gpus(&i) && i)
		return cmd_fail(CMD_EXIT_USAGE, "doctor: --gpu goes with --binary FILE...");
	if (ctx->nargs)
		return cmd_fail(CMD_EXIT_USAGE, "doctor: takes no arguments ('%s')", ctx->args[0]);
	memset(&d, 0, sizeof(d));
	if ((error = config_arch(&configured)) < 0)
		return cmd_fail(cmd_exit_for(error), "%s", util_error_last());
	if ((error = tc_toolchain_detect(&d.tc)) < 0 || (error = tc_gpu_probe(&d.gpus)) < 0 ||
	    (error = tc_offload_arch_choose(&d.offload, ctx->offload_arch, configured,
					     tc_gpu_list_amd_arch(&d.gpus))) < 0) {
		code = cmd_fail(cmd_exit_for(error), "doctor: %s", util_error_last());
		goto done;
	}
	tc_env_vars_read(&d.facts.vars);
	d.facts.toolchain = &d.tc;
	d.facts.gpus = &d.gpus;
	d.facts.offload = &d.offload;
	d.facts.offload_known = d.offload.value && d.tc.clang ? tc_toolchain_knows_arch(&d.tc, d.offload.value) : -1;
	if ((error = tc_env_findings(&d.findings, &d.nfindings, &d.facts)) < 0) {
		code = cmd_fail(cmd_exit_for(error), "doctor: %s", util_error_last());
		goto done;
	}
	if (strcmp(format, "json") == 0) {
		if (print_json(&d) < 0)
			code = cmd_fail(CMD_EXIT_USAGE, "doctor: cannot write the JSON report");
	} else {
		print_text(&d, ctx->color);
	}
	for (i = 0; code == CMD_EXIT_OK && i < d.nfindings; i++)
		if (d.findings[i].severity == AN_ERROR)
			code = CMD_EXIT_FINDINGS;
done:
	free(configured);
	doctor_dispose(&d);
	return code;
}
