#include "check/kernel/names.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "util/buf.h"
#include "util/error.h"

typedef struct walk {
	chk_scope *s;
	size_t cap;
	char **used;     /* namespaces of `using namespace X;` at file scope */
	size_t nused;
	bool oom;
} walk;

static void add(walk *w, const char *name, chk_name_kind kind, const char *qual, unsigned line)
{
	chk_name *m;

	if (!name || !*name || w->oom)
		return;
	if (w->s->n == w->cap) {
		size_t cap = w->cap ? w->cap * 2 : 256;

		if (!(m = realloc(w->s->names, cap * sizeof(*m)))) {
			w->oom = true;
			return;
		}
		w->s->names = m;
		w->cap = cap;
	}
	m = &w->s->names[w->s->n];
	memset(m, 0, sizeof(*m));
	m->name = strdup(name);
	m->kind = kind;
	m->qual = qual ? strdup(qual) : NULL;
	m->line = line;
	if (!m->name || (qual && !m->qual)) {
		free(m->name);
		free(m->qual);
		w->oom = true;
		return;
	}
	w->s->n++;
}

static unsigned line_of(CXCursor c)
{
	unsigned line = 0;

	clang_getSpellingLocation(clang_getCursorLocation(c), NULL, &line, NULL, NULL);
	return line;
}

typedef struct locals_ctx {
	walk *w;
	const char *fn;
} locals_ctx;

static enum CXChildVisitResult visit_locals(CXCursor c, CXCursor parent, CXClientData data)
{
	locals_ctx *l = data;
	enum CXCursorKind k = clang_getCursorKind(c);

	(void)parent;
	/* a function's own types too: the harness cannot name them */
	if (k == CXCursor_VarDecl || k == CXCursor_ParmDecl || k == CXCursor_TypeAliasDecl || k == CXCursor_TypedefDecl ||
	    k == CXCursor_StructDecl || k == CXCursor_ClassDecl || k == CXCursor_EnumDecl) {
		CXString s = clang_getCursorSpelling(c);

		add(l->w, clang_getCString(s), CHK_NAME_LOCAL, l->fn, line_of(c));
		clang_disposeString(s);
	}
	return CXChildVisit_Recurse;
}

/* The locals and parameters of a function the file defines. */
static void function_locals(walk *w, CXCursor c)
{
	CXString s;
	locals_ctx l;

	if (!clang_isCursorDefinition(c) || !clang_Location_isFromMainFile(clang_getCursorLocation(c)))
		return;
	s = clang_getCursorSpelling(c);
	l.w = w;
	l.fn = clang_getCString(s);
	clang_visitChildren(c, visit_locals, &l);
	clang_disposeString(s);
}

static enum CXChildVisitResult find_device_attr(CXCursor c, CXCursor parent, CXClientData data)
{
	enum CXCursorKind k = clang_getCursorKind(c);

	(void)parent;
	if (k == CXCursor_CUDADeviceAttr || k == CXCursor_CUDAConstantAttr || k == CXCursor_CUDASharedAttr) {
		*(bool *)data = true;
		return CXChildVisit_Break;
	}
	return CXChildVisit_Continue;
}

/* Whether c is an extern "C" block or declaration, whose declarations are
 * the enclosing scope's: libclang 15 reports most as UnexposedDecl, as it
 * does an empty declaration or a file-scope asm; a linkage block is the
 * semantic parent of what it holds. */
static enum CXChildVisitResult first_child(CXCursor c, CXCursor parent, CXClientData data)
{
	(void)parent;
	*(CXCursor *)data = c;
	return CXChildVisit_Break;
}

bool chk_names_linkage_block(CXCursor c)
{
	CXCursor child = clang_getNullCursor();

	if (clang_getCursorKind(c) == CXCursor_LinkageSpec)
		return true;
	if (clang_getCursorKind(c) != CXCursor_UnexposedDecl)
		return false;
	clang_visitChildren(c, first_child, &child);
	return !clang_Cursor_isNull(child) && clang_equalCursors(clang_getCursorSemanticParent(child), c);
}

