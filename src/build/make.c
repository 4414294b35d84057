/* Makefiles: nvcc -> hipcc, the CUDA install path -> ROCM_PATH, nvcc flags
 * and CUDA library flags. Comments are kept; a statement is a logical line
 * (backslash-newline continues it). */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "build/build.h"
#include "build/rewrite.h"

typedef struct make {
	bld_rewriter rw;
	bool path_noted;     /* BUILD-007 said once per file */
	size_t path_var_end; /* after the last CUDA path variable renamed, or 0 */
} make;

static const char *const path_vars[] = { "CUDA_PATH", "CUDA_HOME", "CUDA_ROOT", "CUDA_DIR", "CUDA_INSTALL_PATH",
					 "CUDA_TOOLKIT_ROOT_DIR", NULL };

static bool is_delim(char c)
{
	return isspace((unsigned char)c) || strchr("(){}$'\";`\\", c) != NULL;
}

static void note_path(make *m, size_t offset, size_t n, const char *what)
{
	if (m->path_noted)
		return;
	m->path_noted = true;
	bld_hit(&m->rw, "BUILD-007", AN_WARNING, offset, n,
		"%s: the CUDA install path became ROCM_PATH (/opt/rocm); check the include and library directories",
		what);
}

static void word(make *m, size_t offset, size_t n)
{
	const char *w = m->rw.src + offset;
	size_t i;

	if (bld_flag_word(&m->rw, offset, n))
		return;
	if (n >= 15 && memcmp(w, "/usr/local/cuda", 15) == 0) {
		size_t k = 15;

		/* /usr/local/cuda-12.4 */
		if (k < n && w[k] == '-')
			while (k < n && w[k] != '/')
				k++;
		bld_replace(&m->rw, offset, k, "/opt/rocm");
		note_path(m, offset, k, "/usr/local/cuda");
		if (k + 6 <= n && memcmp(w + k, "/lib64", 6) == 0 && (k + 6 == n || w[k + 6] == '/'))
			bld_replace(&m->rw, offset + k, 6, "/lib");
	}
	/* nvcc, $(CUDA_PATH)/bin/nvcc, NVCC=nvcc */
	if (n >= 4 && memcmp(w + n - 4, "nvcc", 4) == 0 && (n == 4 || w[n - 5] == '/' || w[n - 5] == '=')) {
		bld_replace(&m->rw, offset + n - 4, 4, "hipcc");
		return;
	}
	for (i = 0; path_vars[i]; i++)
		if (bld_word_is(w, n, path_vars[i])) {
			bld_replace(&m->rw, offset, n, "ROCM_PATH");
			note_path(m, offset, n, path_vars[i]);
			m->path_var_end = offset + n;
			return;
		}
	/* $(CUDA_PATH)/lib64: ROCm's libraries are in lib */
	if (m->path_var_end && offset == m->path_var_end + 1 && n >= 6 && memcmp(w, "/lib64", 6) == 0 &&
	    (n == 6 || w[6] == '/')) {
		bld_replace(&m->rw, offset, 6, "/lib");
		return;
	}
}

int bld_make_translate(util_buf *out, an_analysis *hits, const char *src, size_t len, const char *arch)
{
	make m;
	size_t i = 0;
	int error;

	memset(&m, 0, sizeof(m));
	bld_rewriter_init(&m.rw, src, len, arch);
	while (i < len) {
		char ch = src[i];

		if (ch == '#') {
			while (i < len && src[i] != '\n')
				i++;
		} else if (ch == '\\' && i + 1 < len && src[i + 1] == '\n') {
			i += 2; /* the statement goes on */
		} else if (ch == '\n') {
			bld_statement(&m.rw);
			i++;
		} else if (ch == '\\') {
			i += 2;
		} else if (is_delim(ch)) {
			i++;
		} else {
			size_t s = i;

			while (i < len && !is_delim(src[i]) && src[i] != '#')
				i++;
			word(&m, s, i - s);
		}
	}
	error = bld_rewriter_finish(&m.rw, out, hits);
	bld_rewriter_dispose(&m.rw);
	return error;
}
