/* hipport check --compare: record-and-compare runs lined up kernel by kernel. */
#ifndef HIPPORT_CMD_CHECK_RECORD_H
#define HIPPORT_CMD_CHECK_RECORD_H

#include "cmd/cmd.h"

/* check --compare REF PORT [REF2]: the launch logs of a run of the original
 * (REF, and a second one REF2 that tells nondeterminism), and of the port;
 * prints each kernel's result and the first divergence. Exit 0 when every
 * kernel passed, 1 when one did not, 2 for a log that does not read. */
int cmd_check_compare(cmd_context *ctx);

/* Compares every record run a bundle holds (bundle/work/record/NAME/) after
 * its results.json was imported with exit code; the worse of the codes. */
int cmd_check_compare_bundle(const char *bundle, int code);

#endif
