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

static void arch_flag(bld_rewriter *rw, size_t flag, size_t end, size_t value, size_t value_len, bool gencode);

void bld_statement(bld_rewriter *rw)
{
	/* "-arch" at the end: nothing names the architectures */
	if (rw->flag_state == BLD_FLAG_ARCH_NEXT)
		arch_flag(rw, rw->pending.at, rw->pending.at + rw->pending.len, rw->pending.at + rw->pending.len, 0,
			  rw->pending_gencode);
	rw->flag_state = BLD_FLAG_NONE;
	rw->arch_done = false;
	rw->arch_var.len = 0;
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

/* Whether the line before the one that starts at ls ends with a backslash
 * (ls continues a Makefile statement). */
static bool continues(const bld_rewriter *rw, size_t ls)
{
	return ls >= 2 && rw->src[ls - 1] == '\n' && rw->src[ls - 2] == '\\';
}

void bld_delete_word(bld_rewriter *rw, size_t offset, size_t length)
{
	size_t start = offset, end = offset + length;

	while (start > 0 && (rw->src[start - 1] == ' ' || rw->src[start - 1] == '\t' || rw->src[start - 1] == ';'))
		start--;
	if (start == offset || (start > 0 && rw->src[start - 1] == '\n'))
		while (end < rw->len && (rw->src[end] == ' ' || rw->src[end] == '\t'))
			end++;
	/* alone on a continuation line: the line goes, not a blank one left
	 * with its backslash */
	if (continues(rw, start) && rw->edited_to <= start) {
		if (end + 1 < rw->len && rw->src[end] == '\\' && rw->src[end + 1] == '\n') {
			bld_replace(rw, start, end + 2 - start, "");
			return;
		}
		if (end == rw->len || rw->src[end] == '\n') {
			bld_replace(rw, start, end - start, "");
			return;
		}
	}
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

bool bld_span_same(const char *src, bld_span a, bld_span b)
{
	return a.len == b.len && memcmp(src + a.at, src + b.at, a.len) == 0;
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

bld_arch_flag_kind bld_arch_flag(const char *w, size_t n, size_t *value_at)
{
	static const struct {
		const char *flag;
		bld_arch_flag_kind kind;
	} flags[] = {
		{ "-arch", BLD_ARCH_FLAG_LIST },
		{ "--gpu-architecture", BLD_ARCH_FLAG_LIST },
		{ "-code", BLD_ARCH_FLAG_LIST },
		{ "--gpu-code", BLD_ARCH_FLAG_LIST },
		{ "--gpu-name", BLD_ARCH_FLAG_LIST }, /* nvcc 2.x's -arch */
		{ "-gencode", BLD_ARCH_FLAG_GENCODE },
		{ "--generate-code", BLD_ARCH_FLAG_GENCODE },
	};
	size_t i, k;

	for (i = 0; i < sizeof(flags) / sizeof(flags[0]); i++) {
		k = strlen(flags[i].flag);
		if (n >= k && memcmp(w, flags[i].flag, k) == 0 && (n == k || w[k] == '=')) {
			*value_at = n == k ? n : k + 1;
			return flags[i].kind;
		}
	}
	/* clang's CUDA spelling, in Makefiles that also build with clang */
	if (starts(w, n, "--cuda-gpu-arch=")) {
		*value_at = 16;
		return BLD_ARCH_FLAG_LIST;
	}
	return BLD_ARCH_FLAG_NONE;
}

/* The offset after the reference whose '(' or '{' is at src[at]. */
static size_t ref_end(const char *src, size_t at, size_t end)
{
	size_t depth = 0, i;

	for (i = at; i < end; i++) {
		if (src[i] == '(' || src[i] == '{')
			depth++;
		else if ((src[i] == ')' || src[i] == '}') && --depth == 0)
			return i + 1;
	}
	return end;
}

static bool name_char(char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '.' ||
	       c == '-';
}

/* One architecture of a value: sm_80, 80, native, $(ARCH), sm_${SM}. */
static int arch_item(const char *src, size_t a, size_t b, bld_span *var, bld_span *ref, bool *native)
{
	static const char *const prefixes[] = { "sm_", "compute_", "lto_", NULL };
	bool named = false;
	size_t i, p = a, close;

	if (p < b && src[p] == '[')
		p++;
	if (b > p && src[b - 1] == ']')
		b--;
	if (p == b)
		return BLD_ARCH_COMPLEX;
	if (bld_vars_arch_word(src + p, b - p, &named)) {
		*native = bld_word_is(src + p, b - p, "native");
		return BLD_ARCH_LITERAL;
	}
	for (i = 0; prefixes[i]; i++)
		if (starts(src + p, b - p, prefixes[i]))
			p += strlen(prefixes[i]);
	if (b - p < 4 || src[p] != '$' || (src[p + 1] != '(' && src[p + 1] != '{'))
		return BLD_ARCH_COMPLEX;
	close = ref_end(src, p + 1, b);
	if (close != b || src[b - 1] != (src[p + 1] == '(' ? ')' : '}'))
		return BLD_ARCH_COMPLEX;
	for (i = p + 2; i < b - 1; i++)
		if (!name_char(src[i]))
			return BLD_ARCH_COMPLEX;
	if (i == p + 2)
		return BLD_ARCH_COMPLEX;
	var->at = p + 2;
	var->len = b - 1 - (p + 2);
	ref->at = p;
	ref->len = b - p;
	return BLD_ARCH_VAR;
}

/* The items of [a, b), split at the commas outside references, into v.
 * The variable that becomes the offload arch is the first of sm_$(X) or
 * $(X) (the real arch), else the first at all; *preferred: one of the
 * first kind was found. */
static void arch_items(const char *src, size_t a, size_t b, bld_arch_value *v, bool *preferred)
{
	size_t i = a, s = a, k;

	while (i <= b) {
		if (i < b && src[i] == '$' && i + 1 < b && (src[i + 1] == '(' || src[i + 1] == '{')) {
			i = ref_end(src, i + 1, b);
			continue;
		}
		if (i == b || src[i] == ',') {
			bld_span var = { 0, 0 }, ref = { 0, 0 };
			bool native = false, pref;
			int kind = arch_item(src, s, i, &var, &ref, &native);

			if (kind == BLD_ARCH_COMPLEX) {
				v->kind = BLD_ARCH_COMPLEX;
			} else if (kind == BLD_ARCH_VAR) {
				pref = ref.at == s || (ref.at == s + 1 && src[s] == '[') ||
				       (ref.at >= s + 3 && memcmp(src + ref.at - 3, "sm_", 3) == 0);
				if (v->kind == BLD_ARCH_LITERAL)
					v->kind = BLD_ARCH_VAR;
				if (!v->var.len || (pref && !*preferred)) {
					v->var = var;
					v->ref = ref;
					*preferred = pref;
				}
				for (k = 0; k < v->nvars; k++)
					if (bld_span_same(src, v->vars[k], var))
						break;
				if (k == v->nvars && v->nvars < sizeof(v->vars) / sizeof(v->vars[0]))
					v->vars[v->nvars++] = var;
			} else {
				v->native = native && a == s && i == b;
			}
			s = i + 1;
		}
		i++;
	}
}

void bld_arch_value_parse(const char *src, size_t at, size_t n, bool gencode, bld_arch_value *v)
{
	size_t end = at + n, code = end, i;
	bool preferred = false;

	memset(v, 0, sizeof(*v));
	v->kind = BLD_ARCH_LITERAL;
	if (!gencode) {
		arch_items(src, at, end, v, &preferred);
		return;
	}
	/* arch=A,code=B: the variable of code= is the real arch, so read it first */
	if (n < 5 || memcmp(src + at, "arch=", 5) != 0) {
		v->kind = BLD_ARCH_COMPLEX;
		return;
	}
	for (i = at + 5; i + 6 <= end; i++) {
		if (src[i] == '$' && i + 1 < end && (src[i + 1] == '(' || src[i + 1] == '{')) {
			i = ref_end(src, i + 1, end) - 1;
			continue;
		}
		if (memcmp(src + i, ",code=", 6) == 0) {
			code = i;
			break;
		}
	}
	if (code < end)
		arch_items(src, code + 6, end, v, &preferred);
	arch_items(src, at + 5, code, v, &preferred);
	v->native = false;
}

bool bld_flag_wants_word(const bld_rewriter *rw)
{
	return rw->flag_state != BLD_FLAG_NONE;
}

/* CMAKE_CUDA_ARCHITECTURES in a flag's value is CMAKE_HIP_ARCHITECTURES in
 * the port, as everywhere else. */
static void put_ref(util_buf *text, const char *src, bld_span ref, bld_span var)
{
	if (var.len > 11 && memcmp(src + var.at, "CMAKE_CUDA_", 11) == 0) {
		util_buf_put(text, src + ref.at, var.at - ref.at);
		util_buf_puts(text, "CMAKE_HIP_");
		util_buf_put(text, src + var.at + 11, ref.at + ref.len - var.at - 11);
	} else {
		util_buf_put(text, src + ref.at, ref.len);
	}
}

/* An arch flag at [flag, end), its value at [value, value + value_len). */
static void arch_flag(bld_rewriter *rw, size_t flag, size_t end, size_t value, size_t value_len, bool gencode)
{
	util_buf text = UTIL_BUF_INIT, why = UTIL_BUF_INIT;
	const char *w = rw->src + flag;
	int n = (int)(end - flag), nv = (int)(value_len < 64 ? value_len : 64);
	const char *vtext = value_len ? rw->src + value : "the next argument";
	bld_arch_value v;
	bld_fate fate = BLD_FATE_ARCH;
	size_t i;

	if (!value_len)
		nv = (int)strlen(vtext);
	bld_arch_value_parse(rw->src, value, value_len, gencode, &v);
	if (v.kind == BLD_ARCH_LITERAL || !value_len) {
		if (rw->arch_done) {
			bld_delete_word(rw, flag, end - flag);
			return;
		}
		util_buf_printf(&text, "--offload-arch=%s", v.native ? "native" : rw->arch);
		if (util_buf_oom(&text)) {
			rw->oom = true;
			return;
		}
		bld_replace(rw, flag, end - flag, text.ptr);
		util_buf_dispose(&text);
		if (v.native)
			bld_hit(rw, "BUILD-004", AN_NOTE, flag, end - flag,
				"%.*s became --offload-arch=native: clang 16 and later build for the GPUs of the machine that builds",
				n, w);
		else
			bld_hit(rw, "BUILD-004", AN_NOTE, flag, end - flag,
				"CUDA architectures (%.*s) replaced by --offload-arch=%s", nv, vtext, rw->arch);
		rw->arch_done = true;
		return;
	}
	if (v.kind == BLD_ARCH_COMPLEX) {
		bld_hit(rw, "BUILD-004", AN_WARNING, flag, end - flag,
			"%.*s kept: the port cannot tell which architectures it names; where it names GPUs, write --offload-arch=%s", n,
			w, rw->arch);
		return;
	}
	/* the worst fate of the variables named decides */
	for (i = 0; i < v.nvars; i++) {
		util_buf one = UTIL_BUF_INIT;
		bld_fate f = bld_vars_fate(rw->vars, v.vars[i], &one);

		if (f == BLD_FATE_LOOP && fate == BLD_FATE_ARCH && bld_span_same(rw->src, v.vars[i], v.var))
			fate = f;
		if (f == BLD_FATE_KEEP || f == BLD_FATE_NONE || (f == BLD_FATE_OUTSIDE && fate != BLD_FATE_KEEP)) {
			if (f == BLD_FATE_NONE)
				f = BLD_FATE_KEEP;
			if (f != fate || !why.len) {
				util_buf_clear(&why);
				util_buf_put(&why, one.ptr ? one.ptr : "", one.len);
			}
			fate = f;
		}
		util_buf_dispose(&one);
	}
	if (fate == BLD_FATE_KEEP) {
		bld_hit(rw, "BUILD-004", AN_WARNING, flag, end - flag, "%.*s kept: %s; where it names GPUs, write --offload-arch=%s", n,
			w, why.ptr ? why.ptr : "", rw->arch);
		util_buf_dispose(&why);
		return;
	}
	/* -gencode arch=compute_$(X),code=sm_$(X) -gencode arch=compute_$(X),code=compute_$(X) */
	if (bld_span_same(rw->src, rw->arch_var, v.var)) {
		bld_delete_word(rw, flag, end - flag);
		util_buf_dispose(&why);
		return;
	}
	util_buf_puts(&text, "--offload-arch=");
	put_ref(&text, rw->src, v.ref, v.var);
	if (util_buf_oom(&text) || util_buf_oom(&why)) {
		rw->oom = true;
		return;
	}
	bld_replace(rw, flag, end - flag, text.ptr);
	if (fate == BLD_FATE_OUTSIDE)
		bld_hit(rw, "BUILD-004", AN_WARNING, flag, end - flag,
			"CUDA architectures (%.*s) replaced by %s, but %s: its value must be a gfx arch such as %s", nv,
			vtext, text.ptr, why.ptr ? why.ptr : "", rw->arch);
	else
		bld_hit(rw, "BUILD-004", AN_NOTE, flag, end - flag, "CUDA architectures (%.*s) replaced by %s: %.*s %s", nv,
			vtext, text.ptr, (int)v.var.len, rw->src + v.var.at,
			fate == BLD_FATE_LOOP ? "goes over the offload arch" : "holds the offload arch");
	util_buf_dispose(&text);
	util_buf_dispose(&why);
	rw->arch_done = true;
	rw->arch_var = v.var;
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
	size_t n = length, i, value_at;
	bld_flag_state state = rw->flag_state;
	bld_arch_flag_kind kind;

	rw->flag_state = BLD_FLAG_NONE;
	if (state == BLD_FLAG_KEEP_NEXT)
		return true;
	if (state == BLD_FLAG_DROP_NEXT) {
		bld_delete_word(rw, offset, length);
		return true;
	}
	if (state == BLD_FLAG_ARCH_NEXT) {
		size_t end = offset + length;

		/* -arch "sm_80": the quotes go with the value */
		if (offset > 0 && end < rw->len && (rw->src[offset - 1] == '"' || rw->src[offset - 1] == '\'') &&
		    rw->src[end] == rw->src[offset - 1])
			end++;
		arch_flag(rw, rw->pending.at, end, offset, length, rw->pending_gencode);
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
	if ((kind = bld_arch_flag(w, n, &value_at)) != BLD_ARCH_FLAG_NONE) {
		if (value_at == n) {
			rw->pending.at = offset;
			rw->pending.len = length;
			rw->pending_gencode = kind == BLD_ARCH_FLAG_GENCODE;
			rw->flag_state = BLD_FLAG_ARCH_NEXT;
		} else {
			arch_flag(rw, offset, offset + length, offset + value_at, length - value_at,
				  kind == BLD_ARCH_FLAG_GENCODE);
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
