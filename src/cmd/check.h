/* hipport check, a family of verbs (docs/checks.md): draft, bundle, run,
 * import, compare, submit. Each verb is also the option it was before
 * (check --bundle DIR is check bundle DIR); cmd/check.c dispatches. */
#ifndef HIPPORT_CMD_CHECK_H
#define HIPPORT_CMD_CHECK_H

#include "check/kernel/results.h"
#include "cmd/cmd.h"

/* check draft FILE...: specs drafted into .hipport/checks/. */
int cmd_check_draft(cmd_context *ctx);
/* --from-record DIR of check draft, kept by options.c (NULL when not given) */
const char *cmd_check_from_record(void);

/* check bundle DIR [PATH...] (ctx->bundle set), or check [run] [PATH...]:
 * the bundle written for a GPU machine, or written and run here. */
int cmd_check_bundle(cmd_context *ctx);

/* check import FILE: records path, the results.json of the bundle in
 * bundle_dir (or of none), then compares the bundle's record runs. */
int cmd_check_import(cmd_context *ctx, const char *path, const char *bundle_dir);

/* One line per result; exit 1 when a check failed or could not run. */
void cmd_check_print_results(const chk_results *r);
/* The checks' times, a table, and which ports are below the budget. */
void cmd_check_print_times(const chk_results *r, double budget);

/* check.perfBudget of the work tree at root (its default, 0.8, where the
 * configuration cannot be read: what reads it first says why). */
double cmd_check_perf_budget(const char *root);
int cmd_check_results_code(const chk_results *r);

#endif
