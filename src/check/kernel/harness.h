/* Generated kernel-check harnesses: the source of one harness per spec
 * (the runtime they share is share/check/hipport_harness.h). */
#ifndef HIPPORT_CHECK_HARNESS_H
#define HIPPORT_CHECK_HARNESS_H

#include "check/kernel/spec.h"
#include "util/buf.h"

/* Appends the harness of spec to out: HIP names, the source included by
 * its path (the build's -I picks orig/ or port/), main renamed away. */
int chk_harness_source(util_buf *out, const chk_spec *spec);
/* The same, including unit, the file that compiles spec->source (one that
 * includes it), in its stead; NULL: spec->source. The harness still
 * reports spec->source, the check's, in results.json. */
int chk_harness_source_in(util_buf *out, const chk_spec *spec, const char *unit);

/* The harness's declaration of a var or scalar, TYPE NAME = VALUE, with
 * VALUE evaluated before NAME exists: a kernel's parameter N passed the
 * file's constant N reads the constant, not itself. A tab first, a line
 * each; the drafter's compile probe writes the same lines. */
void chk_harness_declare(util_buf *b, const char *type, const char *name, const char *value);

#endif
