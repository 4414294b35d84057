#include "check/kernel/draft.h"

#include <clang-c/Index.h>
#include <ctype.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analyze/parse.h"
#include "check/kernel/accessor.h"
#include "check/kernel/clocked.h"
#include "check/kernel/draft_record.h"
#include "check/kernel/launch.h"
#include "check/kernel/names.h"
#include "check/kernel/settle.h"
#include "util/error.h"
#include "util/file.h"

typedef struct found {
	CXCursor *items;
	size_t n;
	bool oom;
} found;

/* Whether c is declared in the file the parse reads first (not the program's). */
static bool in_prelude(CXCursor c)
{
	CXFile file;
	CXString name;
	bool prelude;

	clang_getSpellingLocation(clang_getCursorLocation(c), &file, NULL, NULL, NULL);
	if (!file)
		return true;
	name = clang_getFileName(file);
	prelude = strncmp(clang_getCString(name), "/hipport-prelude/", 17) == 0;
	clang_disposeString(name);
	return prelude;
}

static enum CXChildVisitResult visit(CXCursor c, CXCursor parent, CXClientData data)
{
	found *f = data;
	enum CXCursorKind k = clang_getCursorKind(c);

	(void)parent;
	/* the file's kernels, and those of the headers it includes (drafted
	 * when the file launches them); an extern "C" of a macro may have no
	 * file of its own */
	if (chk_names_linkage_block(c))
		return CXChildVisit_Recurse;
	if (in_prelude(c))
		return CXChildVisit_Continue;
	if (k == CXCursor_Namespace)
		return CXChildVisit_Recurse;
	/* a template's instantiations are the template's launches, not kernels of their own */
	if ((k == CXCursor_FunctionDecl || k == CXCursor_FunctionTemplate) && clang_isCursorDefinition(c) &&
	    clang_Cursor_isNull(clang_getSpecializedCursorTemplate(c)) && chk_is_kernel(c)) {
		CXCursor *m = realloc(f->items, (f->n + 1) * sizeof(*m));

		if (!m) {
			f->oom = true;
			return CXChildVisit_Break;
		}
		f->items = m;
		f->items[f->n++] = c;
	}
	return CXChildVisit_Continue;
}

/* Kernels the parse read in the file, declarations too. */
static enum CXChildVisitResult count_kernels(CXCursor c, CXCursor parent, CXClientData data)
{
	enum CXCursorKind k = clang_getCursorKind(c);

	(void)parent;
	if (chk_names_linkage_block(c) || k == CXCursor_Namespace)
		return CXChildVisit_Recurse;
	if (clang_Location_isFromMainFile(clang_getCursorLocation(c)) &&
	    (k == CXCursor_FunctionDecl || k == CXCursor_FunctionTemplate) && chk_is_kernel(c))
		++*(size_t *)data;
	return CXChildVisit_Continue;
}

/* How often src spells __global__ outside comments, strings, directives
 * and skipped branches, what the parse cut from its copy of the text
 * (analyze/parse.c) included. */
static size_t global_spellings(CXTranslationUnit tu, CXFile file, const char *src, size_t len)
{
	size_t seen = 0, count = 0;
	const char *parsed = clang_getFileContents(tu, file, &seen), *p;
	CXSourceRangeList *skipped = clang_getSkippedRanges(tu, file);
	CXToken *toks = NULL;
	unsigned n = 0, i, k, line, last = 0, at, from, to;
	bool directive = false, live;

	if (!parsed || seen != len)
		return 0;
	clang_tokenize(tu, clang_getCursorExtent(clang_getTranslationUnitCursor(tu)), &toks, &n);
	for (i = 0; i < n; i++) {
		CXSourceRange r = clang_getTokenExtent(tu, toks[i]);

		clang_getFileLocation(clang_getRangeStart(r), NULL, &line, NULL, &at);
		clang_getFileLocation(clang_getRangeEnd(r), NULL, NULL, NULL, &to);
		if (i == 0 || line != last)
			directive = parsed[at] == '#';
		last = line;
		if (directive || clang_getTokenKind(toks[i]) != CXToken_Identifier || to - at != 10 ||
		    memcmp(parsed + at, "__global__", 10) != 0)
			continue;
		for (k = 0, live = true; skipped && k < skipped->count && live; k++) {
			clang_getFileLocation(clang_getRangeStart(skipped->ranges[k]), NULL, NULL, NULL, &from);
			clang_getFileLocation(clang_getRangeEnd(skipped->ranges[k]), NULL, NULL, NULL, &to);
			live = at < from || at >= to;
		}
		count += live;
	}
	if (toks)
		clang_disposeTokens(tu, toks, n);
	if (skipped)
		clang_disposeSourceRangeList(skipped);
	for (p = src; (p = memmem(p, len - (size_t)(p - src), "__global__", 10)); p += 10)
		count += memcmp(parsed + (p - src), "__global__", 10) != 0;
	return count;
}

/* "ns::name", leaving out anonymous namespaces (the harness sees the file). */
static void qualified_name(util_buf *b, CXCursor c)
{
	CXCursor p = clang_getCursorSemanticParent(c);
	CXString s;

	/* extern "C" names no scope */
	while (!clang_Cursor_isNull(p) && chk_names_linkage_block(p))
		p = clang_getCursorSemanticParent(p);
	if (!clang_Cursor_isNull(p) && clang_getCursorKind(p) == CXCursor_Namespace) {
		qualified_name(b, p);
		if (!clang_Cursor_isAnonymous(p)) {
			s = clang_getCursorSpelling(p);
			util_buf_printf(b, "%s::", clang_getCString(s));
			clang_disposeString(s);
		}
	}
}

typedef struct tokens {
	CXTranslationUnit tu;
	CXToken *items;
	unsigned n;
	char **text;
} tokens;

static void tokens_of(tokens *t, CXTranslationUnit tu, CXSourceRange range)
{
	unsigned i;

	t->tu = tu;
	clang_tokenize(tu, range, &t->items, &t->n);
	t->text = calloc(t->n + 1, sizeof(char *));
	for (i = 0; t->text && i < t->n; i++) {
		CXString s = clang_getTokenSpelling(tu, t->items[i]);

		t->text[i] = strdup(clang_getCString(s));
		clang_disposeString(s);
	}
	if (!t->text)
		t->n = 0;
}

/* r in the file's own text: a kernel's extent starts at __global__, a
 * macro, where clang_tokenize sees no tokens */
static CXSourceRange expanded(CXTranslationUnit tu, CXSourceRange r)
{
	CXFile from, to;
	unsigned start, end;

	clang_getExpansionLocation(clang_getRangeStart(r), &from, NULL, NULL, &start);
	clang_getExpansionLocation(clang_getRangeEnd(r), &to, NULL, NULL, &end);
	if (!from || !to || !clang_File_isEqual(from, to))
		return r;
	return clang_getRange(clang_getLocationForOffset(tu, from, start), clang_getLocationForOffset(tu, to, end));
}

static void tokens_dispose(tokens *t)
{
	unsigned i;

	for (i = 0; t->text && i < t->n; i++)
		free(t->text[i]);
	free(t->text);
	if (t->items)
		clang_disposeTokens(t->tu, t->items, t->n);
}

static bool tok_is(const tokens *t, unsigned i, const char *s)
{
	return i < t->n && t->text[i] && strcmp(t->text[i], s) == 0;
}

/* How the body uses pointer `name`. */
typedef struct usage {
	bool subscripted, read, written, atomic;
} usage;

/* A float output summed with atomics takes its terms in an order that
 * varies from run to run: rounding differs by more than a few ulp. */
static void widen_for_atomics(chk_arg *a)
{
	double rel = a->dtype == CHK_F32 ? 1e-4 : a->dtype == CHK_F64 ? 1e-10 : 0;

	if (a->tol.rel < rel)
		a->tol.rel = rel;
	if (a->tol.abs < rel)
		a->tol.abs = rel;
	/* a type the compiler names (dtype auto) had no tolerance of its own:
	 * once abs and rel are given, ulp must be too */
	if (a->tol.ulp < 0)
		a->tol.ulp = chk_default_tolerance(a->dtype).ulp;
}

static usage use_of(const tokens *body, const char *name)
{
	usage u = { false, false, false, false };
	unsigned i;

	for (i = 0; i < body->n; i++) {
		if (!tok_is(body, i, name) || (i > 0 && (tok_is(body, i - 1, ".") || tok_is(body, i - 1, "->"))))
			continue;
		if (i >= 2 && tok_is(body, i - 1, "(") && strncmp(body->text[i - 2], "atomic", 6) == 0) {
			u.atomic = u.read = u.written = true;
			continue;
		}
		if (i >= 3 && tok_is(body, i - 1, "&") && tok_is(body, i - 2, "(") &&
		    strncmp(body->text[i - 3], "atomic", 6) == 0) {
			u.atomic = u.read = u.written = true;
			u.subscripted = true;
			continue;
		}
		/* passed on to a function (loadFromGmem(N, K, A, B, ...)): read, and maybe written */
		if (i > 0 && (tok_is(body, i - 1, "(") || tok_is(body, i - 1, ",")) &&
		    (tok_is(body, i + 1, ",") || tok_is(body, i + 1, ")"))) {
			u.read = u.written = true;
			continue;
		}
		if (tok_is(body, i + 1, "[")) {
			unsigned k = i + 1;
			int depth = 0;

			u.subscripted = true;
			/* to the last of its subscripts: a[n][i][j] = v writes a */
			for (; k < body->n; k++) {
				if (tok_is(body, k, "["))
					depth++;
				else if (tok_is(body, k, "]") && --depth == 0 && !tok_is(body, k + 1, "["))
					break;
			}
			if (tok_is(body, k + 1, "="))
				u.written = true;
			else
				u.read = true;
			if (k + 1 < body->n && body->text[k + 1][0] && strchr("+-*/|&^", body->text[k + 1][0]) &&
			    body->text[k + 1][1] == '=')
				u.written = true;
		}
	}
	return u;
}

