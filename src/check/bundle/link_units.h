/* The program's other translation units a kernel's file needs linked: a
 * __device__ function it declares and another of the program's files
 * defines (HeCBench's fresnel: main.cu's kernel calls
 * Fresnel_Sine_Integral, defined in fresnel.cu; the program builds with
 * -rdc=true). The harness of such a kernel is built with relocatable device
 * code and those files beside it, on each side. */
#ifndef HIPPORT_CHECK_BUNDLE_LINK_UNITS_H
#define HIPPORT_CHECK_BUNDLE_LINK_UNITS_H

#include "check/bundle/bundle.h"
#include "util/buf.h"

/* Appends to out, a line each, the paths of the sources of in (other than
 * source) that define a __device__ function source's original declares
 * without defining. */
int bundle_link_units(util_buf *out, const bundle_source *source, const bundle_input *in);

#endif
