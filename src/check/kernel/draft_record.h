/* Specs from a recorded run (docs/checks.md, "Specs from a recording"):
 * the launches.log and SEQ.ARG.bin allocations that share/check/
 * hipport_record.h writes for a run of the program (record.sh's
 * work/record/NAME/ref) give each launched kernel's exact launch: grid,
 * block, shared memory, the scalars' bytes, each buffer's size and offset,
 * and the bytes each buffer held before the launch, stored beside the spec
 * (.hipport/checks/inputs/NAME/ARG.bin) and embedded in its harness. The
 * log is read by launch_log.h, the reader record-and-compare uses too. */
#ifndef HIPPORT_CHECK_DRAFT_RECORD_H
#define HIPPORT_CHECK_DRAFT_RECORD_H

#include <stddef.h>

#include "check/kernel/launch_log.h"
#include "check/kernel/spec.h"

/* Sets the specs of kernels rec launched to their first recorded launch
 * at the spec's site (else a launch of that kernel no other spec of the
 * file has): grid, block, shared memory, scalars, counts and offsets, and
 * inputs (arg->init_from, written by chk_draft_write). What the recording
 * cannot give keeps its draft, marked. Specs of kernels the program did
 * not launch are left as drafted. */
int chk_record_apply(chk_spec *specs, size_t n, const chk_recording *rec);

/* Writes spec to path (from chk_draft_place) and copies its recorded
 * inputs beside it, to inputs/NAME/ARG.bin of path's directory. */
int chk_draft_write(chk_spec *spec, const char *path);

#endif