/* Whether text names one of s's pointers (a buffer argument). */
static bool pointer_arg(const chk_spec *s, const char *text)
{
	size_t k;

	for (k = 0; k < s->nargs; k++)
		if (s->args[k].role != CHK_ROLE_SCALAR && !strcmp(s->args[k].name, text))
			return true;
	return false;
}

/* Whether scalar name is a stride in a subscript of one of s's pointers
 * (A[ny * N + nx]): a row of N, so the buffer is at least N rows of it. */
static bool stride_in_subscript(const tokens *body, const chk_spec *s, const char *name)
{
	unsigned i, end;

	for (i = 0; i + 1 < body->n; i++) {
		int depth = 0;

		if (!pointer_arg(s, body->text[i]) || !tok_is(body, i + 1, "["))
			continue;
		for (end = i + 1; end < body->n; end++) {
			if (tok_is(body, end, "[") || tok_is(body, end, "("))
				depth++;
			else if ((tok_is(body, end, "]") || tok_is(body, end, ")")) && --depth <= 0)
				break;
			else if (!strcmp(body->text[end], name) &&
				 (tok_is(body, end - 1, "*") || (end + 1 < body->n && tok_is(body, end + 1, "*"))))
				return true;
		}
	}
	return false;
}

static bool is_integer_type(const char *type);

/* When token text names an integer scalar of s not yet in out[0, *n),
 * adds it (its index into s->args); whether text names one. */
static bool note_scalar(size_t *out, size_t *n, const chk_spec *s, const char *text)
{
	size_t k, m;

	for (k = 0; k < s->nargs; k++) {
		if (s->args[k].role != CHK_ROLE_SCALAR || !is_integer_type(s->args[k].type) || strcmp(s->args[k].name, text))
			continue;
		for (m = 0; m < *n && out[m] != k; m++)
			;
		if (m == *n)
			out[(*n)++] = k;
		return true;
	}
	return false;
}

/* The integer scalars of s that bound the kernel's indexing: those in
 * the subscripts of its pointers (p[row * K + col]), in what moves a
 * pointer (p += by * BM * K) and beside a comparison (row < M), at most 3,
 * into out (indexes into s->args); how many. A buffer whose size the
 * program does not show, indexed by several dimensions, spans their
 * product: C[x * N + y] under x < M of an M x N matrix. */
static size_t index_scalars(const tokens *body, const chk_spec *s, size_t *out)
{
	size_t n = 0;
	unsigned i;

	for (i = 0; i < body->n && n < 3; i++) {
		if (pointer_arg(s, body->text[i]) && i + 1 < body->n &&
		    (tok_is(body, i + 1, "[") || tok_is(body, i + 1, "+=") || tok_is(body, i + 1, "-="))) {
			unsigned end;
			int depth = 0;

			for (end = i + 1; end < body->n && n < 3; end++) {
				if (tok_is(body, end, "[") || tok_is(body, end, "("))
					depth++;
				else if ((tok_is(body, end, "]") || tok_is(body, end, ")")) && --depth <= 0 &&
					 tok_is(body, i + 1, "["))
					break;
				else if (tok_is(body, end, ";") && depth <= 0)
					break;
				note_scalar(out, &n, s, body->text[end]);
			}
		} else if ((i > 0 && (tok_is(body, i - 1, "<") || tok_is(body, i - 1, "<=") || tok_is(body, i - 1, ">") ||
				      tok_is(body, i - 1, ">="))) ||
			   (i + 1 < body->n && (tok_is(body, i + 1, ">") || tok_is(body, i + 1, ">=")))) {
			note_scalar(out, &n, s, body->text[i]); /* beside a comparison */
		}
	}
	return n;
}

static bool is_integer_type(const char *type)
{
	unsigned lanes;
	int d = chk_type_dtype(type, &lanes);

	return d >= 0 && !chk_dtype_is_float((chk_dtype)d) && lanes == 1 && strcmp(type, "bool") != 0;
}

static bool name_in(const char *name, const char *const *list)
{
	for (; *list; list++)
		if (strcmp(name, *list) == 0)
			return true;
	return false;
}

static const char *const size_names[] = { "n", "N", "numel", "size", "count", "len", "length", "num_elements",
					  "nelem", "nelems", "n_elements", "num", "total", "elements", NULL };
static const char *const row_names[] = { "rows", "nrows", "num_rows", "n_rows", "m", "M", "height", NULL };
static const char *const col_names[] = { "cols", "ncols", "num_cols", "n_cols", "width", "k", "K", "dim", "d",
					 NULL };

static bool size_like(const char *name)
{
	return name_in(name, size_names) || (name[0] == 'n' && (isdigit((unsigned char)name[1]) || name[1] == '_'));
}

/* A scalar named for pointer p's length: num_bins for bins. */
static const chk_arg *count_param_of(const chk_spec *s, const char *p)
{
	size_t i, pl = strlen(p);

	for (i = 0; i < s->nargs; i++) {
		const chk_arg *a = &s->args[i];
		const char *n = a->name;
		size_t k;

		if (a->role != CHK_ROLE_SCALAR || !is_integer_type(a->type))
			continue;
		for (k = pl; k + 1 >= pl && k > 0; k--) { /* p, and p without a plural s */
			if ((strncmp(n, "num_", 4) == 0 && strlen(n + 4) == k && strncmp(n + 4, p, k) == 0) ||
			    (strncmp(n, "n_", 2) == 0 && strlen(n + 2) == k && strncmp(n + 2, p, k) == 0) ||
			    (strncmp(n, p, k) == 0 && (strcmp(n + k, "_size") == 0 || strcmp(n + k, "_count") == 0 ||
						       strcmp(n + k, "_len") == 0)))
				return a;
			if (k != pl || p[pl - 1] != 's')
				break;
		}
	}
	return NULL;
}

static const chk_arg *scalar_named(const chk_spec *s, const char *const *names)
{
	size_t i;

	for (i = 0; i < s->nargs; i++)
		if (s->args[i].role == CHK_ROLE_SCALAR && is_integer_type(s->args[i].type) &&
		    name_in(s->args[i].name, names))
			return &s->args[i];
	return NULL;
}

static const chk_arg *size_param(const chk_spec *s)
{
	size_t i;

	for (i = 0; i < s->nargs; i++)
		if (s->args[i].role == CHK_ROLE_SCALAR && is_integer_type(s->args[i].type) && size_like(s->args[i].name))
			return &s->args[i];
	return NULL;
}

static char *scalar_default(const chk_arg *a, const chk_spec *s, const chk_arg *size)
{
	unsigned lanes;
	int d = chk_type_dtype(a->type, &lanes);

	/* 0.7 has no exact binary form: a product with it is rounded, so a port
	 * that rounds differently shows */
	if (d == CHK_F16)
		return strdup(lanes == 2 ? "__float2half2_rn(0.7f)" : "__float2half(0.7f)");
	if (d == CHK_BF16)
		return strdup("__float2bfloat16(0.7f)");
	if ((d == CHK_F32 || d == CHK_F64) && lanes == 1)
		return strdup("0.7");
	if (strcmp(a->type, "bool") == 0)
		return strdup("true");
	/* a struct or vector: value-initialised, never an int it has no
	 * conversion from */
	if (!is_integer_type(a->type)) {
		char *v = NULL;
		size_t len = strlen(a->type);

		/* a reference parameter (DataElement &) binds to a value of its type */
		while (len && (a->type[len - 1] == '&' || a->type[len - 1] == ' '))
			len--;
		return asprintf(&v, "%.*s{}", (int)len, a->type) < 0 ? NULL : v;
	}
	if (a == size)
		return strdup("4096");
	if (name_in(a->name, row_names))
		return strdup("64");
	if (name_in(a->name, col_names))
		return strdup("256");
	{
		size_t i;

		for (i = 0; i < s->nargs; i++)
			if (s->args[i].role != CHK_ROLE_SCALAR && count_param_of(s, s->args[i].name) == a)
				return strdup("16");
	}
	return strdup("1");
}

static bool index_like(const char *name)
{
	static const char *const names[] = { "idx", "index", "indices", "ids", "offsets", "perm", "positions", NULL };
	return name_in(name, names);
}

