/* What the compiler says of each kernel's resources, without a GPU: the
 * -Rpass-analysis=kernel-resource-usage remarks of an AMD compile (a
 * compile check asks for them with --resources; docs/checks.md,
 * "Resources"): registers,
 * spills, scratch, LDS and the waves per SIMD they allow. */
#ifndef HIPPORT_CHECK_PERF_RESOURCES_H
#define HIPPORT_CHECK_PERF_RESOURCES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

typedef struct perf_resources {
	char name[128];     /* the kernel's name, from its mangled one (scale, corr::k) */
	char where[160];    /* FILE:LINE of its definition, as the compiler printed it */
	int sgprs, vgprs, agprs;
	int scratch;        /* bytes per lane: spills and stack arrays */
	int sgpr_spill, vgpr_spill;
	int lds;            /* bytes per block */
	int occupancy;      /* waves per SIMD, -1 when not said */
	bool dynamic_stack;
} perf_resources;

/* The kernels in a compiler's output (remarks of other passes ignored);
 * *out is NULL when there are none. -1 when out of memory. */
int perf_resources_parse(perf_resources **out, size_t *n, const char *output);

/* A kernel that spills (scratch, or spilled registers): a note worth a look. */
bool perf_resources_notable(const perf_resources *r);

void perf_resources_print_header(FILE *f);
void perf_resources_print(FILE *f, const perf_resources *r);
/* b: kernel r compiled again with kernels bounded to `bound` threads a
 * block (--gpu-max-threads-per-block, what __launch_bounds__(bound) gives
 * one): a row under r's, saying what the bound would change; nothing when
 * the figures are the same (the kernel has bounds of its own, or the bound
 * changes nothing). */
void perf_resources_print_bounded(FILE *f, const perf_resources *r, const perf_resources *b, int bound);

/* v: kernel r of the file compiled another way (label: "without WARP-003"):
 * a row under r's, with what differs; nothing when the figures are the same. */
void perf_resources_print_variant(FILE *f, const perf_resources *r, const perf_resources *v, const char *label);

#endif
