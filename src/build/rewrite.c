#include "build/rewrite.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"
#include "util/text.h"

void bld_rewriter_init(bld_rewriter *rw, const char *src, size_t len, const char *arch)
{
	memset(rw, 0, sizeof(*rw));
	rw->src = src;
	rw->len = len;
	rw->arch = arch;
}

void bld_rewriter_dispose(bld_rewriter *rw)
{
	size_t i;

	for (i = 0; i < rw->nedits; i++)
		free(rw->edits[i].text);
	free(rw->edits);
	for (i = 0; i < rw->nhits; i++)
		free(rw->hits[i].message);
	free(rw->hits);
	memset(rw, 0, sizeof(*rw));
}

void bld_statement(bld_rewriter *rw)
{
	rw->flag_state = BLD_FLAG_NONE;
	rw->arch_done = false;
}

/* Makes room for one more element in *items (n used of *cap); false when
 * out of memory, which the rewriter remembers. */
static bool room(bld_rewriter *rw, void **items, size_t *cap, size_t n, size_t size)
{
	size_t want = *cap ? *cap * 2 : 16;
	void *grown;

	if (n < *cap)
		return true;
	if (!(grown = realloc(*items, want * size))) {
		rw->oom = true;
		return false;
	}
	*items = grown;
	*cap = want;
	return true;
}

void bld_replace(bld_rewriter *rw, size_t offset, size_t length, const char *text)
{
	bld_edit *e;

	if (!room(rw, (void **)&rw->edits, &rw->cap, rw->nedits, sizeof(*e)))
		return;
	e = &rw->edits[rw->nedits];
	e->offset = (uint32_t)offset;
	e->length = (uint32_t)length;
	e->seq = rw->nedits;
	if (offset + length > rw->edited_to)
		rw->edited_to = offset + length;
	if (!(e->text = strdup(text))) {
		rw->oom = true;
		return;
	}
	rw->nedits++;
}

void bld_delete_word(bld_rewriter *rw, size_t offset, size_t length)
{
	size_t start = offset, end = offset + length;

	while (start > 0 && (rw->src[start - 1] == ' ' || rw->src[start - 1] == '\t' || rw->src[start - 1] == ';'))
		start--;
	if (start == offset || (start > 0 && rw->src[start - 1] == '\n'))
		while (end < rw->len && (rw->src[end] == ' ' || rw->src[end] == '\t'))
			end++;
	if (start > 0 && rw->src[start - 1] == '\n')
		start = offset;
	/* the blanks may have gone with the word before (-gencode ARG) */
	if (start < rw->edited_to && rw->edited_to <= offset)
		start = rw->edited_to;
	bld_replace(rw, start, end - start, "");
}

void bld_hit(bld_rewriter *rw, const char *id, an_severity severity, size_t offset, size_t length,
	     const char *fmt, ...)
{
	util_buf msg = UTIL_BUF_INIT;
	an_hit *h;
	va_list ap;

	if (!room(rw, (void **)&rw->hits, &rw->hcap, rw->nhits, sizeof(*h)))
		return;
	va_start(ap, fmt);
	util_buf_vprintf(&msg, fmt, ap);
	va_end(ap);
	if (util_buf_oom(&msg)) {
		rw->oom = true;
		return;
	}
	h = &rw->hits[rw->nhits++];
	memset(h, 0, sizeof(*h));
	h->id = id;
	h->severity = severity;
	h->offset = (uint32_t)offset;
	h->length = (uint32_t)length;
	util_text_position(rw->src, offset, &h->line, &h->col);
	h->end_col = h->col + (unsigned)length;
	h->message = util_buf_detach(&msg);
}

bool bld_word_is(const char *w, size_t n, const char *what)
{
	return strlen(what) == n && memcmp(w, what, n) == 0;
}

static bool starts(const char *w, size_t n, const char *prefix)
{
	size_t k = strlen(prefix);

	return n >= k && memcmp(w, prefix, k) == 0;
}

bool bld_is_arch_value(const char *w, size_t n)
{
	size_t i = 0;

	if (bld_word_is(w, n, "native") || bld_word_is(w, n, "all") || bld_word_is(w, n, "all-major"))
		return true;
	while (i < n && w[i] >= '0' && w[i] <= '9')
		i++;
	if (i < 2)
		return false;
	if (i < n && w[i] >= 'a' && w[i] <= 'z')
		i++;
	return i == n || (n - i == 5 && memcmp(w + i, "-real", 5) == 0) ||
	       (n - i == 8 && memcmp(w + i, "-virtual", 8) == 0);
}