/* Replaces whole-word template parameter names in text by their drafted values. */
static char *substitute(const char *text, char **params, char **values, size_t n)
{
	util_buf b = UTIL_BUF_INIT;
	const char *p = text;

	while (*p) {
		if (isalpha((unsigned char)*p) || *p == '_') {
			const char *start = p;
			size_t i;

			while (isalnum((unsigned char)*p) || *p == '_')
				p++;
			for (i = 0; i < n; i++)
				if (strlen(params[i]) == (size_t)(p - start) && strncmp(params[i], start, p - start) == 0)
					break;
			if (i < n)
				util_buf_puts(&b, values[i]);
			else
				util_buf_put(&b, start, (size_t)(p - start));
			continue;
		}
		util_buf_putc(&b, *p++);
	}
	return util_buf_detach(&b);
}

char *chk_check_name(const char *path, const char *kernel)
{
	const char *base = strrchr(path, '/'), *dot, *k = strrchr(kernel, ':'), *p;
	util_buf b = UTIL_BUF_INIT;

	/* the whole path, so that two programs' main.cu do not share names */
	base = base ? base + 1 : path;
	dot = strrchr(base, '.');
	for (p = path; *p && !(dot && dot != base && p == dot); p++)
		util_buf_putc(&b, *p);
	util_buf_printf(&b, ".%s", k ? k + 1 : kernel);
	if (b.ptr)
		chk_check_name_clean(b.ptr); /* the path's '/' a '-', and a space or a quote too */
	return util_buf_detach(&b);
}

int chk_draft_place(util_buf *path, const char *root, chk_spec *spec)
{
	unsigned k;

	for (k = 1; k < 100; k++) {
		chk_spec old;
		bool same;

		util_buf_clear(path);
		util_buf_printf(path, "%s.hipport/checks/%s", root ? root : "", spec->name);
		if (k > 1)
			util_buf_printf(path, "-%u", k);
		util_buf_puts(path, ".check");
		if (util_buf_oom(path))
			return util_error_set(UTIL_ENOMEM, "out of memory");
		if (access(path->ptr, F_OK) != 0)
			break;
		/* an engineer's spec that does not read is theirs: kept */
		if (chk_spec_read(&old, path->ptr) < 0) {
			util_error_clear();
			return 1;
		}
		same = !strcmp(old.source, spec->source) && !strcmp(old.kernel, spec->kernel) &&
		       (!old.launch || !spec->launch || !strcmp(old.launch, spec->launch) || k == 1);
		chk_spec_dispose(&old);
		if (same)
			return 1;
	}
	if (k > 1) {
		char *named = NULL;

		if (asprintf(&named, "%s-%u", spec->name, k) < 0)
			return util_error_set(UTIL_ENOMEM, "out of memory");
		free(spec->name);
		spec->name = named;
	}
	return 0;
}

typedef struct drafting {
	chk_spec *spec;
	char *tparams[16], *tvalues[16];
	size_t ntemplate;
	char *launch_bounds;
	char *given[16]; /* the launch's template arguments */
	size_t ngiven;
	bool tdrafted[16]; /* for each template parameter: drafted, not given by the launch */
	unsigned block_drafted; /* block-size template parameters drafted so far */
} drafting;

static enum CXChildVisitResult find_enumerator(CXCursor c, CXCursor parent, CXClientData data)
{
	(void)parent;
	if (clang_getCursorKind(c) != CXCursor_EnumConstantDecl)
		return CXChildVisit_Continue;
	*(CXCursor *)data = c;
	return CXChildVisit_Break;
}

/* The first enumerator of enum type t, as ENUM::NAME (a template argument
 * of enum type takes no int), or NULL for any other type. */
static char *first_enumerator(CXType t)
{
	CXType canonical = clang_getCanonicalType(t);
	CXCursor first = clang_getNullCursor();
	CXString s;
	char *type, *out = NULL;

	if (canonical.kind != CXType_Enum)
		return NULL;
	clang_visitChildren(clang_getTypeDeclaration(canonical), find_enumerator, &first);
	if (clang_Cursor_isNull(first) || !(type = chk_type_spelling(canonical)))
		return NULL;
	s = clang_getCursorSpelling(first);
	if (asprintf(&out, "%s::%s", type, clang_getCString(s)) < 0)
		out = NULL;
	clang_disposeString(s);
	free(type);
	return out;
}

static enum CXChildVisitResult visit_kernel(CXCursor c, CXCursor parent, CXClientData data)
{
	drafting *d = data;
	enum CXCursorKind k = clang_getCursorKind(c);
	CXString s = clang_getCursorSpelling(c);
	const char *name = clang_getCString(s);

	(void)parent;
	if ((k == CXCursor_TemplateTypeParameter || k == CXCursor_NonTypeTemplateParameter) && d->ntemplate < 16) {
		bool blockish = strstr(name, "BLOCK") || strstr(name, "block") || strstr(name, "THREADS") ||
				strstr(name, "threads") || strstr(name, "Block");

		/* scalar_t, the type AT_DISPATCH_* names in its lambda, is none
		 * outside it: float, one of the types every such dispatch takes */
		const char *given = d->ntemplate < d->ngiven ? d->given[d->ntemplate] : NULL;
		char *value = given && k == CXCursor_TemplateTypeParameter && !strcmp(given, "scalar_t") ? NULL
			      : given ? strdup(given)
			      : k == CXCursor_NonTypeTemplateParameter ? first_enumerator(clang_getCursorType(c))
								       : NULL;

		d->tparams[d->ntemplate] = strdup(name);
		d->tdrafted[d->ntemplate] = !value && k == CXCursor_TemplateTypeParameter;
		/* a block's size across parameters (kBlockDimX, kBlockDimY): 256
		 * threads in all, the first one's */
		d->tvalues[d->ntemplate] =
			value ? value
			      : strdup(k == CXCursor_TemplateTypeParameter ? chk_type_param_guess(name)
				       : blockish && !d->block_drafted++ ? "256"
									: "1");
		d->ntemplate++;
	} else if (k == CXCursor_ParmDecl) {
		CXType t = clang_getCursorType(c);
		char fallback[32];
		chk_arg *a;

		snprintf(fallback, sizeof(fallback), "arg%zu", d->spec->nargs);
		a = chk_spec_add_arg(d->spec, *name ? name : fallback);
		if (a) {
			char *type;

			if (t.kind == CXType_Pointer) {
				CXType pointee = clang_getPointeeType(t);

				a->role = clang_isConstQualifiedType(pointee) ? CHK_ROLE_IN : CHK_ROLE_OUT;
				/* a type the parse could not see (a typedef of an included
				 * header): as spelled */
				if (!(type = chk_spelled_pointee(c, name)))
					type = chk_type_known_spelling(pointee);
			} else if (!(type = chk_spelled_type(c, name))) {
				type = chk_type_known_spelling(t);
			}
			a->type = type ? substitute(type, d->tparams, d->tvalues, d->ntemplate) : NULL;
			/* an argument of a template type parameter (LOAD load) */
			if (d->spec->nargs <= 16) {
				size_t p;

				for (p = 0; type && p < d->ntemplate; p++)
					if (!strcmp(type, d->tparams[p]) ||
					    (!strncmp(type, "const ", 6) && !strcmp(type + 6, d->tparams[p])))
						a->typed_by = (unsigned)p + 1;
			}
			free(type);
			/* a recorded scalar's bytes are its value only when they are all of it */
			if (t.kind != CXType_Pointer && clang_Type_getSizeOf(t) > 0)
				a->bytes = (size_t)clang_Type_getSizeOf(t);
		}
	}
	clang_disposeString(s);
	return CXChildVisit_Continue;
}

/* The type a template deduces from a launch argument as resolved: a
 * literal's (1 int, 2u unsigned int, 1.5 double, 1.5f float), a number's
 * declared type (((int)(...))), else NULL. */
static const char *deduced_type(const char *e)
{
	static const char *const casts[] = { "int", "unsigned int", "long", "unsigned long", "long long", "size_t",
					     "float", "double", "short", "char", "bool", NULL };
	size_t n = strlen(e), i, digits;
	bool dot = false, exp = false;

	if (!strncmp(e, "((", 2)) {
		for (i = 0; casts[i]; i++)
			if (!strncmp(e + 2, casts[i], strlen(casts[i])) && !strncmp(e + 2 + strlen(casts[i]), ")(", 2) &&
			    e[n - 1] == ')')
				return casts[i];
		return NULL;
	}
	if (*e == '-')
		e++;
	for (digits = 0; *e && (isdigit((unsigned char)*e) || *e == '.' || ((*e == 'e' || *e == 'E') && digits)); e++) {
		dot |= *e == '.';
		exp |= *e == 'e' || *e == 'E';
		digits += isdigit((unsigned char)*e) != 0;
		if ((*e == 'e' || *e == 'E') && (e[1] == '-' || e[1] == '+'))
			e++;
	}
	if (!digits)
		return NULL;
	if (dot || exp)
		return !*e ? "double" : (*e == 'f' || *e == 'F') && !e[1] ? "float" : NULL;
	if (!*e)
		return "int";
	if ((*e == 'u' || *e == 'U') && !e[1])
		return "unsigned int";
	if ((*e == 'l' || *e == 'L') && !e[1])
		return "long";
	return NULL;
}

/* A template type parameter the launch does not give (k<<<g, b>>>(n, x, 1)
 * of template <typename T, typename S> k(int, T *, S)) is the type its
 * scalar arguments deduce it to, where the launch passes a literal or a
 * number of a declared type: S is int, not the drafted float. */
