/* LAUNCH-001: a kernel launched from device code (CUDA's dynamic
 * parallelism). HIP has no device-side launch: the port does not build for
 * AMD GPUs, and a rename cannot help; the launch must move to the host.
 * Tokens, not the AST: the prelude parses '<<<' only in host code. */
#include <string.h>

#include "analyze/ast.h"

/* Whether the declaration whose qualifiers start at token i is a device
 * function: __global__, or __device__ without __host__, read up to its
 * body's '{' (at *body) or its ';'. */
static bool device_qualified(const an_ctx *ctx, size_t i, size_t *body)
{
	bool global = false, device = false, host = false;
	size_t k;

	for (k = i; k < ctx->ntokens; k++) {
		if (AN_TOKEN_IS(ctx, k, ";") || AN_TOKEN_IS(ctx, k, "}"))
			return false;
		if (AN_TOKEN_IS(ctx, k, "{")) {
			*body = k;
			return global || (device && !host);
		}
		global |= AN_TOKEN_IS(ctx, k, "__global__");
		device |= AN_TOKEN_IS(ctx, k, "__device__");
		host |= AN_TOKEN_IS(ctx, k, "__host__");
	}
	return false;
}

/* The '}' closing the '{' at token open. */
static size_t body_end(const an_ctx *ctx, size_t open)
{
	size_t k;
	int depth = 0;

	for (k = open; k < ctx->ntokens; k++) {
		depth += AN_TOKEN_IS(ctx, k, "{") - AN_TOKEN_IS(ctx, k, "}");
		if (depth == 0)
			return k;
	}
	return ctx->ntokens;
}

void an_device_launch_tokens(an_ctx *ctx)
{
	size_t i, open, close, k;

	for (i = 0; i < ctx->ntokens; i++) {
		if (!AN_TOKEN_IS(ctx, i, "__global__") && !AN_TOKEN_IS(ctx, i, "__device__"))
			continue;
		/* the qualifiers start the declaration: go back over __host__ */
		if (!device_qualified(ctx, i > 0 && AN_TOKEN_IS(ctx, i - 1, "__host__") ? i - 1 : i, &open))
			continue;
		close = body_end(ctx, open);
		for (k = open; k < close; k++)
			if (AN_TOKEN_IS(ctx, k, "<<<"))
				an_add(ctx, "LAUNCH-001", AN_ERROR, ctx->tokens[k].start, ctx->tokens[k].end,
				       "a kernel launched from device code (dynamic parallelism): HIP has no device-side "
				       "launch, so this does not build for AMD GPUs; launch it from the host");
		i = close;
	}
}