typedef struct scope_ctx {
	walk *w;
	const char *qual; /* "" at file scope, "ns::" inside namespace ns */
} scope_ctx;

static enum CXChildVisitResult visit_scope(CXCursor c, CXCursor parent, CXClientData data);

static void visit_inside(walk *w, CXCursor c, const char *qual)
{
	scope_ctx inner = { w, qual };

	clang_visitChildren(c, visit_scope, &inner);
}

static enum CXChildVisitResult visit_methods(CXCursor c, CXCursor parent, CXClientData data)
{
	enum CXCursorKind k = clang_getCursorKind(c);

	(void)parent;
	if (k == CXCursor_CXXMethod || k == CXCursor_Constructor || k == CXCursor_Destructor ||
	    k == CXCursor_FunctionTemplate)
		function_locals(data, c);
	return CXChildVisit_Continue;
}

static enum CXChildVisitResult visit_scope(CXCursor c, CXCursor parent, CXClientData data)
{
	scope_ctx *sc = data;
	walk *w = sc->w;
	enum CXCursorKind k = clang_getCursorKind(c);
	chk_name_kind kind = *sc->qual ? CHK_NAME_MEMBER : CHK_NAME_FILE;
	CXString s = clang_getCursorSpelling(c);
	const char *name = clang_getCString(s);

	(void)parent;
	switch (k) {
	case CXCursor_Namespace:
		/* an anonymous namespace, and the prelude's, are seen from outside */
		if (!*name || !strcmp(name, "hipport_prelude")) {
			visit_inside(w, c, sc->qual);
		} else {
			util_buf q = UTIL_BUF_INIT;

			add(w, name, kind, sc->qual, 0);
			util_buf_printf(&q, "%s%s::", sc->qual, name);
			if (util_buf_oom(&q))
				w->oom = true;
			else
				visit_inside(w, c, q.ptr);
			util_buf_dispose(&q);
		}
		break;
	case CXCursor_LinkageSpec:
	case CXCursor_UnexposedDecl:
		if (chk_names_linkage_block(c))
			visit_inside(w, c, sc->qual);
		break;
	case CXCursor_UsingDirective:
		if (!*sc->qual) {
			CXCursor ns = clang_getCursorReferenced(c);
			CXString n = clang_getCursorSpelling(ns);
			char **m = realloc(w->used, (w->nused + 1) * sizeof(*m));

			if (!m || !(m[w->nused] = strdup(clang_getCString(n))))
				w->oom = true;
			else
				w->nused++;
			if (m)
				w->used = m;
			clang_disposeString(n);
		}
		break;
	case CXCursor_EnumDecl:
		add(w, name, kind, sc->qual, 0);
		/* the enumerators of an unscoped enum are names of its scope */
		if (!clang_EnumDecl_isScoped(c))
			visit_inside(w, c, sc->qual);
		break;
	case CXCursor_VarDecl: {
		bool device = false;

		clang_visitChildren(c, find_device_attr, &device);
		add(w, name, device ? CHK_NAME_DEVICE : kind, sc->qual, line_of(c));
		break;
	}
	case CXCursor_FunctionDecl:
	case CXCursor_FunctionTemplate:
	case CXCursor_CXXMethod:
	case CXCursor_Constructor:
	case CXCursor_Destructor: {
		CXCursor sp = clang_getCursorSemanticParent(c);
		enum CXCursorKind pk = clang_getCursorKind(sp);

		/* an out-of-line member definition names no function of the scope */
		if (!(pk == CXCursor_StructDecl || pk == CXCursor_ClassDecl || pk == CXCursor_ClassTemplate ||
		      pk == CXCursor_UnionDecl))
			add(w, name, kind, sc->qual, 0);
		function_locals(w, c);
		break;
	}
	case CXCursor_StructDecl:
	case CXCursor_ClassDecl:
	case CXCursor_UnionDecl:
	case CXCursor_ClassTemplate:
	case CXCursor_ClassTemplatePartialSpecialization:
		add(w, name, kind, sc->qual, 0);
		clang_visitChildren(c, visit_methods, w);
		break;
	case CXCursor_TypedefDecl:
	case CXCursor_TypeAliasDecl:
	case CXCursor_TypeAliasTemplateDecl:
	case CXCursor_NamespaceAlias:
	case CXCursor_UsingDeclaration:
	case CXCursor_EnumConstantDecl:
	case CXCursor_MacroDefinition:
		add(w, name, k == CXCursor_MacroDefinition ? CHK_NAME_FILE : kind, sc->qual, 0);
		break;
	default:
		break;
	}
	clang_disposeString(s);
	return w->oom ? CXChildVisit_Break : CXChildVisit_Continue;
}

