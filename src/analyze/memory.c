/* MEM: memory kinds that behave differently on AMD GPUs: managed memory
 * (XNACK), texture references (gone in HIP 6), peer access. It also finds
 * which pointers reach kernels from managed or host allocations, for the
 * floating-point atomics check. */
#include <string.h>

#include "analyze/ast.h"

static bool is_fine_grained_alloc(const char *name)
{
	return strcmp(name, "cudaMallocManaged") == 0 || strcmp(name, "cudaMallocHost") == 0 ||
	       strcmp(name, "cudaHostAlloc") == 0;
}

/* Whether a variable is declared __managed__ (libclang shows no attribute kind for it). */
static bool managed_variable(const an_ctx *ctx, CXCursor var)
{
	uint32_t start, end, name;
	size_t i;

	if (!an_extent(ctx, var, &start, &end) || !an_offset(ctx, clang_getCursorLocation(var), &name))
		return false;
	for (i = an_token_index(ctx, start); i < ctx->ntokens && ctx->tokens[i].start < name; i++)
		if (AN_TOKEN_IS(ctx, i, "__managed__"))
			return true;
	return false;
}

static enum CXChildVisitResult allocations(CXCursor c, CXCursor parent, CXClientData data)
{
	an_ctx *ctx = data;
	char name[64];
	CXCursor var;

	(void)parent;
	if (clang_getCursorKind(c) == CXCursor_VarDecl && managed_variable(ctx, c)) {
		an_vars_add(ctx, &ctx->fine_grained, c);
		return CXChildVisit_Continue;
	}
	if (clang_getCursorKind(c) == CXCursor_CallExpr && clang_Cursor_getNumArguments(c) >= 2 &&
	    is_fine_grained_alloc(an_callee_of(ctx, c, name, sizeof(name))) &&
	    an_base_var(clang_Cursor_getArgument(c, 0), &var))
		an_vars_add(ctx, &ctx->fine_grained, var);
	return CXChildVisit_Recurse;
}

/* A kernel launched with such a pointer: its parameter is one too. */
static enum CXChildVisitResult launches(CXCursor c, CXCursor parent, CXClientData data)
{
	an_ctx *ctx = data;
	CXCursor kernel;
	int i, n;

	(void)parent;
	if (clang_getCursorKind(c) != CXCursor_CallExpr)
		return CXChildVisit_Recurse;
	kernel = clang_getCursorReferenced(c);
	if (clang_Cursor_isNull(kernel) || !an_has_attr(kernel, CXCursor_CUDAGlobalAttr))
		return CXChildVisit_Recurse;
	n = clang_Cursor_getNumArguments(c);
	for (i = 0; i < n && i < clang_Cursor_getNumArguments(kernel); i++)
		if (an_uses_var(clang_Cursor_getArgument(c, (unsigned)i), &ctx->fine_grained))
			an_vars_add(ctx, &ctx->fine_grained, clang_Cursor_getArgument(kernel, (unsigned)i));
	return CXChildVisit_Recurse;
}

/* A walk of the main file only: the prelude and the headers have no
 * allocations of the file, and walking them costs more than the file. */
typedef struct main_walk {
	an_ctx *ctx;
	CXCursorVisitor visit;
} main_walk;

static enum CXChildVisitResult in_main_file(CXCursor c, CXCursor parent, CXClientData data)
{
	main_walk *w = data;

	if (!clang_Location_isFromMainFile(clang_getCursorLocation(c)))
		return CXChildVisit_Continue;
	if (w->visit(c, parent, w->ctx) == CXChildVisit_Recurse)
		clang_visitChildren(c, w->visit, w->ctx);
	return CXChildVisit_Continue;
}

void an_memory_collect(an_ctx *ctx, CXCursor root)
{
	main_walk w = { ctx, allocations };

	if (!memmem(ctx->src, ctx->len, "cudaMallocManaged", 17) && !memmem(ctx->src, ctx->len, "__managed__", 11) &&
	    !memmem(ctx->src, ctx->len, "cudaMallocHost", 14) && !memmem(ctx->src, ctx->len, "cudaHostAlloc", 13))
		return; /* nothing to follow: spare the walk */
	clang_visitChildren(root, in_main_file, &w);
	w.visit = launches;
	if (ctx->fine_grained.n)
		clang_visitChildren(root, in_main_file, &w);
}

void an_memory_tokens(an_ctx *ctx)
{
	static const char *const peer[] = { "cudaDeviceEnablePeerAccess", "cudaMemcpyPeer", "cudaMemcpyPeerAsync",
					    "cudaMemcpy3DPeer", "cudaMemcpy3DPeerAsync", NULL };
	static const char *const textures[] = { "cudaBindTexture", "cudaBindTexture2D", "cudaBindTextureToArray",
						"cudaUnbindTexture", "cudaGetTextureReference", NULL };
	size_t i, k;

	for (i = 0; i < ctx->ntokens; i++) {
		const port_token *t = &ctx->tokens[i];
		size_t n = t->end - t->start;
		const char *s = ctx->src + t->start;

		if (t->kind != PORT_TOKEN_IDENT)
			continue;
		if (AN_TOKEN_IS(ctx, i, "cudaMallocManaged") || AN_TOKEN_IS(ctx, i, "__managed__")) {
			an_add(ctx, "MEM-001", AN_WARNING, t->start, t->end,
			       "%.*s: managed memory migrates pages on MI200/MI300 only with XNACK enabled "
			       "(HSA_XNACK=1)",
			       (int)n, s);
			continue;
		}
		if (AN_TOKEN_IS(ctx, i, "texture") && i + 1 < ctx->ntokens && AN_TOKEN_IS(ctx, i + 1, "<")) {
			an_add(ctx, "MEM-002", AN_ERROR, t->start, t->end,
			       "texture reference: removed in HIP 6; use a texture object");
			continue;
		}
		if (n < 10 || memcmp(s, "cuda", 4) != 0) /* the names below all start so */
			continue;
		for (k = 0; textures[k]; k++)
			if (strlen(textures[k]) == n && memcmp(textures[k], s, n) == 0)
				an_add(ctx, "MEM-002", AN_ERROR, t->start, t->end,
				       "%s binds a texture reference: removed in HIP 6; use a texture object", textures[k]);
		for (k = 0; peer[k]; k++)
			if (strlen(peer[k]) == n && memcmp(peer[k], s, n) == 0)
				an_add(ctx, "MEM-003", AN_NOTE, t->start, t->end,
				       "%s: peer access goes over xGMI / Infinity Fabric on MI200/MI300; check the "
				       "topology (rocm-smi --showtopo)",
				       peer[k]);
	}
}
