#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/ast.h"
#include "util/buf.h"
#include "util/error.h"
#include "util/text.h"

an_hit *an_add(an_ctx *ctx, const char *id, an_severity severity, uint32_t start, uint32_t end,
	       const char *fmt, ...)
{
	util_buf msg = UTIL_BUF_INIT;
	an_hit *h;
	va_list ap;
	uint32_t i;
	unsigned line, col;

	if (ctx->error)
		return NULL;
	if (ctx->count == ctx->cap) {
		size_t cap = ctx->cap ? ctx->cap * 2 : 16;
		an_hit *n = realloc(ctx->hits, cap * sizeof(*n));

		if (!n) {
			ctx->error = UTIL_ENOMEM;
			return NULL;
		}
		ctx->hits = n;
		ctx->cap = cap;
	}
	va_start(ap, fmt);
	util_buf_vprintf(&msg, fmt, ap);
	va_end(ap);
	if (util_buf_oom(&msg)) {
		ctx->error = UTIL_ENOMEM;
		return NULL;
	}
	util_text_position_from(&ctx->where, ctx->src, start < ctx->len ? start : ctx->len, &line, &col);
	h = &ctx->hits[ctx->count++];
	memset(h, 0, sizeof(*h));
	h->id = id;
	h->severity = severity;
	h->offset = start;
	h->length = end > start ? end - start : 0;
	h->line = line;
	h->col = col;
	for (i = start; i < end && i < ctx->len && ctx->src[i] != '\n'; i++)
		;
	h->end_col = col + (i - start);
	h->message = util_buf_detach(&msg);
	return h;
}

an_hit *an_add_at(an_ctx *ctx, const char *id, an_severity severity, CXCursor c, const char *fmt, ...)
{
	util_buf msg = UTIL_BUF_INIT;
	uint32_t start, end;
	an_hit *h;
	va_list ap;

	if (!an_extent(ctx, c, &start, &end))
		return NULL;
	va_start(ap, fmt);
	util_buf_vprintf(&msg, fmt, ap);
	va_end(ap);
	h = an_add(ctx, id, severity, start, end, "%s", msg.ptr ? msg.ptr : "");
	util_buf_dispose(&msg);
	return h;
}

bool an_offset(const an_ctx *ctx, CXSourceLocation loc, uint32_t *offset)
{
	CXFile file;
	unsigned off;

	clang_getExpansionLocation(loc, &file, NULL, NULL, &off);
	if (!file || !clang_File_isEqual(file, ctx->file) || off > ctx->len)
		return false;
	*offset = off;
	return true;
}

bool an_extent(const an_ctx *ctx, CXCursor c, uint32_t *start, uint32_t *end)
{
	CXSourceRange r = clang_getCursorExtent(c);

	if (!an_offset(ctx, clang_getRangeStart(r), start) || !an_offset(ctx, clang_getRangeEnd(r), end))
		return false;
	if (*end < *start)
		*end = *start;
	return true;
}

/* Whether [start, end) begins or ends inside a macro expansion (libclang 15
 * reports the expansion for spelling locations, so the preprocessing
 * record decides: the macro uses it holds for the file, collected once). */
static bool at_macro(const an_ctx *ctx, uint32_t offset)
{
	size_t lo = 0, hi = ctx->nmacro_uses;

	/* the last use starting at or before offset */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (ctx->macro_uses[mid].start <= offset)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo && offset < ctx->macro_uses[lo - 1].end;
}

static enum CXChildVisitResult macro_use(CXCursor c, CXCursor parent, CXClientData data)
{
	an_ctx *ctx = data;
	uint32_t start, end;

	(void)parent;
	if (clang_getCursorKind(c) != CXCursor_MacroExpansion || !an_extent(ctx, c, &start, &end) || end <= start)
		return CXChildVisit_Continue;
	if (ctx->nmacro_uses % 64 == 0) {
		an_span *m = realloc(ctx->macro_uses, (ctx->nmacro_uses + 64) * sizeof(*m));

		if (!m) {
			ctx->error = UTIL_ENOMEM;
			return CXChildVisit_Break;
		}
		ctx->macro_uses = m;
	}
	ctx->macro_uses[ctx->nmacro_uses].start = start;
	ctx->macro_uses[ctx->nmacro_uses++].end = end;
	return CXChildVisit_Continue;
}

