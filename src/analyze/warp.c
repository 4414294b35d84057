/* WARP: a 32-lane warp baked into code that runs on 64-lane wavefronts
 * (gfx90a, gfx942): lane and warp arithmetic, warp-size constants, shuffle
 * loops, ballots and masks kept in 32 bits, shared arrays sized by warps. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/ast.h"
#include "port/translate.h"

bool an_is_warp_size_name(const char *name)
{
	static const char *const words[] = { "warpsize", "warpsz", "threadsperwarp", "wavefrontsize",
					     "wavesize", NULL };
	char flat[128];
	size_t i, n = 0;

	for (i = 0; name[i] && n + 1 < sizeof(flat); i++)
		if (name[i] != '_')
			flat[n++] = (char)tolower((unsigned char)name[i]);
	flat[n] = '\0';
	for (i = 0; words[i]; i++)
		if (strstr(flat, words[i]))
			return true;
	return false;
}

static bool lane_or_warp_name(const char *name)
{
	char flat[128];
	size_t i, n = 0;

	for (i = 0; name[i] && n + 1 < sizeof(flat); i++)
		flat[n++] = (char)tolower((unsigned char)name[i]);
	flat[n] = '\0';
	return strstr(flat, "lane") || strstr(flat, "warp");
}

/* --- WARP-001: & 31, % 32, >> 5, / 32 on thread indices --- */

/* Whether var is a constant whose definition WARP-002 does not report: one
 * in another file (a header), or one here whose name does not say warp
 * size; where says "WS = 32 at utils.h:10". */
static bool constant_elsewhere(CXCursor var, char *where, size_t size)
{
	CXSourceLocation loc = clang_getCursorLocation(var);
	CXString name = clang_getCursorSpelling(var), file_name;
	CXFile file;
	unsigned line;
	long long v;
	const char *base;
	bool here = clang_Location_isFromMainFile(loc) != 0;
	bool ok = clang_getCursorKind(var) == CXCursor_VarDecl &&
		  clang_isConstQualifiedType(clang_getCursorType(var)) && an_eval_int(var, &v) &&
		  !(here && an_is_warp_size_name(clang_getCString(name)));

	if (ok) {
		clang_getSpellingLocation(loc, &file, &line, NULL, NULL);
		file_name = clang_getFileName(file);
		base = clang_getCString(file_name) ? strrchr(clang_getCString(file_name), '/') : NULL;
		/* the main file is parsed under a name of our own: this file's line only */
		if (here)
			snprintf(where, size, "%s = %lld at line %u", clang_getCString(name), v, line);
		else
			snprintf(where, size, "%s = %lld at %s:%u", clang_getCString(name), v,
				 base ? base + 1 : clang_getCString(file_name) ? clang_getCString(file_name) : "?",
				 line);
		clang_disposeString(file_name);
	}
	clang_disposeString(name);
	return ok;
}

/* A binary operator read once for the checks that look at it. */
typedef struct binop {
	CXCursor c, lhs, rhs;
	char op[4];
} binop;

