/* Record-and-compare checks: copies of the original and of the port whose
 * launches of the repository's kernels go through hipport_record.h
 * (share/check), which captures each launch's arguments and the device
 * memory they reach before and after (docs/checks.md). Token-exact like
 * the translation: only the launches change. */
#ifndef HIPPORT_CHECK_INSTRUMENT_H
#define HIPPORT_CHECK_INSTRUMENT_H

#include <stdbool.h>
#include <stddef.h>

#include "port/lex.h"
#include "util/buf.h"

/* The kernels a set of sources defines: a name and a parameter count each
 * (two programs may each have a kernel of one name). */
typedef struct rec_kernel_set {
	char **names;
	int *params;
	bool *deduced; /* declared after template <...>, or its name names another function too */
	int *required; /* template parameters without a default */
	size_t n;
} rec_kernel_set;

/* Adds the __global__ functions that src defines. */
int rec_kernel_set_add(rec_kernel_set *set, port_lexer *lexer, const char *path, const char *src, size_t len);
/* Marks the kernels of set whose name src also declares as another function
 * (a host launcher named like its kernel): their launches keep the
 * compiler's overload choice (HIPPORT_RECORD_LAUNCH_DEDUCED). Call it after
 * every source was added. */
int rec_kernel_set_overloads(rec_kernel_set *set, port_lexer *lexer, const char *path, const char *src, size_t len);
void rec_kernel_set_dispose(rec_kernel_set *set);

/* The instrumented copy of src (path relative to the work tree) into out:
 * each kernel<<<config>>>(args) of a kernel in set of that name and as
 * many parameters as args has becomes HIPPORT_RECORD_LAUNCH("kernel",
 * "path:line", kernel, config)(args), or, for a template kernel launched
 * without template arguments, an overloaded name or a launch that leaves
 * parameters to their defaults, HIPPORT_RECORD_LAUNCH_DEDUCED("kernel",
 * "path:line", [&](auto &&...a) { kernel<<<config>>>(a...); }, config)(args);
 * f<<<config>>>(args) of a plain name that is no kernel of set (a function
 * pointer) becomes HIPPORT_RECORD_LAUNCH_POINTER("path:line", f,
 * config)(args), named by the kernel f points to when it runs; and
 * cudaLaunchKernel or cudaLaunchCooperativeKernel (or HIP's) of a kernel of
 * set, CALL(kernel, grid, block, args, shared, stream), becomes
 * HIPPORT_RECORD_LAUNCH_CALL("kernel", "path:line", kernel, grid, block,
 * args, shared, [&] { return CALL(...); }), its arguments read from args.
 * `#include "include"` goes first (line numbers kept with #line).
 * *nlaunches counts them; none leaves out a copy of src. */
int rec_instrument(util_buf *out, size_t *nlaunches, port_lexer *lexer, const rec_kernel_set *set,
		   const char *path, const char *src, size_t len, const char *include);

#endif