static void deduce_template_args(drafting *d, const chk_launch *l)
{
	size_t p, i;

	if (!l || l->nargs != d->spec->nargs || d->spec->nargs > 16)
		return;
	for (p = 0; p < d->ntemplate; p++) {
		const char *type = NULL, *t;
		char *old = d->tvalues[p];

		for (i = 0; d->tdrafted[p] && i < d->spec->nargs; i++)
			if (d->spec->args[i].typed_by == p + 1 && d->spec->args[i].type && !strchr(d->spec->args[i].type, '*') &&
			    (t = deduced_type(l->args[i].expr)) && (!type || !strcmp(type, t)))
				type = t;
		if (!type || !(d->tvalues[p] = strdup(type))) {
			d->tvalues[p] = old;
			continue;
		}
		for (i = 0; i < d->spec->nargs; i++) {
			chk_arg *a = &d->spec->args[i];

			if (a->typed_by != p + 1 || !a->type)
				continue;
			if (!strcmp(a->type, old)) {
				free(a->type);
				a->type = strdup(type);
			} else if (!strncmp(a->type, "const ", 6) && !strcmp(a->type + 6, old)) {
				free(a->type);
				if (asprintf(&a->type, "const %s", type) < 0)
					a->type = NULL;
			}
		}
		free(old);
	}
}

static enum CXChildVisitResult find_body(CXCursor c, CXCursor parent, CXClientData data)
{
	(void)parent;
	if (clang_getCursorKind(c) == CXCursor_CompoundStmt) {
		*(CXCursor *)data = c;
		return CXChildVisit_Break;
	}
	return CXChildVisit_Continue;
}

/* __launch_bounds__(X, ...): X as text. */
static char *launch_bounds(const tokens *t)
{
	unsigned i;

	for (i = 0; i + 2 < t->n; i++)
		if (tok_is(t, i, "__launch_bounds__") && tok_is(t, i + 1, "(")) {
			util_buf b = UTIL_BUF_INIT;
			unsigned k;
			int depth = 0;

			for (k = i + 2; k < t->n; k++) {
				if (tok_is(t, k, "("))
					depth++;
				if (tok_is(t, k, ")") && depth-- == 0)
					break;
				if (tok_is(t, k, ",") && depth == 0)
					break;
				util_buf_printf(&b, "%s%s", b.len ? " " : "", t->text[k]);
			}
			return util_buf_detach(&b);
		}
	return NULL;
}

/* The file's __device__ variables and __device__ functions, by name: a
 * kernel's outputs include the globals it or its callees write. */
typedef struct device_names {
	CXCursor *globals, *functions;
	size_t nglobals, nfunctions;
	bool oom;
} device_names;

/* Splits a comma-separated list at its top-level commas (<>, (), [] nest). */
static size_t split_list(const char *text, char **out, size_t max)
{
	size_t n = 0;
	int depth = 0;
	const char *start = text, *p;

	for (p = text;; p++) {
		if (*p == '<' || *p == '(' || *p == '[')
			depth++;
		else if (*p == '>' || *p == ')' || *p == ']')
			depth--;
		if ((*p == ',' && depth == 0) || !*p) {
			const char *a = start, *e = p;

			while (a < e && isspace((unsigned char)*a))
				a++;
			while (e > a && isspace((unsigned char)e[-1]))
				e--;
			if (n < max)
				out[n++] = strndup(a, (size_t)(e - a));
			if (!*p)
				break;
			start = p + 1;
		}
	}
	return n;
}

/* Whether name is a word of expr. */
static bool has_word(const char *expr, const char *name)
{
	size_t n = strlen(name);
	const char *p;

	for (p = expr; (p = strstr(p, name)); p += n)
		if ((p == expr || !(isalnum((unsigned char)p[-1]) || p[-1] == '_')) &&
		    !(isalnum((unsigned char)p[n]) || p[n] == '_'))
			return true;
	return false;
}

/* A drafted value for a name the program gives at run time: the number
 * its declaration gives, the program's default, where there is one; else a
 * count the grid divides into blocks (divided) must fill more than one,
 * and the names the block is made of (nblock of them) must make one the
 * GPU takes (at most 1024 threads: 256, 16 x 16, 8 x 8 x 8). */
static const char *guess_for(const chk_unresolved *u, bool divided, unsigned nblock)
{
	unsigned lanes;
	int d = chk_type_dtype(u->type, &lanes);

	if (u->counter)
		return "0";
	if (u->initial)
		return u->initial;
	if (d >= 0 && chk_dtype_is_float((chk_dtype)d))
		return "0.7";
	if (d >= 0 && nblock)
		return nblock == 1 ? "256" : nblock == 2 ? "16" : "8";
	/* small: guessed sizes multiply (batch * seq_len * hidden) */
	if (d >= 0)
		return size_like(u->name) || divided ? "4096" : "64";
	return "{}";
}

/* A scalar passed as a braced temporary of its own template type
 * (std::bool_constant<false>{}, a tag the kernel's template deduces from)
 * takes the temporary's type: the drafted one holds a guess for the
 * template argument, which the launch then deduces wrong. */
static void braced_type(chk_arg *a)
{
	const char *v = a->value, *brace = strchr(v, '{'), *angle = strchr(v, '<'), *p;
	size_t base;
	char *type;

	if (!a->type || !brace || !angle || angle > brace || v[strlen(v) - 1] != '}')
		return;
	for (p = v; p < angle; p++)
		if (!isalnum((unsigned char)*p) && *p != '_' && *p != ':')
			return;
	/* the same template: its name before "<", spaces aside */
	for (p = a->type, base = 0; *p && *p != '<'; p++)
		if (!isspace((unsigned char)*p) && (base >= (size_t)(angle - v) || *p != v[base++]))
			return;
	if (*p != '<' || base != (size_t)(angle - v) || !(type = strndup(v, (size_t)(brace - v))))
		return;
	free(a->type);
	a->type = type;
}

/* Takes the launch's geometry, template arguments, argument values and
 * allocation sizes into the drafted spec; notes says what it could not. */
static int apply_launch(chk_spec *s, const chk_launch *l, const char *path, util_buf *notes)
{
	util_buf b = UTIL_BUF_INIT;
	size_t i, v;
	bool divided, block, divided_one = false;
	unsigned nblock = 0; /* names the block is made of, drafted */

	free(s->templ);
	/* AT_DISPATCH's scalar_t is float outside its lambda (visit_kernel) */
	s->templ = l->templ ? substitute(l->templ, (char *[]){ "scalar_t" }, (char *[]){ "float" }, 1) : NULL;
	free(s->grid);
	s->grid = strdup(l->grid);
	free(s->block);
	s->block = strdup(l->block);
	free(s->shared);
	s->shared = strdup(l->shared);
	util_buf_printf(&b, "%s:%u", path, l->line);
	s->launch = util_buf_detach(&b);
	if (l->nargs != s->nargs) {
		util_buf_printf(notes, "\n- the launch passes %zu arguments for %zu parameters: arguments drafted",
				l->nargs, s->nargs);
	} else {
		for (i = 0; i < s->nargs; i++) {
			chk_arg *a = &s->args[i];
			const chk_launch_arg *la = &l->args[i];
			unsigned lanes = 1;
			int dt;

			if (a->role == CHK_ROLE_SCALAR) {
				free(a->value);
				a->value = strdup(la->expr);
				braced_type(a);
				continue;
			}
			if (!la->pointer || !la->count) {
				util_buf_printf(notes, "\n- %s: its size is not known from the program (passed as %s): "
						       "count drafted",
						a->name, la->expr);
				util_buf_printf(&b, "%s%s", b.len ? " " : "", a->name);
				continue;
			}
			free(a->count);
			a->count = strdup(la->count);
			util_buf_printf(notes, "\n- %s: %s, its size from %s", a->name, la->expr, la->alloc);
			if (la->offset)
				util_buf_puts(notes, " (passed with an offset: the check passes the allocation's start)");
			if (la->elem_type && (dt = chk_type_dtype(la->elem_type, &lanes)) >= 0) {
				free(a->type);
				a->type = strdup(la->elem_type);
				a->dtype = (chk_dtype)dt;
				a->lanes = lanes;
				a->tol = chk_default_tolerance(a->dtype);
				if (a->init == CHK_INIT_UNIFORM && !chk_dtype_is_float(a->dtype) && a->init_a < 0)
					a->init_a = 0;
			}
		}
	}
	for (i = 0; i < l->nunresolved; i++)
		nblock += !l->unresolved[i].template_param && !l->unresolved[i].initial &&
			  has_word(l->block, l->unresolved[i].name);
	for (i = 0; i < l->nunresolved; i++) {
		const chk_unresolved *u = &l->unresolved[i];

		if (u->template_param) {
			util_buf_printf(notes, "\n- %s: %s %s, %s", u->name, u->from_call ? "is" : "drafted", u->value,
					u->why);
			if (!u->from_call)
				util_buf_printf(&b, "%s%s", b.len ? " " : "", u->name);
			continue;
		}
		block = has_word(l->block, u->name);
		/* the first such count only: guessed sizes multiply (width * height * count) */
		divided = !block && !divided_one && strchr(l->grid, '/') && has_word(l->grid, u->name);
		divided_one |= divided;
		/* the signature's rows var and the program's rows are one name */
		for (v = 0; v < s->nvars && strcmp(s->vars[v].name, u->name) != 0; v++)
			;
		if (v < s->nvars) {
			free(s->vars[v].type);
			free(s->vars[v].value);
			s->vars[v].type = strdup(u->type);
			s->vars[v].value = strdup(guess_for(u, divided, block ? nblock : 0));
			if (!s->vars[v].type || !s->vars[v].value)
				return util_error_set(UTIL_ENOMEM, "out of memory");
		} else if (!chk_spec_add_var(s, u->name, u->type, guess_for(u, divided, block ? nblock : 0))) {
			return util_error_set(UTIL_ENOMEM, "out of memory");
		}
		if (u->initial)
			util_buf_printf(notes, "\n- %s: drafted %s, as its declaration gives it; the program may set it "
					       "at run time: %s",
					u->name, u->initial, u->why);
		else
			util_buf_printf(notes, "\n- %s: drafted %s, not known from the program: %s", u->name,
					guess_for(u, divided, block ? nblock : 0), u->why);
		util_buf_printf(&b, "%s%s", b.len ? " " : "", u->name);
	}
	if (b.len)
		s->guessed = util_buf_detach(&b);
	util_buf_dispose(&b);
	for (i = 0; i < s->nargs; i++) {
		size_t k;

		/* a host name that is also a parameter's: the host's gets a suffix */
		for (k = 0; k < s->nvars; k++)
			if (!strcmp(s->vars[k].name, s->args[i].name)) {
				char *old = s->vars[k].name, *params[1] = { old }, *values[1];
				char **fields[] = { &s->grid, &s->block, &s->shared, &s->templ };
				size_t j;

				util_buf_printf(&b, "%s_host", old);
				values[0] = b.ptr;
				for (j = 0; j < sizeof(fields) / sizeof(fields[0]); j++)
					if (*fields[j]) {
						char *t = substitute(*fields[j], params, values, 1);

						free(*fields[j]);
						*fields[j] = t;
					}
				for (j = 0; j < s->nargs; j++) {
					char **f = s->args[j].role == CHK_ROLE_SCALAR ? &s->args[j].value : &s->args[j].count;
					char *t = *f ? substitute(*f, params, values, 1) : NULL;

					free(*f);
					*f = t;
				}
				s->vars[k].name = util_buf_detach(&b);
				free(old);
			}
	}
	return 0;
}