static void lane_arithmetic(an_ctx *ctx, const binop *b)
{
	static const struct {
		const char *op;
		long long value;
		const char *variant;
		const char *form;
		const char *host_form; /* in host code, where warpSize is no name: the platform's constant */
	} forms[] = {
		{ "&", 31, "and", "& (warpSize - 1)", "& (HIPPORT_WAVEFRONT_SIZE - 1)" },
		{ "%", 32, "mod", "% warpSize", "% HIPPORT_WAVEFRONT_SIZE" },
		{ ">>", 5, "div", "/ warpSize", "/ HIPPORT_WAVEFRONT_SIZE" },
		{ "/", 32, "div", "/ warpSize", "/ HIPPORT_WAVEFRONT_SIZE" },
		{ "&=", 31, "and_assign", "&= (warpSize - 1)", "&= (HIPPORT_WAVEFRONT_SIZE - 1)" },
		{ "%=", 32, "mod_assign", "%= warpSize", "%= HIPPORT_WAVEFRONT_SIZE" },
		{ ">>=", 5, "div_assign", "/= warpSize", "/= HIPPORT_WAVEFRONT_SIZE" },
		{ "/=", 32, "div_assign", "/= warpSize", "/= HIPPORT_WAVEFRONT_SIZE" },
	};
	CXCursor c = b->c, lhs = b->lhs, rhs = b->rhs, var;
	const char *op = b->op;
	long long v;
	size_t i;
	uint32_t start, end;
	an_severity sev;
	an_hit *h;
	char where[320] = "", variant[32];
	bool named;

	/* a literal, or a constant defined elsewhere (static const int WS = 32 in
	 * an included header): that one WARP-002 does not see at its definition */
	named = !an_is_literal(ctx, rhs) && an_var_of(rhs, &var) && constant_elsewhere(var, where, sizeof(where));
	if ((!named && !an_is_literal(ctx, rhs)) || !an_eval_int(rhs, &v))
		return;
	for (i = 0; i < sizeof(forms) / sizeof(forms[0]); i++)
		if (strcmp(op, forms[i].op) == 0 && v == forms[i].value)
			break;
	if (i == sizeof(forms) / sizeof(forms[0]) || !an_is_thread_expr(ctx, lhs))
		return;
	sev = ctx->fn.warp_level || (an_extent(ctx, c, &start, &end) && start < ctx->fn.named_end) ? AN_WARNING
												    : AN_NOTE;
	if (named) {
		/* the fix belongs where the constant is defined */
		CXString name = clang_getCursorSpelling(var);

		an_add_at(ctx, "WARP-001", sev, c, "'%s %s' (%s) assumes 32-lane warps; AMD wavefronts have 64 lanes (%s)",
			  op, clang_getCString(name), where, ctx->fn.host_only ? forms[i].host_form : forms[i].form);
		clang_disposeString(name);
		return;
	}
	h = an_add_at(ctx, "WARP-001", sev, c, "'%s %lld' assumes 32-lane warps; AMD wavefronts have 64 lanes (%s)", op,
		      v, ctx->fn.host_only ? forms[i].host_form : forms[i].form);
	snprintf(variant, sizeof(variant), "%s%s", forms[i].variant, ctx->fn.host_only ? "_host" : "");
	if (h) {
		char *text = an_text(ctx, lhs);
		enum CXCursorKind lk = clang_getCursorKind(an_strip(lhs));
		an_range r = { "match", h->offset, h->offset + h->length };

		if (text) {
			char *wrapped = NULL;
			bool paren = op[0] == '>' && (lk == CXCursor_BinaryOperator || lk == CXCursor_ConditionalOperator ||
						      lk == CXCursor_CompoundAssignOperator) &&
				     clang_getCursorKind(lhs) != CXCursor_ParenExpr;
			an_capture cap = { "lhs", text };

			if (paren && asprintf(&wrapped, "(%s)", text) > 0)
				cap.text = wrapped;
			an_fix(ctx, h, variant, &r, 1, &cap, 1);
			free(wrapped);
			free(text);
		}
	}
}

/* --- WARP-003: shuffle loops over offsets 16..1 or up to 32 --- */

static bool is_shuffle(const char *name)
{
	return strncmp(name, "__shfl", 6) == 0;
}

typedef struct shuffle_probe {
	const an_vars *loop; /* the loop variable */
	bool found;
} shuffle_probe;

/* Whether a shuffle in the body takes the loop variable as an argument. */
static enum CXChildVisitResult shuffle_uses(CXCursor c, CXCursor parent, CXClientData data)
{
	shuffle_probe *p = data;
	char name[64];
	int i, n;

	(void)parent;
	if (clang_getCursorKind(c) != CXCursor_CallExpr || !is_shuffle(an_callee(c, name, sizeof(name))))
		return CXChildVisit_Recurse;
	n = clang_Cursor_getNumArguments(c);
	for (i = 0; i < n && !p->found; i++)
		p->found = an_uses_var(clang_Cursor_getArgument(c, (unsigned)i), p->loop);
	return p->found ? CXChildVisit_Break : CXChildVisit_Recurse;
}

static void fix_literal(an_ctx *ctx, an_hit *h, const char *variant)
{
	an_range r;

	if (!h)
		return;
	r.name = "match";
	r.start = h->offset;
	r.end = h->offset + h->length;
	an_fix(ctx, h, variant, &r, 1, NULL, 0);
}

