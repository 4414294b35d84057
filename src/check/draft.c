#include "check/draft.h"

#include <clang-c/Index.h>
#include <ctype.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/parse.h"
#include "util/error.h"

typedef struct found {
	CXCursor *items;
	size_t n;
	bool oom;
} found;

static enum CXChildVisitResult find_global(CXCursor c, CXCursor parent, CXClientData data)
{
	(void)parent;
	if (clang_getCursorKind(c) == CXCursor_CUDAGlobalAttr) {
		*(bool *)data = true;
		return CXChildVisit_Break;
	}
	return CXChildVisit_Continue;
}

/* The prelude spells __global__ as __attribute__((global)). */
static bool has_global_attr(CXCursor c)
{
	bool global = false;

	clang_visitChildren(c, find_global, &global);
	return global;
}

static enum CXChildVisitResult visit(CXCursor c, CXCursor parent, CXClientData data)
{
	found *f = data;
	enum CXCursorKind k = clang_getCursorKind(c);

	(void)parent;
	if (!clang_Location_isFromMainFile(clang_getCursorLocation(c)))
		return CXChildVisit_Continue;
	if (k == CXCursor_Namespace || k == CXCursor_LinkageSpec)
		return CXChildVisit_Recurse;
	if ((k == CXCursor_FunctionDecl || k == CXCursor_FunctionTemplate) && clang_isCursorDefinition(c) &&
	    has_global_attr(c)) {
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

/* "ns::name", leaving out anonymous namespaces (the harness sees the file). */
static void qualified_name(util_buf *b, CXCursor c)
{
	CXCursor p = clang_getCursorSemanticParent(c);
	CXString s;

	if (!clang_Cursor_isNull(p) && clang_getCursorKind(p) == CXCursor_Namespace) {
		qualified_name(b, p);
		if (!clang_Cursor_isAnonymous(p)) {
			s = clang_getCursorSpelling(p);
			util_buf_printf(b, "%s::", clang_getCString(s));
			clang_disposeString(s);
		}
	}
}

/* A type's spelling without qualifiers. */
static char *plain_type(CXType t)
{
	CXString s = clang_getTypeSpelling(t);
	const char *src = clang_getCString(s);
	/* the prelude declares CUDA's types in a namespace of its own */
	static const char *const drop[] = { "const ", "volatile ", "__restrict__", "__restrict", "restrict",
					    "hipport_prelude::" };
	util_buf b = UTIL_BUF_INIT;
	size_t i, n;

	while (*src) {
		for (i = 0; i < sizeof(drop) / sizeof(drop[0]); i++)
			if (strncmp(src, drop[i], strlen(drop[i])) == 0)
				break;
		if (i < sizeof(drop) / sizeof(drop[0])) {
			src += strlen(drop[i]);
			continue;
		}
		util_buf_putc(&b, *src++);
	}
	clang_disposeString(s);
	while (b.len && b.ptr[b.len - 1] == ' ')
		b.ptr[--b.len] = '\0';
	n = 0;
	while (b.ptr && b.ptr[n] == ' ')
		n++;
	if (n)
		memmove(b.ptr, b.ptr + n, b.len - n + 1);
	return util_buf_detach(&b);
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
		if (tok_is(body, i + 1, "[")) {
			unsigned k = i + 1;
			int depth = 0;

			u.subscripted = true;
			for (; k < body->n; k++) {
				if (tok_is(body, k, "["))
					depth++;
				else if (tok_is(body, k, "]") && --depth == 0)
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
	if (d == CHK_F32 || d == CHK_F64)
		return strdup(lanes == 1 ? "0.7" : "{}");
	if (strcmp(a->type, "bool") == 0)
		return strdup("true");
	if (!is_integer_type(a->type))
		return strdup("{}");
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
	const char *base = strrchr(path, '/'), *dot, *k = strrchr(kernel, ':');
	util_buf b = UTIL_BUF_INIT;

	base = base ? base + 1 : path;
	dot = strrchr(base, '.');
	util_buf_printf(&b, "%.*s.%s", dot && dot != base ? (int)(dot - base) : (int)strlen(base), base,
			k ? k + 1 : kernel);
	return util_buf_detach(&b);
}

typedef struct drafting {
	chk_spec *spec;
	char *tparams[16], *tvalues[16];
	size_t ntemplate;
	char *launch_bounds;
} drafting;

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

		d->tparams[d->ntemplate] = strdup(name);
		d->tvalues[d->ntemplate++] =
			strdup(k == CXCursor_TemplateTypeParameter ? "float" : blockish ? "256" : "1");
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
				type = plain_type(pointee);
			} else {
				type = plain_type(t);
			}
			a->type = type ? substitute(type, d->tparams, d->tvalues, d->ntemplate) : NULL;
			free(type);
		}
	}
	clang_disposeString(s);
	return CXChildVisit_Continue;
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

static int draft_one(chk_spec *s, CXCursor c, CXTranslationUnit tu, const char *path)
{
	drafting d;
	CXCursor body = clang_getNullCursor();
	tokens all, body_tokens;
	util_buf b = UTIL_BUF_INIT, comment = UTIL_BUF_INIT;
	CXString name = clang_getCursorSpelling(c);
	const chk_arg *size, *rows, *cols;
	const char *block;
	bool row_kernel = false;
	unsigned line;
	size_t i;

	memset(&d, 0, sizeof(d));
	memset(s, 0, sizeof(*s));
	d.spec = s;
	s->seed = 1234;
	s->timeout = 60;
	clang_visitChildren(c, visit_kernel, &d);
	clang_getSpellingLocation(clang_getCursorLocation(c), NULL, &line, NULL, NULL);
	qualified_name(&b, c);
	util_buf_puts(&b, clang_getCString(name));
	s->kernel = util_buf_detach(&b);
	s->name = chk_check_name(path, clang_getCString(name));
	s->source = strdup(path);
	memset(&body_tokens, 0, sizeof(body_tokens));
	tokens_of(&all, tu, clang_getCursorExtent(c));
	clang_visitChildren(c, find_body, &body);
	if (!clang_Cursor_isNull(body))
		tokens_of(&body_tokens, tu, clang_getCursorExtent(body));
	d.launch_bounds = launch_bounds(&all);
	if (d.ntemplate) {
		for (i = 0; i < d.ntemplate; i++)
			util_buf_printf(&b, "%s%s", i ? ", " : "", d.tvalues[i]);
		s->templ = util_buf_detach(&b);
	}
	/* roles, and what the body says about each pointer */
	size = size_param(s);
	rows = scalar_named(s, row_names);
	cols = scalar_named(s, col_names);
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
		if (u.atomic && !u.subscripted) {
			a->count = strdup("1");
		} else if (count_param_of(s, a->name)) {
			a->count = strdup(count_param_of(s, a->name)->name);
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
	if (d.ntemplate) {
		util_buf_puts(&comment, "\n- template: arguments for the template parameters");
		for (i = 0; i < d.ntemplate; i++)
			util_buf_printf(&comment, "%s%s", i ? ", " : " ", d.tparams[i]);
		util_buf_puts(&comment, " (drafted, check them).");
	}
	if (row_kernel)
		util_buf_puts(&comment, "\n- rows: the kernel takes cols only; one block per row is assumed.");
	s->comment = util_buf_detach(&comment);
	clang_disposeString(name);
	for (i = 0; i < d.ntemplate; i++) {
		free(d.tparams[i]);
		free(d.tvalues[i]);
	}
	free(d.launch_bounds);
	tokens_dispose(&all);
	tokens_dispose(&body_tokens);
	for (i = 0; i < s->nargs; i++)
		if (!s->args[i].type || (s->args[i].role == CHK_ROLE_SCALAR ? !s->args[i].value : !s->args[i].count))
			return util_error_set(UTIL_ENOMEM, "out of memory");
	if (!s->kernel || !s->name || !s->source || !s->grid || !s->block || !s->shared || !s->comment)
		return util_error_set(UTIL_ENOMEM, "out of memory");
	return 0;
}

int chk_draft(chk_spec **out, size_t *n, const char *path, const char *fs_path, const char *src, size_t len,
	      const an_compile_db *db)
{
	an_parser *parser = NULL;
	CXTranslationUnit tu = NULL;
	CXFile file;
	found f = { NULL, 0, false };
	chk_spec *specs = NULL;
	size_t i;
	int error;

	*out = NULL;
	*n = 0;
	if ((error = an_parser_new(&parser)) < 0)
		return error;
	if ((error = an_parse(parser, db, fs_path, src, len, &tu, &file)) < 0)
		goto done;
	clang_visitChildren(clang_getTranslationUnitCursor(tu), visit, &f);
	if (f.oom || !(specs = calloc(f.n + 1, sizeof(*specs)))) {
		error = util_error_set(UTIL_ENOMEM, "out of memory");
		goto done;
	}
	for (i = 0; i < f.n; i++) {
		if ((error = draft_one(&specs[i], f.items[i], tu, path)) < 0) {
			size_t k;

			for (k = 0; k <= i; k++)
				chk_spec_dispose(&specs[k]);
			free(specs);
			specs = NULL;
			goto done;
		}
	}
	*out = specs;
	*n = f.n;
done:
	free(f.items);
	an_parser_free(parser); /* the unit is the parser's */
	return error;
}
