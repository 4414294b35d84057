/* WARP-010: a warp size of 32 given to, or compared with, something named
 * for the warp size: kWarpSize == 32 in a static_assert, kernel_warp_size(32),
 * and template arguments of 32 for a parameter named so
 * (launch<32, 4>(...) where the template reads template <int kWarpSize, ...>).
 * Read from the tokens, so that macros and templates are seen as written. */
#include <stdlib.h>
#include <string.h>

#include "analyze/ast.h"

static bool warp_size_ident(const an_ctx *ctx, size_t i)
{
	const port_token *t = &ctx->tokens[i];
	char name[128];

	if (t->kind != PORT_TOKEN_IDENT || t->end - t->start >= sizeof(name) ||
	    (t->end - t->start == 8 && memcmp(ctx->src + t->start, "warpSize", 8) == 0))
		return false;
	memcpy(name, ctx->src + t->start, t->end - t->start);
	name[t->end - t->start] = '\0';
	return an_is_warp_size_name(name);
}

static bool is_32(const an_ctx *ctx, size_t i)
{
	unsigned long long v;

	return i < ctx->ntokens && an_token_integer(ctx, i, &v) && v == 32;
}

/* Where the fix's macros go: above the first line of code, or above the
 * directive that holds the literal when it comes before any code. */
static uint32_t helper_place(const an_ctx *ctx, size_t literal)
{
	size_t i;
	uint32_t at;

	for (i = 0; i < ctx->ntokens; i++)
		if (ctx->tokens[i].kind != PORT_TOKEN_COMMENT && !(ctx->tokens[i].flags & PORT_TOKEN_DIRECTIVE))
			break;
	if (i > literal)
		for (i = literal; i > 0 && !(ctx->tokens[i].flags & PORT_TOKEN_LINE_START); i--)
			;
	at = i < ctx->ntokens ? ctx->tokens[i].start : (uint32_t)ctx->len;
	while (at > 0 && ctx->src[at - 1] != '\n')
		at--;
	return at;
}

static void report(an_ctx *ctx, size_t literal, size_t name, const char *how)
{
	const port_token *v = &ctx->tokens[literal], *n = &ctx->tokens[name];
	uint32_t decl = ctx->decl_start;
	an_hit *h;

	if (an_hip_guarded(ctx, v->start))
		return;
	h = an_add(ctx, "WARP-010", AN_WARNING, v->start, v->end,
		   "32 %s %.*s: a warp size that AMD's 64-lane wavefronts do not have", how,
		   (int)(n->end - n->start), ctx->src + n->start);
	if (!h)
		return;
	{
		an_range r = { "match", v->start, v->start + 2 }; /* the digits, not a suffix */

		ctx->decl_start = helper_place(ctx, literal);
		an_fix(ctx, h, "value", &r, 1, NULL, 0);
		ctx->decl_start = decl;
	}
}

#define SKIP ((size_t)-1)

/* A template's parameters: their name tokens, by position. */
typedef struct template_params {
	size_t entity;   /* the name the template declares */
	size_t names[16];
	size_t n;
} template_params;

/* The parameter names of template <...> at token i (the "<"), and the name
 * of the class or function it declares. */
static bool read_template(const an_ctx *ctx, size_t open, template_params *tp)
{
	size_t k, last = ctx->ntokens;
	int depth = 0;

	tp->n = 0;
	for (k = open; k < ctx->ntokens && k < open + 256; k++) {
		if (AN_TOKEN_IS(ctx, k, "<") || AN_TOKEN_IS(ctx, k, "(")) {
			depth++;
		} else if (AN_TOKEN_IS(ctx, k, ">") || AN_TOKEN_IS(ctx, k, ")")) {
			if (--depth == 0)
				break;
		} else if (AN_TOKEN_IS(ctx, k, ">>")) {
			depth -= 2;
			if (depth <= 0)
				break;
		}
		if (depth == 1 && AN_TOKEN_IS(ctx, k, ",")) {
			if (last != SKIP && tp->n < 16)
				tp->names[tp->n++] = last; /* ntokens: an unnamed parameter */
			last = ctx->ntokens;
		} else if (depth == 1 && AN_TOKEN_IS(ctx, k, "=")) {
			if (last != SKIP && tp->n < 16)
				tp->names[tp->n++] = last;
			last = SKIP; /* the default's tokens name no parameter */
		} else if (depth == 1 && ctx->tokens[k].kind == PORT_TOKEN_IDENT && last != SKIP) {
			last = k;
		}
	}
	if (k >= ctx->ntokens || k >= open + 256)
		return false;
	if (last != SKIP && tp->n < 16)
		tp->names[tp->n++] = last;
	/* the declared name: the identifier before the first ( or { at depth 0 */
	for (k = k + 1; k < ctx->ntokens && k < open + 512; k++) {
		if (AN_TOKEN_IS(ctx, k, ";"))
			return false;
		if ((AN_TOKEN_IS(ctx, k, "(") || AN_TOKEN_IS(ctx, k, "{") || AN_TOKEN_IS(ctx, k, ":")) && k > 0 &&
		    ctx->tokens[k - 1].kind == PORT_TOKEN_IDENT && !AN_TOKEN_IS(ctx, k - 1, "__launch_bounds__") &&
		    !AN_TOKEN_IS(ctx, k - 1, "__attribute__")) {
			tp->entity = k - 1;
			return tp->n > 0;
		}
	}
	return false;
}

