/* hipport doctor --binary FILE... [--gpu ARCH]...: the GPU code objects of
 * built files against the GPUs that will run them (docs/doctor.md). */
#ifndef HIPPORT_CMD_DOCTOR_BINARY_H
#define HIPPORT_CMD_DOCTOR_BINARY_H

#include <stdbool.h>
#include <stddef.h>

#include "cmd/cmd.h"

/* The option set of --binary and --gpu (a bit of cmd_option_set's kind,
 * high enough to stay clear of the enum's next ones; only doctor has it). */
#define CMD_OPT_BINARY (1u << 24)

/* The most --gpu options. */
#define CMD_DOCTOR_MAX_GPUS 64

/* --binary and the --gpu values (checked target ids), kept by options.c:
 * only doctor reads them, hence not fields of cmd_context. */
bool cmd_doctor_binary_mode(void);
const char *const *cmd_doctor_gpus(size_t *count);

/* The binary mode of doctor: ctx->args are the files. */
int cmd_doctor_binary(cmd_context *ctx);

#endif
