/* TRITON-007: what Triton offers on NVIDIA only, used without a platform
 * test: TMA tensor descriptors (Hopper's copy engine), warp
 * specialization, tl.extra.cuda's libdevice, and the switches that turn them
 * on (use_tma = True). AMD's backend lacks them or lowers them otherwise, by
 * version: the port needs its own path under a test of the platform. */
#include <string.h>

#include "analyze/ast.h"
#include "analyze/pylex.h"

static const char *const descriptor_calls[] = {
	"make_tensor_descriptor", "_experimental_make_tensor_descriptor", "_experimental_descriptor_load",
	"_experimental_descriptor_store", "fill_1d_tma_descriptor", "fill_2d_tma_descriptor",
	"create_1d_tma_descriptor", "create_2d_tma_descriptor", "TensorDescriptor", NULL
};

static bool one_of(const an_ctx *ctx, size_t i, const char *const *names)
{
	size_t k;

	for (k = 0; names[k]; k++)
		if (an_py_token_is(ctx, i, names[k], strlen(names[k])))
			return true;
	return false;
}

/* Whether token i is a name for an NVIDIA-only feature (use_tma,
 * ENABLE_TMA, WARP_SPECIALIZE, warp_specialization). */
static bool names_feature(const an_ctx *ctx, size_t i)
{
	return (an_py_name_has(ctx, i, "tma") && !an_py_name_has(ctx, i, "tmax")) || an_py_name_has(ctx, i, "warp_spec");
}

/* A switch for such a feature set to True (use_tma = True, ENABLE_TMA=True). */
static bool feature_switch(const an_ctx *ctx, size_t i)
{
	return names_feature(ctx, i) && AN_TOKEN_AT(ctx, i + 1, "=") && AN_TOKEN_AT(ctx, i + 2, "True");
}

/* Whether a block around token i is entered on such a switch (if
 * ENABLE_TMA:), the choice made where the switch is set, or is the fallback
 * of a try (except ModuleNotFoundError: from ...extra.cuda import ...). */
static bool under_switch(const an_ctx *ctx, size_t i)
{
	size_t p, k;

	for (p = an_py_enclosing(ctx, i); p < ctx->ntokens; p = an_py_enclosing(ctx, p)) {
		if (AN_TOKEN_IS(ctx, p, "except"))
			return true;
		if (AN_TOKEN_IS(ctx, p, "if") || AN_TOKEN_IS(ctx, p, "elif") || AN_TOKEN_IS(ctx, p, "else"))
			for (k = p; k < an_py_stmt_end(ctx, p); k++)
				if (names_feature(ctx, k))
					return true;
	}
	return false;
}

/* One warning a function: its first use says where it needs an AMD path. */
void an_triton_features(an_ctx *ctx, const an_py_rocm *rocm)
{
	size_t i, reported = (size_t)-1;

	for (i = 0; i + 2 < ctx->ntokens; i++) {
		const port_token *t = &ctx->tokens[i];
		const char *what = NULL;

		if (one_of(ctx, i, descriptor_calls) && (AN_TOKEN_AT(ctx, i + 1, "(") || AN_TOKEN_AT(ctx, i + 1, ".")) &&
		    !(i > 0 && AN_TOKEN_IS(ctx, i - 1, "import")))
			what = "a TMA tensor descriptor: TMA is the copy engine of NVIDIA's Hopper and Blackwell, which AMD "
			       "GPUs have not; AMD's Triton lowers descriptors to plain loads or rejects them, by version";
		else if (AN_TOKEN_IS(ctx, i, "extra") && AN_TOKEN_AT(ctx, i + 1, ".") && AN_TOKEN_AT(ctx, i + 2, "cuda"))
			what = "tl.extra.cuda: NVIDIA's libdevice and PTX helpers; AMD's are tl.extra.hip";
		else if ((AN_TOKEN_IS(ctx, i, "warp_specialize") || AN_TOKEN_IS(ctx, i, "enable_warp_specialization")) &&
			 AN_TOKEN_AT(ctx, i + 1, "=") && AN_TOKEN_AT(ctx, i + 2, "True"))
			what = "warp specialization: Hopper's producer and consumer warps; AMD's backend has none";
		else if (feature_switch(ctx, i))
			what = "a switch that turns on TMA or warp specialization, NVIDIA-only features";
		if (!what || under_switch(ctx, i) || an_py_rocm_branch(ctx, rocm, i) ||
		    an_py_mentions_rocm(ctx, rocm, an_py_stmt_start(ctx, i), an_py_stmt_end(ctx, i)) ||
		    an_py_enclosing_def(ctx, i) == reported)
			continue;
		reported = an_py_enclosing_def(ctx, i);
		an_add(ctx, "TRITON-007", AN_WARNING, t->start,
		       AN_TOKEN_IS(ctx, i, "extra") ? ctx->tokens[i + 2].end : t->end, "%s", what);
	}
}