/* for (T var = 16; ...) or for (T var = ...; var < 32; ...) around a shuffle of var */
static void shuffle_loop(an_ctx *ctx, CXCursor loop)
{
	CXCursor kids[4], decl[2], init[3], lhs, rhs, var;
	an_vars vars = { &var, 1, 1 };
	shuffle_probe probe = { &vars, false };
	size_t k;
	char op[4];
	long long v;

	if (an_children(loop, kids, 4) != 4 || clang_getCursorKind(kids[0]) != CXCursor_DeclStmt ||
	    an_children(kids[0], decl, 2) != 1 || clang_getCursorKind(decl[0]) != CXCursor_VarDecl)
		return;
	var = decl[0];
	if (!(k = an_children(var, init, 3)))
		return;
	clang_visitChildren(kids[3], shuffle_uses, &probe);
	if (!probe.found)
		return;
	if (an_is_literal(ctx, init[k - 1]) && an_eval_int(init[k - 1], &v) && v == 16) {
		fix_literal(ctx,
			    an_add_at(ctx, "WARP-003", AN_WARNING, init[k - 1],
				      "shuffle loop starts at offset 16: it reduces 32 lanes of a 64-lane wavefront"),
			    "start");
		return;
	}
	if (an_binop(ctx, kids[1], op, &lhs, &rhs) && strcmp(op, "<") == 0 && an_uses_var(lhs, &vars) &&
	    an_is_literal(ctx, rhs) && an_eval_int(rhs, &v) && v == 32)
		fix_literal(ctx,
			    an_add_at(ctx, "WARP-003", AN_WARNING, rhs,
				      "shuffle loop bounded by 32: it covers 32 lanes of a 64-lane wavefront"),
			    "bound");
}

/* __shfl_sync(m, v, 31) / __shfl(v, 31): a broadcast from the last lane of a
 * 32-lane warp (no width given; with one, 32-lane groups are meant) */
static void last_lane(an_ctx *ctx, CXCursor call, const char *name)
{
	bool sync = strcmp(name, "__shfl_sync") == 0;
	int lane_arg = sync ? 2 : 1;
	CXCursor arg;
	long long v;
	uint32_t start, end;

	/* a width written in the call: the prelude's default argument has no place in the file */
	if ((!sync && strcmp(name, "__shfl") != 0) || clang_Cursor_getNumArguments(call) < lane_arg + 1 ||
	    (clang_Cursor_getNumArguments(call) > lane_arg + 1 &&
	     an_extent(ctx, clang_Cursor_getArgument(call, (unsigned)lane_arg + 1), &start, &end)))
		return;
	arg = clang_Cursor_getArgument(call, (unsigned)lane_arg);
	if (!an_is_literal(ctx, arg) || !an_eval_int(arg, &v) || v != 31)
		return;
	fix_literal(ctx,
		    an_add_at(ctx, "WARP-003", AN_WARNING, an_strip(arg),
			      "%s from lane 31: the last lane of a 32-lane warp, not of a 64-lane wavefront", name),
		    "last");
}

/* --- WARP-004/006: ballots and full masks in 32-bit variables --- */

/* The range of a declaration's type, after const/static/volatile; false
 * for auto or when the type is not written out. */
static bool type_range(const an_ctx *ctx, CXCursor var, uint32_t *start, uint32_t *end)
{
	uint32_t s, e, name;
	size_t i;

	if (!an_extent(ctx, var, &s, &e) || !an_offset(ctx, clang_getCursorLocation(var), &name) || name <= s ||
	    !an_written(ctx, var))
		return false;
	*start = s;
	for (i = 0; i < ctx->ntokens; i++) {
		const port_token *t = &ctx->tokens[i];

		if (t->start < s || t->kind == PORT_TOKEN_COMMENT)
			continue;
		if (t->start >= name)
			break;
		if (t->start == *start && (AN_TOKEN_IS(ctx, i, "const") || AN_TOKEN_IS(ctx, i, "static") ||
					   AN_TOKEN_IS(ctx, i, "volatile") || AN_TOKEN_IS(ctx, i, "register"))) {
			*start = i + 1 < ctx->ntokens ? ctx->tokens[i + 1].start : name;
			continue;
		}
		if (AN_TOKEN_IS(ctx, i, "auto"))
			return false;
		*end = t->end;
	}
	return *start < name && *end <= name && *end > *start;
}

static CXCursor var_init(CXCursor var)
{
	CXCursor kids[4];
	size_t n = an_children(var, kids, 4);

	if (n && clang_isExpression(clang_getCursorKind(kids[n - 1])))
		return kids[n - 1];
	return clang_getNullCursor();
}

