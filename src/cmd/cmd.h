/* The subcommands (one file each, like git's builtins) and what they share:
 * option parsing, the rules, messages and exit codes. */
#ifndef HIPPORT_CMD_CMD_H
#define HIPPORT_CMD_CMD_H

#include <stdbool.h>
#include <stdio.h>

#include "port/rules.h"
#include "port/translate.h"

enum cmd_exit {
	CMD_EXIT_OK = 0,
	CMD_EXIT_FINDINGS = 1,  /* findings or failures present where asked */
	CMD_EXIT_USAGE = 2,     /* usage or input error */
	CMD_EXIT_TOOLCHAIN = 3  /* a required toolchain is missing */
};

/* Options a command accepts (a bit each). */
enum cmd_option_set {
	CMD_OPT_PORT = 1,   /* --target-hip, --kernel-launch, --roc, --experimental, --rules */
	CMD_OPT_OUTPUT = 2, /* -o FILE */
	CMD_OPT_FORMAT = 4, /* --format */
	CMD_OPT_WALK = 8,   /* --jobs, --no-cache, --max-size */
	CMD_OPT_FAIL = 16,  /* --fail-on */
	CMD_OPT_UNDO = 32,  /* --undo */
	CMD_OPT_FIX = 64,   /* --fix */
	CMD_OPT_ANALYZE = 128, /* -p DIR (compile_commands.json) */
	CMD_OPT_NO_ANALYSIS = 256, /* --no-analysis */
	CMD_OPT_SCRIPT = 512, /* --script, --size, --no-mouse: the review's screen */
	CMD_OPT_ARCH = 1024, /* --offload-arch */
	CMD_OPT_CHECK = 2048, /* --draft-spec, --bundle, --import, --record, --timeout, --slurm, --submit */
	CMD_OPT_COMMIT = 4096, /* -m, --branch, --force */
	CMD_OPT_SYNC = 8192    /* --from, --to */
};

typedef struct cmd_context {
	const char *command;
	int verbosity;           /* -q: -1, default 0, -v: 1 */
	bool color;
	bool mouse;              /* review: mouse events from the terminal (--no-mouse: none) */
	port_options port;
	bool target_given;
	bool torch_given;        /* --target-torch or port.targetTorch decided ctx->port.torch */
	const char *rules_dir;
	const char *output;
	const char *format;
	unsigned jobs;           /* 0: the number of cores */
	bool no_cache;
	bool build_files;        /* walks take build files too (all but check) */
	size_t max_size;
	int fail_on;             /* an_severity, or -1 */
	bool max_size_given;
	char *suppress;          /* finding ids (--suppress and scan.suppress), comma separated, or NULL */
	bool undo;
	bool analyze;            /* the command reports the analyzer's findings */
	bool no_analysis;        /* --no-analysis: scan reports API findings only */
	const char *fixes;       /* --fix: "all" or finding ids, or NULL */
	const char *compile_db;  /* -p: directory of compile_commands.json, or NULL */
	const char *script;      /* --script FILE: keys and commands instead of the terminal */
	int width, height;       /* --size WxH of a scripted screen */
	/* reports the making of proposals instead of the bar on stderr, or NULL;
	 * called from worker threads, one call at a time */
	void (*progress)(size_t done, size_t total, void *payload);
	void *progress_payload;
	bool draft_spec;         /* check --draft-spec */
	const char *bundle;      /* check --bundle DIR */
	const char *import;      /* check --import FILE */
	bool record;             /* check --record */
	bool compare;            /* check --compare */
	bool slurm;              /* check --bundle DIR --slurm */
	bool tune;               /* check tune, --tune: Triton kernels swept in the record runs */
	bool resources;          /* check --resources: each compiled kernel's resources printed */
	bool stale;              /* check --stale: only the kernel checks that no longer hold */
	const char *submit;      /* check --submit DIR */
	unsigned check_timeout;  /* check --timeout SECONDS, or 0 */
	const char *offload_arch; /* --offload-arch: a target id (checked), or NULL */
	char *configured_single_source; /* port.singleSource of the repository walked, or NULL */
	char *configured_arch;   /* check.offloadArch of the repository walked, or NULL: for build files */
	const char *message;     /* commit -m: the summary line */
	const char *branch;      /* commit --branch NAME */
	bool force;              /* commit --force */
	const char *sync_from;   /* sync --from OLD: upstream's commit the port was made from */
	const char *sync_to;     /* sync --to NEW */
	char **args;             /* positional arguments */
	int nargs;
	port_rules *rules;
} cmd_context;

typedef struct cmd_builtin {
	const char *name;
	int (*run)(cmd_context *ctx);
	unsigned options;        /* enum cmd_option_set */
	const char *usage;       /* "translate FILE [-o OUT]" */
	const char *summary;
} cmd_builtin;

extern const cmd_builtin cmd_builtins[];

int cmd_apply(cmd_context *ctx);
int cmd_check(cmd_context *ctx);
int cmd_commit(cmd_context *ctx);
int cmd_diff(cmd_context *ctx);
int cmd_doctor(cmd_context *ctx);
int cmd_explain(cmd_context *ctx);
int cmd_query(cmd_context *ctx);
int cmd_review(cmd_context *ctx);
int cmd_scan(cmd_context *ctx);
int cmd_status(cmd_context *ctx);
int cmd_sync(cmd_context *ctx);
int cmd_translate(cmd_context *ctx);

/* Parses argv (after the command name) into ctx; prints and returns
 * CMD_EXIT_USAGE on a bad option, or -1 when --help was printed. */
int cmd_parse_options(cmd_context *ctx, const cmd_builtin *builtin, int argc, char **argv);
void cmd_print_help(FILE *out, const cmd_builtin *builtin);

/* Loads the rules (builtin or --rules DIR) and settles the target HIP. */
int cmd_load_rules(cmd_context *ctx);
/* --target-torch's value (MAJOR.MINOR or none) into ctx->port.torch; -1 if malformed. */
int cmd_set_target_torch(cmd_context *ctx, const char *value);
/* Whether s is a C identifier (a macro name for --single-source). */
bool cmd_is_macro_name(const char *s);

/* "hipport: message" on stderr; returns code. */
int cmd_fail(int code, const char *fmt, ...) UTIL_PRINTF(2, 3);
/* The terminal colour that starts a severity's name (an_severity), or ""
 * without colour; "\033[m" ends it. */
const char *cmd_severity_color(int severity, bool color);

/* The exit code for a library error code. */
int cmd_exit_for(int error);

/* Adds finding ids to leave out (comma separated). */
int cmd_add_suppressed(cmd_context *ctx, const char *ids);

void cmd_context_dispose(cmd_context *ctx);

#endif