/* The __device__ variables (not __constant__, not __shared__) that the
 * kernel's body or the device functions it calls name: outputs too. */
static void device_globals(chk_spec *s, CXTranslationUnit tu, const tokens *body, const device_names *dn)
{
	bool *called = calloc(dn->nfunctions + 1, sizeof(bool)), grew = true;
	tokens *bodies = calloc(dn->nfunctions + 1, sizeof(tokens));
	size_t i, k, g;

	if (!called || !bodies) {
		free(called);
		free(bodies);
		return;
	}
	/* the device functions reached from the kernel, by name */
	while (grew) {
		grew = false;
		for (k = 0; k < dn->nfunctions; k++) {
			CXString name;
			bool used = false;

			if (called[k])
				continue;
			name = clang_getCursorSpelling(dn->functions[k]);
			for (i = 0; i < body->n && !used; i++)
				used = tok_is(body, i, clang_getCString(name)) && tok_is(body, i + 1, "(");
			for (g = 0; g < dn->nfunctions && !used; g++)
				if (called[g])
					for (i = 0; i < bodies[g].n && !used; i++)
						used = tok_is(&bodies[g], i, clang_getCString(name)) &&
						       tok_is(&bodies[g], i + 1, "(");
			clang_disposeString(name);
			if (used) {
				called[k] = grew = true;
				tokens_of(&bodies[k], tu, clang_getCursorExtent(dn->functions[k]));
			}
		}
	}
	for (g = 0; g < dn->nglobals; g++) {
		CXString name = clang_getCursorSpelling(dn->globals[g]);
		const char *gname = clang_getCString(name);
		usage u = use_of(body, gname);
		bool named = false;
		CXType t = clang_getCanonicalType(clang_getCursorType(dn->globals[g]));
		long long count = 1;
		chk_arg *a;
		char num[32];

		for (i = 0; i < body->n && !named; i++)
			named = tok_is(body, i, gname);
		for (k = 0; k < dn->nfunctions; k++)
			if (called[k]) {
				usage v = use_of(&bodies[k], gname);

				for (i = 0; i < bodies[k].n && !named; i++)
					named = tok_is(&bodies[k], i, gname);
				u.read |= v.read;
				u.written |= v.written;
				u.atomic |= v.atomic;
				u.subscripted |= v.subscripted;
			}
		/* a scalar global written as `g = ...` or `g++` */
		for (i = 0; i < body->n; i++)
			if (tok_is(body, i, gname) && (tok_is(body, i + 1, "=") || tok_is(body, i + 1, "++") ||
						       tok_is(body, i + 1, "+=") || tok_is(body, i + 1, "-=")))
				u.written = true;
		if (!named) {
			clang_disposeString(name);
			continue;
		}
		if (t.kind == CXType_ConstantArray) {
			count = clang_getArraySize(t);
			t = clang_getArrayElementType(t);
		}
		if ((a = chk_spec_add_global(s, gname))) {
			unsigned lanes = 1;
			int dt;

			a->type = chk_type_known_spelling(t);
			dt = a->type ? chk_type_dtype(a->type, &lanes) : -1;
			a->dtype = dt >= 0 ? (chk_dtype)dt : CHK_F32;
			a->lanes = lanes;
			a->tol = chk_default_tolerance(a->dtype);
			snprintf(num, sizeof(num), "%lld", count);
			a->count = strdup(num);
			/* an atomic reads what it writes */
			a->role = !u.written ? CHK_ROLE_IN : u.read ? CHK_ROLE_INOUT : CHK_ROLE_OUT;
			a->init = a->role == CHK_ROLE_IN || a->role == CHK_ROLE_INOUT ? CHK_INIT_UNIFORM : CHK_INIT_CONSTANT;
			if (u.atomic) {
				a->init = CHK_INIT_CONSTANT;
				widen_for_atomics(a);
			}
			a->init_a = a->init == CHK_INIT_UNIFORM && chk_dtype_is_float(a->dtype) ? -1 : 0;
			a->init_b = a->init == CHK_INIT_UNIFORM ? (chk_dtype_is_float(a->dtype) ? 1 : 16) : 0;
		}
		clang_disposeString(name);
	}
	for (k = 0; k < dn->nfunctions; k++)
		if (called[k])
			tokens_dispose(&bodies[k]);
	free(called);
	free(bodies);
}

/* Parameters that are tensor accessors, by value or through a macro of the
 * kernel's file (#define TensorAcc4R PackedTensorAccessor32<scalar_t, 4, ...>):
 * buffers of their element type the harness makes the accessor over, their
 * roles from the body, their sizes drafted and marked. */
static int accessor_params(chk_spec *s, CXCursor c, CXTranslationUnit tu, drafting *d, const tokens *body)
{
	CXFile file = NULL;
	size_t size = 0, i;
	const char *src;

	clang_getExpansionLocation(clang_getCursorLocation(c), &file, NULL, NULL, NULL);
	src = file ? clang_getFileContents(tu, file, &size) : NULL;
	for (i = 0; i < s->nargs; i++) {
		chk_arg *a = &s->args[i];
		util_buf sizes = UTIL_BUF_INIT, count = UTIL_BUF_INIT;
		char *type = a->type, *expanded = NULL, *macro, *elem;
		unsigned dims, k, lanes = 1;
		usage u;
		int dt;

		if (a->role != CHK_ROLE_SCALAR || !a->type)
			continue;
		if (!strchr(type, '<') && src && (macro = chk_macro_text(src, size, type))) {
			type = expanded = substitute(macro, d->tparams, d->tvalues, d->ntemplate);
			free(macro);
		}
		if (!type || !chk_accessor_of(type, &elem, &dims)) {
			free(elem);
			free(expanded);
			continue;
		}
		u = use_of(body, a->name);
		a->role = !u.written ? CHK_ROLE_IN : u.read ? CHK_ROLE_INOUT : CHK_ROLE_OUT;
		a->accessor = strdup(type);
		free(a->type);
		a->type = elem;
		free(a->value);
		a->value = NULL;
		dt = chk_type_dtype(a->type, &lanes);
		a->dtype = dt >= 0 ? (chk_dtype)dt : CHK_F32;
		a->lanes = lanes;
		a->tol = chk_default_tolerance(a->dtype);
		if ((a->dtype_auto = dt < 0))
			a->tol.abs = a->tol.rel = a->tol.ulp = -1;
		a->init = a->role == CHK_ROLE_OUT ? CHK_INIT_CONSTANT : CHK_INIT_UNIFORM;
		a->init_a = a->role == CHK_ROLE_OUT ? 0 : chk_dtype_is_float(a->dtype) ? -1 : 0;
		a->init_b = a->role == CHK_ROLE_OUT ? 0 : chk_dtype_is_float(a->dtype) ? 1 : 16;
		for (k = 0; k < dims; k++) {
			util_buf_puts(&sizes, k ? ", 8" : "8");
			util_buf_puts(&count, k ? " * 8" : "8");
		}
		a->sizes = util_buf_detach(&sizes);
		a->count = util_buf_detach(&count);
		free(expanded);
		if (!a->accessor || !a->sizes || !a->count ||
		    chk_spec_mark(s, "arg", a->name, "sizes",
				  "drafted: give the tensor's sizes (check draft --from-record reads them from a run)") < 0)
			return util_error_set(UTIL_ENOMEM, "out of memory");
	}
	return 0;
}

