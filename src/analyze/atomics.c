/* ATOM: atomics HIP lacks for the type (16-bit floats, 16-bit CAS), scoped
 * atomics, floating-point atomics and the memory they hit, libcu++ atomics. */
#include <stdlib.h>
#include <string.h>

#include "analyze/ast.h"

static bool is_float_atomic(const char *name)
{
	static const char *const ops[] = { "atomicAdd", "atomicSub", "atomicMax", "atomicMin", "atomicExch", NULL };
	size_t i;

	for (i = 0; ops[i]; i++)
		if (strncmp(name, ops[i], strlen(ops[i])) == 0)
			return true;
	return false;
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* A call's arguments as written: captures for a fix; false if one is not written out. */
static bool arg_texts(an_ctx *ctx, CXCursor call, char **texts, int n)
{
	int i;

	for (i = 0; i < n; i++)
		texts[i] = an_text(ctx, clang_Cursor_getArgument(call, (unsigned)i));
	for (i = 0; i < n; i++)
		if (!texts[i])
			return false;
	return true;
}

static void fix_call(an_ctx *ctx, an_hit *hit, CXCursor call, const char *variant, const char *const *names,
		     int nargs)
{
	char *texts[3] = { 0 };
	an_capture caps[3];
	an_range range = { "match", 0, 0 };
	int i;

	if (hit && an_written(ctx, call) && an_extent(ctx, call, &range.start, &range.end) &&
	    arg_texts(ctx, call, texts, nargs)) {
		for (i = 0; i < nargs; i++) {
			caps[i].name = names[i];
			caps[i].text = texts[i];
		}
		an_fix(ctx, hit, variant, &range, 1, caps, (size_t)nargs);
	}
	for (i = 0; i < nargs; i++)
		free(texts[i]);
}

static void check_call(an_ctx *ctx, CXCursor call, const char *name)
{
	static const char *const add_caps[] = { "addr", "val" };
	static const char *const cas_caps[] = { "addr", "compare", "val" };
	int nargs = clang_Cursor_getNumArguments(call);
	CXType ptr, pointee;
	bool pair, bf16;
	char type[64];
	CXCursor var;

	if (nargs < 2)
		return;
	ptr = clang_getCanonicalType(clang_getCursorType(clang_Cursor_getArgument(call, 0)));
	if (ptr.kind != CXType_Pointer)
		return;
	pointee = clang_getCanonicalType(clang_getPointeeType(ptr));
	an_type_name(pointee, type, sizeof(type));
	if (strncmp(name, "atomicAdd", 9) == 0 && an_is_half_type(pointee, &pair, &bf16)) {
		an_hit *h = an_add_at(ctx, "ATOM-001", AN_ERROR, call,
				      "%s on %s: HIP has no 16-bit floating-point atomicAdd", name, type);

		fix_call(ctx, h, call, pair ? "half2" : "half16", add_caps, 2);
		return;
	}
	if (strncmp(name, "atomicCAS", 9) == 0 && nargs == 3 &&
	    (pointee.kind == CXType_UShort || pointee.kind == CXType_Short)) {
		an_hit *h = an_add_at(ctx, "ATOM-002", AN_ERROR, call,
				      "%s on %s: HIP has no 16-bit compare-and-swap", name, type);

		fix_call(ctx, h, call, "u16", cas_caps, 3);
		return;
	}
	if (pointee.kind != CXType_Float && pointee.kind != CXType_Double)
		return;
	if (!is_float_atomic(name) || !an_base_var(clang_Cursor_getArgument(call, 0), &var))
		return;
	if (an_vars_has(&ctx->fine_grained, var)) {
		an_add_at(ctx, "ATOM-004", AN_WARNING, call,
			  "%s on %s in managed or host memory: floating-point atomics on fine-grained memory are slow, "
			  "or lost with unsafe fp atomics",
			  name, type);
	} else if (strncmp(name, "atomicAdd", 9) == 0) {
		bool shared = clang_getCursorKind(var) == CXCursor_VarDecl && an_has_attr(var, CXCursor_CUDASharedAttr);

		an_add_at(ctx, "ATOM-005", AN_NOTE, call,
			  shared ? "%s on %s in shared memory: a compare-and-swap loop on AMD, much slower than on NVIDIA"
				 : "%s on %s: a compare-and-swap loop unless built with -munsafe-fp-atomics "
				   "(coarse-grained memory only)",
			  name, type);
	}
}

void an_atomics_visit(an_ctx *ctx, const an_node *n)
{
	const char *name = n->callee;
	CXCursor c = n->c;

	if (n->kind != CXCursor_CallExpr || strncmp(name, "atomic", 6) != 0)
		return;
	if (ends_with(name, "_block") || ends_with(name, "_system"))
		an_add_at(ctx, "ATOM-003", AN_NOTE, c, "%s: %s", name,
			  ends_with(name, "_block") ? "block scope is device scope on AMD, no cheaper"
						    : "system scope needs fine-grained, coherent memory on AMD");
	check_call(ctx, c, name);
}

/* libcu++: cuda::atomic, cuda::atomic_ref, cuda::std::atomic[_ref] */
void an_atomics_tokens(an_ctx *ctx)
{
	size_t i;

	for (i = 0; i + 2 < ctx->ntokens; i++) {
		size_t k = i + 2;

		if (ctx->tokens[i].kind != PORT_TOKEN_IDENT || !AN_TOKEN_IS(ctx, i, "cuda") ||
		    !AN_TOKEN_IS(ctx, i + 1, "::"))
			continue;
		if (AN_TOKEN_IS(ctx, k, "std") && k + 2 < ctx->ntokens && AN_TOKEN_IS(ctx, k + 1, "::"))
			k += 2;
		if (AN_TOKEN_IS(ctx, k, "atomic") || AN_TOKEN_IS(ctx, k, "atomic_ref") ||
		    AN_TOKEN_IS(ctx, k, "atomic_flag"))
			an_add(ctx, "ATOM-006", AN_ERROR, ctx->tokens[i].start, ctx->tokens[k].end,
			       "%.*s: libcu++ is not available under HIP",
			       (int)(ctx->tokens[k].end - ctx->tokens[i].start), ctx->src + ctx->tokens[i].start);
	}
}
