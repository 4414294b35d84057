/* ARCH: what depends on NVIDIA's architecture: __CUDA_ARCH__ checks,
 * tensor-core wmma, __launch_bounds__ minimum blocks, shared memory beyond
 * the 64 KiB LDS of gfx90a / gfx942. */
#include <stdio.h>
#include <string.h>

#include "analyze/ast.h"

#define LDS_BYTES 65536LL

/* --- ARCH-004: shared memory above 64 KiB --- */

static void static_shared(an_ctx *ctx, CXCursor var)
{
	long long size;

	if (!an_has_attr(var, CXCursor_CUDASharedAttr))
		return;
	size = clang_Type_getSizeOf(clang_getCursorType(var));
	if (size <= 0)
		return;
	ctx->fn.shared_bytes += size;
	if (ctx->fn.shared_bytes > LDS_BYTES && ctx->fn.shared_bytes - size <= LDS_BYTES)
		an_add_at(ctx, "ARCH-004", AN_ERROR, var,
			  "static shared memory reaches %lld bytes here; AMD GPUs have 65536 bytes of LDS per workgroup",
			  ctx->fn.shared_bytes);
}

static void shared_attribute(an_ctx *ctx, CXCursor call, const char *name)
{
	char attr[96];
	long long v;

	if (strcmp(name, "cudaFuncSetAttribute") != 0 || clang_Cursor_getNumArguments(call) != 3)
		return;
	an_spelling(an_strip(clang_Cursor_getArgument(call, 1)), attr, sizeof(attr));
	if (strcmp(attr, "cudaFuncAttributeMaxDynamicSharedMemorySize") != 0 ||
	    !an_eval_int(clang_Cursor_getArgument(call, 2), &v) || v <= LDS_BYTES)
		return;
	an_add_at(ctx, "ARCH-004", AN_ERROR, call,
		  "dynamic shared memory of %lld bytes; AMD GPUs have 65536 bytes of LDS per workgroup", v);
}

/* The dynamic shared memory of a launch: the third argument of the
 * configuration of kernel<<<...>>> (or cudaConfigureCall), the fifth of
 * cudaLaunchKernel and cudaLaunchCooperativeKernel. */
static void launch_shared(an_ctx *ctx, CXCursor call, const char *name)
{
	unsigned arg;
	long long v;

	if (strcmp(name, "__cudaPushCallConfiguration") == 0 || strcmp(name, "cudaConfigureCall") == 0)
		arg = 2;
	else if (strcmp(name, "cudaLaunchKernel") == 0 || strcmp(name, "cudaLaunchCooperativeKernel") == 0)
		arg = 4;
	else
		return;
	if (clang_Cursor_getNumArguments(call) <= (int)arg || !an_eval_int(clang_Cursor_getArgument(call, arg), &v) ||
	    v <= LDS_BYTES)
		return;
	an_add_at(ctx, "ARCH-004", AN_ERROR, clang_Cursor_getArgument(call, arg),
		  "kernel launch with %lld bytes of dynamic shared memory; AMD GPUs have 65536 bytes of LDS per "
		  "workgroup",
		  v);
}

void an_arch_visit(an_ctx *ctx, const an_node *n)
{
	if (n->kind == CXCursor_VarDecl && ctx->in_function)
		static_shared(ctx, n->c);
	if (n->kind == CXCursor_CallExpr) {
		shared_attribute(ctx, n->c, n->callee);
		launch_shared(ctx, n->c, n->callee);
	}
}

/* --- the lexical checks --- */

/* Whether a directive only asks whether __CUDA_ARCH__ is defined:
 * #ifdef X, #ifndef X, #if [!]defined(X) / defined X. */
static bool existence_check(const an_ctx *ctx, size_t i, size_t end)
{
	size_t k, n = 0, idx[8];

	for (k = i + 1; k < end; k++)
		if (ctx->tokens[k].kind != PORT_TOKEN_COMMENT && n < 8)
			idx[n++] = k;
	if (n == 2 && (AN_TOKEN_IS(ctx, idx[0], "ifdef") || AN_TOKEN_IS(ctx, idx[0], "ifndef")))
		return true;
	if (n >= 3 && (AN_TOKEN_IS(ctx, idx[0], "if") || AN_TOKEN_IS(ctx, idx[0], "elif"))) {
		size_t j = 1;

		if (AN_TOKEN_IS(ctx, idx[j], "!"))
			j++;
		if (j < n && AN_TOKEN_IS(ctx, idx[j], "defined")) {
			j++;
			if (j + 2 < n && AN_TOKEN_IS(ctx, idx[j], "(") && AN_TOKEN_IS(ctx, idx[j + 2], ")"))
				return j + 3 == n;
			return j + 1 == n;
		}
	}
	return false;
}

