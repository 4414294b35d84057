/* The command table, in alphabetical order. */
#include "cmd/cmd.h"

const cmd_builtin cmd_builtins[] = {
	{ .name = "query", .run = cmd_query, .options = CMD_OPT_PORT | CMD_OPT_FORMAT,
	  .usage = "query NAME... [--format text|json]",
	  .summary = "Look up CUDA names (functions, types, headers) in the mapping tables: the HIP name,\n"
		     "the HIP versions that added, deprecated or removed it, the ROC alternative, or\n"
		     "\"unsupported\". A HIP name is looked up in reverse. Exit 1 if a name is unknown." },
	{ .name = "translate", .run = cmd_translate, .options = CMD_OPT_PORT | CMD_OPT_OUTPUT,
	  .usage = "translate FILE [-o OUT] [options]",
	  .summary = "Print the proposed HIP source of one CUDA file (or write it atomically to OUT).\n"
		     "References left unconverted are reported on standard error." },
	{ .name = NULL }
};
