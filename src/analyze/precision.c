/* PREC: numbers that come out differently on AMD GPUs: 16-bit float
 * arithmetic through operators, fast-math intrinsics, TF32 math modes, the
 * bfloat16 type of HIP 5. */
#include <stdlib.h>
#include <string.h>

#include "analyze/ast.h"
#include "util/buf.h"

const char *const an_fast_math[] = { "__expf", "__exp10f", "__logf", "__log2f", "__log10f", "__powf",
					  "__sinf", "__cosf", "__tanf", "__sincosf", "__fdividef", "__saturatef",
					  NULL };

/* a + b, a * b ... on __half or __nv_bfloat16 through operator overloads */
static bool half_operator(CXCursor c, bool *pair, bool *bf16)
{
	char name[32];

	if (clang_getCursorKind(c) != CXCursor_CallExpr || clang_Cursor_getNumArguments(c) != 2)
		return false;
	an_spelling(c, name, sizeof(name));
	if (strcmp(name, "operator+") != 0 && strcmp(name, "operator-") != 0 && strcmp(name, "operator*") != 0 &&
	    strcmp(name, "operator/") != 0)
		return false;
	return an_is_half_type(clang_getCursorType(c), pair, bf16);
}

typedef struct leaf {
	uint32_t start, end;
} leaf;

/* The operands of a tree of half operators that are halves themselves. */
static bool collect_leaves(an_ctx *ctx, CXCursor e, leaf *out, size_t *n, size_t max)
{
	CXCursor s = an_strip(e);
	bool pair, bf16;
	int i;

	if (half_operator(s, &pair, &bf16)) {
		for (i = 0; i < 2; i++)
			if (!collect_leaves(ctx, clang_Cursor_getArgument(s, (unsigned)i), out, n, max))
				return false;
		return true;
	}
	if (!an_is_half_type(clang_getCursorType(s), &pair, &bf16))
		return true;
	if (*n == max || !an_written(ctx, s) || !an_extent(ctx, s, &out[*n].start, &out[*n].end))
		return false;
	(*n)++;
	return true;
}

static void fix_half_math(an_ctx *ctx, an_hit *h, CXCursor c, CXCursor parent, bool bf16)
{
	leaf leaves[32];
	size_t n = 0, i;
	util_buf expr = UTIL_BUF_INIT;
	uint32_t pos = h->offset;
	CXType pt = clang_getCanonicalType(clang_getCursorType(parent));
	bool to_float = pt.kind == CXType_Float || pt.kind == CXType_Double;
	const char *variant = bf16 ? (to_float ? "bf16_to_float" : "bf16_to_half") : (to_float ? "to_float" : "to_half");

	if (!an_written(ctx, c) || !collect_leaves(ctx, c, leaves, &n, 32) || !n)
		return;
	for (i = 0; i < n; i++) {
		char *text = strndup(ctx->src + leaves[i].start, leaves[i].end - leaves[i].start);
		char *wrapped = text ? an_fix_leaf("PREC-001", variant, text) : NULL;

		util_buf_put(&expr, ctx->src + pos, leaves[i].start - pos);
		util_buf_puts(&expr, wrapped ? wrapped : "");
		pos = leaves[i].end;
		free(text);
		if (!wrapped) {
			util_buf_dispose(&expr);
			return;
		}
		free(wrapped);
	}
	util_buf_put(&expr, ctx->src + pos, h->offset + h->length - pos);
	if (!util_buf_oom(&expr)) {
		an_range r = { "match", h->offset, h->offset + h->length };
		an_capture cap = { "expr", expr.ptr };

		an_fix(ctx, h, variant, &r, 1, &cap, 1);
	}
	util_buf_dispose(&expr);
}

/* PREC-006: rsqrtf(x) is an approximation on both sides (2 ulp on NVIDIA,
 * v_rsq_f32 on AMD), each its own; 1.0f / sqrtf(x) is correctly rounded on
 * both, so the two platforms agree where both take it (not with the
 * original's rsqrtf: up to 2 ulp apart). */
static void reciprocal_sqrt(an_ctx *ctx, CXCursor call, const char *name)
{
	CXCursor arg = clang_Cursor_getArgument(call, 0);
	CXType t = clang_getCanonicalType(clang_getCursorType(an_strip(arg)));
	bool dbl = t.kind == CXType_Double;
	char *text;
	an_hit *h;

	if (t.kind != CXType_Float && !dbl)
		return; /* a half or a template's type: no plain form to offer */
	h = an_add_at(ctx, "PREC-006", AN_NOTE, call,
		      "%s: an approximation on both GPUs, each with its own rounding (NVIDIA's within 2 ulp, "
		      "AMD's v_rsq_f32 another): results differ from the original in the last bits",
		      name);
	if (!h || !an_written(ctx, call) || !(text = an_text(ctx, arg)))
		return;
	{
		an_range r = { "match", h->offset, h->offset + h->length };
		an_capture cap = { "x", text };

		an_fix(ctx, h, dbl ? "double" : "float", &r, 1, &cap, 1);
	}
	free(text);
}

