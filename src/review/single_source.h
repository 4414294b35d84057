/* Single-source ports: the CUDA text kept, each fix taken guarded by a ROCm
 * macro with the original lines in the #else branch (--single-source). */
#ifndef HIPPORT_REVIEW_SINGLE_SOURCE_H
#define HIPPORT_REVIEW_SINGLE_SOURCE_H

#include <stdbool.h>
#include <stddef.h>

#include "analyze/analysis.h"
#include "port/lex.h"
#include "port/translate.h"
#include "util/buf.h"

/* Whether the source includes an ATen, c10 or torch header. */
bool rv_includes_torch(const char *src, size_t len);

/* The guard macro: requested, or by default USE_ROCM for a PyTorch file
 * (what PyTorch's ROCm build defines) and __HIP_PLATFORM_AMD__ otherwise. */
const char *rv_single_source_macro(const char *requested, const char *src, size_t len);

/* Appends to out the source with each block of lines that spans (as
 * an_fixes_apply made them, turning src into fixed) changed written as
 * #ifdef macro / the fixed lines / #else / the original lines / #endif; a
 * whole-line insertion gets no #else. */
void rv_single_source(util_buf *out, const char *src, size_t len, const char *fixed, size_t fixed_len,
		      const an_applied *spans, size_t nspans, const char *macro);

/* What the checks build for a single-source file's port: text as the
 * build's hipify makes it (the renames of opts, without single_source), after
 * lines that define the guard macro and a #line 1 that keeps the line
 * numbers. */
int rv_single_source_port(util_buf *out, port_lexer *lexer, const port_rules *rules, const port_options *opts,
			  const char *path, const char *text, size_t len);

#endif