/* Pointer arguments that hold clock readings (check/kernel/clocked.h):
 * filled and not compared, as inputs are; said in clocks. */
static void leave_clock_readings(chk_spec *s, const tokens *all, util_buf *clocks)
{
	util_buf b = UTIL_BUF_INIT;
	uint64_t clocked;
	size_t i;

	for (i = 0; i < all->n; i++)
		util_buf_printf(&b, "%s\n", all->text[i]); /* a // comment ends at its line */
	clocked = b.ptr ? chk_kernel_clocked_params(b.ptr, b.len) : 0;
	util_buf_dispose(&b);
	for (i = 0; i < s->nargs && i < 64; i++)
		if ((clocked >> i & 1) && s->args[i].role != CHK_ROLE_SCALAR) {
			s->args[i].role = CHK_ROLE_IN;
			util_buf_printf(clocks, "\n- %s: holds clock readings (the kernel writes it from clock() or a timer): "
						"they differ between runs and GPUs, so role in, not compared",
					s->args[i].name);
		}
}

/* Why no spec can be drafted: an argument of a template type parameter
 * that the body calls or takes members of (OneFlow's softmax kernels take
 * LOAD load and call load.template load<N>(...)) is a functor the program
 * makes, which a drafted arithmetic type cannot stand for; a spec with
 * float there built on neither side. NULL when there is none. */
static char *functor_argument(const drafting *d, const tokens *body)
{
	size_t a;
	unsigned i, lanes;
	char *why = NULL;

	for (a = 0; a < d->spec->nargs && a < 16; a++) {
		int t = (int)d->spec->args[a].typed_by - 1;
		const char *name = d->spec->args[a].name;

		/* a scalar of an element type (float, int, __half) has no call or member */
		if (t < 0 || chk_type_dtype(d->tvalues[t], &lanes) < 0 || lanes != 1)
			continue;
		for (i = 0; i + 1 < body->n; i++)
			if (tok_is(body, i, name) && (i == 0 || (!tok_is(body, i - 1, ".") && !tok_is(body, i - 1, "->"))) &&
			    (tok_is(body, i + 1, "(") || tok_is(body, i + 1, ".") || tok_is(body, i + 1, "->")))
				break;
		if (i + 1 < body->n &&
		    asprintf(&why, "its argument %s is of template type %s, which the kernel calls or takes members of: "
				   "a functor the program makes, which no drafted type stands for; a record run checks "
				   "the kernel where the program launches it, or write its spec by hand",
			     name, d->tparams[t]) >= 0)
			return why;
	}
	return NULL;
}

/* The template arguments of the first explicit instantiation of kernel
 * name in src (template __global__ void sgemm_v6<128, 128, 8, 8, 8>(...);),
 * which a library's file writes where it launches nothing: the drafted 1s
 * made an SGEMM's tile arrays of zero size. NULL when there is none. */
static char *explicit_instantiation(const char *src, size_t len, const char *name)
{
	size_t nlen = strlen(name), i;

	for (i = 0; nlen && i + 8 < len; i++) {
		size_t k, end, depth, open;

		if (src[i] == '/' && src[i + 1] == '/') { /* comments say nothing */
			while (i < len && src[i] != '\n')
				i++;
			continue;
		}
		if (src[i] == '/' && src[i + 1] == '*') {
			const char *close = memmem(src + i + 2, len - i - 2, "*/", 2);

			i = close ? (size_t)(close - src) + 1 : len;
			continue;
		}
		if (memcmp(src + i, "template", 8) != 0 || (i && (isalnum((unsigned char)src[i - 1]) || src[i - 1] == '_')))
			continue;
		for (k = i + 8; k < len && isspace((unsigned char)src[k]); k++)
			;
		if (k >= len || src[k] == '<' || isalnum((unsigned char)src[i + 8]) || src[i + 8] == '_')
			continue; /* a template's own header, or a longer word */
		for (end = k; end < len && src[end] != ';' && src[end] != '{'; end++)
			;
		if (end >= len || src[end] != ';')
			continue;
		/* NAME < ... > ( within the statement */
		for (open = k; open + nlen < end; open++) {
			size_t a = open + nlen;

			if (memcmp(src + open, name, nlen) != 0 || isalnum((unsigned char)src[open - 1]) || src[open - 1] == '_')
				continue;
			while (a < end && isspace((unsigned char)src[a]))
				a++;
			if (a >= end || src[a] != '<')
				continue;
			for (depth = 0, k = a; k < end; k++) {
				depth += src[k] == '<';
				if (src[k] == '>' && --depth == 0)
					break;
			}
			if (k < end)
				return strndup(src + a + 1, k - a - 1);
		}
	}
	return NULL;
}