static int by_name(const void *a, const void *b)
{
	const chk_name *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	return c ? c : (int)x->kind - (int)y->kind;
}

int chk_scope_collect(chk_scope *out, CXTranslationUnit tu)
{
	walk w;
	size_t i, k;

	memset(out, 0, sizeof(*out));
	memset(&w, 0, sizeof(w));
	w.s = out;
	visit_inside(&w, clang_getTranslationUnitCursor(tu), "");
	/* using namespace X at file scope: X's members are seen unqualified */
	for (i = 0; i < out->n && !w.oom; i++) {
		chk_name *m = &out->names[i];

		for (k = 0; m->kind == CHK_NAME_MEMBER && k < w.nused; k++) {
			size_t ql = strlen(m->qual), ul = strlen(w.used[k]);

			if (ql >= ul + 2 && !strncmp(m->qual + ql - ul - 2, w.used[k], ul) &&
			    (ql == ul + 2 || m->qual[ql - ul - 3] == ':'))
				m->kind = CHK_NAME_FILE;
		}
	}
	for (k = 0; k < w.nused; k++)
		free(w.used[k]);
	free(w.used);
	if (w.oom) {
		chk_scope_dispose(out);
		return util_error_set(UTIL_ENOMEM, "out of memory");
	}
	if (out->n)
		qsort(out->names, out->n, sizeof(*out->names), by_name);
	/* a member of several namespaces cannot be qualified one way */
	for (i = 0; i < out->n; i++)
		for (k = i + 1; k < out->n && !strcmp(out->names[k].name, out->names[i].name); k++)
			if (out->names[i].kind == CHK_NAME_MEMBER && out->names[k].kind == CHK_NAME_MEMBER &&
			    strcmp(out->names[i].qual, out->names[k].qual) != 0)
				out->names[i].ambiguous = out->names[k].ambiguous = 1;
	return 0;
}

void chk_scope_dispose(chk_scope *scope)
{
	size_t i;

	for (i = 0; i < scope->n; i++) {
		free(scope->names[i].name);
		free(scope->names[i].qual);
	}
	free(scope->names);
	memset(scope, 0, sizeof(*scope));
}

const chk_name *chk_scope_lookup(const chk_scope *s, const char *name, size_t len, size_t *count)
{
	size_t lo = 0, hi = s ? s->n : 0, first;

	*count = 0;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		int c = strncmp(s->names[mid].name, name, len);

		if (c == 0 && s->names[mid].name[len])
			c = 1;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	first = lo;
	while (lo < (s ? s->n : 0) && !strncmp(s->names[lo].name, name, len) && !s->names[lo].name[len])
		lo++;
	*count = lo - first;
	return *count ? &s->names[first] : NULL;
}

/* --- a small lexer for drafted expressions --- */

typedef struct lex_tok {
	size_t start, end;
	char kind; /* 'i' identifier, 'n' number, 's' string or character, 'p' punctuation */
} lex_tok;