/* The directive checks; true when the file includes mma.h. */
static bool arch_directives(an_ctx *ctx)
{
	bool mma = false;

	size_t i, k, end;

	for (i = 0; i + 1 < ctx->ntokens; i = end) {
		end = i + 1;
		if (!(ctx->tokens[i].flags & PORT_TOKEN_DIRECTIVE) || !(ctx->tokens[i].flags & PORT_TOKEN_LINE_START) ||
		    !AN_TOKEN_IS(ctx, i, "#"))
			continue;
		end = an_directive_end(ctx, i);
		if (AN_TOKEN_IS(ctx, i + 1, "include") && end > i + 2) {
			/* the header name is several raw tokens: read the text */
			const char *name = ctx->src + ctx->tokens[i + 2].start;
			size_t room = ctx->len - ctx->tokens[i + 2].start;

			if (room >= 7 && (memcmp(name, "<mma.h>", 7) == 0 || memcmp(name, "\"mma.h\"", 7) == 0)) {
				mma = true;
				an_add(ctx, "ARCH-002", AN_ERROR, ctx->tokens[i].start, ctx->tokens[i + 2].start + 7,
				       "tensor-core wmma (mma.h): AMD GPUs need rocWMMA or a library");
			}
			continue;
		}
		if (!(AN_TOKEN_IS(ctx, i + 1, "if") || AN_TOKEN_IS(ctx, i + 1, "ifdef") ||
		      AN_TOKEN_IS(ctx, i + 1, "ifndef") || AN_TOKEN_IS(ctx, i + 1, "elif")))
			continue;
		if (an_mentions_hip(ctx, i + 2, end) || an_hip_guarded(ctx, ctx->tokens[i].start))
			continue; /* a condition written for HIP too: already ported */
		for (k = i + 2; k < end; k++) {
			an_hit *h;

			if (!AN_TOKEN_IS(ctx, k, "__CUDA_ARCH__"))
				continue;
			if (existence_check(ctx, i, end)) {
				an_range r = { "match", ctx->tokens[k].start, ctx->tokens[k].end };

				h = an_add(ctx, "ARCH-001", AN_WARNING, ctx->tokens[i].start, ctx->tokens[end - 1].end,
					   "__CUDA_ARCH__ is never defined by HIP: this device-code guard takes the host "
					   "branch on the GPU");
				if (h)
					an_fix(ctx, h, "defined", &r, 1, NULL, 0);
			} else {
				an_add(ctx, "ARCH-001", AN_WARNING, ctx->tokens[i].start, ctx->tokens[end - 1].end,
				       "__CUDA_ARCH__ version check: HIP never defines it, so the fallback branch "
				       "is compiled for the GPU");
			}
			break;
		}
	}
	return mma;
}

void an_arch_tokens(an_ctx *ctx)
{
	size_t i;
	bool wmma = arch_directives(ctx); /* one finding per file: the include or the first use */

	for (i = 0; i + 1 < ctx->ntokens; i++) {
		const port_token *t = &ctx->tokens[i];

		if (t->kind != PORT_TOKEN_IDENT)
			continue;
		if (!wmma && AN_TOKEN_IS(ctx, i, "wmma") && AN_TOKEN_IS(ctx, i + 1, "::")) {
			wmma = true;
			an_add(ctx, "ARCH-002", AN_ERROR, t->start, t->end,
			       "tensor-core wmma: AMD GPUs need rocWMMA (other fragment shapes on wave64) or a library");
		}
		if (AN_TOKEN_IS(ctx, i, "__launch_bounds__") && AN_TOKEN_IS(ctx, i + 1, "(")) {
			unsigned long long min;
			size_t k;
			int depth = 0;

			for (k = i + 1; k < ctx->ntokens; k++) {
				if (AN_TOKEN_IS(ctx, k, "(") || AN_TOKEN_IS(ctx, k, "["))
					depth++;
				else if (AN_TOKEN_IS(ctx, k, ")") || AN_TOKEN_IS(ctx, k, "]"))
					depth--;
				else if (depth == 1 && AN_TOKEN_IS(ctx, k, ","))
					break;
				if (depth == 0)
					break;
			}
			/* a minimum of 1 (block per SM, wave per EU) asks nothing on either side */
			if (k < ctx->ntokens && depth == 1 && !(t->flags & PORT_TOKEN_DIRECTIVE) &&
			    !(an_token_integer(ctx, k + 1, &min) && min == 1 && AN_TOKEN_AT(ctx, k + 2, ")")))
				an_add(ctx, "ARCH-003", AN_WARNING, t->start, t->end,
				       "__launch_bounds__ second argument: minimum blocks per SM in CUDA, minimum "
				       "waves per EU in HIP");
		}
	}
}
