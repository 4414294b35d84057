/* The macros a program's build defines for its sources: a harness compiles
 * a kernel's file without the program's build, so the -D flags of the
 * build file that governs the file (HeCBench's `-Ddfloat=double` in its
 * Makefile) go before the file as #define lines. */
#ifndef HIPPORT_CHECK_BUNDLE_DEFINES_H
#define HIPPORT_CHECK_BUNDLE_DEFINES_H

#include "check/bundle/bundle.h"
#include "util/buf.h"

/* Appends to out a #define line for each -DNAME or -DNAME=VALUE of the
 * original build file nearest source (a Makefile, else a CMakeLists.txt, in
 * source's directory or one above it, never above the root), outside its
 * conditional blocks and without a variable in it; the first of a name
 * wins. Nothing when no build file governs source or it defines nothing. */
int bundle_build_defines(util_buf *out, const char *source, const bundle_input *in);

#endif