/* -l names of the CUDA libraries and their HIP counterparts. */
static const struct {
	const char *cuda, *hip;
} libraries[] = {
	{ "cudart", "amdhip64" },    { "cudart_static", "amdhip64" }, { "cuda", "amdhip64" },
	{ "cublas", "hipblas" },     { "cublasLt", "hipblaslt" },     { "cufft", "hipfft" },
	{ "curand", "hiprand" },     { "cusparse", "hipsparse" },     { "cusolver", "hipsolver" },
	{ "cudnn", "MIOpen" },       { "nvrtc", "hiprtc" },           { "nvToolsExt", "roctx64" },
};

const char *bld_hip_library(const char *name, size_t n)
{
	size_t i;

	for (i = 0; i < sizeof(libraries) / sizeof(libraries[0]); i++)
		if (bld_word_is(name, n, libraries[i].cuda))
			return libraries[i].hip;
	return NULL;
}

/* nvcc flags that map one to one onto a clang (hipcc) flag. */
static const struct {
	const char *nvcc, *hip;
} renamed[] = {
	{ "-lineinfo", "-gline-tables-only" },
	{ "--generate-line-info", "-gline-tables-only" },
	{ "-rdc=true", "-fgpu-rdc" },
	{ "--relocatable-device-code=true", "-fgpu-rdc" },
	{ "-ftz=true", "-fgpu-flush-denormals-to-zero" },
	{ "--ftz=true", "-fgpu-flush-denormals-to-zero" },
};

/* nvcc flags clang does not need: dropped. */
static const char *const dropped[] = { "--expt-relaxed-constexpr", "-expt-relaxed-constexpr",
				       "--expt-extended-lambda",   "-expt-extended-lambda",
				       "--extended-lambda",        "-extended-lambda",
				       "-rdc=false",               "--relocatable-device-code=false",
				       NULL };

/* nvcc flags without a hipcc equivalent: kept, with a finding. */
static const char *const unmapped[] = { "-Xptxas",   "--ptxas-options", "-maxrregcount", "--maxrregcount",
					"-Xnvlink",  "--default-stream", "-keep",        "--keep",
					"-prec-div", "-prec-sqrt",       NULL };

static bool listed(const char *const *list, const char *w, size_t n, bool prefix)
{
	size_t i;

	for (i = 0; list[i]; i++)
		if (bld_word_is(w, n, list[i]) || (prefix && starts(w, n, list[i]) && w[strlen(list[i])] == '='))
			return true;
	return false;
}

static void write_arch(bld_rewriter *rw, size_t offset, size_t length, const char *what)
{
	util_buf text = UTIL_BUF_INIT;

	if (rw->arch_done) {
		bld_delete_word(rw, offset, length);
		return;
	}
	util_buf_printf(&text, "--offload-arch=%s", rw->arch);
	if (util_buf_oom(&text)) {
		rw->oom = true;
		return;
	}
	bld_replace(rw, offset, length, text.ptr);
	util_buf_dispose(&text);
	bld_hit(rw, "BUILD-004", AN_NOTE, offset, length, "CUDA architectures (%s) replaced by --offload-arch=%s",
		what, rw->arch);
	rw->arch_done = true;
}

/* -Xcompiler=-a,-b -> -a -b */
static void host_flags(bld_rewriter *rw, size_t offset, size_t length, size_t skip)
{
	util_buf text = UTIL_BUF_INIT;
	size_t i;

	for (i = skip; i < length; i++)
		util_buf_putc(&text, rw->src[offset + i] == ',' ? ' ' : rw->src[offset + i]);
	if (util_buf_oom(&text)) {
		rw->oom = true;
		return;
	}
	bld_replace(rw, offset, length, text.ptr ? text.ptr : "");
	util_buf_dispose(&text);
}