static int draft_one(chk_spec *s, CXCursor c, CXTranslationUnit tu, const char *path, const chk_launch *l,
		     const char *instantiated, const device_names *dn)
{
	drafting d;
	CXCursor body = clang_getNullCursor();
	tokens all, body_tokens;
	util_buf b = UTIL_BUF_INIT, comment = UTIL_BUF_INIT, notes = UTIL_BUF_INIT, clocks = UTIL_BUF_INIT;
	CXString name = clang_getCursorSpelling(c);
	const chk_arg *size, *rows, *cols;
	int error = 0;
	const char *block;
	bool row_kernel = false;
	unsigned line;
	size_t i, k, nindex, index[3];

	memset(&d, 0, sizeof(d));
	memset(s, 0, sizeof(*s));
	d.spec = s;
	s->seed = 1234;
	s->timeout = 60;
	if (l && l->templ)
		d.ngiven = split_list(l->templ, d.given, 16);
	else if (instantiated)
		d.ngiven = split_list(instantiated, d.given, 16);
	clang_visitChildren(c, visit_kernel, &d);
	deduce_template_args(&d, l);
	clang_getSpellingLocation(clang_getCursorLocation(c), NULL, &line, NULL, NULL);
	qualified_name(&b, c);
	util_buf_puts(&b, clang_getCString(name));
	s->kernel = util_buf_detach(&b);
	s->name = chk_check_name(path, clang_getCString(name));
	s->source = strdup(path);
	memset(&body_tokens, 0, sizeof(body_tokens));
	tokens_of(&all, tu, expanded(tu, clang_getCursorExtent(c)));
	clang_visitChildren(c, find_body, &body);
	if (!clang_Cursor_isNull(body))
		tokens_of(&body_tokens, tu, clang_getCursorExtent(body));
	d.launch_bounds = launch_bounds(&all);
	if (d.ntemplate) {
		for (i = 0; i < d.ntemplate; i++)
			util_buf_printf(&b, "%s%s", i ? ", " : "", d.tvalues[i]);
		s->templ = util_buf_detach(&b);
	}
	s->undraftable = functor_argument(&d, &body_tokens);
	/* roles, and what the body says about each pointer */
	size = size_param(s);
	rows = scalar_named(s, row_names);
	cols = scalar_named(s, col_names);
	nindex = index_scalars(&body_tokens, s, index);
	for (i = 0; i < s->nargs; i++) {
		chk_arg *a = &s->args[i];
		usage u = use_of(&body_tokens, a->name);
		unsigned lanes = 1;
		int dt;

		if (a->role == CHK_ROLE_SCALAR)
			continue;
		if (a->role == CHK_ROLE_OUT && u.read)
			a->role = CHK_ROLE_INOUT;
		dt = a->type ? chk_type_dtype(a->type, &lanes) : -1;
		a->dtype = dt >= 0 ? (chk_dtype)dt : CHK_F32;
		a->lanes = lanes;
		a->tol = chk_default_tolerance(a->dtype);
		/* a type hipport does not know (a typedef of the program's, a
		 * struct): the compiler's type says the dtype, in the harness */
		if ((a->dtype_auto = dt < 0 && a->type))
			a->tol.abs = a->tol.rel = a->tol.ulp = -1;
		if (u.atomic && !u.subscripted) {
			a->count = strdup("1");
		} else if (count_param_of(s, a->name)) {
			a->count = strdup(count_param_of(s, a->name)->name);
		} else if (nindex >= 2) {
			/* indexed by several dimensions (A[row * K + k] of M x K): their product */
			for (k = 0; k < nindex; k++)
				util_buf_printf(&b, "%s%s", k ? " * " : "(size_t)", s->args[index[k]].name);
			a->count = util_buf_detach(&b);
		} else if (nindex == 1 && !rows && !cols && stride_in_subscript(&body_tokens, s, s->args[index[0]].name)) {
			/* one dimension, also the rows' stride (A[ny * N + nx]): N x N */
			util_buf_printf(&b, "(size_t)%s * %s", s->args[index[0]].name, s->args[index[0]].name);
			a->count = util_buf_detach(&b);
		} else if (size) {
			a->count = strdup(size->name);
		} else if (rows && cols) {
			util_buf_printf(&b, "%s * %s", rows->name, cols->name);
			a->count = util_buf_detach(&b);
		} else if (cols) {
			util_buf_printf(&b, "rows * %s", cols->name);
			a->count = util_buf_detach(&b);
			row_kernel = true;
		} else if (rows) {
			a->count = strdup(rows->name);
		} else {
			a->count = strdup("4096");
		}
		if (a->role == CHK_ROLE_OUT || (a->role == CHK_ROLE_INOUT && u.atomic)) {
			a->init = CHK_INIT_CONSTANT;
		} else if (chk_dtype_is_float(a->dtype)) {
			a->init = CHK_INIT_UNIFORM;
			a->init_a = -1;
			a->init_b = 1;
		} else if (index_like(a->name)) {
			a->init = CHK_INIT_IOTA;
			a->init_b = 1;
		} else {
			a->init = CHK_INIT_UNIFORM;
			a->init_b = 16;
		}
	}
	if ((error = accessor_params(s, c, tu, &d, &body_tokens)) < 0)
		goto done;
	for (i = 0; i < s->nargs; i++)
		if (s->args[i].role == CHK_ROLE_SCALAR)
			s->args[i].value = scalar_default(&s->args[i], s, size);
	if (row_kernel)
		chk_spec_add_var(s, "rows", "int", "64");
	/* launch geometry */
	if (d.launch_bounds)
		s->block = substitute(d.launch_bounds, d.tparams, d.tvalues, d.ntemplate);
	else
		s->block = strdup("256");
	block = s->block ? s->block : "256";
	if (size)
		util_buf_printf(&b, "(%s + %s - 1) / (%s)", size->name, block, block);
	else if (row_kernel || (rows && !cols))
		util_buf_puts(&b, row_kernel ? "rows" : rows->name);
	else if (rows && cols)
		util_buf_printf(&b, "(%s * %s + %s - 1) / (%s)", rows->name, cols->name, block, block);
	else
		util_buf_puts(&b, "1");
	s->grid = util_buf_detach(&b);
	s->shared = strdup("0");
	device_globals(s, tu, &body_tokens, dn);
	if (l && (error = apply_launch(s, l, path, &notes)) < 0)
		goto done;
	for (i = 0; i < s->nargs; i++) {
		chk_arg *a = &s->args[i];

		if (a->role != CHK_ROLE_SCALAR && chk_dtype_is_float(a->dtype) && a->dtype != CHK_F16 &&
		    a->dtype != CHK_BF16 && use_of(&body_tokens, a->name).atomic) {
			widen_for_atomics(a);
			util_buf_printf(&notes, "\n- %s: summed with atomics in an order that varies between runs: "
				       "abs and rel widened to %g", a->name, a->tol.rel);
		}
	}
	leave_clock_readings(s, &all, &clocks);
	/* a struct the program gives no value for: value-initialised, and said so
	 * (a launch's own T{}, a tag, is the program's value) */
	for (i = 0; !(l && l->nargs == s->nargs) && i < s->nargs; i++) {
		chk_arg *a = &s->args[i];
		size_t tl = a->type ? strlen(a->type) : 0;

		if (a->role == CHK_ROLE_SCALAR && a->value && tl && !strncmp(a->value, a->type, tl) &&
		    !strcmp(a->value + tl, "{}") &&
		    chk_spec_mark(s, "arg", a->name, "value", "value-initialised: give its value") < 0) {
			error = util_error_set(UTIL_ENOMEM, "out of memory");
			goto done;
		}
	}
	/* what the engineer should look at */
	util_buf_printf(&comment,
			"Kernel check of %s (%s:%u), drafted by hipport check --draft-spec.\n"
			"Check before use (docs/checks.md):\n"
			"- role: in (read), out (written, compared), inout (read and written, compared),\n"
			"  scalar. Drafted from const and from the body's tokens: a pointer read there,\n"
			"  subscripted or through an atomic, is inout. A guess: correct it.\n"
			"- count: elements of each buffer, a C expression over the scalars and [var]s.\n"
			"- init: uniform LO HI (seeded), constant V or iota START STEP.\n"
			"- value: each scalar's value; grid and block: the launch (dim3(x, y) works).\n"
			"- abs, rel, ulp: an output element passes within abs + rel * |expected|,\n"
			"  or within ulp units in the last place.\n"
			"- setup: a C++ statement run before the launch (__constant__ memory, ...).",
			clang_getCString(name), path, line);
	if (l) {
		util_buf_printf(&comment, "\nDrafted from the launch at %s: its template arguments, grid, block,\n"
					  "shared memory and argument values, local names replaced by their values.",
				s->launch);
		util_buf_put(&comment, notes.ptr ? notes.ptr : "", notes.len);
	} else {
		util_buf_puts(&comment, "\nNo launch of this kernel in the file: launch and sizes are drafted.");
		if (d.ntemplate) {
			util_buf_puts(&comment, "\n- template: arguments for the template parameters");
			for (i = 0; i < d.ntemplate; i++)
				util_buf_printf(&comment, "%s%s", i ? ", " : " ", d.tparams[i]);
			util_buf_puts(&comment, " (drafted, check them).");
		}
		if (row_kernel)
			util_buf_puts(&comment, "\n- rows: the kernel takes cols only; one block per row is assumed.");
	}
	util_buf_put(&comment, clocks.ptr ? clocks.ptr : "", clocks.len);
	if (s->nglobals) {
		util_buf_puts(&comment, "\n- global: __device__ variables the kernel (or a function it calls) uses;");
		util_buf_puts(&comment, "\n  written ones are outputs, compared like arguments.");
	}
	s->comment = util_buf_detach(&comment);
done:
	util_buf_dispose(&notes);
	util_buf_dispose(&clocks);
	clang_disposeString(name);
	for (i = 0; i < d.ntemplate; i++) {
		free(d.tparams[i]);
		free(d.tvalues[i]);
	}
	for (i = 0; i < d.ngiven; i++)
		free(d.given[i]);
	free(d.launch_bounds);
	tokens_dispose(&all);
	tokens_dispose(&body_tokens);
	if (error < 0)
		return error;
	for (i = 0; i < s->nargs; i++)
		if (!s->args[i].type || (s->args[i].role == CHK_ROLE_SCALAR ? !s->args[i].value : !s->args[i].count))
			return util_error_set(UTIL_ENOMEM, "out of memory");
	if (!s->kernel || !s->name || !s->source || !s->grid || !s->block || !s->shared || !s->comment)
		return util_error_set(UTIL_ENOMEM, "out of memory");
	return 0;
}

static enum CXChildVisitResult find_attrs(CXCursor c, CXCursor parent, CXClientData data)
{
	unsigned *mask = data;
	enum CXCursorKind k = clang_getCursorKind(c);

	(void)parent;
	if (k == CXCursor_CUDADeviceAttr)
		*mask |= 1;
	else if (k == CXCursor_CUDAConstantAttr || k == CXCursor_CUDASharedAttr || k == CXCursor_CUDAGlobalAttr)
		*mask |= 2;
	return CXChildVisit_Continue;
}

static void add_cursor(CXCursor **items, size_t *n, CXCursor c, bool *oom)
{
	CXCursor *m = realloc(*items, (*n + 1) * sizeof(*m));

	if (!m) {
		*oom = true;
		return;
	}
	*items = m;
	m[(*n)++] = c;
}

static enum CXChildVisitResult visit_device(CXCursor c, CXCursor parent, CXClientData data)
{
	device_names *dn = data;
	enum CXCursorKind k = clang_getCursorKind(c);
	unsigned mask = 0;

	(void)parent;
	if (chk_names_linkage_block(c))
		return CXChildVisit_Recurse;
	if (in_prelude(c))
		return CXChildVisit_Continue;
	if (k == CXCursor_Namespace)
		return CXChildVisit_Recurse;
	if (k != CXCursor_VarDecl && !((k == CXCursor_FunctionDecl || k == CXCursor_FunctionTemplate) &&
				      clang_isCursorDefinition(c)))
		return CXChildVisit_Continue;
	clang_visitChildren(c, find_attrs, &mask);
	if (mask != 1)
		return CXChildVisit_Continue;
	if (k == CXCursor_VarDecl)
		add_cursor(&dn->globals, &dn->nglobals, c, &dn->oom);
	else
		add_cursor(&dn->functions, &dn->nfunctions, c, &dn->oom);
	return CXChildVisit_Continue;
}

/* A launch's key: what makes two launches of a kernel the same check. */
static char *launch_key(const chk_launch *l)
{
	util_buf b = UTIL_BUF_INIT;
	size_t i;

	util_buf_printf(&b, "%s|%s|%s|%s|%s", l->kernel, l->templ ? l->templ : "", l->grid, l->block, l->shared);
	for (i = 0; i < l->nargs; i++)
		util_buf_printf(&b, "|%s:%s", l->args[i].expr, l->args[i].count ? l->args[i].count : "");
	return util_buf_detach(&b);
}

/* A spec name's suffix for one of several launches: its template arguments
 * when they tell the launches apart, else its line. */
static char *variant_suffix(const chk_launch *l, bool by_template)
{
	util_buf b = UTIL_BUF_INIT;
	const char *p;

	if (by_template && l->templ) {
		for (p = l->templ; *p; p++) {
			char c = isalnum((unsigned char)*p) || *p == '_' ? *p : '-';

			if (c != '-' || (b.len && b.ptr[b.len - 1] != '-'))
				util_buf_putc(&b, c);
		}
		while (b.len && b.ptr[b.len - 1] == '-')
			b.ptr[--b.len] = '\0';
		if (b.len > 40)
			b.ptr[b.len = 40] = '\0';
	}
	if (!b.len)
		util_buf_printf(&b, "line%u", l->line);
	return util_buf_detach(&b);
}