void an_precision_visit(an_ctx *ctx, const an_node *n)
{
	const char *name = n->callee;
	CXCursor c = n->c, parent = n->parent;
	bool pair, bf16;
	uint32_t start, end;
	size_t i;

	if (n->kind != CXCursor_CallExpr)
		return;
	if (half_operator(c, &pair, &bf16) && an_extent(ctx, c, &start, &end) && start >= ctx->prec_end) {
		an_hit *h = an_add(ctx, "PREC-001", AN_NOTE, start, end,
				   "%s arithmetic through operators: rounded to 16 bits at every step, and contracted "
				   "differently by AMD's compiler",
				   bf16 ? "bfloat16" : "half");

		ctx->prec_end = end;
		if (h && !pair)
			fix_half_math(ctx, h, c, parent, bf16);
		return;
	}
	if ((strcmp(name, "rsqrtf") == 0 || strcmp(name, "rsqrt") == 0) && clang_Cursor_getNumArguments(c) == 1) {
		reciprocal_sqrt(ctx, c, name);
		return;
	}
	for (i = 0; an_fast_math[i]; i++)
		if (strcmp(name, an_fast_math[i]) == 0)
			an_add_at(ctx, "PREC-002", AN_NOTE, c,
				  "%s: AMD's fast-math version has a different error bound than NVIDIA's", name);
}

/* TF32 math modes: library enumerators (CUBLAS_TF32_TENSOR_OP_MATH,
 * CUBLAS_COMPUTE_32F_FAST_TF32, ...), wmma::precision::tf32, PyTorch's
 * switches; not any name that happens to contain "tf32". */
static bool tf32_mode(const an_ctx *ctx, size_t i)
{
	static const char *const prefixes[] = { "CUBLAS", "CUDNN", "CUSPARSE", "CUSOLVER", "CUTENSOR", NULL };
	static const char *const switches[] = { "allow_tf32", "allowTF32CuBLAS", "setAllowTF32CuBLAS",
						"allowTF32CuDNN", "setAllowTF32CuDNN", NULL };
	const port_token *t = &ctx->tokens[i];
	const char *s = ctx->src + t->start;
	size_t n = t->end - t->start, k;

	if (n < 4 || !memchr(s, '3', n)) /* every name below holds "tf32" or "TF32" */
		return false;
	if (n == 4 && memcmp(s, "tf32", 4) == 0)
		return i > 0 && AN_TOKEN_IS(ctx, i - 1, "::");
	for (k = 0; switches[k]; k++)
		if (strlen(switches[k]) == n && memcmp(s, switches[k], n) == 0)
			return true;
	if (!memmem(s, n, "TF32", 4))
		return false;
	for (k = 0; prefixes[k]; k++)
		if (n > strlen(prefixes[k]) && memcmp(s, prefixes[k], strlen(prefixes[k])) == 0)
			return true;
	return false;
}

void an_precision_tokens(an_ctx *ctx)
{
	size_t i;
	bool bf16 = false;

	for (i = 0; i < ctx->ntokens; i++) {
		const port_token *t = &ctx->tokens[i];
		const char *s = ctx->src + t->start;
		size_t n = t->end - t->start;

		if (t->kind != PORT_TOKEN_IDENT)
			continue;
		if (tf32_mode(ctx, i))
			an_add(ctx, "PREC-003", AN_WARNING, t->start, t->end,
			       "%.*s: TF32 math; MI200 has no TF32 (full fp32, other results and speed)", (int)n, s);
		if (!bf16 && (AN_TOKEN_IS(ctx, i, "__nv_bfloat16") || AN_TOKEN_IS(ctx, i, "__nv_bfloat162") ||
			      AN_TOKEN_IS(ctx, i, "nv_bfloat16"))) {
			bf16 = true;
			if (ctx->target_hip >= PORT_VERSION(6, 0, 0))
				an_add(ctx, "PREC-004", AN_NOTE, t->start, t->end,
				       "%.*s: __hip_bfloat16 from <hip/hip_bf16.h>; not every cuda_bf16.h intrinsic is "
				       "there (the _rd/_ru/_rz conversions are not)",
				       (int)n, s);
			else
				an_add(ctx, "PREC-004", AN_NOTE, t->start, t->end,
				       "%.*s: HIP 5 maps it to hip_bfloat16, a class with another API and rounding", (int)n,
				       s);
		}
	}
}
