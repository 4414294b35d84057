/* hipport check --slurm and --submit: a bundle's Slurm arrays written,
 * submitted, followed and merged (docs/checks.md, "Slurm"). */
#ifndef HIPPORT_CMD_CHECK_SLURM_H
#define HIPPORT_CMD_CHECK_SLURM_H

#include "cmd/cmd.h"

/* check --bundle DIR --slurm: DIR/slurm/ for the bundle just written, with
 * the [slurm] settings of root's .hipport/config; default_target is the
 * port's arch when slurm.targets names none. Exit code. */
int cmd_check_slurm_write(const char *dir, const char *root, const char *default_target);

/* Reads the [slurm] settings of root's .hipport/config, before a bundle is
 * written, so a bad value leaves nothing half-written. Exit code. */
int cmd_check_slurm_precheck(const char *root);

/* check --submit DIR: submits what has not finished, follows it, merges the
 * fragments into DIR/results.json and imports them. Exit code (130 when
 * interrupted: the jobs run on and a second --submit follows them again). */
int cmd_check_submit(cmd_context *ctx);

#endif
