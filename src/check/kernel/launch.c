#include "check/kernel/launch.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "check/kernel/names.h"
#include "check/kernel/spec.h"
#include "util/buf.h"
#include "util/error.h"

/* The tokens of one host function, with their source offsets. */
typedef struct tok {
	char *text;
	unsigned offset, end, line;
	CXTokenKind kind;
} tok;

/* A local variable or parameter of the function. */
typedef struct local {
	char *name, *type;
	char *pointee;         /* the pointee as spelled, where the parse did not know the type (clock_t *) */
	CXType ctype;
	unsigned offset;       /* of its name */
	size_t first, last;    /* tokens of its declaration, [first, last) */
	bool param;
} local;

/* A type alias of the function: using NAME = T; typedef T NAME; */
typedef struct type_alias {
	char *name;
	unsigned offset;  /* of its name */
	size_t from, to;  /* the tokens of T */
} type_alias;

typedef struct fn {
	tok *t;
	size_t n;
	local *locals;
	size_t nlocals;
	type_alias *aliases;
	size_t naliases;
	char *tparams[16]; /* the function's template parameters */
	bool ttype[16];    /* a type parameter */
	size_t ntparams;
	char *tgiven[16];  /* their arguments at a call of the function in the file */
	size_t ngiven;
	unsigned given_line;
	bool oom;
} fn;

/* What the resolution of one launch gathered. */
typedef struct rctx {
	fn *f;
	chk_launch *l;
	int depth;
	bool oom;
} rctx;

static bool is(const fn *f, size_t i, const char *s)
{
	return i < f->n && strcmp(f->t[i].text, s) == 0;
}

static bool ident(const fn *f, size_t i)
{
	return i < f->n && (f->t[i].kind == CXToken_Identifier || f->t[i].kind == CXToken_Keyword);
}

char *chk_type_spelling(CXType t)
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
	return b.ptr ? util_buf_detach(&b) : strdup("");
}

char *chk_type_known_spelling(CXType t)
{
	char *spelled = chk_type_spelling(t), *canonical;
	unsigned lanes;

	if (!spelled || chk_type_dtype(spelled, &lanes) >= 0)
		return spelled;
	/* a typedef of a type the parse could not see (typedef __nv_bfloat16
	 * floatX, with no CUDA headers) is its name: its int is the parser's guess */
	if (clang_isInvalidDeclaration(clang_getTypeDeclaration(t)))
		return spelled;
	/* a typedef (typedef int ctype) is its real type */
	canonical = chk_type_spelling(clang_getCanonicalType(t));
	if (canonical && chk_type_dtype(canonical, &lanes) >= 0) {
		free(spelled);
		return canonical;
	}
	free(canonical);
	return spelled;
}