static void ballot_variable(an_ctx *ctx, CXCursor var)
{
	CXCursor init = var_init(var), call;
	char name[64];
	uint32_t ts, te;
	an_hit *h;

	if (clang_Cursor_isNull(init) || !an_is_narrow_int(clang_getCursorType(var)))
		return;
	call = an_strip(init);
	if (clang_getCursorKind(call) != CXCursor_CallExpr || !an_is_ballot(an_callee(call, name, sizeof(name))))
		return;
	h = an_add_at(ctx, "WARP-004", AN_WARNING, var,
		      "%s returns a 64-bit lane mask on AMD: 32 bits keep only lanes 0-31", name);
	if (h && type_range(ctx, var, &ts, &te)) {
		an_range r = { "type", ts, te };

		an_fix(ctx, h, "decl", &r, 1, NULL, 0);
	}
}

static void mask_variable(an_ctx *ctx, CXCursor call, const char *name)
{
	CXCursor arg, var, init;
	long long v;
	uint32_t ts, te;
	an_hit *h;

	/* below HIP 6.2 the port drops the masks of _sync intrinsics; literal
	 * masks it widens itself */
	if (ctx->target_hip < PORT_VERSION(6, 2, 0) || strcmp(name + strlen(name) - 5, "_sync") != 0 ||
	    clang_Cursor_getNumArguments(call) < 1)
		return;
	arg = clang_Cursor_getArgument(call, 0);
	if (an_is_literal(ctx, arg) || !an_is_narrow_int(clang_getCursorType(an_strip(arg))) ||
	    (an_extent(ctx, arg, &ts, &te) && port_is_full_mask_expression(ctx->src + ts, te - ts)))
		return;
	if (!an_var_of(arg, &var) || clang_getCursorKind(var) != CXCursor_VarDecl ||
	    clang_Cursor_isNull(init = var_init(var)) || !an_eval_int(init, &v) || (v != 0xffffffffLL && v != -1)) {
		an_add_at(ctx, "WARP-006", AN_WARNING, arg,
			  "32-bit lane mask passed to %s: the port widens it to 64 bits as it is, which names lanes 0-31 "
			  "only; check which lanes of a 64-lane wavefront it means", name);
		return;
	}
	h = an_add_at(ctx, "WARP-006", AN_WARNING, var,
		      "32-bit full mask passed to %s: HIP 6.2 and newer take a 64-bit mask, all lanes being "
		      "0xffffffffffffffff (the port widens it at its definition or at the call)",
		      name);
	if (h && !h->nedits && type_range(ctx, var, &ts, &te) && an_written(ctx, init)) {
		an_range r[2] = { { "type", ts, te }, { "value", 0, 0 } };

		if (an_extent(ctx, init, &r[1].start, &r[1].end))
			an_fix(ctx, h, "decl", r, 2, NULL, 0);
	}
}

/* --- WARP-005: 32-bit bit counts of ballots --- */

static void ballot_bits(an_ctx *ctx, CXCursor call, const char *name)
{
	static const char *const narrow[] = { "__popc", "__ffs", "__clz", "__brev", NULL };
	static const char *const ballots[] = { "__ballot_sync", "__ballot", "__activemask", NULL };
	CXCursor arg, kids[2];
	size_t i;
	an_hit *h;

	for (i = 0; narrow[i]; i++)
		if (strcmp(name, narrow[i]) == 0)
			break;
	if (!narrow[i] || clang_Cursor_getNumArguments(call) != 1)
		return;
	arg = clang_Cursor_getArgument(call, 0);
	if (!an_calls(arg, ballots) && !an_uses_var(arg, &ctx->fn.ballot))
		return;
	h = an_add_at(ctx, "WARP-005", AN_WARNING, call, "%s on a ballot counts only lanes 0-31 of a 64-lane wavefront",
		      name);
	if (h && an_children(call, kids, 2) >= 1 && an_written(ctx, kids[0])) {
		an_range r = { "match", 0, 0 };

		if (an_extent(ctx, kids[0], &r.start, &r.end))
			an_fix(ctx, h, name + 2, &r, 1, NULL, 0);
	}
}

/* --- WARP-007: 32-bit lane masks built by shifting --- */

/* A lane id: a variable holding one, or threadIdx.x & 31 / % warpSize
 * written in place (a global thread index is not: shifting by it is
 * wrong on any GPU). */
static bool is_lane_expr(const an_ctx *ctx, CXCursor e)
{
	CXCursor lhs, rhs;
	char op[4];

	if (an_uses_var(e, &ctx->fn.lane))
		return true;
	e = an_strip(e);
	return an_binop(ctx, e, op, &lhs, &rhs) && (strcmp(op, "&") == 0 || strcmp(op, "%") == 0) &&
	       an_is_thread_expr(ctx, lhs);
}