/* The distinct launches of kernel `name` (indices into all; keys[i] is
 * launch_key of all[i]). */
static size_t launches_of(const chk_launch *all, char *const *keys, size_t nall, const char *name, size_t *idx)
{
	size_t i, k, n = 0;

	for (i = 0; i < nall; i++) {
		if (strcmp(all[i].kernel, name) != 0)
			continue;
		for (k = 0; k < n && strcmp(keys[i], keys[idx[k]]) != 0; k++)
			;
		if (k == n)
			idx[n++] = i;
	}
	return n;
}

int chk_draft(chk_spec **out, size_t *n, const char *path, const char *fs_path, const char *src, size_t len,
	      const an_compile_db *db)
{
	chk_draft_options o = { db, NULL, NULL, NULL, NULL };

	return chk_draft_with(out, n, path, fs_path, src, len, &o);
}

/* The harness's include directories as a compile database of one entry for
 * fs_path (the parser takes flags from one only): -I root, -I root/DIR for
 * each of includes. NULL (no error) when there is nothing to add or a
 * temporary file cannot be made: the file is then parsed without. */
static an_compile_db *include_db(const char *root, const char *includes, const char *fs_path)
{
	const char *dir = getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	util_buf json = UTIL_BUF_INIT, tmp = UTIL_BUF_INIT, file = UTIL_BUF_INIT;
	char *real = realpath(fs_path, NULL), *absroot = root && *root ? realpath(root, NULL) : NULL;
	an_compile_db *db = NULL;
	const char *p;

	if (!real || !absroot || !includes) {
		free(real);
		free(absroot);
		return NULL;
	}
	util_buf_puts(&json, "[{\"directory\": ");
	chk_put_quoted(&json, absroot);
	util_buf_puts(&json, ", \"file\": ");
	chk_put_quoted(&json, real);
	util_buf_puts(&json, ", \"arguments\": [\"nvcc\", ");
	util_buf_printf(&tmp, "-I%s", absroot);
	chk_put_quoted(&json, tmp.ptr ? tmp.ptr : "");
	for (p = includes; *p;) {
		size_t len = strcspn(p, " \t");

		if (len) {
			util_buf_clear(&tmp);
			util_buf_printf(&tmp, "-I%s/%.*s", absroot, (int)len, p);
			util_buf_puts(&json, ", ");
			chk_put_quoted(&json, tmp.ptr ? tmp.ptr : "");
		}
		p += len;
		p += strspn(p, " \t");
	}
	util_buf_puts(&json, ", ");
	chk_put_quoted(&json, real);
	util_buf_puts(&json, "]}]\n");
	util_buf_clear(&tmp);
	util_buf_printf(&tmp, "%s/hipport-draft-XXXXXX", dir);
	if (!util_buf_oom(&json) && !util_buf_oom(&tmp) && mkdtemp(tmp.ptr)) {
		util_buf_printf(&file, "%s/compile_commands.json", tmp.ptr);
		if (!util_buf_oom(&file) && util_file_write_fast(file.ptr, json.ptr, json.len) == 0 &&
		    an_compile_db_load(&db, tmp.ptr) < 0)
			db = NULL;
		util_error_clear();
		if (file.ptr)
			unlink(file.ptr);
		rmdir(tmp.ptr);
	}
	free(real);
	free(absroot);
	util_buf_dispose(&json);
	util_buf_dispose(&tmp);
	util_buf_dispose(&file);
	return db;
}

int chk_draft_with(chk_spec **out, size_t *n, const char *path, const char *fs_path, const char *src, size_t len,
		   const chk_draft_options *options)
{
	const chk_recording *rec = options->rec;
	an_compile_db *own_db = options->db ? NULL : include_db(options->root, options->includes, fs_path);
	const an_compile_db *db = options->db ? options->db : own_db;
	an_parser *parser = NULL;
	CXTranslationUnit tu = NULL;
	CXFile file;
	found f = { NULL, 0, false };
	device_names dn;
	chk_launch *launches = NULL;
	size_t nlaunches = 0, *idx = NULL, nspecs = 0, i, k;
	char **keys = NULL;
	chk_spec *specs = NULL, **fallbacks = NULL;
	chk_scope scope;
	int error;

	*out = NULL;
	*n = 0;
	memset(&dn, 0, sizeof(dn));
	memset(&scope, 0, sizeof(scope));
	if ((error = an_parser_new(&parser)) < 0)
		return error;
	if ((error = an_parse(parser, db, fs_path, src, len, &tu, &file)) < 0)
		goto done;
	clang_visitChildren(clang_getTranslationUnitCursor(tu), visit, &f);
	clang_visitChildren(clang_getTranslationUnitCursor(tu), visit_device, &dn);
	if (options->unread) {
		size_t kernels = 0;

		clang_visitChildren(clang_getTranslationUnitCursor(tu), count_kernels, &kernels);
		*options->unread = global_spellings(tu, file, src, len) > kernels;
	}
	if (f.oom || dn.oom) {
		error = util_error_set(UTIL_ENOMEM, "out of memory");
		goto done;
	}
	if ((error = chk_launches_find(&launches, &nlaunches, tu)) < 0)
		goto done;
	if (!(idx = calloc(nlaunches + 1, sizeof(*idx))) || !(keys = calloc(nlaunches + 1, sizeof(*keys))) ||
	    !(specs = calloc(f.n + nlaunches + 1, sizeof(*specs))) ||
	    !(fallbacks = calloc(f.n + nlaunches + 1, sizeof(*fallbacks)))) {
		error = util_error_set(UTIL_ENOMEM, "out of memory");
		goto done;
	}
	for (i = 0; i < nlaunches; i++)
		if (!(keys[i] = launch_key(&launches[i]))) {
			error = util_error_set(UTIL_ENOMEM, "out of memory");
			goto done;
		}
	for (i = 0; i < f.n && error == 0; i++) {
		CXString name = clang_getCursorSpelling(f.items[i]);
		size_t nl = launches_of(launches, keys, nlaunches, clang_getCString(name), idx);
		bool by_template = false;
		char *instantiated = nl ? NULL : explicit_instantiation(src, len, clang_getCString(name));

		clang_disposeString(name);
		/* a header's kernel is this file's check only when this file launches it */
		if (!nl && !clang_Location_isFromMainFile(clang_getCursorLocation(f.items[i])))
			continue;
		for (k = 1; k < nl; k++)
			by_template |= !launches[idx[k]].templ || !launches[idx[0]].templ ||
				       strcmp(launches[idx[k]].templ, launches[idx[0]].templ) != 0;
		for (k = 0; k < (nl ? nl : 1) && error == 0; k++) {
			chk_spec *s = &specs[nspecs];

			error = draft_one(s, f.items[i], tu, path, nl ? &launches[idx[k]] : NULL, instantiated, &dn);
			nspecs++;
			/* what replaces a launch's value that does not compile: the signature's */
			if (error == 0 && nl) {
				if (!(fallbacks[nspecs - 1] = calloc(1, sizeof(chk_spec))))
					error = util_error_set(UTIL_ENOMEM, "out of memory");
				else if ((error = draft_one(fallbacks[nspecs - 1], f.items[i], tu, path, NULL, NULL, &dn)) < 0)
					chk_spec_dispose(fallbacks[nspecs - 1]);
			}
			if (error == 0 && nl > 1) {
				char *suffix = variant_suffix(&launches[idx[k]], by_template), *named = NULL;

				if (!suffix || asprintf(&named, "%s.%s", s->name, suffix) < 0)
					error = util_error_set(UTIL_ENOMEM, "out of memory");
				free(suffix);
				if (named) {
					free(s->name);
					s->name = named;
				}
			}
		}
		free(instantiated);
	}
	/* every drafted expression compiles in the harness, or is a marked value;
	 * the unit is parsed again: no cursor of it is used after */
	if (error == 0 && rec)
		error = chk_record_apply(specs, nspecs, rec);
	if (error == 0 && nspecs && (error = chk_scope_collect(&scope, tu)) == 0)
		error = chk_settle(specs, nspecs, fallbacks, &scope, parser, db, fs_path, src, len);
	if (error < 0) {
		for (k = 0; k < nspecs; k++)
			chk_spec_dispose(&specs[k]);
		free(specs);
		specs = NULL;
		nspecs = 0;
	}
	*out = specs;
	*n = nspecs;
done:
	for (i = 0; fallbacks && i < f.n + nlaunches; i++)
		if (fallbacks[i]) {
			chk_spec_dispose(fallbacks[i]);
			free(fallbacks[i]);
		}
	free(fallbacks);
	chk_scope_dispose(&scope);
	for (i = 0; keys && i < nlaunches; i++)
		free(keys[i]);
	free(keys);
	chk_launches_dispose(launches, nlaunches);
	free(idx);
	free(f.items);
	free(dn.globals);
	free(dn.functions);
	an_parser_free(parser); /* the unit is the parser's */
	if (own_db)
		an_compile_db_free(own_db);
	return error;
}