static int span_order(const void *a, const void *b)
{
	const an_span *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

void an_macro_uses_collect(an_ctx *ctx)
{
	size_t i, n = 0;

	clang_visitChildren(clang_getTranslationUnitCursor(ctx->tu), macro_use, ctx);
	if (!ctx->nmacro_uses)
		return;
	qsort(ctx->macro_uses, ctx->nmacro_uses, sizeof(*ctx->macro_uses), span_order);
	for (i = 0; i < ctx->nmacro_uses; i++) { /* a use inside another's arguments merges into it */
		if (n && ctx->macro_uses[i].start < ctx->macro_uses[n - 1].end) {
			if (ctx->macro_uses[i].end > ctx->macro_uses[n - 1].end)
				ctx->macro_uses[n - 1].end = ctx->macro_uses[i].end;
			continue;
		}
		ctx->macro_uses[n++] = ctx->macro_uses[i];
	}
	ctx->nmacro_uses = n;
}

static bool in_macro(const an_ctx *ctx, uint32_t start, uint32_t end)
{
	return at_macro(ctx, start) || (end > start + 1 && at_macro(ctx, end - 1));
}

bool an_written(const an_ctx *ctx, CXCursor c)
{
	uint32_t start, end;

	return an_extent(ctx, c, &start, &end) && !in_macro(ctx, start, start + 1) &&
	       (end == start || !in_macro(ctx, end - 1, end));
}

char *an_text(const an_ctx *ctx, CXCursor c)
{
	uint32_t start, end;
	char *t;

	if (!an_written(ctx, c) || !an_extent(ctx, c, &start, &end))
		return NULL;
	t = malloc(end - start + 1);
	if (!t)
		return NULL;
	memcpy(t, ctx->src + start, end - start);
	t[end - start] = '\0';
	return t;
}

typedef struct child_list {
	CXCursor *out;
	size_t max, n;
} child_list;

static enum CXChildVisitResult collect_child(CXCursor c, CXCursor parent, CXClientData data)
{
	child_list *l = data;

	(void)parent;
	if (l->n < l->max)
		l->out[l->n] = c;
	l->n++;
	return CXChildVisit_Continue;
}

size_t an_children(CXCursor c, CXCursor *out, size_t max)
{
	child_list l = { out, max, 0 };

	clang_visitChildren(c, collect_child, &l);
	return l.n;
}

CXCursor an_strip(CXCursor c)
{
	CXCursor kids[2];

	for (;;) {
		enum CXCursorKind k = clang_getCursorKind(c);

		if ((k != CXCursor_UnexposedExpr && k != CXCursor_ParenExpr) || an_children(c, kids, 2) != 1)
			return c;
		c = kids[0];
	}
}

const char *an_spelling(CXCursor c, char *buf, size_t size)
{
	CXString s = clang_getCursorSpelling(c);

	snprintf(buf, size, "%s", clang_getCString(s) ? clang_getCString(s) : "");
	clang_disposeString(s);
	return buf;
}

static enum CXChildVisitResult first_child(CXCursor c, CXCursor parent, CXClientData data)
{
	(void)parent;
	*(CXCursor *)data = c;
	return CXChildVisit_Break;
}

const char *an_callee(CXCursor call, char *buf, size_t size)
{
	CXCursor ref = clang_getCursorReferenced(call), callee = clang_getNullCursor();

	if (!clang_Cursor_isNull(ref) && *an_spelling(ref, buf, size))
		return buf;
	/* a call in a template that depends on its parameters: the name as written */
	clang_visitChildren(call, first_child, &callee);
	if (clang_Cursor_isNull(callee))
		return an_spelling(call, buf, size);
	callee = an_strip(callee);
	if ((clang_getCursorKind(callee) == CXCursor_OverloadedDeclRef ||
	     clang_getCursorKind(callee) == CXCursor_DeclRefExpr) && *an_spelling(callee, buf, size))
		return buf;
	clang_visitChildren(callee, first_child, &callee);
	if (clang_getCursorKind(callee) == CXCursor_OverloadedDeclRef)
		return an_spelling(callee, buf, size);
	return an_spelling(call, buf, size);
}

static bool skip_space(const char *s, size_t len, size_t *i)
{
	while (*i < len) {
		if (s[*i] == ' ' || s[*i] == '\t' || s[*i] == '\n' || s[*i] == '\r') {
			(*i)++;
		} else if (s[*i] == '/' && *i + 1 < len && s[*i + 1] == '/') {
			while (*i < len && s[*i] != '\n')
				(*i)++;
		} else if (s[*i] == '/' && *i + 1 < len && s[*i + 1] == '*') {
			const char *e = memmem(s + *i + 2, len - *i - 2, "*/", 2);

			if (!e)
				return false;
			*i = (size_t)(e - s) + 2;
		} else {
			return true;
		}
	}
	return true;
}

static bool binop_of(const an_ctx *ctx, CXCursor c, char op[4], CXCursor *lhs, CXCursor *rhs)
{
	CXCursor kids[2];
	uint32_t ls, le, rs, re;
	size_t i, n = 0;

	/* the operator is read from the text between the operands, so a macro
	 * operand is fine; an operator produced by a macro is not found there */
	if (an_children(c, kids, 2) != 2)
		return false;
	if (!an_extent(ctx, kids[0], &ls, &le) || !an_extent(ctx, kids[1], &rs, &re) || le > rs)
		return false;
	i = le; /* extents end past their last token */
	if (!skip_space(ctx->src, rs, &i))
		return false;
	while (i < rs && n < 3 && strchr("+-*/%&|^<>=!", ctx->src[i]))
		op[n++] = ctx->src[i++];
	op[n] = '\0';
	if (!n || !skip_space(ctx->src, rs, &i) || i != rs)
		return false;
	*lhs = kids[0];
	*rhs = kids[1];
	return true;
}

void an_expr_memo_clear(an_expr_memo *m)
{
	free(m->v);
	memset(m, 0, sizeof(*m));
}

/* The slot of expr in m (free when it is not there); m has a free slot. */
static an_expr_entry *memo_slot(an_expr_memo *m, const void *expr)
{
	size_t i = ((uintptr_t)expr >> 4) & (m->cap - 1);

	while (m->v[i].expr && m->v[i].expr != expr)
		i = (i + 1) & (m->cap - 1);
	return &m->v[i];
}

/* The entry of cursor c, made when new; NULL when it cannot be kept. */
static an_expr_entry *memo_entry(const an_ctx *ctx, CXCursor c)
{
	an_expr_memo *m = ctx->memo, bigger;
	an_expr_entry *e;
	size_t i;

	if (!m || !c.data[1])
		return NULL;
	if (!m->cap || (m->n + 1) * 2 > m->cap) { /* at most half full */
		bigger.cap = m->cap ? m->cap * 2 : 64;
		bigger.n = m->n;
		if (!(bigger.v = calloc(bigger.cap, sizeof(*bigger.v))))
			return NULL;
		for (i = 0; i < m->cap; i++)
			if (m->v[i].expr)
				*memo_slot(&bigger, m->v[i].expr) = m->v[i];
		free(m->v);
		*m = bigger;
	}
	e = memo_slot(m, c.data[1]);
	if (!e->expr) {
		e->expr = c.data[1];
		m->n++;
	}
	return e;
}

bool an_binop(const an_ctx *ctx, CXCursor c, char op[4], CXCursor *lhs, CXCursor *rhs)
{
	enum CXCursorKind k = clang_getCursorKind(c);
	an_expr_entry *e;

	if (k != CXCursor_BinaryOperator && k != CXCursor_CompoundAssignOperator)
		return false;
	if (!(e = memo_entry(ctx, c)))
		return binop_of(ctx, c, op, lhs, rhs);
	if (!e->binop_known) {
		e->binop = binop_of(ctx, c, e->op, &e->lhs, &e->rhs);
		e->binop_known = true;
	}
	if (!e->binop)
		return false;
	memcpy(op, e->op, 4);
	*lhs = e->lhs;
	*rhs = e->rhs;
	return true;
}

const char *an_callee_of(const an_ctx *ctx, CXCursor call, char *buf, size_t size)
{
	an_expr_entry *e = memo_entry(ctx, call);

	if (!e)
		return an_callee(call, buf, size);
	if (!e->callee_known) {
		an_callee(call, e->callee, sizeof(e->callee));
		e->callee_known = true;
	}
	snprintf(buf, size, "%s", e->callee);
	return buf;
}

bool an_eval_int(CXCursor c, long long *value)
{
	CXEvalResult r = clang_Cursor_Evaluate(c);
	bool ok = false;

	if (!r)
		return false;
	if (clang_EvalResult_getKind(r) == CXEval_Int) {
		*value = clang_EvalResult_getAsLongLong(r);
		ok = true;
	}
	clang_EvalResult_dispose(r);
	return ok;
}

bool an_is_literal(const an_ctx *ctx, CXCursor e)
{
	uint32_t start, end;

	/* written as digits where it stands: a macro's place holds its name */
	e = an_strip(e);
	return clang_getCursorKind(e) == CXCursor_IntegerLiteral && an_extent(ctx, e, &start, &end) &&
	       start < ctx->len && ctx->src[start] >= '0' && ctx->src[start] <= '9';
}

bool an_var_of(CXCursor e, CXCursor *var)
{
	CXCursor ref;
	enum CXCursorKind k;

	e = an_strip(e);
	if (clang_getCursorKind(e) != CXCursor_DeclRefExpr)
		return false;
	ref = clang_getCursorReferenced(e);
	k = clang_getCursorKind(ref);
	if (k != CXCursor_VarDecl && k != CXCursor_ParmDecl)
		return false;
	*var = ref;
	return true;
}

const char *an_type_name(CXType t, char *buf, size_t size)
{
	static const char prelude_ns[] = "hipport_prelude::";
	CXString s;
	const char *name;
	size_t n = 0;

	t = clang_getCanonicalType(t);
	if (t.kind == CXType_LValueReference || t.kind == CXType_RValueReference)
		t = clang_getCanonicalType(clang_getPointeeType(t));
	s = clang_getTypeSpelling(t);
	name = clang_getCString(s) ? clang_getCString(s) : "";
	/* without qualifiers (libclang 15 has no clang_getUnqualifiedType) */
	for (;;) {
		if (strncmp(name, "const ", 6) == 0)
			name += 6;
		else if (strncmp(name, "volatile ", 9) == 0)
			name += 9;
		else
			break;
	}
	/* and without the prelude's namespace: the names as CUDA spells them */
	while (*name && n + 1 < size) {
		if (strncmp(name, prelude_ns, sizeof(prelude_ns) - 1) == 0) {
			name += sizeof(prelude_ns) - 1;
			continue;
		}
		buf[n++] = *name++;
	}
	buf[n] = '\0';
	clang_disposeString(s);
	return buf;
}

bool an_is_half_type(CXType t, bool *pair, bool *bf16)
{
	char name[64];

	an_type_name(t, name, sizeof(name));
	*pair = *bf16 = false;
	if (strcmp(name, "__half") == 0)
		return true;
	if (strcmp(name, "__nv_bfloat16") == 0)
		return *bf16 = true;
	if (strcmp(name, "__half2") == 0)
		return *pair = true;
	if (strcmp(name, "__nv_bfloat162") == 0)
		return *pair = *bf16 = true;
	return false;
}

bool an_is_narrow_int(CXType t)
{
	t = clang_getCanonicalType(t);
	switch (t.kind) {
	case CXType_Int: case CXType_UInt: case CXType_Short: case CXType_UShort:
	case CXType_Char_S: case CXType_Char_U: case CXType_SChar: case CXType_UChar:
		return true;
	case CXType_Long: case CXType_ULong:
		return clang_Type_getSizeOf(t) <= 4;
	default:
		return false;
	}
}

bool an_vars_has(const an_vars *s, CXCursor var)
{
	size_t i;

	/* by place: a template's instantiations share their pattern's */
	for (i = 0; i < s->n; i++)
		if (clang_equalLocations(clang_getCursorLocation(s->v[i]), clang_getCursorLocation(var)))
			return true;
	return false;
}

void an_vars_add(an_ctx *ctx, an_vars *s, CXCursor var)
{
	if (an_vars_has(s, var))
		return;
	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 8;
		CXCursor *n = realloc(s->v, cap * sizeof(*n));

		if (!n) {
			ctx->error = UTIL_ENOMEM;
			return;
		}
		s->v = n;
		s->cap = cap;
	}
	s->v[s->n++] = var;
}