static size_t lex(const char *s, lex_tok *out, size_t max)
{
	static const char *const two[] = { "::", "->", "++", "--", "==", "!=", "<=", ">=", "&&", "||", "<<", ">>",
					   "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", NULL };
	size_t i = 0, n = 0;

	while (s[i] && n < max) {
		size_t start = i;
		char kind;

		if (isspace((unsigned char)s[i])) {
			i++;
			continue;
		}
		if (isalpha((unsigned char)s[i]) || s[i] == '_') {
			while (isalnum((unsigned char)s[i]) || s[i] == '_')
				i++;
			kind = 'i';
		} else if (isdigit((unsigned char)s[i]) || (s[i] == '.' && isdigit((unsigned char)s[i + 1]))) {
			while (isalnum((unsigned char)s[i]) || s[i] == '_' || s[i] == '.' || s[i] == '\'' ||
			       ((s[i] == '+' || s[i] == '-') && strchr("eEpP", s[i - 1])))
				i++;
			kind = 'n';
		} else if (s[i] == '"' || s[i] == '\'') {
			char q = s[i++];

			while (s[i] && s[i] != q)
				i += s[i] == '\\' && s[i + 1] ? 2 : 1;
			if (s[i])
				i++;
			kind = 's';
		} else {
			size_t k;

			kind = 'p';
			for (k = 0; two[k]; k++)
				if (s[i] == two[k][0] && s[i + 1] == two[k][1])
					break;
			i += two[k] ? 2 : 1;
			/* <<= and >>= */
			if ((!strncmp(s + start, "<<", 2) || !strncmp(s + start, ">>", 2)) && s[i] == '=')
				i++;
		}
		out[n].start = start;
		out[n].end = i;
		out[n].kind = kind;
		n++;
	}
	return n;
}

static bool tok_eq(const char *s, const lex_tok *t, const char *text)
{
	return strlen(text) == t->end - t->start && !strncmp(s + t->start, text, t->end - t->start);
}

static bool word_in(const char *s, const lex_tok *t, const char *const *list)
{
	for (; *list; list++)
		if (tok_eq(s, t, *list))
			return true;
	return false;
}

/* Words of C++ that are no names to look up. */
static const char *const keywords[] = {
	"sizeof", "alignof", "decltype", "int", "float", "double", "char", "short", "long", "unsigned", "signed",
	"bool", "true", "false", "void", "const", "volatile", "static_cast", "reinterpret_cast", "const_cast",
	"nullptr", "auto", "struct", "class", "typename", "template", "operator", "wchar_t", "char16_t",
	"char32_t", "__half", "__nv_bfloat16", NULL
};
/* ... and those that make an expression no value to draft */
static const char *const forbidden[] = { "new", "delete", "this", "throw", "dynamic_cast", "typeid", NULL };
static const char *const changes[] = { "=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>=", "++",
				       "--", NULL };

static bool own_name(const char *s, const lex_tok *t, char *const *own, size_t nown)
{
	size_t i;

	for (i = 0; i < nown; i++)
		if (own[i] && tok_eq(s, t, own[i]))
			return true;
	return false;
}

