/* Build files: the HIP port of a CMake project or a Makefile that builds
 * CUDA. Like the source translation, only what must change changes: bytes
 * outside the edits are copied, comments and bracket arguments are kept.
 * What a rewrite cannot settle becomes a BUILD-NNN hit. */
#ifndef HIPPORT_BUILD_BUILD_H
#define HIPPORT_BUILD_BUILD_H

#include <stdbool.h>
#include <stddef.h>

#include "analyze/analysis.h"
#include "util/buf.h"

typedef enum bld_kind {
	BLD_NONE,  /* not a build file: C++ source */
	BLD_CMAKE, /* CMakeLists.txt, *.cmake */
	BLD_MAKE   /* Makefile, makefile, GNUmakefile, *.mk */
} bld_kind;

/* The offload arch when none is given. */
#define BLD_DEFAULT_OFFLOAD_ARCH "gfx90a"

/* Which build system a file belongs to, by its name. */
bld_kind bld_kind_of(const char *path);

/* Whether a build file's text mentions CUDA (nvcc, CUDA, cuda): a cheap byte
 * scan, used to pick files during walks. */
bool bld_looks_like_cuda(const char *src, size_t len);

/* Translates src of a build file of kind into out; hits receives the
 * findings in source order. offload_arch replaces CUDA architecture lists
 * (NULL: BLD_DEFAULT_OFFLOAD_ARCH). */
int bld_translate(util_buf *out, an_analysis *hits, bld_kind kind, const char *src, size_t len,
		  const char *offload_arch);

#endif
