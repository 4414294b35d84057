#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analyze/compile_db.h"
#include "analyze/finding.h"
#include "check/toolchain/arch.h"
#include "check/toolchain/toolchain.h"
#include "util/file.h"
#include "cmd/cmd.h"
#include "cmd/doctor_binary.h"
#include "util/error.h"

typedef struct option_spec {
	const char *name;      /* long name without "--" */
	char short_name;
	int takes_value;       /* false, true, or OPTIONAL_VALUE: --name or --name=VALUE only */
	unsigned set;          /* 0: every command */
	const char *help;
} option_spec;

#define OPTIONAL_VALUE 2

static const option_spec options[] = {
	{ "target-hip", 0, true, CMD_OPT_PORT, "HIP version to port for, MAJOR.MINOR (default: installed hipcc)" },
	{ "target-torch", 0, true, CMD_OPT_PORT,
	  "PyTorch version torch files are ported for, MAJOR.MINOR or none (default: port.targetTorch, else the installed torch, else the newest)" },
	{ "single-source", 0, OPTIONAL_VALUE, CMD_OPT_PORT,
	  "keep the CUDA text and put each fix taken under #ifdef MACRO, the original in #else (default macro: USE_ROCM in PyTorch files, else __HIP_PLATFORM_AMD__)" },
	{ "kernel-launch", 0, true, CMD_OPT_PORT, "keep <<<...>>> (keep, default) or emit hipLaunchKernelGGL (hip)" },
	{ "hip-kernel-execution-syntax", 0, false, CMD_OPT_PORT, "same as --kernel-launch=hip (hipify-clang's name)" },
	{ "roc", 0, false, CMD_OPT_PORT, "use rocBLAS/rocSPARSE/rocRAND/... names instead of hipBLAS/..." },
	{ "experimental", 0, false, CMD_OPT_PORT, "also apply mappings marked experimental" },
	{ "rules", 0, true, CMD_OPT_PORT, "read rule files (*.tsv) from DIR instead of the built-in ones" },
	{ "output", 'o', true, CMD_OPT_OUTPUT, "write to FILE (atomically) instead of standard output" },
	{ "format", 0, true, CMD_OPT_FORMAT, "output format (see above)" },
	{ "jobs", 'j', true, CMD_OPT_WALK, "files translated in parallel (default: the number of cores)" },
	{ "no-cache", 0, false, CMD_OPT_WALK, "neither read nor write the cache in .git/hipport/cache" },
	{ "max-size", 0, true, CMD_OPT_WALK, "skip files of this many bytes or more (default 10000000)" },
	{ "fail-on", 0, true, CMD_OPT_FAIL, "exit 1 if a finding of this severity or worse exists: error, warning or note" },
	{ "suppress", 0, true, CMD_OPT_FAIL, "leave out findings with these ids (comma separated); adds to scan.suppress" },
	{ "undo", 0, false, CMD_OPT_UNDO, "restore the files as they were before the last apply" },
	{ "no-analysis", 0, false, CMD_OPT_NO_ANALYSIS,
	  "translation statistics and unconverted names only, no analysis (faster)" },
	{ "script", 0, true, CMD_OPT_SCRIPT, "read keys and :commands from FILE instead of the terminal" },
	{ "size", 0, true, CMD_OPT_SCRIPT, "the scripted screen's size, WIDTHxHEIGHT (default 80x24)" },
	{ "no-mouse", 0, false, CMD_OPT_SCRIPT, "review: leave the mouse to the terminal (its text selection), no clicks or wheel" },
	{ "fix", 0, true, CMD_OPT_FIX, "take the fixes of these finding ids (comma separated, or all) into the port" },
	{ "compile-commands", 'p', true, CMD_OPT_ANALYZE,
	  "directory of compile_commands.json: parse each file with its include paths and defines" },
	{ "draft-spec", 0, false, CMD_OPT_CHECK,
	  "draft a kernel check spec per __global__ function of the named files into .hipport/checks/" },
	{ "from-record", 0, true, CMD_OPT_CHECK,
	  "with --draft-spec: the launches a record run logged in DIR (launches.log) give the specs' values and inputs" },
	{ "bundle", 0, true, CMD_OPT_CHECK, "write a self-contained check bundle (run.sh) into DIR instead of running it" },
	{ "import", 0, true, CMD_OPT_CHECK, "record the results.json a bundle's run.sh wrote" },
	{ "record", 0, false, CMD_OPT_CHECK, "store the reference outputs as golden outputs in .hipport/golden/" },
	{ "compare", 0, false, CMD_OPT_CHECK,
	  "line up the launch records REF PORT [REF2] of the original and the port, kernel by kernel" },
	{ "slurm", 0, false, CMD_OPT_CHECK, "with --bundle: also Slurm job arrays in DIR/slurm/ ([slurm] of .hipport/config)" },
	{ "tune", 0, false, CMD_OPT_CHECK,
	  "the port's record run once more, each Triton kernel's first launch swept over launch options and timed" },
	{ "submit", 0, true, CMD_OPT_CHECK,
	  "submit a bundle's Slurm arrays (sbatch), follow them, merge and import their results" },
	{ "stale", 0, false, CMD_OPT_CHECK,
	  "run or bundle only the kernel checks that do not hold for the files as they are (never run, or run on an "
	  "earlier content of what the kernel depends on); the others keep their results" },
	{ "timeout", 0, true, CMD_OPT_CHECK, "seconds one check's run may take (default: the spec's, 60)" },
	{ "resources", 0, false, CMD_OPT_CHECK,
	  "with the compile checks: each kernel's registers, spills, LDS and occupancy, as the compiler reports them" },
	{ "offload-arch", 0, true, CMD_OPT_ARCH,
	  "the AMD GPU arch to build for, gfxNNN[:xnack+|-] (default: check.offloadArch, else the GPU found)" },
	{ "binary", 0, false, CMD_OPT_BINARY,
	  "list the GPU code objects of the named files (executables, libraries, objects, .hsaco) and compare them with the GPUs" },
	{ "gpu", 0, true, CMD_OPT_BINARY,
	  "with --binary: a GPU to compare with, gfxNNN[:xnack+|-] (repeatable; default: the GPUs found)" },
	{ "message", 'm', true, CMD_OPT_COMMIT, "the commit's summary line (default: Port N files to HIP)" },
	{ "branch", 0, true, CMD_OPT_COMMIT, "commit on a new branch NAME made from HEAD (and check it out)" },
	{ "force", 0, false, CMD_OPT_COMMIT, "commit files whose checks did not pass, and say so in the message" },
	{ "from", 0, true, CMD_OPT_SYNC, "upstream's commit the port was made from (default: its Ported-from trailer)" },
	{ "to", 0, true, CMD_OPT_SYNC, "upstream's commit to sync to" },
	{ "color", 0, false, 0, "colour even when standard output is not a terminal" },
	{ "no-color", 0, false, 0, "no colour (NO_COLOR in the environment does the same)" },
	{ "quiet", 'q', false, 0, "print only errors" },
	{ "verbose", 'v', false, 0, "print more" },
	{ "help", 'h', false, 0, "show this help" },
};