void an_vars_dispose(an_vars *s)
{
	free(s->v);
	memset(s, 0, sizeof(*s));
}

typedef struct expr_search {
	const an_ctx *ctx;
	const an_vars *vars;
	const char *const *names;
	bool thread;
	bool found;
} expr_search;

static bool is_thread_source(const expr_search *s, CXCursor c)
{
	char name[64];
	enum CXCursorKind k = clang_getCursorKind(c);
	CXCursor var;

	if (k == CXCursor_DeclRefExpr) {
		an_spelling(c, name, sizeof(name));
		/* blockDim counts threads: blockDim.x / 32 is a warp count */
		if (strcmp(name, "threadIdx") == 0 || strcmp(name, "blockDim") == 0)
			return true;
		return an_var_of(c, &var) && (an_vars_has(&s->ctx->fn.thread, var) ||
					       an_vars_has(&s->ctx->fn.lane, var));
	}
	if (k == CXCursor_CallExpr) {
		an_callee(c, name, sizeof(name));
		return strcmp(name, "__lane_id") == 0 || strcmp(name, "thread_rank") == 0 ||
		       strcmp(name, "laneid") == 0;
	}
	return false;
}

static enum CXChildVisitResult search_expr(CXCursor c, CXCursor parent, CXClientData data)
{
	expr_search *s = data;
	CXCursor var;
	char name[64];