/* The fix widens the constant; it is offered only where the mask goes on
 * in 64 bits (truncated to 32 it would still lose lanes 32-63). */
static void lane_mask(an_ctx *ctx, const binop *b, CXCursor parent)
{
	CXCursor c = b->c, lhs = b->lhs, rhs = b->rhs;
	const char *op = b->op;
	long long v;
	an_hit *h;
	const char *variant;
	uint32_t start, end;

	if ((strcmp(op, "<<") != 0 && strcmp(op, ">>") != 0) ||
	    !an_is_narrow_int(clang_getCursorType(lhs)) || !an_eval_int(lhs, &v) || !is_lane_expr(ctx, rhs))
		return;
	if (strcmp(op, "<<") == 0 && v == 1)
		variant = "one";
	else if (v == -1 || v == 0xffffffffLL)
		variant = "allones";
	else
		return;
	h = an_add_at(ctx, "WARP-007", AN_WARNING, lhs,
		      "32-bit lane mask: shifting by a lane id of 32-63 overflows on 64-lane wavefronts");
	if (h && an_written(ctx, lhs) &&
	    (!an_is_narrow_int(clang_getCursorType(parent)) ||
	     (an_extent(ctx, c, &start, &end) && start == ctx->fn.wide_start && end == ctx->fn.wide_end)))
		fix_literal(ctx, h, variant);
}

/* --- WARP-008: __shared__ T s[32] indexed by a warp id --- */

static void warp_slots(an_ctx *ctx, CXCursor subscript)
{
	CXCursor kids[2], var;
	CXType t;

	if (an_children(subscript, kids, 2) != 2 || !an_var_of(kids[0], &var) ||
	    clang_getCursorKind(var) != CXCursor_VarDecl || !an_has_attr(var, CXCursor_CUDASharedAttr))
		return;
	t = clang_getCanonicalType(clang_getCursorType(var));
	if (t.kind != CXType_ConstantArray || clang_getArraySize(t) != 32 || !an_uses_var(kids[1], &ctx->fn.warp_id))
		return;
	an_add_at(ctx, "WARP-008", AN_WARNING, var,
		  "shared array of 32 slots indexed by a warp id: a block has half as many 64-lane wavefronts, so "
		  "code that reads slots by lane sees unwritten ones");
}

/* --- WARP-002: constants that hold a warp size of 32 --- */

static void warp_constant(an_ctx *ctx, CXCursor c)
{
	enum CXCursorKind k = clang_getCursorKind(c);
	char name[128];
	long long v;

	if (k != CXCursor_VarDecl && k != CXCursor_EnumConstantDecl)
		return;
	if (!an_is_warp_size_name(an_spelling(c, name, sizeof(name))) || !an_eval_int(c, &v) || v != 32)
		return;
	if (k == CXCursor_VarDecl && !clang_isConstQualifiedType(clang_getCursorType(c)))
		return;
	{
		uint32_t start, end;

		if (an_extent(ctx, c, &start, &end) && an_hip_guarded(ctx, start))
			return; /* picked for HIP already */
	}
	{
		an_hit *h = an_add_at(ctx, "WARP-002", AN_WARNING, c, "%s = 32: AMD wavefronts have 64 lanes; use warpSize",
				      name);
		CXCursor kids[4];
		size_t n = an_children(c, kids, 4);

		if (h && n && an_is_literal(ctx, kids[n - 1])) {
			an_range r = { "match", 0, 0 };

			if (an_extent(ctx, an_strip(kids[n - 1]), &r.start, &r.end))
				an_fix(ctx, h, "value", &r, 1, NULL, 0);
		}
	}
}

void an_warp_decl(an_ctx *ctx, CXCursor c)
{
	if (clang_getCursorKind(c) == CXCursor_EnumDecl) {
		CXCursor kids[64];
		size_t i, n = an_children(c, kids, 64);

		for (i = 0; i < n && i < 64; i++)
			warp_constant(ctx, kids[i]);
		return;
	}
	warp_constant(ctx, c);
}