#define NOPTIONS (sizeof(options) / sizeof(options[0]))

/* check --draft-spec --from-record DIR. Only check_draft.c reads it, hence
 * here and not a field of cmd_context, which is shared by every command. */
static const char *from_record;

const char *cmd_check_from_record(void)
{
	return from_record;
}

/* doctor --binary and its --gpu values, likewise read only by doctor. */
static bool doctor_binary;
static const char *doctor_gpus[CMD_DOCTOR_MAX_GPUS];
static size_t ndoctor_gpus;

bool cmd_doctor_binary_mode(void)
{
	return doctor_binary;
}

const char *const *cmd_doctor_gpus(size_t *count)
{
	*count = ndoctor_gpus;
	return doctor_gpus;
}

int cmd_fail(int code, const char *fmt, ...)
{
	va_list ap;

	fputs("hipport: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return code;
}

const char *cmd_severity_color(int severity, bool color)
{
	if (!color)
		return "";
	return severity == AN_ERROR ? "\033[1;31m" : severity == AN_WARNING ? "\033[1;35m" : "\033[1;36m";
}

int cmd_exit_for(int error)
{
	if (error == UTIL_OK)
		return CMD_EXIT_OK;
	return error == UTIL_ETOOLCHAIN ? CMD_EXIT_TOOLCHAIN : CMD_EXIT_USAGE;
}

void cmd_print_help(FILE *out, const cmd_builtin *builtin)
{
	size_t i;

	fprintf(out, "usage: hipport %s\n\n%s\n\noptions:\n", builtin->usage, builtin->summary);
	for (i = 0; i < NOPTIONS; i++) {
		char left[64];

		if (options[i].set && !(options[i].set & builtin->options))
			continue;
		if (options[i].short_name)
			snprintf(left, sizeof(left), "-%c, --%s%s", options[i].short_name, options[i].name,
				 options[i].takes_value ? " ARG" : "");
		else
			snprintf(left, sizeof(left), "    --%s%s", options[i].name,
				 options[i].takes_value == OPTIONAL_VALUE ? "[=ARG]" : options[i].takes_value ? "=ARG" : "");
		fprintf(out, "  %-36s %s\n", left, options[i].help);
	}
}

/* --fix=all, or ids that have fix templates. */
static int check_fixes(cmd_context *ctx, const char *value)
{
	const char *p = value;

	ctx->fixes = value;
	if (strcmp(value, "all") == 0)
		return 0;
	while (*p) {
		size_t n = strcspn(p, ", ");
		char id[32];

		if (n) {
			snprintf(id, sizeof(id), "%.*s", (int)n, p);
			if (!an_fix_title(id))
				return cmd_fail(CMD_EXIT_USAGE, "--fix: %s has no fix (hipport explain lists the ids; "
						"those with fixes say so)", id);
		}
		p += n;
		p += strspn(p, ", ");
	}
	return 0;
}

/* Whether value is a whole number from 1 to max (then in *out). */
static bool in_range(const char *value, long max, unsigned *out)
{
	char *end;
	long n = strtol(value, &end, 10);

	if (*end || end == value || n < 1 || n > max)
		return false;
	*out = (unsigned)n;
	return true;
}

bool cmd_is_macro_name(const char *s)
{
	if (!(isalpha((unsigned char)*s) || *s == '_'))
		return false;
	for (; *s; s++)
		if (!(isalnum((unsigned char)*s) || *s == '_'))
			return false;
	return true;
}

static int apply_option(cmd_context *ctx, const option_spec *o, const char *value)
{
	if (strcmp(o->name, "target-hip") == 0) {
		if (port_version_parse(&ctx->port.target_hip, value, strlen(value)) < 0)
			return cmd_fail(CMD_EXIT_USAGE, "--target-hip: '%s' is not a version like 6.2", value);
		ctx->target_given = true;
	} else if (strcmp(o->name, "target-torch") == 0) {
		if (cmd_set_target_torch(ctx, value) < 0)
			return cmd_fail(CMD_EXIT_USAGE, "--target-torch: '%s' is not a version like 2.11, or none", value);
	} else if (strcmp(o->name, "single-source") == 0) {
		if (*value && !cmd_is_macro_name(value))
			return cmd_fail(CMD_EXIT_USAGE, "--single-source: '%s' is not a macro name", value);
		ctx->port.single_source = value;
	} else if (strcmp(o->name, "kernel-launch") == 0) {
		if (strcmp(value, "keep") == 0)
			ctx->port.launch = PORT_LAUNCH_KEEP;
		else if (strcmp(value, "hip") == 0)
			ctx->port.launch = PORT_LAUNCH_HIP;
		else
			return cmd_fail(CMD_EXIT_USAGE, "--kernel-launch: '%s' is not keep or hip", value);
	} else if (strcmp(o->name, "hip-kernel-execution-syntax") == 0) {
		ctx->port.launch = PORT_LAUNCH_HIP;
	} else if (strcmp(o->name, "roc") == 0) {
		ctx->port.roc = true;
	} else if (strcmp(o->name, "experimental") == 0) {
		ctx->port.experimental = true;
	} else if (strcmp(o->name, "rules") == 0) {
		ctx->rules_dir = value;
	} else if (strcmp(o->name, "output") == 0) {
		ctx->output = value;
	} else if (strcmp(o->name, "format") == 0) {
		ctx->format = value;
	} else if (strcmp(o->name, "jobs") == 0) {
		if (!in_range(value, 64, &ctx->jobs))
			return cmd_fail(CMD_EXIT_USAGE, "--jobs: '%s' is not a number from 1 to 64", value);
	} else if (strcmp(o->name, "no-cache") == 0) {
		ctx->no_cache = true;
	} else if (strcmp(o->name, "max-size") == 0) {
		char *end;
		unsigned long long n = strtoull(value, &end, 10);

		if (*end || n == 0 || value[0] == '-')
			return cmd_fail(CMD_EXIT_USAGE, "--max-size: '%s' is not a number of bytes", value);
		ctx->max_size = (size_t)n;
		ctx->max_size_given = true;
	} else if (strcmp(o->name, "fail-on") == 0) {
		if ((ctx->fail_on = an_severity_parse(value)) < 0)
			return cmd_fail(CMD_EXIT_USAGE, "--fail-on: '%s' is not error, warning or note", value);
	} else if (strcmp(o->name, "suppress") == 0) {
		if (cmd_add_suppressed(ctx, value) < 0)
			return cmd_fail(CMD_EXIT_USAGE, "out of memory");
	} else if (strcmp(o->name, "undo") == 0) {
		ctx->undo = true;
	} else if (strcmp(o->name, "script") == 0) {
		ctx->script = value;
	} else if (strcmp(o->name, "size") == 0) {
		if (sscanf(value, "%dx%d", &ctx->width, &ctx->height) != 2 || ctx->width < 1 || ctx->height < 1 ||
		    ctx->width > 1000 || ctx->height > 1000)
			return cmd_fail(CMD_EXIT_USAGE, "--size: '%s' is not WIDTHxHEIGHT", value);
	} else if (strcmp(o->name, "no-analysis") == 0) {
		ctx->no_analysis = true;
	} else if (strcmp(o->name, "fix") == 0) {
		return check_fixes(ctx, value);
	} else if (strcmp(o->name, "compile-commands") == 0) {
		an_compile_db *db = NULL;

		if (an_compile_db_load(&db, value) < 0)
			return cmd_fail(CMD_EXIT_USAGE, "-p: %s", util_error_last());
		an_compile_db_free(db);
		ctx->compile_db = value;
	} else if (strcmp(o->name, "draft-spec") == 0) {
		ctx->draft_spec = true;
	} else if (strcmp(o->name, "from-record") == 0) {
		if (!*value)
			return cmd_fail(CMD_EXIT_USAGE, "--from-record: name a record run's directory (its launches.log)");
		from_record = value;
	} else if (strcmp(o->name, "bundle") == 0) {
		ctx->bundle = value;
	} else if (strcmp(o->name, "import") == 0) {
		ctx->import = value;
	} else if (strcmp(o->name, "record") == 0) {
		ctx->record = true;
	} else if (strcmp(o->name, "compare") == 0) {
		ctx->compare = true;
	} else if (strcmp(o->name, "slurm") == 0) {
		ctx->slurm = true;
	} else if (strcmp(o->name, "tune") == 0) {
		ctx->tune = true;
	} else if (strcmp(o->name, "resources") == 0) {
		ctx->resources = true;
	} else if (strcmp(o->name, "stale") == 0) {
		ctx->stale = true;
	} else if (strcmp(o->name, "submit") == 0) {
		ctx->submit = value;
	} else if (strcmp(o->name, "message") == 0) {
		if (!*value || strchr(value, '\n'))
			return cmd_fail(CMD_EXIT_USAGE, "-m: give one line, the commit's summary");
		ctx->message = value;
	} else if (strcmp(o->name, "branch") == 0) {
		ctx->branch = value;
	} else if (strcmp(o->name, "force") == 0) {
		ctx->force = true;
	} else if (strcmp(o->name, "from") == 0) {
		ctx->sync_from = value;
	} else if (strcmp(o->name, "to") == 0) {
		ctx->sync_to = value;
	} else if (strcmp(o->name, "timeout") == 0) {
		if (!in_range(value, 86400, &ctx->check_timeout))
			return cmd_fail(CMD_EXIT_USAGE, "--timeout: '%s' is not a number of seconds", value);
	} else if (strcmp(o->name, "offload-arch") == 0) {
		tc_arch arch;

		if (tc_arch_parse(&arch, value) < 0)
			return cmd_fail(CMD_EXIT_USAGE, "--offload-arch: %s", util_error_last());
		ctx->offload_arch = value;
		ctx->port.offload_arch = value;
	} else if (strcmp(o->name, "binary") == 0) {
		doctor_binary = true;
	} else if (strcmp(o->name, "gpu") == 0) {
		tc_arch arch;

		if (tc_arch_parse(&arch, value) < 0)
			return cmd_fail(CMD_EXIT_USAGE, "--gpu: %s", util_error_last());
		if (ndoctor_gpus == CMD_DOCTOR_MAX_GPUS)
			return cmd_fail(CMD_EXIT_USAGE, "--gpu: at most %d GPUs", CMD_DOCTOR_MAX_GPUS);
		doctor_gpus[ndoctor_gpus++] = value;
	} else if (strcmp(o->name, "no-mouse") == 0) {
		ctx->mouse = false;
	} else if (strcmp(o->name, "no-color") == 0) {
		ctx->color = false;
	} else if (strcmp(o->name, "color") == 0) {
		ctx->color = true;
	} else if (strcmp(o->name, "quiet") == 0) {
		ctx->verbosity = -1;
	} else if (strcmp(o->name, "verbose") == 0) {
		ctx->verbosity = 1;
	}
	return 0;
}

static const option_spec *find_long(const char *arg, size_t len)
{
	size_t i;

	for (i = 0; i < NOPTIONS; i++)
		if (strlen(options[i].name) == len && memcmp(options[i].name, arg, len) == 0)
			return &options[i];
	return NULL;
}

static const option_spec *find_short(char c)
{
	size_t i;

	for (i = 0; i < NOPTIONS; i++)
		if (options[i].short_name == c)
			return &options[i];
	return NULL;
}

int cmd_parse_options(cmd_context *ctx, const cmd_builtin *builtin, int argc, char **argv)
{
	int i, error;
	bool only_args = false;

	ctx->command = builtin->name;
	ctx->max_size = UTIL_FILE_DEFAULT_MAX_SIZE;
	ctx->fail_on = -1;
	ctx->color = isatty(STDOUT_FILENO) && !getenv("NO_COLOR");
	ctx->mouse = true;
	ctx->args = calloc((size_t)argc + 1, sizeof(char *));
	if (!ctx->args)
		return cmd_fail(CMD_EXIT_USAGE, "out of memory");
	for (i = 0; i < argc; i++) {
		const char *arg = argv[i], *value = NULL;
		const option_spec *o;

		if (only_args || arg[0] != '-' || arg[1] == '\0') {
			ctx->args[ctx->nargs++] = argv[i];
			continue;
		}
		if (strcmp(arg, "--") == 0) {
			only_args = true;
			continue;
		}
		if (arg[1] == '-') {
			const char *eq = strchr(arg + 2, '=');

			o = find_long(arg + 2, eq ? (size_t)(eq - arg - 2) : strlen(arg + 2));
			if (eq)
				value = eq + 1;
		} else {
			o = find_short(arg[1]);
			if (o && arg[2])
				value = arg + 2;
		}
		if (!o || (o->set && !(o->set & builtin->options)))
			return cmd_fail(CMD_EXIT_USAGE, "%s: unknown option '%s' (see 'hipport %s --help')",
					builtin->name, arg, builtin->name);
		if (strcmp(o->name, "help") == 0) {
			cmd_print_help(stdout, builtin);
			return -1;
		}
		if (o->takes_value == OPTIONAL_VALUE && !value) {
			value = "";
		} else if (o->takes_value && !value) {
			if (i + 1 >= argc)
				return cmd_fail(CMD_EXIT_USAGE, "%s: option '%s' needs a value", builtin->name,
						arg);
			value = argv[++i];
		} else if (!o->takes_value && value) {
			return cmd_fail(CMD_EXIT_USAGE, "%s: option '%s' takes no value", builtin->name, arg);
		}
		if ((error = apply_option(ctx, o, value)) != 0)
			return error;
	}
	return 0;
}

int cmd_set_target_torch(cmd_context *ctx, const char *value)
{
	port_version v;

	if (strcmp(value, "none") == 0) {
		ctx->port.torch = PORT_TORCH_NONE;
	} else {
		if (port_version_parse(&v, value, strlen(value)) < 0)
			return -1;
		ctx->port.torch = port_torch_convention(v);
	}
	ctx->torch_given = true;
	return 0;
}

int cmd_load_rules(cmd_context *ctx)
{
	int error;

	if (ctx->rules) /* a second walk in one command (the review's commit) */
		return 0;
	if (ctx->rules_dir)
		error = port_rules_load_dir(&ctx->rules, ctx->rules_dir);
	else
		error = port_rules_load_builtin(&ctx->rules);
	if (error < 0)
		return cmd_fail(CMD_EXIT_USAGE, "rules: %s", util_error_last());
	if (!ctx->torch_given) { /* port.targetTorch, read with the walk, may still decide */
		port_version torch = tc_toolchain_torch_version();

		ctx->port.torch = torch ? port_torch_convention(torch) : PORT_TORCH_V2;
	}
	if (!ctx->target_given) {
		ctx->port.target_hip = tc_toolchain_hip_version();
		if (!ctx->port.target_hip)
			ctx->port.target_hip = port_rules_newest_hip(ctx->rules);
	}
	return 0;
}

int cmd_add_suppressed(cmd_context *ctx, const char *ids)
{
	util_buf b = UTIL_BUF_INIT;

	if (ctx->suppress)
		util_buf_printf(&b, "%s,", ctx->suppress);
	util_buf_puts(&b, ids);
	if (util_buf_oom(&b))
		return -1;
	free(ctx->suppress);
	ctx->suppress = util_buf_detach(&b);
	return 0;
}

void cmd_context_dispose(cmd_context *ctx)
{
	free(ctx->suppress);
	free(ctx->configured_arch);
	free(ctx->configured_single_source);
	port_rules_free(ctx->rules);
	free(ctx->args);
}
