/* hipport check: a family of verbs, as git remote add|remove is, each also
 * the option it was before (docs/checks.md):
 *   check draft FILE...        --draft-spec   specs drafted into .hipport/checks/
 *   check bundle DIR [PATH...] --bundle DIR   a bundle for a GPU machine (sh DIR/run.sh)
 *   check [run] [PATH...]                     compile checks, then the bundle run here
 *   check import FILE          --import FILE  a bundle's results.json recorded
 *   check compare REF PORT [REF2] --compare   two record runs lined up
 *   check submit DIR           --submit DIR   a bundle's Slurm arrays run on a cluster
 *   check tune [PATH...]       --tune         check run, the port's Triton kernels also swept and timed
 * A path named like a verb is given as ./draft. */
#include <stdlib.h>
#include <string.h>

#include "cmd/check.h"
#include "cmd/check_record.h"
#include "cmd/check_slurm.h"

typedef struct check_verb {
	const char *name;
	const char **value; /* the option the verb's first argument sets, or NULL */
	bool *flag;         /* the option the verb sets, or NULL */
} check_verb;

/* The verb in args[0], taken off args with the argument it takes. */
static int take_verb(cmd_context *ctx)
{
	const check_verb verbs[] = {
		{ .name = "bundle", .value = &ctx->bundle },
		{ .name = "compare", .flag = &ctx->compare },
		{ .name = "draft", .flag = &ctx->draft_spec },
		{ .name = "import", .value = &ctx->import },
		{ .name = "run" },
		{ .name = "submit", .value = &ctx->submit },
		{ .name = "tune", .flag = &ctx->tune },
	};
	const check_verb *v = NULL;
	size_t i, taken;

	for (i = 0; ctx->nargs > 0 && i < sizeof(verbs) / sizeof(verbs[0]); i++)
		if (strcmp(ctx->args[0], verbs[i].name) == 0)
			v = &verbs[i];
	if (!v)
		return 0;
	if ((v->value && *v->value) || (v->flag && *v->flag))
		return cmd_fail(CMD_EXIT_USAGE, "check %s: said twice (the verb and its option)", v->name);
	if (v->value && ctx->nargs < 2)
		return cmd_fail(CMD_EXIT_USAGE, "check %s: name the %s", v->name,
				strcmp(v->name, "import") == 0 ? "results.json to record" : "bundle's directory");
	if (v->value)
		*v->value = ctx->args[1];
	if (v->flag)
		*v->flag = true;
	taken = v->value ? 2 : 1;
	memmove(ctx->args, ctx->args + taken, ((size_t)ctx->nargs - taken + 1) * sizeof(*ctx->args));
	ctx->nargs -= (int)taken;
	return 0;
}

static int import_file(cmd_context *ctx)
{
	char *copy = strdup(ctx->import), *slash;
	int code;

	if (!copy)
		return cmd_fail(CMD_EXIT_USAGE, "out of memory");
	slash = strrchr(copy, '/');
	if (slash)
		*slash = '\0';
	code = cmd_check_import(ctx, ctx->import, slash ? copy : ".");
	free(copy);
	return code;
}

int cmd_check(cmd_context *ctx)
{
	int code;

	if ((code = take_verb(ctx)) != 0)
		return code;
	if ((ctx->draft_spec ? 1 : 0) + (ctx->bundle ? 1 : 0) + (ctx->import ? 1 : 0) + (ctx->compare ? 1 : 0) +
	    (ctx->submit ? 1 : 0) > 1)
		return cmd_fail(CMD_EXIT_USAGE, "check: draft, bundle, import, compare and submit go one at a time");
	if (cmd_check_from_record() && !ctx->draft_spec)
		return cmd_fail(CMD_EXIT_USAGE, "check: --from-record DIR goes with draft FILE...");
	if (ctx->tune && (ctx->draft_spec || ctx->import || ctx->compare || ctx->submit))
		return cmd_fail(CMD_EXIT_USAGE, "check: tune goes with run or bundle DIR");
	if (ctx->slurm && !ctx->bundle)
		return cmd_fail(CMD_EXIT_USAGE, "check: --slurm goes with bundle DIR (then: hipport check submit DIR)");
	if (ctx->submit)
		return cmd_check_submit(ctx);
	if (ctx->draft_spec)
		return cmd_check_draft(ctx);
	if (ctx->compare)
		return cmd_check_compare(ctx);
	if (ctx->import)
		return import_file(ctx);
	return cmd_check_bundle(ctx);
}