static bool names_warp_size(const an_ctx *ctx, const template_params *tp)
{
	size_t i;

	for (i = 0; i < tp->n; i++)
		if (tp->names[i] < ctx->ntokens && warp_size_ident(ctx, tp->names[i]))
			return true;
	return false;
}

/* NAME<a0, a1, ...> at token name: each literal 32 whose parameter the
 * template names for the warp size. */
static void template_use(an_ctx *ctx, size_t name, const template_params *tps, size_t ntps)
{
	size_t t, k, arg = 0, first = name + 2;
	int depth = 0;

	for (t = 0; t < ntps; t++)
		if (an_tokens_same(ctx, tps[t].entity, name))
			break;
	if (t == ntps)
		return;
	for (k = name + 1; k < ctx->ntokens && k < name + 256; k++) {
		bool end = false;

		if (AN_TOKEN_IS(ctx, k, "<") || AN_TOKEN_IS(ctx, k, "(") || AN_TOKEN_IS(ctx, k, "["))
			depth++;
		else if (AN_TOKEN_IS(ctx, k, ">") || AN_TOKEN_IS(ctx, k, ")") || AN_TOKEN_IS(ctx, k, "]"))
			end = --depth == 0;
		else if (AN_TOKEN_IS(ctx, k, ">>"))
			end = (depth -= 2) <= 0;
		if ((depth == 1 && AN_TOKEN_IS(ctx, k, ",")) || end) {
			size_t a = an_code_after(ctx, first);

			if (arg < tps[t].n && a + 1 == k && is_32(ctx, a) && tps[t].names[arg] < ctx->ntokens &&
			    warp_size_ident(ctx, tps[t].names[arg]))
				report(ctx, a, tps[t].names[arg], "as the template argument");
			arg++;
			first = k + 1;
		}
		if (end)
			return;
	}
}

void an_warp_given_tokens(an_ctx *ctx)
{
	template_params *tps = NULL;
	size_t ntps = 0, cap = 0, i;

	for (i = 0; i + 1 < ctx->ntokens; i++) {
		if (AN_TOKEN_IS(ctx, i, "template") && AN_TOKEN_IS(ctx, an_code_after(ctx, i + 1), "<")) {
			template_params tp;

			if (!read_template(ctx, an_code_after(ctx, i + 1), &tp) || !names_warp_size(ctx, &tp))
				continue; /* only templates with a warp-size parameter are looked up */
			if (ntps == cap) {
				size_t ncap = cap ? 2 * cap : 16;
				template_params *grown = realloc(tps, ncap * sizeof(*tps));

				if (!grown)
					break;
				tps = grown;
				cap = ncap;
			}
			tps[ntps++] = tp;
			continue;
		}
		if (!is_32(ctx, i))
			continue;
		{
			size_t before = an_code_before(ctx, i), after = an_code_after(ctx, i + 1);

			/* kWarpSize == 32, 32 != WARP_SIZE */
			if (before < ctx->ntokens && before > 0 &&
			    (AN_TOKEN_IS(ctx, before, "==") || AN_TOKEN_IS(ctx, before, "!=")) &&
			    warp_size_ident(ctx, an_code_before(ctx, before)))
				report(ctx, i, an_code_before(ctx, before), "compared with");
			else if (after < ctx->ntokens && (AN_TOKEN_IS(ctx, after, "==") || AN_TOKEN_IS(ctx, after, "!=")) &&
				 an_code_after(ctx, after + 1) < ctx->ntokens && warp_size_ident(ctx, an_code_after(ctx, after + 1)))
				report(ctx, i, an_code_after(ctx, after + 1), "compared with");
			/* kernel_warp_size(32), WarpSize<32> */
			else if (before < ctx->ntokens && (AN_TOKEN_IS(ctx, before, "(") || AN_TOKEN_IS(ctx, before, "<")) &&
				 after < ctx->ntokens && (AN_TOKEN_IS(ctx, after, ")") || AN_TOKEN_IS(ctx, after, ">")) &&
				 before > 0 && warp_size_ident(ctx, an_code_before(ctx, before)))
				report(ctx, i, an_code_before(ctx, before), "given to");
		}
	}
	/* template arguments, once every template of the file is known */
	for (i = 0; ntps && i + 1 < ctx->ntokens; i++)
		if (ctx->tokens[i].kind == PORT_TOKEN_IDENT && AN_TOKEN_IS(ctx, i + 1, "<") &&
		    !(i > 0 && AN_TOKEN_IS(ctx, i - 1, "template")))
			template_use(ctx, i, tps, ntps);
	free(tps);
}
