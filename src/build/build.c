#include "build/build.h"

#include <string.h>

#include "build/rewrite.h"


static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n >= k && strcmp(s + n - k, suffix) == 0;
}

bld_kind bld_kind_of(const char *path)
{
	const char *base = strrchr(path, '/');

	base = base ? base + 1 : path;
	if (strcmp(base, "CMakeLists.txt") == 0 || ends_with(base, ".cmake"))
		return BLD_CMAKE;
	if (strcmp(base, "Makefile") == 0 || strcmp(base, "makefile") == 0 || strcmp(base, "GNUmakefile") == 0 ||
	    ends_with(base, ".mk"))
		return BLD_MAKE;
	return BLD_NONE;
}

bool bld_looks_like_cuda(const char *src, size_t len)
{
	return memmem(src, len, "CUDA", 4) || memmem(src, len, "nvcc", 4) || memmem(src, len, "cuda", 4);
}

int bld_translate(util_buf *out, an_analysis *hits, bld_kind kind, const char *src, size_t len,
		  const char *offload_arch)
{
	const char *arch = offload_arch ? offload_arch : BLD_DEFAULT_OFFLOAD_ARCH;

	memset(hits, 0, sizeof(*hits));
	if (kind == BLD_CMAKE)
		return bld_cmake_translate(out, hits, src, len, arch);
	return bld_make_translate(out, hits, src, len, arch);
}