void an_warp_visit(an_ctx *ctx, const an_node *n)
{
	CXCursor c = n->c, parent = n->parent;
	char name[64];

	switch (n->kind) {
	case CXCursor_BinaryOperator:
	case CXCursor_CompoundAssignOperator: {
		binop b;

		b.c = c;
		if (an_binop(ctx, c, b.op, &b.lhs, &b.rhs)) {
			lane_arithmetic(ctx, &b);
			lane_mask(ctx, &b, parent);
		}
		break;
	}
	case CXCursor_ForStmt:
		shuffle_loop(ctx, c);
		break;
	case CXCursor_VarDecl:
		if (lane_or_warp_name(an_spelling(c, name, sizeof(name)))) {
			uint32_t start, end;

			if (an_extent(ctx, c, &start, &end))
				ctx->fn.named_end = end;
		}
		ballot_variable(ctx, c);
		warp_constant(ctx, c);
		break;
	case CXCursor_CallExpr:
		ballot_bits(ctx, c, n->callee);
		last_lane(ctx, c, n->callee);
		if (strlen(n->callee) > 5)
			mask_variable(ctx, c, n->callee);
		break;
	case CXCursor_ArraySubscriptExpr:
		warp_slots(ctx, c);
		break;
	case CXCursor_UnexposedExpr: {
		/* an implicit conversion to 64 bits: remember what it converts */
		CXType t = clang_getCanonicalType(clang_getCursorType(c));

		if (t.kind == CXType_ULongLong || t.kind == CXType_LongLong || t.kind == CXType_ULong ||
		    t.kind == CXType_Long)
			an_extent(ctx, an_strip(c), &ctx->fn.wide_start, &ctx->fn.wide_end);
		break;
	}
	default:
		break;
	}
}

/* #define WARP_SIZE 32, and wavefront sizes picked by AMD's macros */
void an_warp_tokens(an_ctx *ctx)
{
	size_t i;

	for (i = 0; i + 3 < ctx->ntokens; i++) {
		const port_token *t = &ctx->tokens[i];

		if (t->kind == PORT_TOKEN_IDENT &&
		    (AN_TOKEN_IS(ctx, i, "__AMDGCN_WAVEFRONT_SIZE") || AN_TOKEN_IS(ctx, i, "__AMDGCN_WAVEFRONT_SIZE__") ||
		     AN_TOKEN_IS(ctx, i, "__GFX9__"))) {
			an_add(ctx, "WARP-009", AN_WARNING, t->start, t->end,
			       "%.*s picks the wavefront size at compile time; it is gone in ROCm 7: use warpSize",
			       (int)(t->end - t->start), ctx->src + t->start);
			continue;
		}
		if (!(t->flags & PORT_TOKEN_DIRECTIVE) || !AN_TOKEN_IS(ctx, i, "#") ||
		    !AN_TOKEN_IS(ctx, i + 1, "define"))
			continue;
		{
			const port_token *n = &ctx->tokens[i + 2], *v = &ctx->tokens[i + 3];
			char name[128];
			bool log2;

			snprintf(name, sizeof(name), "%.*s", (int)(n->end - n->start), ctx->src + n->start);
			/* WARP_SIZE 32, or its log LOG2_WARP_SIZE 5, alone on the line,
			 * outside code that picks it for HIP already */
			log2 = strcasestr(name, "log") != NULL;
			if (!an_is_warp_size_name(name) || v->kind != PORT_TOKEN_LITERAL ||
			    strtoull(ctx->src + v->start, NULL, 0) != (log2 ? 5 : 32) ||
			    an_hip_guarded(ctx, t->start) ||
			    (i + 4 < ctx->ntokens && (ctx->tokens[i + 4].flags & PORT_TOKEN_DIRECTIVE) &&
			     !(ctx->tokens[i + 4].flags & PORT_TOKEN_LINE_START) &&
			     ctx->tokens[i + 4].kind != PORT_TOKEN_COMMENT))
				continue;
			{
				an_hit *h = an_add(ctx, "WARP-002", AN_WARNING, t->start, v->end,
						   log2 ? "%s is 5 (32 lanes): AMD wavefronts have 64 lanes; use warpSize"
							: "%s is 32: AMD wavefronts have 64 lanes; use warpSize",
						   name);
				an_range r = { "match", v->start, v->start + 1 + !log2 }; /* the digits: a U stays a suffix (fix.c) */
				uint32_t decl = ctx->decl_start;

				/* the fix's macros go right above the directive */
				ctx->decl_start = t->start;
				if (h)
					an_fix(ctx, h, log2 ? "log2" : "value", &r, 1, NULL, 0);
				ctx->decl_start = decl;
			}
		}
	}
}