	(void)parent;
	if (s->thread && is_thread_source(s, c))
		s->found = true;
	else if (s->vars && an_var_of(c, &var) && an_vars_has(s->vars, var))
		s->found = true;
	else if (s->names && clang_getCursorKind(c) == CXCursor_CallExpr) {
		size_t i;

		an_callee(c, name, sizeof(name));
		for (i = 0; s->names[i]; i++)
			if (strcmp(name, s->names[i]) == 0)
				s->found = true;
	}
	return s->found ? CXChildVisit_Break : CXChildVisit_Recurse;
}

static bool search(expr_search *s, CXCursor e)
{
	s->found = false;
	search_expr(e, clang_getNullCursor(), s);
	if (!s->found)
		clang_visitChildren(e, search_expr, s);
	return s->found;
}

bool an_is_thread_expr(const an_ctx *ctx, CXCursor e)
{
	expr_search s = { ctx, NULL, NULL, true, false };

	return search(&s, e);
}

bool an_uses_var(CXCursor e, const an_vars *vars)
{
	expr_search s = { NULL, vars, NULL, false, false };

	return search(&s, e);
}

bool an_calls(CXCursor e, const char *const *names)
{
	expr_search s = { NULL, NULL, names, false, false };

	return search(&s, e);
}

bool an_is_ballot(const char *name)
{
	return strcmp(name, "__ballot_sync") == 0 || strcmp(name, "__ballot") == 0 ||
	       strcmp(name, "__activemask") == 0;
}

