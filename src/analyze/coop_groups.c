/* WARP-011: cooperative groups' collectives (cg::reduce, inclusive_scan,
 * exclusive_scan) that HIP has only from 7.13. The translation folds
 * cooperative_groups/reduce.h into hip_cooperative_groups.h for older
 * targets, which builds as long as the file calls none of them: this says
 * where it does. Tokens, not the AST: the prelude declares cooperative groups
 * for the parse to go on, not what each call resolves to. */
#include <string.h>

#include "analyze/ast.h"
#include "port/version.h"

#define COOP_MAX_ALIASES 8

static bool is_collective(const an_ctx *ctx, size_t i)
{
	return AN_TOKEN_IS(ctx, i, "reduce") || AN_TOKEN_IS(ctx, i, "inclusive_scan") ||
	       AN_TOKEN_IS(ctx, i, "exclusive_scan");
}

/* Whether token i names the cooperative_groups namespace: itself, or an
 * alias the file declares (namespace cg = cooperative_groups;). */
static bool names_namespace(const an_ctx *ctx, size_t i, const size_t *aliases, size_t naliases)
{
	const port_token *t = &ctx->tokens[i];
	size_t k;

	if (AN_TOKEN_IS(ctx, i, "cooperative_groups"))
		return true;
	for (k = 0; k < naliases; k++) {
		const port_token *a = &ctx->tokens[aliases[k]];

		if (a->end - a->start == t->end - t->start &&
		    memcmp(ctx->src + a->start, ctx->src + t->start, t->end - t->start) == 0)
			return true;
	}
	return false;
}

void an_coop_groups_tokens(an_ctx *ctx)
{
	size_t aliases[COOP_MAX_ALIASES], naliases = 0, i;

	if (ctx->target_hip >= PORT_VERSION(7, 13, 0))
		return;
	for (i = 0; i + 3 < ctx->ntokens && naliases < COOP_MAX_ALIASES; i++)
		if (AN_TOKEN_IS(ctx, i, "namespace") && ctx->tokens[i + 1].kind == PORT_TOKEN_IDENT &&
		    AN_TOKEN_IS(ctx, i + 2, "=") && AN_TOKEN_IS(ctx, i + 3, "cooperative_groups"))
			aliases[naliases++] = i + 1;
	for (i = 0; i + 3 < ctx->ntokens; i++) {
		char target[32];

		if (!names_namespace(ctx, i, aliases, naliases) || !AN_TOKEN_IS(ctx, i + 1, "::") ||
		    !is_collective(ctx, i + 2) || !(AN_TOKEN_IS(ctx, i + 3, "(") || AN_TOKEN_IS(ctx, i + 3, "<")))
			continue;
		port_version_format(target, sizeof(target), ctx->target_hip);
		an_add(ctx, "WARP-011", AN_ERROR, ctx->tokens[i].start, ctx->tokens[i + 2].end,
		       "%.*s: HIP has cooperative groups' reduce and scans only from 7.13 (target is %s)",
		       (int)(ctx->tokens[i + 2].end - ctx->tokens[i].start), ctx->src + ctx->tokens[i].start, target);
	}
}