bool bld_flag_word(bld_rewriter *rw, size_t offset, size_t length)
{
	const char *w = rw->src + offset;
	size_t n = length, i;
	bld_flag_state state = rw->flag_state;

	rw->flag_state = BLD_FLAG_NONE;
	if (state == BLD_FLAG_KEEP_NEXT)
		return true;
	if (state == BLD_FLAG_DROP_NEXT) {
		bld_delete_word(rw, offset, length);
		return true;
	}
	if (n < 2 || w[0] != '-')
		return false;
	if (bld_word_is(w, n, "--use_fast_math") || bld_word_is(w, n, "-use_fast_math")) {
		bld_replace(rw, offset, length, "-ffast-math");
		bld_hit(rw, "BUILD-002", AN_WARNING, offset, length,
			"%.*s became -ffast-math: clang's fast math differs from nvcc's in accuracy", (int)n, w);
		return true;
	}
	for (i = 0; i < sizeof(renamed) / sizeof(renamed[0]); i++)
		if (bld_word_is(w, n, renamed[i].nvcc)) {
			bld_replace(rw, offset, length, renamed[i].hip);
			return true;
		}
	if (listed(dropped, w, n, false)) {
		bld_delete_word(rw, offset, length);
		bld_hit(rw, "BUILD-003", AN_NOTE, offset, length, "%.*s dropped: clang does not need it", (int)n, w);
		return true;
	}
	if (bld_word_is(w, n, "-Xcompiler") || bld_word_is(w, n, "--compiler-options")) {
		bld_delete_word(rw, offset, length);
		rw->flag_state = BLD_FLAG_KEEP_NEXT;
		return true;
	}
	if (starts(w, n, "-Xcompiler=") || starts(w, n, "--compiler-options=")) {
		host_flags(rw, offset, length, (size_t)((const char *)memchr(w, '=', n) - w) + 1);
		return true;
	}
	if (bld_word_is(w, n, "-ccbin") || bld_word_is(w, n, "--compiler-bindir")) {
		bld_delete_word(rw, offset, length);
		bld_hit(rw, "BUILD-003", AN_NOTE, offset, length, "%.*s dropped: hipcc is its own host compiler", (int)n,
			w);
		rw->flag_state = BLD_FLAG_DROP_NEXT;
		return true;
	}
	if (starts(w, n, "-ccbin=") || starts(w, n, "--compiler-bindir=")) {
		bld_delete_word(rw, offset, length);
		bld_hit(rw, "BUILD-003", AN_NOTE, offset, length, "%.*s dropped: hipcc is its own host compiler", (int)n,
			w);
		return true;
	}
	if (bld_word_is(w, n, "-gencode") || bld_word_is(w, n, "--generate-code") || bld_word_is(w, n, "-arch") ||
	    bld_word_is(w, n, "--gpu-architecture") || bld_word_is(w, n, "-code") || bld_word_is(w, n, "--gpu-code")) {
		write_arch(rw, offset, length, "the next argument");
		rw->flag_state = BLD_FLAG_DROP_NEXT;
		return true;
	}
	if (starts(w, n, "-gencode=") || starts(w, n, "--generate-code=") || starts(w, n, "-arch=") ||
	    starts(w, n, "--gpu-architecture=") || starts(w, n, "-code=") || starts(w, n, "--gpu-code=")) {
		const char *eq = memchr(w, '=', n);

		if (rw->arch_done) {
			bld_delete_word(rw, offset, length);
		} else {
			char what[64];

			snprintf(what, sizeof(what), "%.*s", (int)(n - (size_t)(eq + 1 - w)), eq + 1);
			write_arch(rw, offset, length, what);
		}
		return true;
	}
	if (listed(unmapped, w, n, true)) {
		bld_hit(rw, "BUILD-006", AN_WARNING, offset, length, "nvcc flag %.*s has no hipcc equivalent", (int)n, w);
		return true;
	}
	if (starts(w, n, "-l") && bld_hip_library(w + 2, n - 2)) {
		util_buf text = UTIL_BUF_INIT;

		util_buf_printf(&text, "-l%s", bld_hip_library(w + 2, n - 2));
		if (util_buf_oom(&text)) {
			rw->oom = true;
			return true;
		}
		bld_replace(rw, offset, length, text.ptr);
		util_buf_dispose(&text);
		return true;
	}
	return false;
}

static int edit_order(const void *a, const void *b)
{
	const bld_edit *x = a, *y = b;

	if (x->offset != y->offset)
		return x->offset < y->offset ? -1 : 1;
	return x->seq < y->seq ? -1 : 1;
}

static int hit_order(const void *a, const void *b)
{
	const an_hit *x = a, *y = b;

	if (x->offset != y->offset)
		return x->offset < y->offset ? -1 : 1;
	return strcmp(x->id, y->id);
}

int bld_rewriter_finish(bld_rewriter *rw, util_buf *out, an_analysis *hits)
{
	size_t i, at = 0;

	if (rw->oom)
		return util_error_set(UTIL_ENOMEM, "out of memory");
	if (rw->nedits)
		qsort(rw->edits, rw->nedits, sizeof(*rw->edits), edit_order);
	for (i = 0; i < rw->nedits; i++) {
		const bld_edit *e = &rw->edits[i];

		if (e->offset < at) /* overlaps one taken before it: left out */
			continue;
		util_buf_put(out, rw->src + at, e->offset - at);
		util_buf_puts(out, e->text);
		at = e->offset + e->length;
	}
	util_buf_put(out, rw->src + at, rw->len - at);
	if (!out->ptr)
		util_buf_puts(out, "");
	if (util_buf_oom(out))
		return util_error_set(UTIL_ENOMEM, "out of memory");
	if (rw->nhits)
		qsort(rw->hits, rw->nhits, sizeof(*rw->hits), hit_order);
	hits->hits = rw->hits;
	hits->count = rw->nhits;
	rw->hits = NULL;
	rw->nhits = rw->hcap = 0;
	return 0;
}