bool an_is_warp_intrinsic(const char *name)
{
	static const char *const prefixes[] = { "__shfl", "__any", "__all", "__uni", "__match_", "__reduce_",
						"__syncwarp", NULL };
	size_t i;

	if (an_is_ballot(name))
		return true;
	for (i = 0; prefixes[i]; i++)
		if (strncmp(name, prefixes[i], strlen(prefixes[i])) == 0)
			return true;
	return false;
}

static enum CXChildVisitResult find_base(CXCursor c, CXCursor parent, CXClientData data)
{
	(void)parent;
	return an_var_of(c, data) ? CXChildVisit_Break : CXChildVisit_Recurse;
}

bool an_base_var(CXCursor e, CXCursor *var)
{
	*var = clang_getNullCursor();
	if (an_var_of(e, var))
		return true;
	clang_visitChildren(e, find_base, var);
	return !clang_Cursor_isNull(*var);
}

static enum CXChildVisitResult find_attr(CXCursor c, CXCursor parent, CXClientData data)
{
	(void)parent;
	if (clang_getCursorKind(c) == *(enum CXCursorKind *)data) {
		*(enum CXCursorKind *)data = CXCursor_InvalidCode;
		return CXChildVisit_Break;
	}
	return CXChildVisit_Continue;
}

bool an_has_attr(CXCursor decl, enum CXCursorKind attr)
{
	enum CXCursorKind k = attr;

	clang_visitChildren(decl, find_attr, &k);
	return k == CXCursor_InvalidCode;
}