int chk_names_check(char **out, char **why, const char *expr, const chk_scope *scope, char *const *own,
		    size_t nown)
{
	size_t cap = strlen(expr) + 1, n, i, copied = 0;
	lex_tok *t = malloc(cap * sizeof(*t));
	util_buf b = UTIL_BUF_INIT, reason = UTIL_BUF_INIT;

	*out = NULL;
	*why = NULL;
	if (!t)
		return util_error_set(UTIL_ENOMEM, "out of memory");
	n = lex(expr, t, cap);
	for (i = 0; i < n && !reason.len; i++) {
		const lex_tok *k = &t[i];
		const char *w = expr + k->start;
		int len = (int)(k->end - k->start);
		const chk_name *e, *file = NULL, *member = NULL, *device = NULL, *local = NULL;
		size_t count, j;
		bool after = i > 0 && (tok_eq(expr, &t[i - 1], ".") || tok_eq(expr, &t[i - 1], "->") ||
				       tok_eq(expr, &t[i - 1], "::"));

		if (k->kind == 'p' && word_in(expr, k, changes)) {
			util_buf_printf(&reason, "'%.*s' changes a value of the program", len, w);
			break;
		}
		/* &x passed to a call: an out-parameter, the call writes through it */
		if (k->kind == 'p' && tok_eq(expr, k, "&") && i + 1 < n && t[i + 1].kind == 'i' &&
		    (i == 0 || tok_eq(expr, &t[i - 1], "(") || tok_eq(expr, &t[i - 1], ","))) {
			e = chk_scope_lookup(scope, expr + t[i + 1].start, t[i + 1].end - t[i + 1].start, &count);
			if (own_name(expr, &t[i + 1], own, nown) || !e || e->kind != CHK_NAME_FILE) {
				util_buf_printf(&reason, "it passes &%.*s, a variable a call writes through",
						(int)(t[i + 1].end - t[i + 1].start), expr + t[i + 1].start);
				break;
			}
		}
		if (k->kind != 'i' || after)
			continue;
		if (word_in(expr, k, forbidden)) {
			util_buf_printf(&reason, "'%.*s' is no value the harness can compute", len, w);
			break;
		}
		if (word_in(expr, k, keywords) || own_name(expr, k, own, nown))
			continue;
		e = chk_scope_lookup(scope, w, (size_t)len, &count);
		for (j = 0; j < count; j++) {
			if (e[j].kind == CHK_NAME_FILE && !file)
				file = &e[j];
			else if (e[j].kind == CHK_NAME_MEMBER && !member)
				member = &e[j];
			else if (e[j].kind == CHK_NAME_DEVICE && !device)
				device = &e[j];
			else if (e[j].kind == CHK_NAME_LOCAL && !local)
				local = &e[j];
		}
		if (file)
			continue;
		if (member && !member->ambiguous) {
			util_buf_put(&b, expr + copied, k->start - copied);
			util_buf_puts(&b, member->qual);
			copied = k->start;
			continue;
		}
		if (member)
			continue; /* several namespaces: the probe decides */
		if (device) {
			util_buf_printf(&reason, "%.*s is a __device__ variable (line %u), which host code cannot read", len, w,
					device->line);
		} else if (local) {
			util_buf_printf(&reason, "%.*s is a local of %s (line %u), which the harness cannot see", len, w,
					local->qual ? local->qual : "a function", local->line);
		}
	}
	free(t);
	if (reason.len) {
		util_buf_dispose(&b);
		if (util_buf_oom(&reason))
			return util_error_set(UTIL_ENOMEM, "out of memory");
		*why = util_buf_detach(&reason);
		return 1;
	}
	util_buf_dispose(&reason);
	util_buf_puts(&b, expr + copied);
	if (util_buf_oom(&b))
		return util_error_set(UTIL_ENOMEM, "out of memory");
	*out = util_buf_detach(&b);
	return 0;
}

int chk_names_uses(const char *expr, const char *name)
{
	size_t cap = strlen(expr) + 1, n, i;
	lex_tok *t = malloc(cap * sizeof(*t));
	int used = 0;

	if (!t)
		return 1; /* kept, when it cannot be told */
	n = lex(expr, t, cap);
	for (i = 0; i < n && !used; i++)
		used = t[i].kind == 'i' && tok_eq(expr, &t[i], name) &&
		       !(i > 0 && (tok_eq(expr, &t[i - 1], ".") || tok_eq(expr, &t[i - 1], "->") ||
				   tok_eq(expr, &t[i - 1], "::")));
	free(t);
	return used;
}
