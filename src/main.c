/* hipport: argument parsing and dispatch to the subcommands in src/cmd/. */
#include <stdio.h>
#include <string.h>
#include <git2.h>
#include <unistd.h>

#include "analyze/analysis.h"
#include "check/toolchain/root.h"
#include "cmd/check_tune.h"
#include "cmd/cmd.h"
#include "util/error.h"

static void print_usage(FILE *out)
{
	const cmd_builtin *b;

	fputs("usage: hipport [--version] [--help] [-C DIR] COMMAND [ARGS]\n\n"
	      "Port CUDA code to HIP: propose, review, check and commit.\n\ncommands:\n", out);
	for (b = cmd_builtins; b->name; b++)
		fprintf(out, "  %-40s\n", b->usage);
	fputs("\n'hipport COMMAND --help' describes a command.\n", out);
}

int main(int argc, char **argv)
{
	const cmd_builtin *b;
	cmd_context ctx;
	int i = 1, code;

	while (i < argc && argv[i][0] == '-') {
		if (strcmp(argv[i], "--version") == 0) {
			printf("hipport %s\n", HIPPORT_VERSION);
			return CMD_EXIT_OK;
		}
		if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
			print_usage(stdout);
			return CMD_EXIT_OK;
		}
		if (strcmp(argv[i], "-C") == 0) {
			if (i + 1 >= argc)
				return cmd_fail(CMD_EXIT_USAGE, "-C needs a directory");
			if (chdir(argv[i + 1]) < 0)
				return cmd_fail(CMD_EXIT_USAGE, "-C %s: cannot change into it", argv[i + 1]);
			i += 2;
			continue;
		}
		return cmd_fail(CMD_EXIT_USAGE, "unknown option '%s' (see 'hipport --help')", argv[i]);
	}
	/* plain "hipport" on a terminal opens the review */
	if (i >= argc && !(isatty(STDIN_FILENO) && isatty(STDOUT_FILENO))) {
		print_usage(stderr);
		return CMD_EXIT_USAGE;
	}
	for (b = cmd_builtins; b->name; b++)
		if (strcmp(b->name, i < argc ? argv[i] : "review") == 0)
			break;
	if (!b->name)
		return cmd_fail(CMD_EXIT_USAGE, "'%s' is not a hipport command (see 'hipport --help')", argv[i]);
	if (tc_root_activate() < 0)
		return cmd_fail(CMD_EXIT_USAGE, "%s", util_error_last());
	git_libgit2_init();
	port_lexer_global_init();
	/* TRITON-009 reads the tuning runs the review session keeps */
	an_tuned_set_loader(cmd_check_tuned_of);
	memset(&ctx, 0, sizeof(ctx));
	code = i < argc ? cmd_parse_options(&ctx, b, argc - i - 1, argv + i + 1) : cmd_parse_options(&ctx, b, 0, argv);
	if (code == 0)
		code = b->run(&ctx);
	else if (code < 0)
		code = CMD_EXIT_OK; /* --help */
	cmd_context_dispose(&ctx);
	git_libgit2_shutdown();
	return code;
}
