/* The nvidia-proxy platform: a port's HIP source built by nvcc through a
 * compatibility header generated from the rules (HIP names -> CUDA names,
 * with macros), and stub HIP headers that include it. */
#ifndef HIPPORT_CHECK_PROXY_H
#define HIPPORT_CHECK_PROXY_H

#include <stddef.h>

#include "port/rules.h"
#include "util/buf.h"

typedef struct chk_proxy_file {
	char *path; /* relative to proxy/include: "hip_compat.h", "hip/hip_runtime.h", ... */
	util_buf text;
} chk_proxy_file;

typedef struct chk_proxy {
	chk_proxy_file *files;
	size_t nfiles;
} chk_proxy;

/* Makes the compatibility header for the names texts use (the port's
 * sources and the harnesses; only those, to keep it small) and a stub for
 * every HIP header they include; a HIP name goes back to the CUDA name the
 * originals (origs) spell, where they spell one of its. */
int chk_proxy_make(chk_proxy *out, const port_rules *rules, const char *const *texts, const size_t *lens,
		   size_t ntexts, const char *const *origs, const size_t *orig_lens, size_t norigs);
void chk_proxy_dispose(chk_proxy *p);

#endif
