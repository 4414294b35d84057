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

/* The __device__ functions each source of a bundle defines, read once. */
typedef struct bundle_link_index {
	util_buf *defined; /* per source: "\nNAME\nNAME\n" */
	size_t n;
} bundle_link_index;

int bundle_link_index_make(bundle_link_index *out, const bundle_input *in);
void bundle_link_index_dispose(bundle_link_index *idx);

/* Appends to out, a line each, the paths of the sources of in (other than
 * source, one of in's) that define a __device__ function source's original
 * declares without defining, and then what those declare. */
int bundle_link_units(util_buf *out, const bundle_source *source, const bundle_input *in,
		      const bundle_link_index *idx);

#endif
