/* hipport explain [ID...]: the catalog entry of a finding, or the list of all. */
#include <stdio.h>
#include <string.h>

#include "analyze/finding.h"
#include "cmd/cmd.h"

int cmd_explain(cmd_context *ctx)
{
	const an_catalog_entry *all, *e;
	size_t n, i;
	int k, code = CMD_EXIT_OK;

	all = an_catalog_all(&n);
	if (!all)
		return cmd_fail(CMD_EXIT_USAGE, "the finding catalog: %s", an_catalog_error());
	if (ctx->nargs == 0) {
		for (i = 0; i < n; i++)
			printf("%-8s %-7s %s\n", all[i].id, an_severity_name(all[i].severity), all[i].title);
		return CMD_EXIT_OK;
	}
	for (k = 0; k < ctx->nargs; k++) {
		if (!(e = an_catalog_find(ctx->args[k]))) {
			code = cmd_fail(CMD_EXIT_USAGE, "explain: '%s' is not a finding id (see 'hipport explain')",
					ctx->args[k]);
			continue;
		}
		printf("%s%s (%s): %s\n\n%s\n\nWhat to do: %s\n", k ? "\n" : "", e->id, an_severity_name(e->severity),
		       e->title, e->description, e->action);
		if (e->cost)
			printf("\nWhat the fix costs: %s\n", e->cost);
	}
	return code;
}