static size_t token_at(const fn *f, unsigned offset)
{
	size_t lo = 0, hi = f->n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (f->t[mid].offset < offset)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static unsigned offset_of(CXSourceLocation loc)
{
	unsigned offset;

	clang_getSpellingLocation(loc, NULL, NULL, NULL, &offset);
	return offset;
}

static enum CXChildVisitResult collect_locals(CXCursor c, CXCursor parent, CXClientData data)
{
	fn *f = data;
	enum CXCursorKind k = clang_getCursorKind(c);

	(void)parent;
	if ((k == CXCursor_TemplateTypeParameter || k == CXCursor_NonTypeTemplateParameter) && f->ntparams < 16) {
		CXString s = clang_getCursorSpelling(c);

		f->ttype[f->ntparams] = k == CXCursor_TemplateTypeParameter;
		if (!(f->tparams[f->ntparams++] = strdup(clang_getCString(s))))
			f->oom = true;
		clang_disposeString(s);
		return CXChildVisit_Continue;
	}
	if (k == CXCursor_TypeAliasDecl || k == CXCursor_TypedefDecl) {
		CXString s = clang_getCursorSpelling(c);
		CXSourceRange r = clang_getCursorExtent(c);
		size_t first = token_at(f, offset_of(clang_getRangeStart(r))), last = token_at(f, offset_of(clang_getRangeEnd(r)));
		size_t name = token_at(f, offset_of(clang_getCursorLocation(c))), i;
		type_alias *m, *a;

		/* using NAME = T: after "="; typedef T NAME: between */
		for (i = first; k == CXCursor_TypeAliasDecl && i < last && !is(f, i, "="); i++)
			;
		if (k == CXCursor_TypeAliasDecl ? i + 1 < last : name > first + 1) {
			if (!(m = realloc(f->aliases, (f->naliases + 1) * sizeof(*m)))) {
				f->oom = true;
				clang_disposeString(s);
				return CXChildVisit_Break;
			}
			f->aliases = m;
			a = &m[f->naliases++];
			a->name = strdup(clang_getCString(s));
			a->offset = offset_of(clang_getCursorLocation(c));
			a->from = k == CXCursor_TypeAliasDecl ? i + 1 : first + 1;
			a->to = k == CXCursor_TypeAliasDecl ? last : name;
			if (!a->name)
				f->oom = true;
		}
		clang_disposeString(s);
		return CXChildVisit_Continue;
	}
	if (k == CXCursor_VarDecl || k == CXCursor_ParmDecl) {
		CXString s = clang_getCursorSpelling(c);
		CXSourceRange r = clang_getCursorExtent(c);
		local *m = realloc(f->locals, (f->nlocals + 1) * sizeof(*m)), *v;

		if (!m) {
			f->oom = true;
			clang_disposeString(s);
			return CXChildVisit_Break;
		}
		f->locals = m;
		v = &m[f->nlocals];
		memset(v, 0, sizeof(*v));
		v->name = strdup(clang_getCString(s));
		clang_disposeString(s);
		v->ctype = clang_getCursorType(c);
		if (!(v->type = chk_spelled_type(c, v->name ? v->name : "")))
			v->type = chk_type_known_spelling(v->ctype);
		v->pointee = chk_spelled_pointee(c, v->name ? v->name : "");
		v->offset = offset_of(clang_getCursorLocation(c));
		v->first = token_at(f, offset_of(clang_getRangeStart(r)));
		v->last = token_at(f, offset_of(clang_getRangeEnd(r)));
		v->param = k == CXCursor_ParmDecl;
		f->nlocals++;
		if (!v->name || !v->type)
			f->oom = true;
	}
	return CXChildVisit_Recurse;
}

typedef struct param_counter {
	CXCursor param;
	unsigned before;
	bool found;
} param_counter;

static enum CXChildVisitResult count_params(CXCursor c, CXCursor parent, CXClientData data)
{
	param_counter *pc = data;

	(void)parent;
	if (clang_getCursorKind(c) != CXCursor_ParmDecl)
		return CXChildVisit_Continue;
	if (clang_equalCursors(c, pc->param)) {
		pc->found = true;
		return CXChildVisit_Break;
	}
	pc->before++;
	return CXChildVisit_Continue;
}

/* The tokens of parameter c in its function's declaration, from *first,
 * *n of them: an unnamed parameter of a type the parse could not make
 * (std::bool_constant<B> without system headers) has no extent of its own. */
static bool param_tokens(CXCursor c, CXToken *all, unsigned nall, CXTranslationUnit tu, unsigned *first, unsigned *n)
{
	CXCursor function = clang_getCursorSemanticParent(c);
	CXString fname = clang_getCursorSpelling(function);
	param_counter pc = { c, 0, false };
	unsigned i, k = 0, start = 0;
	int depth = 0;
	bool open = false;

	clang_visitChildren(function, count_params, &pc);
	for (i = 0; pc.found && i < nall; i++) {
		CXString t = clang_getTokenSpelling(tu, all[i]);
		const char *x = clang_getCString(t);

		if (!open) {
			if (i > 0 && strcmp(x, "(") == 0) {
				CXString prev = clang_getTokenSpelling(tu, all[i - 1]);

				open = strcmp(clang_getCString(prev), clang_getCString(fname)) == 0;
				clang_disposeString(prev);
				start = i + 1;
			}
		} else if (strcmp(x, "(") == 0 || strcmp(x, "<") == 0 || strcmp(x, "[") == 0) {
			depth++;
		} else if ((strcmp(x, ")") == 0 || strcmp(x, ",") == 0) && depth == 0) {
			if (k++ == pc.before) {
				clang_disposeString(t);
				clang_disposeString(fname);
				*first = start;
				*n = i - start;
				return *n > 0;
			}
			start = i + 1;
			if (strcmp(x, ")") == 0)
				break;
		} else if (strcmp(x, ")") == 0 || strcmp(x, ">") == 0 || strcmp(x, "]") == 0) {
			depth--;
		} else if (strcmp(x, ">>") == 0) {
			depth -= 2;
		}
		clang_disposeString(t);
	}
	clang_disposeString(fname);
	return false;
}

/* Whether tokens [0, n) hold a preprocessor directive's "#": a parameter
 * whose type is a macro has an extent from the macro's definition on. */
static bool has_directive(CXTranslationUnit tu, const CXToken *toks, unsigned n)
{
	unsigned i;
	bool found = false;

	for (i = 0; i < n && !found; i++) {
		CXString t = clang_getTokenSpelling(tu, toks[i]);

		found = strcmp(clang_getCString(t), "#") == 0;
		clang_disposeString(t);
	}
	return found;
}

/* The type an invalid declaration of name spells, with stars pointers
 * (each "*" left out), qualifiers dropped; NULL for anything else. */
static char *spelled(CXCursor c, const char *name, unsigned stars)
{
	CXTranslationUnit tu = clang_Cursor_getTranslationUnit(c);
	CXToken *toks = NULL, *all = NULL;
	unsigned n = 0, i, seen = 0, first = 0, nall = 0;
	util_buf b = UTIL_BUF_INIT;
	bool plain = true;

	if (!clang_isInvalidDeclaration(c))
		return NULL;
	clang_tokenize(tu, clang_getCursorExtent(c), &toks, &n);
	/* a type that is a macro (#define TensorAcc4R PackedTensorAccessor32<...>)
	 * starts the extent at the macro's definition: the parameter's own
	 * tokens in the signature instead, the macro's name */
	if (n && clang_getCursorKind(c) == CXCursor_ParmDecl && has_directive(tu, toks, n)) {
		clang_disposeTokens(tu, toks, n);
		toks = NULL;
		n = 0;
	}
	if (n == 0 && clang_getCursorKind(c) == CXCursor_ParmDecl) {
		clang_tokenize(tu, clang_getCursorExtent(clang_getCursorSemanticParent(c)), &all, &nall);
		if (param_tokens(c, all, nall, tu, &first, &n))
			toks = all + first;
		else
			n = 0;
	}
	for (i = 0; i < n && plain; i++) {
		CXString t = clang_getTokenSpelling(tu, toks[i]);
		const char *x = clang_getCString(t);

		seen += strcmp(x, "*") == 0;
		plain = strcmp(x, "&") && strcmp(x, "[") && strcmp(x, "=") && seen <= stars;
		if (plain && strcmp(x, "*") && strcmp(x, name) && strcmp(x, "const") && strcmp(x, "volatile") &&
		    strcmp(x, "__restrict__") && strcmp(x, "__restrict"))
			util_buf_printf(&b, "%s%s", b.len ? " " : "", x);
		clang_disposeString(t);
	}
	if (all)
		clang_disposeTokens(tu, all, nall);
	else if (toks)
		clang_disposeTokens(tu, toks, n);
	if (!plain || seen != stars || !b.len) {
		util_buf_dispose(&b);
		return NULL;
	}
	return util_buf_detach(&b);
}

char *chk_spelled_type(CXCursor c, const char *name)
{
	return spelled(c, name, 0);
}

char *chk_spelled_pointee(CXCursor c, const char *name)
{
	return spelled(c, name, 1);
}

static void fn_dispose(fn *f)
{
	size_t i;

	for (i = 0; i < f->n; i++)
		free(f->t[i].text);
	for (i = 0; i < f->nlocals; i++) {
		free(f->locals[i].name);
		free(f->locals[i].type);
		free(f->locals[i].pointee);
	}
	for (i = 0; i < f->naliases; i++)
		free(f->aliases[i].name);
	free(f->aliases);
	for (i = 0; i < f->ntparams; i++)
		free(f->tparams[i]);
	for (i = 0; i < f->ngiven; i++)
		free(f->tgiven[i]);
	free(f->t);
	free(f->locals);
}

static int fn_load_tokens(fn *f, CXTranslationUnit tu, CXCursor c, bool locals);

static size_t after_group(const fn *f, size_t i, size_t end);
static size_t split(const fn *f, size_t from, size_t to, size_t *starts, size_t *ends, size_t max);

/* Parameters clang did not declare (a signature with a type it does not
 * know, at::Tensor without torch's headers): the last name of each
 * parameter in the parentheses before the body, as parameters still. */
static void signature_params(fn *f)
{
	size_t i, open = f->n, close, s[64], e[64], n, k;

	for (i = 0; i < f->n && strcmp(f->t[i].text, "{") != 0; i++)
		if (!strcmp(f->t[i].text, "(")) {
			open = i;
			i = after_group(f, i, f->n) - 1;
		}
	if (open >= f->n)
		return;
	close = after_group(f, open, f->n) - 1;
	n = split(f, open + 1, close, s, e, 64);
	for (k = 0; k < n; k++) {
		size_t name = e[k], j;
		local *m, *v;
		util_buf type = UTIL_BUF_INIT;

		for (j = s[k]; j < e[k]; j++)
			if (!strcmp(f->t[j].text, "=")) {
				name = j;
				break;
			}
		if (name <= s[k] || f->t[name - 1].kind != CXToken_Identifier)
			continue;
		name--;
		for (j = 0; j < f->nlocals; j++)
			if (!strcmp(f->locals[j].name, f->t[name].text))
				break;
		if (j < f->nlocals)
			continue;
		if (!(m = realloc(f->locals, (f->nlocals + 1) * sizeof(*m)))) {
			f->oom = true;
			return;
		}
		f->locals = m;
		v = &m[f->nlocals++];
		memset(v, 0, sizeof(*v));
		for (j = s[k]; j < name; j++)
			if (strcmp(f->t[j].text, "const") && strcmp(f->t[j].text, "&"))
				util_buf_printf(&type, "%s%s", type.len ? " " : "", f->t[j].text);
		v->name = strdup(f->t[name].text);
		v->type = type.ptr ? util_buf_detach(&type) : strdup("int");
		v->ctype.kind = CXType_Invalid;
		v->offset = f->t[name].offset;
		v->first = s[k];
		v->last = e[k];
		v->param = true;
		if (!v->name || !v->type)
			f->oom = true;
	}
}

static int fn_load(fn *f, CXTranslationUnit tu, CXCursor c)
{
	return fn_load_tokens(f, tu, c, true);
}

static int fn_load_tokens(fn *f, CXTranslationUnit tu, CXCursor c, bool locals)
{
	CXToken *tokens = NULL;
	unsigned n = 0, i;

	memset(f, 0, sizeof(*f));
	clang_tokenize(tu, clang_getCursorExtent(c), &tokens, &n);
	if (n && !(f->t = calloc(n, sizeof(*f->t))))
		f->oom = true;
	for (i = 0; f->t && i < n; i++) {
		CXString s;
		CXSourceRange r;
		tok *t = &f->t[f->n];

		/* a comment inside an argument list would end up in a drafted
		 * expression, and comment out the rest of its line */
		if (clang_getTokenKind(tokens[i]) == CXToken_Comment)
			continue;
		s = clang_getTokenSpelling(tu, tokens[i]);
		r = clang_getTokenExtent(tu, tokens[i]);
		t->text = strdup(clang_getCString(s));
		clang_disposeString(s);
		clang_getSpellingLocation(clang_getRangeStart(r), NULL, &t->line, NULL, &t->offset);
		t->end = offset_of(clang_getRangeEnd(r));
		t->kind = clang_getTokenKind(tokens[i]);
		f->n++;
		if (!t->text)
			f->oom = true;
	}
	if (tokens)
		clang_disposeTokens(tu, tokens, n);
	if (!f->oom && locals) {
		clang_visitChildren(c, collect_locals, f);
		signature_params(f);
	}
	return f->oom ? util_error_set(UTIL_ENOMEM, "out of memory") : 0;
}

/* The token after the bracket that closes the one at i ("(", "[", "{"). */
static size_t after_group(const fn *f, size_t i, size_t end)
{
	int depth = 0;

	for (; i < end; i++) {
		const char *s = f->t[i].text;

		if (!strcmp(s, "(") || !strcmp(s, "[") || !strcmp(s, "{"))
			depth++;
		else if ((!strcmp(s, ")") || !strcmp(s, "]") || !strcmp(s, "}")) && --depth == 0)
			return i + 1;
	}
	return end;
}

/* Splits [from, to) at the commas outside brackets: starts[k], ends[k]. */
static size_t split(const fn *f, size_t from, size_t to, size_t *starts, size_t *ends, size_t max)
{
	size_t i, n = 0, start = from;
	int depth = 0;

	if (from >= to)
		return 0;
	for (i = from; i <= to && n < max; i++) {
		const char *s = i < to ? f->t[i].text : ",";

		if (!strcmp(s, "(") || !strcmp(s, "[") || !strcmp(s, "{"))
			depth++;
		else if (!strcmp(s, ")") || !strcmp(s, "]") || !strcmp(s, "}"))
			depth--;
		else if ((i == to || !strcmp(s, ",")) && depth == 0) {
			starts[n] = start;
			ends[n++] = i;
			start = i + 1;
		}
	}
	return n;
}

/* The local named by token i as the code at offset `at` sees it. */
static local *local_at(fn *f, size_t i, unsigned at)
{
	local *best = NULL;
	size_t k;

	if (!ident(f, i) || (i > 0 && (is(f, i - 1, ".") || is(f, i - 1, "->") || is(f, i - 1, "::"))) ||
	    is(f, i + 1, "::"))
		return NULL;
	for (k = 0; k < f->nlocals; k++) {
		local *v = &f->locals[k];

		if (v->offset < at && strcmp(v->name, f->t[i].text) == 0 && (!best || v->offset > best->offset))
			best = v;
	}
	return best;
}

/* The function's type alias named by token i as the code at offset at sees it. */
static type_alias *alias_at(fn *f, size_t i, unsigned at)
{
	type_alias *best = NULL;
	size_t k;

	if (f->t[i].kind != CXToken_Identifier || (i > 0 && (is(f, i - 1, ".") || is(f, i - 1, "->") || is(f, i - 1, "::"))))
		return NULL;
	for (k = 0; k < f->naliases; k++) {
		type_alias *a = &f->aliases[k];

		if (a->offset < at && strcmp(a->name, f->t[i].text) == 0 && (!best || a->offset > best->offset))
			best = a;
	}
	return best;
}

static const char *const assign_ops[] = { "=", "+=", "-=", "*=", "/=", "%=", "<<=", ">>=", "&=", "|=", "^=", NULL };

static bool in_list(const char *s, const char *const *list)
{
	for (; *list; list++)
		if (!strcmp(s, *list))
			return true;
	return false;
}

/* Whether t is a number (bool and char included). */
static bool is_number(CXType t)
{
	enum CXTypeKind k = clang_getCanonicalType(t).kind;

	return k >= CXType_Bool && k <= CXType_LongDouble;
}

/* Whether [from, to) names anything (its type is then not its literals'). */
static bool names_in(const fn *f, size_t from, size_t to)
{
	for (; from < to; from++)
		if (f->t[from].kind == CXToken_Identifier)
			return true;
	return false;
}

/* Whether a block open at token i closes before offset at. */
static bool closed_between(const fn *f, size_t i, unsigned at)
{
	int depth = 0;

	for (; i < f->n && f->t[i].offset < at; i++) {
		if (is(f, i, "{"))
			depth++;
		else if (is(f, i, "}") && --depth < 0)
			return true;
	}
	return false;
}

/* How v's value reaches offset at: by its initialiser, or by the last plain
 * assignment before; from and to bound its tokens, *ctor when it is
 * constructor arguments (dim3 g(x, y)). false when it is changed some other
 * way (++, +=, its address taken) or never given one. */
static bool value_of(fn *f, local *v, unsigned at, size_t *from, size_t *to, bool *ctor, bool *counter)
{
	size_t name = token_at(f, v->offset), i, header_end = 0;
	bool found = false;

	*ctor = *counter = false;
	if (name + 1 < v->last && is(f, name + 1, "=")) {
		*from = name + 2;
		*to = v->last;
		found = true;
	} else if (name + 1 < v->last && (is(f, name + 1, "(") || is(f, name + 1, "{"))) {
		*from = name + 2;
		*to = after_group(f, name + 1, f->n) - 1;
		*ctor = found = true;
	}
	/* a for loop's own variable: a launch in its body is drafted for the
	 * first iteration, so the header's step is not a change before it */
	if (v->first >= 2 && is(f, v->first - 1, "(") && is(f, v->first - 2, "for"))
		header_end = after_group(f, v->first - 1, f->n);
	for (i = v->last; i < f->n && f->t[i].offset < at; i++) {
		if (strcmp(f->t[i].text, v->name) != 0 || local_at(f, i, f->t[i].offset + 1) != v || i < header_end)
			continue;
		if (is(f, i + 1, "++") || is(f, i + 1, "--") || (i > 0 && (is(f, i - 1, "++") || is(f, i - 1, "--")))) {
			*counter = true;
			return false;
		}
		if (i > 0 && is(f, i - 1, "&") && (i < 2 || !(ident(f, i - 2) || f->t[i - 2].kind == CXToken_Literal ||
							       is(f, i - 2, ")") || is(f, i - 2, "]"))))
			return false;
		if (i + 1 < f->n && in_list(f->t[i + 1].text, assign_ops)) {
			size_t e = i + 2;
			int depth = 0;

			if (strcmp(f->t[i + 1].text, "=") != 0)
				return false;
			for (; e < f->n; e++) {
				const char *s = f->t[e].text;

				if (!strcmp(s, "(") || !strcmp(s, "[") || !strcmp(s, "{"))
					depth++;
				else if (!strcmp(s, ")") || !strcmp(s, "]") || !strcmp(s, "}")) {
					if (depth-- == 0)
						break;
				} else if ((!strcmp(s, ";") || !strcmp(s, ",")) && depth == 0)
					break;
			}
			/* an assignment in a block that closed before at (a branch,
			 * a loop) may not be the value at at: none is known */
			if (closed_between(f, i, at))
				return false;
			*from = i + 2;
			*to = e;
			*ctor = false;
			found = true;
		}
	}
	return found;
}

/* A dim3 declared without a value and given it member by member before
 * offset at (dim3 block; block.x = 32; block.y = 8;): the tokens of each
 * member's value in from[]/to[] (from[m] == 0: not given, 1), each seen at
 * its assignment's offset (where[]). false when it has an initialiser or is
 * changed some other way (assigned whole, +=, its address taken, a member
 * set in a block closed before at). */
static bool dim3_members(const fn *f, const local *v, unsigned at, size_t from[3], size_t to[3], unsigned where[3])
{
	size_t name = token_at(f, v->offset), i;
	bool any = false;

	if (v->param || strcmp(v->type, "dim3") != 0 || !(is(f, name + 1, ";") || is(f, name + 1, ",")))
		return false;
	from[0] = from[1] = from[2] = 0;
	for (i = v->last; i < f->n && f->t[i].offset < at; i++) {
		size_t e;
		int depth = 0, m;

		if (strcmp(f->t[i].text, v->name) != 0 || local_at((fn *)f, i, f->t[i].offset + 1) != v)
			continue;
		if ((i > 0 && (is(f, i - 1, "&") || is(f, i - 1, "++") || is(f, i - 1, "--"))) ||
		    (i + 1 < f->n && in_list(f->t[i + 1].text, assign_ops)))
			return false;
		if (!(is(f, i + 1, ".") && i + 3 < f->n))
			continue;
		m = is(f, i + 2, "x") ? 0 : is(f, i + 2, "y") ? 1 : is(f, i + 2, "z") ? 2 : -1;
		if (in_list(f->t[i + 3].text, assign_ops) || is(f, i + 3, "++") || is(f, i + 3, "--")) {
			if (m < 0 || !is(f, i + 3, "=") || closed_between(f, i, at))
				return false;
			for (e = i + 4; e < f->n; e++) {
				if (is(f, e, "(") || is(f, e, "[") || is(f, e, "{"))
					depth++;
				else if ((is(f, e, ")") || is(f, e, "]") || is(f, e, "}")) && depth-- == 0)
					break;
				else if ((is(f, e, ";") || is(f, e, ",")) && depth == 0)
					break;
			}
			from[m] = i + 4;
			to[m] = e;
			where[m] = f->t[i + 3].offset;
			any = true;
		}
	}
	return any;
}

/* [from, to) as written. */
static char *joined(const fn *f, size_t from, size_t to)
{
	util_buf b = UTIL_BUF_INIT;
	size_t i;

	for (i = from; i < to; i++)
		util_buf_printf(&b, "%s%s", i > from && f->t[i].offset > f->t[i - 1].end ? " " : "", f->t[i].text);
	return b.ptr ? util_buf_detach(&b) : strdup("");
}

/* A new entry of the launch's unresolved names, or NULL when name has one
 * (or memory ran out: r->oom). */
static chk_unresolved *new_unresolved(rctx *r, const char *name)
{
	chk_launch *l = r->l;
	chk_unresolved *m;
	size_t i;

	for (i = 0; i < l->nunresolved; i++)
		if (!strcmp(l->unresolved[i].name, name))
			return NULL;
	if (!(m = realloc(l->unresolved, (l->nunresolved + 1) * sizeof(*m)))) {
		r->oom = true;
		return NULL;
	}
	l->unresolved = m;
	memset(&m[l->nunresolved], 0, sizeof(*m));
	return &m[l->nunresolved++];
}

static const char *template_value(rctx *r, const char *name);

/* The number other than 0 a local's declaration [first, last) initialises
 * it with (`int dimx = 32`, `float eps = -1e-5f`), or NULL. */
static char *declared_number(const fn *f, size_t first, size_t last, const char *name)
{
	size_t i;

	for (i = first; i + 2 < last; i++) {
		size_t k = i + 2;

		if (strcmp(f->t[i].text, name) != 0 || !is(f, i + 1, "="))
			continue;
		if (is(f, k, "-") && k + 1 < last)
			k++;
		/* 0 is a placeholder the program fills, no default */
		if (f->t[k].kind != CXToken_Literal || !(isdigit((unsigned char)f->t[k].text[0]) || f->t[k].text[0] == '.') ||
		    strtod(f->t[k].text, NULL) == 0 || !(k + 1 == last || is(f, k + 1, ";") || is(f, k + 1, ",")))
			return NULL;
		return k > i + 2 ? joined(f, i + 2, k + 1) : strdup(f->t[k].text);
	}
	return NULL;
}

static void add_unresolved(rctx *r, local *v, bool counter)
{
	chk_unresolved *u;
	util_buf why = UTIL_BUF_INIT;
	size_t first = v->first, last = v->last < r->f->n ? v->last : r->f->n;
	char *decl, *type;

	/* const value_idx n of template <typename value_idx>: the type's value
	 * (copied first: the list it is in grows below) */
	for (u = r->l->unresolved; u < r->l->unresolved + r->l->nunresolved; u++)
		if (u->name && !strcmp(u->name, v->name))
			return;
	if (!(type = strdup(template_value(r, v->type)))) {
		r->oom = true;
		return;
	}
	if (!(u = new_unresolved(r, v->name))) {
		free(type);
		return;
	}
	decl = joined(r->f, first, last < first + 24 ? last : first + 24);
	util_buf_puts(&why, decl ? decl : "");
	free(decl);
	if (last > first + 24)
		util_buf_puts(&why, " ...");
	util_buf_printf(&why, " (line %u%s)", first < r->f->n ? r->f->t[first].line : 0,
			v->param ? ", a parameter" : counter ? ", changed before the launch" : "");
	u->name = strdup(v->name);
	u->type = type;
	u->why = util_buf_detach(&why);
	u->counter = counter;
	if (!v->param && !counter)
		u->initial = declared_number(r->f, first, last, v->name);
	if (!u->name || !u->type || !u->why)
		r->oom = true;
}

static void resolve(rctx *r, const size_t *idx, size_t n, unsigned at, util_buf *out);

typedef struct field_find {
	const char *name;
	CXType type;
	bool found;
} field_find;

static enum CXVisitorResult find_field(CXCursor c, CXClientData data)
{
	field_find *ff = data;
	CXString s = clang_getCursorSpelling(c);

	if (!strcmp(clang_getCString(s), ff->name)) {
		ff->type = clang_getCursorType(c);
		ff->found = true;
	}
	clang_disposeString(s);
	return ff->found ? CXVisit_Break : CXVisit_Continue;
}

/* The type of member name of record type t; false when it is not known. */
static bool member_type(CXType t, const char *name, CXType *out)
{
	field_find ff = { name, { CXType_Invalid, { NULL, NULL } }, false };

	t = clang_getCanonicalType(t);
	if (t.kind != CXType_Record)
		return false;
	clang_Type_visitFields(t, find_field, &ff);
	*out = ff.type;
	return ff.found;
}

/* v.m1.m2 of a struct v whose value is not known (prop.multiProcessorCount
 * after cudaGetDeviceProperties(&prop, 0), sweeper.dims_b.ncell_x): one
 * unresolved name, v_m1_m2, of the last member's type (int when it is not
 * known), written to out. members: the members' tokens in f. */
static void add_member(rctx *r, local *v, const size_t *members, size_t count, util_buf *out)
{
	chk_unresolved *u;
	util_buf name = UTIL_BUF_INIT, why = UTIL_BUF_INIT;
	CXType t = v->ctype;
	bool typed = v->ctype.kind != CXType_Invalid;
	size_t k;

	util_buf_puts(&name, v->name);
	util_buf_puts(&why, v->name);
	for (k = 0; k < count; k++) {
		const char *m = r->f->t[members[k]].text;

		util_buf_printf(&name, "_%s", m);
		util_buf_printf(&why, ".%s", m);
		typed = typed && member_type(t, m, &t);
	}
	util_buf_printf(&why, " of %s (line %u), which the program fills", v->name,
			v->first < r->f->n ? r->f->t[v->first].line : 0);
	util_buf_puts(out, name.ptr ? name.ptr : "");
	if ((u = new_unresolved(r, name.ptr ? name.ptr : ""))) {
		u->name = util_buf_detach(&name);
		u->type = typed ? chk_type_known_spelling(t) : strdup("int");
		u->why = util_buf_detach(&why);
		if (!u->name || !u->type || !u->why)
			r->oom = true;
	}
	util_buf_dispose(&name);
	util_buf_dispose(&why);
}

/* How many ".member" follow token i (within the expression's tokens idx[k..n)),
 * the last not a call with arguments. */
static size_t members_after(const fn *f, const size_t *idx, size_t k, size_t n)
{
	size_t i = idx[k], m = 0;

	while (k + 2 * m + 2 < n && idx[k + 2 * m + 1] == i + 2 * m + 1 && idx[k + 2 * m + 2] == i + 2 * m + 2 &&
	       is(f, i + 2 * m + 1, ".") && ident(f, i + 2 * m + 2))
		m++;
	/* p.get(x) is no member's value */
	if (m && is(f, i + 2 * m + 1, "(") && !is(f, i + 2 * m + 2, ")"))
		m--;
	return m;
}

/* The index of template parameter name of f, or f->ntparams. */
static size_t tparam_index(const fn *f, const char *name)
{
	size_t i;

	for (i = 0; i < f->ntparams; i++)
		if (!strcmp(f->tparams[i], name))
			break;
	return i;
}

const char *chk_type_param_guess(const char *name)
{
	static const char *const integral[] = { "idx", "index", "offset", "size", NULL };
	char lower[64];
	size_t i;

	for (i = 0; name[i] && i + 1 < sizeof(lower); i++)
		lower[i] = (char)tolower((unsigned char)name[i]);
	lower[i] = '\0';
	for (i = 0; integral[i]; i++)
		if (strstr(lower, integral[i]))
			return "int";
	return "float";
}

/* A template parameter of the launching function (template <typename T>
 * void run() { k<T><<<...>>>(...); }) has no value here: a drafted one
 * (chk_type_param_guess's type, 256 for block-like names, else 1), listed as guessed. Other
 * names are themselves. */
static const char *template_value(rctx *r, const char *name)
{
	chk_launch *l = r->l;
	chk_unresolved *u;
	size_t i = tparam_index(r->f, name), k;

	if (i == r->f->ntparams)
		return name;
	for (k = 0; k < l->nunresolved; k++)
		if (l->unresolved[k].template_param && !strcmp(l->unresolved[k].name, name))
			return l->unresolved[k].value;
	if (!(u = new_unresolved(r, name)))
		return name;
	u->template_param = true;
	u->name = strdup(name);
	u->type = strdup(r->f->ttype[i] ? "typename" : "int");
	/* an argument that is itself the caller's template parameter (run<N>
	 * calls runTest<char, N>) is no value either */
	if (i < r->f->ngiven && tparam_index(r->f, r->f->tgiven[i]) == r->f->ntparams) {
		/* runTest<float, 512>(...) in the file: its arguments, not a guess */
		char why[96];

		u->value = strdup(r->f->tgiven[i]);
		snprintf(why, sizeof(why), "the template argument of the call at line %u", r->f->given_line);
		u->why = strdup(why);
		u->counter = false;
		u->from_call = true;
	} else {
		u->value = strdup(r->f->ttype[i] ? chk_type_param_guess(name) : strstr(name, "BLOCK") || strstr(name, "THREADS") ||
							strstr(name, "block") || strstr(name, "threads") ? "256" : "1");
		u->why = strdup("a template parameter of the launching function");
	}
	if (!u->name || !u->value || !u->type || !u->why) {
		r->oom = true;
		return name;
	}
	return u->value;
}

/* Resolves [from, to) as the code at offset at sees it. */
static void resolve_range(rctx *r, size_t from, size_t to, unsigned at, util_buf *out)
{
	size_t *idx = to > from ? malloc((to - from) * sizeof(*idx)) : NULL, i;

	if (to > from && !idx) {
		r->oom = true;
		return;
	}
	for (i = from; i < to; i++)
		idx[i - from] = i;
	resolve(r, idx, to - from, at, out);
	free(idx);
}

/* Whether [from, to) names a parameter of the function that is no number
 * (argv, a struct of options): then the local it is the value of is a root
 * the program gives at run time, a name of its own. A number parameter
 * (block_size) is such a root itself, and the locals computed from it stay
 * expressions over it (dim3 block = {4, 8, block_size / 32}). */
static bool needs_param(fn *f, size_t from, size_t to, unsigned at)
{
	size_t i;

	for (i = from; i < to; i++) {
		local *v = local_at(f, i, at);

		if (v && v->param && !is_number(v->ctype) && clang_getCanonicalType(v->ctype).kind != CXType_Enum)
			return true;
	}
	return false;
}

static void resolve(rctx *r, const size_t *idx, size_t n, unsigned at, util_buf *out)
{
	fn *f = r->f;
	size_t k;

	for (k = 0; k < n; k++) {
		size_t i = idx[k], a, b, m, dfrom[3], dto[3];
		unsigned dwhere[3];
		local *v = local_at(f, i, at), *w;
		type_alias *t;
		bool ctor, counter;

		if (k > 0 && f->t[i].offset > f->t[idx[k - 1]].end)
			util_buf_putc(out, ' ');
		if (!v && (t = alias_at(f, i, at)) && r->depth <= 16) {
			/* using T = traits<N, float>; k<T><<<...>>>: the type it names */
			r->depth++;
			resolve_range(r, t->from, t->to, f->t[t->from].offset, out);
			r->depth--;
			continue;
		}
		if (!v) {
			/* traits<N>::kThreads: a member, not the template parameter kThreads */
			bool member = i > 0 && (is(f, i - 1, "::") || is(f, i - 1, ".") || is(f, i - 1, "->"));

			util_buf_puts(out, member ? f->t[i].text : template_value(r, f->t[i].text));
			continue;
		}
		if (r->depth <= 16 && dim3_members(f, v, at, dfrom, dto, dwhere)) {
			/* dim3 block; block.x = 32; ...: dim3(32, ...), 1 where not given */
			util_buf_puts(out, "dim3(");
			r->depth++;
			for (m = 0; m < 3; m++) {
				util_buf_puts(out, m ? ", " : "");
				if (dfrom[m])
					resolve_range(r, dfrom[m], dto[m], dwhere[m], out);
				else
					util_buf_putc(out, '1');
			}
			r->depth--;
			util_buf_putc(out, ')');
			continue;
		}
		if (v->param || r->depth > 16 || !value_of(f, v, at, &a, &b, &ctor, &counter) ||
		    needs_param(f, a, b, v->offset)) {
			CXType canonical = clang_getCanonicalType(v->ctype);

			/* a member of a struct the program fills: a name of its own */
			if (canonical.kind != CXType_Pointer && (m = members_after(f, idx, k, n)) > 0) {
				size_t chain[32], j;

				for (j = 0; j < m && j < 32; j++)
					chain[j] = i + 2 + 2 * j;
				add_member(r, v, chain, j, out);
				k += 2 * m;
				/* t.numel(): the call's value is the name's */
				if (k + 2 < n && is(f, idx[k] + 1, "(") && is(f, idx[k] + 2, ")"))
					k += 2;
				continue;
			}
			/* a value from the command line or the caller: left a name */
			add_unresolved(r, v, !v->param && counter);
			util_buf_puts(out, v->name);
			continue;
		}
		/* dims_b = sweeper.dims_b of a sweeper the program fills, then
		 * dims_b.ncell_x: sweeper_dims_b_ncell_x, one name */
		if (b == a + 3 && is(f, a + 1, ".") && ident(f, a + 2) && (m = members_after(f, idx, k, n)) > 0 &&
		    (w = local_at(f, a, f->t[a].offset)) && clang_getCanonicalType(w->ctype).kind != CXType_Pointer) {
			size_t wa, wb;
			bool wctor, wcounter;

			if (w->param || !value_of(f, w, f->t[a].offset, &wa, &wb, &wctor, &wcounter) ||
			    needs_param(f, wa, wb, w->offset)) {
				size_t chain[32], c = 0, j;

				chain[c++] = a + 2;
				for (j = 0; j < m && c < 32; j++)
					chain[c++] = i + 2 + 2 * j;
				add_member(r, w, chain, c, out);
				k += 2 * m;
				continue;
			}
		}
		r->depth++;
		{
			/* T v{...} and T v = {...}: T{...} (an aggregate has no
			 * constructor to call); T v(...): T(...) */
			bool braces = (ctor && is(f, a - 1, "{")) ||
				      (!ctor && is(f, a, "{") && after_group(f, a, b) == b);

			if (braces && !ctor) {
				a++;
				b--;
			}
			/* a number keeps its declared type: int n = d.y * 8 is an
			 * int where a template deduces from it (ceil_div(m, n)) */
			bool cast = !ctor && !braces && names_in(f, a, b) && is_number(v->ctype);

			if (ctor || braces) {
				util_buf_printf(out, "%s%c", v->type, braces ? '{' : '(');
			} else if (cast) {
				char *type = strstr(v->type, "auto") ? chk_type_spelling(clang_getCanonicalType(v->ctype))
								     : strdup(v->type);

				util_buf_printf(out, "((%s)(", type ? type : "int");
				free(type);
			} else if (b != a + 1) {
				util_buf_putc(out, '(');
			}
			/* names in the value are seen where it is given (an
			 * assignment sees what was assigned before it), not at the
			 * declaration */
			resolve_range(r, a, b, f->t[a - (braces && !ctor ? 3 : 2)].offset, out);
			if (ctor || braces)
				util_buf_putc(out, braces ? '}' : ')');
			else if (cast)
				util_buf_puts(out, "))");
			else if (b != a + 1)
				util_buf_putc(out, ')');
		}
		r->depth--;
	}
}

static char *resolved(rctx *r, size_t from, size_t to, unsigned at)
{
	util_buf b = UTIL_BUF_INIT;

	resolve_range(r, from, to, at, &b);
	if (util_buf_oom(&b))
		r->oom = true;
	return b.ptr ? util_buf_detach(&b) : strdup("");
}

/* --- pointers and their allocations --- */

/* CUDA's, and HIP's for a file apply has ported (each: the pointer's address, then the bytes) */
static const char *const allocators[] = { "cudaMalloc", "cudaMallocManaged", "cudaMallocHost", "cudaMallocAsync",
					  "cudaHostAlloc", "cudaMallocFromPoolAsync", "hipMalloc", "hipMallocManaged",
					  "hipMallocHost", "hipHostMalloc", "hipHostAlloc", "hipMallocAsync",
					  "hipMallocFromPoolAsync", "hipExtMallocWithFlags", NULL };

/* The allocation of pointer v before offset at (else the first after):
 * its size in bytes as tokens [*from, *to), or its element count for new
 * T[n] (*elements). Returns the allocating token, or f->n. */
static size_t allocation_of(fn *f, local *v, unsigned at, size_t *from, size_t *to, bool *elements)
{
	size_t i, found = f->n;

	for (i = 0; i < f->n; i++) {
		size_t s[4], e[4], na, from_i = 0, to_i = 0;
		bool elems = false;

		if (f->t[i].offset >= at && found < f->n)
			break;
		if (in_list(f->t[i].text, allocators) && is(f, i + 1, "(")) {
			size_t close = after_group(f, i + 1, f->n) - 1;

			if ((na = split(f, i + 2, close, s, e, 4)) < 2 || e[0] < s[0] + 2 ||
			    strcmp(f->t[e[0] - 1].text, v->name) != 0 || !is(f, e[0] - 2, "&"))
				continue;
			from_i = s[1];
			to_i = e[1];
		} else if (!strcmp(f->t[i].text, v->name) && is(f, i + 1, "=") && local_at(f, i, f->t[i].offset + 1) == v) {
			size_t k;

			for (k = i + 2; k < f->n && !is(f, k, ";"); k++) {
				if (is(f, k, "new")) {
					size_t open = k + 1;

					while (open < f->n && !is(f, open, "[") && !is(f, open, ";"))
						open++;
					if (!is(f, open, "["))
						break;
					from_i = open + 1;
					to_i = after_group(f, open, f->n) - 1;
					elems = true;
					break;
				}
				if ((is(f, k, "malloc") || is(f, k, "aligned_alloc")) && is(f, k + 1, "(")) {
					size_t close = after_group(f, k + 1, f->n) - 1;

					na = split(f, k + 2, close, s, e, 4);
					if (na < 1)
						break;
					from_i = s[na - 1];
					to_i = e[na - 1];
					break;
				}
			}
			if (to_i <= from_i)
				continue;
		} else {
			continue;
		}
		*from = from_i;
		*to = to_i;
		*elements = elems;
		found = i;
	}
	return found;
}

/* The length of local array v (T a[4], T a[] = {1, 2, 3}), or -1. */
static long long array_length(const fn *f, const local *v)
{
	CXType t = clang_getCanonicalType(v->ctype);
	size_t i, n = 0;
	int depth = 0;

	if (t.kind == CXType_ConstantArray)
		return clang_getArraySize(t);
	if (t.kind != CXType_IncompleteArray && t.kind != CXType_DependentSizedArray)
		return -1;
	for (i = v->first; i < v->last && i < f->n && !is(f, i, "{"); i++)
		;
	for (; i < v->last && i < f->n; i++) {
		if (is(f, i, "{") || is(f, i, "(") || is(f, i, "["))
			depth++;
		else if (is(f, i, "}") || is(f, i, ")") || is(f, i, "]")) {
			if (--depth == 0)
				return (long long)n + (i > 0 && !is(f, i - 1, "{") && !is(f, i - 1, ","));
		} else if (depth == 1 && is(f, i, ","))
			n++;
	}
	return -1;
}

/* Element count from a size in bytes: "n * sizeof(T)" gives n; else
 * (bytes) / sizeof(elem). */
static char *count_of(rctx *r, size_t from, size_t to, unsigned at, const char *elem, const char *alias)
{
	fn *f = r->f;
	size_t *idx, n = 0, i;
	util_buf b = UTIL_BUF_INIT;
	int depth = 0;
	bool other_type = false; /* bytes of another type than elem: divided by sizeof(elem) */

	/* a byte count held in a variable: its value */
	while (to == from + 1) {
		local *v = local_at(f, from, at);
		size_t a = 0, e = 0;
		bool ctor, counter;

		if (!v || v->param || !value_of(f, v, at, &a, &e, &ctor, &counter) || ctor || needs_param(f, a, e, v->offset))
			break;
		at = v->offset;
		from = a;
		to = e;
	}
	if (!(idx = malloc((to - from + 1) * sizeof(*idx)))) {
		r->oom = true;
		return NULL;
	}
	for (i = from; i < to; i++) {
		if (is(f, i, "(") || is(f, i, "["))
			depth++;
		else if (is(f, i, ")") || is(f, i, "]"))
			depth--;
		if (depth == 0 && is(f, i, "sizeof") && is(f, i + 1, "(")) {
			size_t close = after_group(f, i + 1, to);
			local *arr = close == i + 4 ? local_at(f, i + 2, at) : NULL;
			char *t;

			/* sizeof(array) of a local array: its length */
			if (arr && i == from && close == to && array_length(f, arr) >= 0) {
				char *e = chk_type_known_spelling(clang_getArrayElementType(arr->ctype));
				util_buf_printf(&b, "%lld", array_length(f, arr));
				if (e && strcmp(template_value(r, e), elem) != 0)
					util_buf_printf(&b, " * sizeof(%s) / sizeof(%s)", template_value(r, e), elem);
				free(e);
				free(idx);
				return util_buf_oom(&b) ? (r->oom = true, NULL) : util_buf_detach(&b);
			}
			t = joined(f, i + 2, close - 1);
			bool same = t && (!strcmp(template_value(r, t), elem) || (alias && !strcmp(t, alias)));

			free(t);
			if (!same) {
				other_type = true;
			} else if (i > from && is(f, i - 1, "*") && n > 0) {
				n--; /* "* sizeof(T)" */
				i = close - 1;
				continue;
			} else if (is(f, close, "*")) {
				i = close; /* "sizeof(T) *" */
				continue;
			} else if (i == from && close == to) {
				free(idx);
				return strdup("1");
			}
		}
		idx[n++] = i;
	}
	if (n == to - from || other_type) {
		util_buf_putc(&b, '(');
		resolve(r, idx, n, at, &b);
		util_buf_printf(&b, ") / sizeof(%s)", elem);
	} else {
		resolve(r, idx, n, at, &b);
	}
	free(idx);
	if (util_buf_oom(&b))
		r->oom = true;
	return b.ptr ? util_buf_detach(&b) : strdup("");
}

/* A pointer argument: the local it names (through a cast, an offset or
 * &p[k]), its allocation and element type. */
static void pointer_arg(rctx *r, chk_launch_arg *a, size_t from, size_t to, unsigned at)
{
	fn *f = r->f;
	size_t base = from, s = 0, e = 0, site;
	local *v;
	bool elements = false;
	char *cast = NULL, *alloc_type = NULL; /* (half *)d_a of a half2 allocation: half, half2 */

	/* (T *)p, reinterpret_cast<T *>(p) */
	while (base < to && is(f, base, "(") && !local_at(f, base + 1, at)) {
		size_t close = after_group(f, base, to);

		if (close >= to || !is(f, close - 2, "*"))
			break;
		if (!cast)
			cast = joined(f, base + 1 + is(f, base + 1, "const"), close - 2);
		base = close;
	}
	if (base + 1 < to && (is(f, base, "reinterpret_cast") || is(f, base, "static_cast"))) {
		size_t lt = base + 1;

		while (base < to && !is(f, base, "("))
			base++;
		if (!cast && is(f, lt, "<") && is(f, base - 2, "*"))
			cast = joined(f, lt + 1 + is(f, lt + 1, "const"), base - 2);
		base++;
	}
	if (cast && (!strcmp(cast, "void") || !*cast)) {
		free(cast);
		cast = NULL;
	}
	if (is(f, base, "&") && is(f, base + 2, "[")) {
		a->offset = true;
		base++;
	}
	if (!(v = local_at(f, base, at)) || clang_getCanonicalType(v->ctype).kind != CXType_Pointer) {
		free(cast);
		return;
	}
	if (base + 1 < to && !is(f, base + 1, ")"))
		a->offset = true;
	a->pointer = true;
	a->elem_type = v->pointee ? strdup(v->pointee) : chk_type_known_spelling(clang_getPointeeType(v->ctype));
	if (a->elem_type) {
		const char *t = template_value(r, a->elem_type);

		if (t != a->elem_type) {
			free(a->elem_type);
			a->elem_type = strdup(t);
		}
	}
	if (cast && a->elem_type && strcmp(cast, a->elem_type) != 0) {
		alloc_type = a->elem_type;
		a->elem_type = strdup(template_value(r, cast));
	}
	free(cast);
	if ((site = allocation_of(f, v, at, &s, &e, &elements)) < f->n) {
		util_buf where = UTIL_BUF_INIT;

		CXString declared = clang_getTypeSpelling(clang_getPointeeType(v->ctype));
		const char *alias = clang_getCString(declared);

		/* sizeof(ctype) for a ctype * (typedef int ctype) is sizeof the element */
		if (alias && !strncmp(alias, "const ", 6))
			alias += 6;
		a->count = elements ? resolved(r, s, e, at)
				    : count_of(r, s, e, at, a->elem_type ? a->elem_type : "char", alloc_type ? NULL : alias);
		clang_disposeString(declared);
		if (elements && alloc_type && a->count) {
			/* new T[n] seen through a cast: n * sizeof(T) / sizeof(cast) */
			util_buf b = UTIL_BUF_INIT;

			util_buf_printf(&b, "(%s) * sizeof(%s) / sizeof(%s)", a->count, alloc_type, a->elem_type);
			free(a->count);
			a->count = util_buf_detach(&b);
		}
		util_buf_printf(&where, "%s at line %u",
				elements ? "new" : strcmp(f->t[site].text, v->name) ? f->t[site].text : "malloc",
				f->t[site].line);
		a->alloc = util_buf_detach(&where);
	}
	free(alloc_type);
}

/* --- launches --- */

static int add_launch(chk_launch **items, size_t *n, chk_launch **out)
{
	chk_launch *m = realloc(*items, (*n + 1) * sizeof(*m));

	if (!m)
		return util_error_set(UTIL_ENOMEM, "out of memory");
	*items = m;
	*out = &m[*n];
	memset(*out, 0, sizeof(**out));
	(*n)++;
	return 0;
}

/* The launch at token i ("<<<") of f. */
static int read_launch(fn *f, size_t i, chk_launch **items, size_t *count)
{
	size_t name = i - 1, tfrom = 0, tto = 0, close, open, s[8], e[8], ns, k;
	chk_launch *l = NULL;
	rctx r;
	unsigned at = f->t[i].offset;
	int depth = 0;
	int error;

	if (is(f, name, ">")) {
		tto = name;
		for (k = name; k > 0; k--) {
			if (is(f, k, ">"))
				depth++;
			else if (is(f, k, ">>"))
				depth += 2;
			else if (is(f, k, "<") && --depth == 0)
				break;
		}
		if (k == 0)
			return 0;
		tfrom = k + 1;
		name = k - 1;
	}
	if (!ident(f, name))
		return 0;
	for (close = i + 1; close < f->n && !is(f, close, ">>>"); close++)
		;
	open = close + 1;
	if (close >= f->n || !is(f, open, "("))
		return 0;
	if ((error = add_launch(items, count, &l)) < 0)
		return error;
	memset(&r, 0, sizeof(r));
	r.f = f;
	r.l = l;
	l->kernel = strdup(f->t[name].text);
	l->line = f->t[name].line;
	if (tto > tfrom)
		l->templ = resolved(&r, tfrom, tto, at);
	ns = split(f, i + 1, close, s, e, 8);
	l->grid = ns > 0 ? resolved(&r, s[0], e[0], at) : strdup("1");
	l->block = ns > 1 ? resolved(&r, s[1], e[1], at) : strdup("1");
	l->shared = ns > 2 ? resolved(&r, s[2], e[2], at) : strdup("0");
	{
		size_t end = after_group(f, open, f->n) - 1, *as, *ae;

		as = calloc(end - open + 1, sizeof(*as));
		ae = calloc(end - open + 1, sizeof(*ae));
		l->args = calloc(end - open + 1, sizeof(*l->args));
		if (!as || !ae || !l->args) {
			free(as);
			free(ae);
			return util_error_set(UTIL_ENOMEM, "out of memory");
		}
		l->nargs = split(f, open + 1, end, as, ae, end - open);
		for (k = 0; k < l->nargs; k++) {
			chk_launch_arg *a = &l->args[k];

			pointer_arg(&r, a, as[k], ae[k], at);
			a->expr = a->pointer ? joined(f, as[k], ae[k]) : resolved(&r, as[k], ae[k], at);
			if (!a->expr)
				r.oom = true;
		}
		free(as);
		free(ae);
	}
	if (r.oom || !l->kernel || !l->grid || !l->block || !l->shared)
		return util_error_set(UTIL_ENOMEM, "out of memory");
	return 0;
}

typedef struct finder {
	CXTranslationUnit tu;
	fn file; /* the whole file's tokens, for calls of template functions; read when one launches */
	bool file_read;
	chk_launch *items;
	size_t n;
	int error;
} finder;

/* The token after the bracket at i closes (i at "(", "{" or "<"), or file->n. */
static size_t after_closing(const fn *file, size_t i)
{
	const char *open = file->t[i].text, *close = !strcmp(open, "(") ? ")" : !strcmp(open, "{") ? "}" : ">";
	int depth = 0;

	for (; i < file->n; i++) {
		if (!strcmp(file->t[i].text, open))
			depth++;
		else if (!strcmp(file->t[i].text, close) && --depth == 0)
			return i + 1;
		else if (*close == '>' && !strcmp(file->t[i].text, ">>") && (depth -= 2) <= 0)
			return i + 1;
	}
	return file->n;
}

/* The template function whose body holds token at, when x is one of its
 * template parameters: its name's token, and x's index in *param. */
static bool enclosing_template_param(const fn *file, size_t at, const char *x, size_t *name, size_t *param)
{
	size_t t, k, end, open;

	for (t = at; t-- > 0;) {
		size_t index = 0, last = 0;
		bool found = false;

		if (!is(file, t, "template") || !is(file, t + 1, "<"))
			continue;
		end = after_closing(file, t + 1);
		for (k = t + 2; k < end; k++) {
			if (is(file, k, ",") || k + 1 == end) {
				if (last && !strcmp(file->t[last].text, x)) {
					found = true;
					break;
				}
				index++;
				last = 0;
			} else if (ident(file, k) && !last) {
				last = is(file, k + 1, ",") || k + 2 == end || is(file, k + 1, "=") ? k : 0;
			}
		}
		for (open = end; open < file->n && !is(file, open, "(") && !is(file, open, ";") && !is(file, open, "{");
		     open++)
			;
		if (!found || !is(file, open, "(") || !ident(file, open - 1))
			return false;
		for (k = after_closing(file, open); k < file->n && !is(file, k, "{") && !is(file, k, ";"); k++)
			;
		if (!is(file, k, "{") || at >= after_closing(file, k))
			return false;
		*name = open - 1;
		*param = index;
		return true;
	}
	return false;
}

static void given_template_args_at(fn *f, const fn *file, const char *name, int depth);

/* An argument that is the template parameter of the function the call is
 * in (run<N> calls runTest<char, N>): the argument of that function's own
 * call in the file (run<128>(...)), a few levels up. */
static void through_callers(fn *f, const fn *file, size_t call, int depth)
{
	size_t i, g, j;

	for (i = 0; i < f->ngiven; i++) {
		fn up;

		if (!enclosing_template_param(file, call, f->tgiven[i], &g, &j))
			continue;
		memset(&up, 0, sizeof(up));
		given_template_args_at(&up, file, file->t[g].text, depth + 1);
		if (j < up.ngiven && strcmp(up.tgiven[j], f->tgiven[i]) != 0) {
			free(f->tgiven[i]);
			f->tgiven[i] = up.tgiven[j];
			up.tgiven[j] = NULL;
		}
		for (j = 0; j < up.ngiven; j++)
			free(up.tgiven[j]);
	}
}

/* The template arguments of the first call name<A, B>(...) in the file,
 * followed up through at most 4 - callers levels of callers. */
static void given_template_args_at(fn *f, const fn *file, const char *name, int callers)
{
	size_t i, k, start;
	int depth;

	for (i = 0; i + 1 < file->n; i++) {
		if (strcmp(file->t[i].text, name) != 0 || !is(file, i + 1, "<") ||
		    (i > 0 && (ident(file, i - 1) && !is(file, i - 1, "return"))))
			continue;
		depth = 0;
		start = i + 2;
		for (k = i + 1; k < file->n; k++) {
			const char *t = file->t[k].text;

			if (!strcmp(t, "<") || !strcmp(t, "(") || !strcmp(t, "["))
				depth++;
			else if (!strcmp(t, ">") || !strcmp(t, ")") || !strcmp(t, "]"))
				depth--;
			else if (!strcmp(t, ">>"))
				depth -= 2;
			if ((depth == 0 || (!strcmp(t, ",") && depth == 1)) && k > i + 1) {
				char *arg = start < k ? joined(file, start, k) : NULL;

				if (f->ngiven < 16 && arg)
					f->tgiven[f->ngiven++] = arg;
				else
					free(arg);
				start = k + 1;
				if (depth <= 0)
					break;
			}
		}
		if (is(file, k + 1, "(") && f->ngiven) {
			f->given_line = file->t[i].line;
			if (callers < 4)
				through_callers(f, file, i, callers);
			return;
		}
		while (f->ngiven)
			free(f->tgiven[--f->ngiven]);
	}
}

static enum CXChildVisitResult find_global_attr(CXCursor c, CXCursor parent, CXClientData data)
{
	(void)parent;
	if (clang_getCursorKind(c) == CXCursor_CUDAGlobalAttr) {
		*(bool *)data = true;
		return CXChildVisit_Break;
	}
	return CXChildVisit_Continue;
}

bool chk_is_kernel(CXCursor c)
{
	bool global = false;

	clang_visitChildren(c, find_global_attr, &global);
	return global;
}

static int launches_in(finder *fd, CXCursor c)
{
	fn f;
	size_t i;
	int error;

	if ((error = fn_load(&f, fd->tu, c)) == 0 && f.ntparams) {
		CXString name = clang_getCursorSpelling(c);

		if (!fd->file_read) {
			fd->file_read = true;
			error = fn_load_tokens(&fd->file, fd->tu, clang_getTranslationUnitCursor(fd->tu), false);
		}
		if (error == 0)
			given_template_args_at(&f, &fd->file, clang_getCString(name), 0);
		clang_disposeString(name);
	}
	if (error == 0)
		for (i = 1; i < f.n && error == 0; i++)
			if (is(&f, i, "<<<"))
				error = read_launch(&f, i, &fd->items, &fd->n);
	fn_dispose(&f);
	return error;
}

/* Whether c is an instantiation of a function template that the source
 * spells once: the template's tokens, not an explicit specialization's. */
static bool is_instantiation(CXCursor c)
{
	CXCursor t = clang_getSpecializedCursorTemplate(c);
	CXSourceLocation a = clang_getRangeStart(clang_getCursorExtent(c)),
			 b = clang_getRangeStart(clang_getCursorExtent(t));
	unsigned oa, ob;

	if (clang_Cursor_isNull(t) || clang_getCursorKind(c) != CXCursor_FunctionDecl)
		return false;
	clang_getSpellingLocation(a, NULL, NULL, NULL, &oa);
	clang_getSpellingLocation(b, NULL, NULL, NULL, &ob);
	return oa == ob || clang_equalLocations(clang_getCursorLocation(c), clang_getCursorLocation(t));
}

static enum CXChildVisitResult visit(CXCursor c, CXCursor parent, CXClientData data)
{
	finder *fd = data;
	enum CXCursorKind k = clang_getCursorKind(c);
	(void)parent;
	/* before the main-file test: an extern "C" spelled by a macro is located in its header */
	if (chk_names_linkage_block(c))
		return CXChildVisit_Recurse;
	if (!clang_Location_isFromMainFile(clang_getCursorLocation(c)))
		return CXChildVisit_Continue;
	if (k == CXCursor_Namespace || k == CXCursor_ClassDecl || k == CXCursor_StructDecl ||
	    k == CXCursor_ClassTemplate)
		return CXChildVisit_Recurse;
	if ((k == CXCursor_FunctionDecl || k == CXCursor_FunctionTemplate || k == CXCursor_CXXMethod ||
	     k == CXCursor_Constructor) &&
	    clang_isCursorDefinition(c)) {
		/* launches from a kernel (dynamic parallelism) are not checked alone;
		 * an implicit instantiation holds the template's own tokens */
		if (!chk_is_kernel(c) && !is_instantiation(c) && (fd->error = launches_in(fd, c)) < 0)
			return CXChildVisit_Break;
	}
	return CXChildVisit_Continue;
}

int chk_launches_find(chk_launch **out, size_t *n, CXTranslationUnit tu)
{
	finder fd;

	memset(&fd, 0, sizeof(fd));
	fd.tu = tu;
	clang_visitChildren(clang_getTranslationUnitCursor(tu), visit, &fd);
	fn_dispose(&fd.file);
	if (fd.error < 0) {
		chk_launches_dispose(fd.items, fd.n);
		return fd.error;
	}
	*out = fd.items;
	*n = fd.n;
	return 0;
}

void chk_launches_dispose(chk_launch *l, size_t n)
{
	size_t i, k;

	for (i = 0; i < n; i++) {
		for (k = 0; k < l[i].nargs; k++) {
			free(l[i].args[k].expr);
			free(l[i].args[k].elem_type);
			free(l[i].args[k].count);
			free(l[i].args[k].alloc);
		}
		for (k = 0; k < l[i].nunresolved; k++) {
			free(l[i].unresolved[k].name);
			free(l[i].unresolved[k].type);
			free(l[i].unresolved[k].why);
			free(l[i].unresolved[k].value);
			free(l[i].unresolved[k].initial);
		}
		free(l[i].args);
		free(l[i].unresolved);
		free(l[i].kernel);
		free(l[i].templ);
		free(l[i].grid);
		free(l[i].block);
		free(l[i].shared);
	}
	free(l);
}