bool an_tokens_same(const an_ctx *ctx, size_t a, size_t b)
{
	const port_token *x = &ctx->tokens[a], *y = &ctx->tokens[b];

	return x->end - x->start == y->end - y->start &&
	       memcmp(ctx->src + x->start, ctx->src + y->start, x->end - x->start) == 0;
}

size_t an_code_after(const an_ctx *ctx, size_t i)
{
	while (i < ctx->ntokens && ctx->tokens[i].kind == PORT_TOKEN_COMMENT)
		i++;
	return i;
}

size_t an_code_before(const an_ctx *ctx, size_t i)
{
	while (i > 0 && ctx->tokens[i - 1].kind == PORT_TOKEN_COMMENT)
		i--;
	return i > 0 ? i - 1 : ctx->ntokens;
}

size_t an_directive_end(const an_ctx *ctx, size_t i)
{
	size_t k = i + 1;

	while (k < ctx->ntokens && (ctx->tokens[k].flags & PORT_TOKEN_DIRECTIVE) &&
	       !(ctx->tokens[k].flags & PORT_TOKEN_LINE_START && AN_TOKEN_IS(ctx, k, "#")))
		k++;
	return k;
}

bool an_token_integer(const an_ctx *ctx, size_t i, unsigned long long *value)
{
	const port_token *t;
	const char *end;
	char *stop;

	if (i >= ctx->ntokens || (t = &ctx->tokens[i])->kind != PORT_TOKEN_LITERAL || ctx->src[t->start] < '0' ||
	    ctx->src[t->start] > '9')
		return false;
	end = ctx->src + t->end;
	*value = strtoull(ctx->src + t->start, &stop, 0);
	while (stop < end && *stop && strchr("uUlL", *stop))
		stop++;
	return stop == end;
}

size_t an_token_index(const an_ctx *ctx, uint32_t offset)
{
	size_t lo = 0, hi = ctx->ntokens;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (ctx->tokens[mid].start < offset)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

bool an_in_pragma(const an_ctx *ctx, size_t i)
{
	while (i > 0 && !(ctx->tokens[i].flags & PORT_TOKEN_LINE_START))
		i--;
	return (ctx->tokens[i].flags & PORT_TOKEN_DIRECTIVE) && i + 1 < ctx->ntokens &&
	       (ctx->tokens[i + 1].flags & PORT_TOKEN_DIRECTIVE) && !(ctx->tokens[i + 1].flags & PORT_TOKEN_LINE_START) &&
	       AN_TOKEN_IS(ctx, i + 1, "pragma");
}

bool an_mentions_hip(const an_ctx *ctx, size_t i, size_t end)
{
	for (; i < end; i++) {
		const port_token *t = &ctx->tokens[i];

		if (t->kind == PORT_TOKEN_IDENT && (memmem(ctx->src + t->start, t->end - t->start, "HIP", 3) ||
						    memmem(ctx->src + t->start, t->end - t->start, "ROCM", 4)))
			return true;
	}
	return false;
}

bool an_hip_guarded(const an_ctx *ctx, uint32_t offset)
{
	bool stack[64];
	size_t depth = 0, i, end, k;

	for (i = 0; i < ctx->ntokens && ctx->tokens[i].start < offset; i = end) {
		end = i + 1;
		if (!(ctx->tokens[i].flags & PORT_TOKEN_DIRECTIVE) || !(ctx->tokens[i].flags & PORT_TOKEN_LINE_START) ||
		    !AN_TOKEN_IS(ctx, i, "#") || i + 1 >= ctx->ntokens)
			continue;
		end = an_directive_end(ctx, i);
		if (AN_TOKEN_IS(ctx, i + 1, "if") || AN_TOKEN_IS(ctx, i + 1, "ifdef") || AN_TOKEN_IS(ctx, i + 1, "ifndef")) {
			if (depth < 64)
				stack[depth] = an_mentions_hip(ctx, i + 2, end);
			depth++;
		} else if (AN_TOKEN_IS(ctx, i + 1, "elif") && depth && depth <= 64) {
			stack[depth - 1] |= an_mentions_hip(ctx, i + 2, end);
		} else if (AN_TOKEN_IS(ctx, i + 1, "endif") && depth) {
			depth--;
		}
	}
	for (k = 0; k < depth && k < 64; k++)
		if (stack[k])
			return true;
	return false;
}
