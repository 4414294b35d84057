/* What the parse needs to see. Parsing costs several times the translation
 * of a file, and most of it goes into function bodies: files with nothing
 * for the AST checks are not parsed at all, the bodies of functions with
 * nothing for them are blanked in the text libclang gets, and those kept for
 * their shared memory alone keep only its declarations. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/ast.h"

static bool lane_operator(const an_ctx *ctx, size_t i)
{
	return AN_TOKEN_IS(ctx, i, "&") || AN_TOKEN_IS(ctx, i, "%") || AN_TOKEN_IS(ctx, i, ">>") ||
	       AN_TOKEN_IS(ctx, i, "/") || AN_TOKEN_IS(ctx, i, "&=") || AN_TOKEN_IS(ctx, i, "%=") ||
	       AN_TOKEN_IS(ctx, i, ">>=") || AN_TOKEN_IS(ctx, i, "/=");
}

/* What a token asks of the parse (bits). */
enum {
	WANT_NOW = 1,    /* something an AST check looks at */
	WANT_SHARED = 2, /* __shared__: the sizes of its declarations */
	WANT_LAUNCH = 4, /* a launch whose dynamic shared memory may be above 64 KiB */
	WANT_MEMORY = 8, /* managed or host allocations, launches: followed into kernels */
	WANT_FINE = 16   /* managed or host allocations themselves */
};

/* The identifiers that ask something of the parse: prefixes, or whole names. */
typedef struct trigger {
	const char *s;
	size_t n;
	bool prefix;
	unsigned wants;
} trigger;
#define PREFIX(lit) { lit, sizeof(lit) - 1, true, WANT_NOW }
#define NAME(lit, wants) { lit, sizeof(lit) - 1, false, wants }

static const trigger triggers[] = {
	PREFIX("atomic"), PREFIX("__shfl"), PREFIX("__ballot"), PREFIX("__activemask"), PREFIX("__popc"),
	PREFIX("__ffs"), PREFIX("__clz"), PREFIX("__brev"), PREFIX("__half"), PREFIX("half"),
	PREFIX("__nv_bfloat16"), PREFIX("nv_bfloat16"), PREFIX("__syncwarp"), PREFIX("__any"), PREFIX("__all"),
	PREFIX("__uni"), PREFIX("__match"), PREFIX("__reduce"), PREFIX("__lane_id"), PREFIX("cudaFuncSetAttribute"),
	NAME("rsqrtf", WANT_NOW), NAME("rsqrt", WANT_NOW),
	NAME("asm", WANT_NOW), NAME("__asm__", WANT_NOW), NAME("__asm", WANT_NOW), /* asm is a keyword */
	NAME("__shared__", WANT_SHARED),
	NAME("cudaMallocManaged", WANT_FINE | WANT_MEMORY), NAME("cudaMallocHost", WANT_FINE | WANT_MEMORY),
	NAME("cudaHostAlloc", WANT_FINE | WANT_MEMORY), NAME("__managed__", WANT_FINE | WANT_MEMORY),
};
#define NTRIGGERS (sizeof(triggers) / sizeof(triggers[0]))

/* The first characters of the triggers and the fast-math names: most
 * identifiers start otherwise, and are settled by one look-up. */
static bool first_chars[256];
static pthread_once_t first_chars_once = PTHREAD_ONCE_INIT;

static void first_chars_init(void)
{
	size_t i;

	for (i = 0; i < NTRIGGERS; i++)
		first_chars[(unsigned char)triggers[i].s[0]] = true;
	for (i = 0; an_fast_math[i]; i++)
		first_chars[(unsigned char)an_fast_math[i][0]] = true;
}

static unsigned ident_wants(const char *s, size_t n)
{
	unsigned w = 0;
	size_t i;

	pthread_once(&first_chars_once, first_chars_init);
	if (!n || !first_chars[(unsigned char)s[0]])
		return 0;
	for (i = 0; i < NTRIGGERS; i++)
		if (s[0] == triggers[i].s[0] && (triggers[i].prefix ? n >= triggers[i].n : n == triggers[i].n) &&
		    memcmp(s, triggers[i].s, triggers[i].n) == 0)
			w |= triggers[i].wants;
	for (i = 0; an_fast_math[i]; i++)
		if (an_fast_math[i][0] == s[0] && strncmp(s, an_fast_math[i], n) == 0 && an_fast_math[i][n] == '\0')
			w |= WANT_NOW;
	return w;
}

/* Whether argument index (from 0) of the launch or call whose "<<<" or
 * "(" is token open may ask for more than 64 KiB of dynamic shared memory:
 * it is there, and its tokens do not fold to at most 65536. */
static bool shares_much(const an_ctx *ctx, size_t open, unsigned index)
{
	bool call = AN_TOKEN_IS(ctx, open, "(");
	size_t k, first = open + 1, depth = 0;
	unsigned arg = 0;
	unsigned long long v;

	for (k = open + 1; k < ctx->ntokens && k < open + 512; k++) {
		if (ctx->tokens[k].kind != PORT_TOKEN_PUNCT)
			continue;
		if (AN_TOKEN_IS(ctx, k, "(") || AN_TOKEN_IS(ctx, k, "[") || AN_TOKEN_IS(ctx, k, "{")) {
			depth++;
		} else if (AN_TOKEN_IS(ctx, k, ")") || AN_TOKEN_IS(ctx, k, "]") || AN_TOKEN_IS(ctx, k, "}")) {
			if (!depth && call && AN_TOKEN_IS(ctx, k, ")"))
				break;
			if (!depth--)
				return true;
		} else if (!depth && AN_TOKEN_IS(ctx, k, ",")) {
			if (arg == index)
				break;
			arg++;
			first = k + 1;
		} else if (!depth && !call && AN_TOKEN_IS(ctx, k, ">>>")) {
			break;
		}
	}
	if (k >= ctx->ntokens || k >= open + 512)
		return true; /* no end in sight: let the parse tell */
	if (arg < index)
		return false; /* no dynamic shared memory */
	return !an_tokens_fold(ctx, first, k, &v) || v > 65536;
}

/* Whether cudaLaunchKernel or cudaLaunchCooperativeKernel at token i may ask
 * for more than 64 KiB: its fifth argument, when it is called right there. */
static bool launch_call_shares_much(const an_ctx *ctx, size_t i)
{
	size_t k = an_code_after(ctx, i + 1);

	return !AN_TOKEN_AT(ctx, k, "(") || shares_much(ctx, k, 4);
}

/* Whether the identifier s (n bytes) names a warp size other than the
 * builtin warpSize, which is no constant of 32. */
static bool warp_size_constant(const char *s, size_t n)
{
	char name[64];

	if (n >= sizeof(name) || (n == 8 && memcmp(s, "warpSize", 8) == 0))
		return false;
	memcpy(name, s, n);
	name[n] = '\0';
	return an_is_warp_size_name(name);
}

static unsigned token_wants(const an_ctx *ctx, size_t i)
{
	const port_token *t = &ctx->tokens[i];
	const char *s = ctx->src + t->start;
	size_t n = t->end - t->start;
	unsigned w = 0;

	if (t->kind == PORT_TOKEN_IDENT || t->kind == PORT_TOKEN_KEYWORD) {
		w = ident_wants(s, n);
		if (AN_TOKEN_IS(ctx, i, "cudaLaunchKernel") || AN_TOKEN_IS(ctx, i, "cudaLaunchCooperativeKernel"))
			w |= launch_call_shares_much(ctx, i) ? WANT_LAUNCH : 0;
		if (i > 0 && ctx->tokens[i - 1].kind == PORT_TOKEN_PUNCT && lane_operator(ctx, i - 1) &&
		    warp_size_constant(s, n))
			w |= WANT_NOW; /* threadIdx.x / WARP_SIZE: a macro or constant of 32 */
	} else if (t->kind == PORT_TOKEN_PUNCT && AN_TOKEN_IS(ctx, i, "<<<")) {
		w |= WANT_MEMORY | (shares_much(ctx, i, 2) ? WANT_LAUNCH : 0);
	} else if (t->kind == PORT_TOKEN_LITERAL && s[0] >= '0' && s[0] <= '9') {
		unsigned long long v = strtoull(s, NULL, 0);

		if ((v == 31 || v == 32 || v == 5) && i > 0 && ctx->tokens[i - 1].kind == PORT_TOKEN_PUNCT &&
		    lane_operator(ctx, i - 1))
			w |= WANT_NOW;
		/* a lane mask built by shifting 1 or all ones */
		if ((v == 1 || v == 0 || v == 0xffffffffULL) && i + 1 < ctx->ntokens &&
		    (AN_TOKEN_IS(ctx, i + 1, "<<") || AN_TOKEN_IS(ctx, i + 1, ">>")))
			w |= WANT_NOW;
	}
	return w;
}

bool an_needs_ast(const an_ctx *ctx)
{
	size_t i;

	for (i = 0; i < ctx->ntokens; i++)
		if (token_wants(ctx, i) & (WANT_NOW | WANT_SHARED | WANT_LAUNCH))
			return true;
	return false;
}

/* What a function body needs of the parse, given what it and the whole
 * file hold: all of it, its shared memory declarations, or nothing.
 * Launches and allocations only count in a file with managed or host
 * memory to follow into kernels. */
enum { BODY_BLANK, BODY_SHARED, BODY_WHOLE };

static int body_need(unsigned body, unsigned file)
{
	if ((body & (WANT_NOW | WANT_LAUNCH)) || ((body & WANT_MEMORY) && (file & WANT_FINE)))
		return BODY_WHOLE;
	return body & WANT_SHARED ? BODY_SHARED : BODY_BLANK;
}

/* What tokens [from, to) want, from each token's wants. */
static unsigned range_wants(const uint8_t *wants, size_t from, size_t to)
{
	unsigned w = 0;

	for (; from < to && !(w & WANT_NOW); from++)
		w |= wants[from];
	return w;
}

/* The previous token that is not a comment, or SIZE_MAX. */
static size_t before(const an_ctx *ctx, size_t i)
{
	while (i-- > 0)
		if (ctx->tokens[i].kind != PORT_TOKEN_COMMENT)
			return i;
	return SIZE_MAX;
}

/* Where the declaration owning the "{" at i starts: after the ";", "}" or
 * "{" before it (its parameters and return type count: a __half parameter
 * wants the body). */
static size_t declaration_start(const an_ctx *ctx, size_t i)
{
	size_t k = i;

	while (k > 0) {
		size_t p = before(ctx, k);

		if (p == SIZE_MAX || AN_TOKEN_IS(ctx, p, ";") || AN_TOKEN_IS(ctx, p, "}") || AN_TOKEN_IS(ctx, p, "{") ||
		    (ctx->tokens[p].flags & PORT_TOKEN_DIRECTIVE))
			break;
		k = p;
	}
	return k;
}

/* Whether the "{" at token i opens a function body: after ")" (or the
 * const / noexcept / override that may follow it), and not in a constexpr
 * function, whose body constant expressions may need. */
static bool opens_body(const an_ctx *ctx, size_t i)
{
	size_t k = before(ctx, i), n;

	while (k != SIZE_MAX && (AN_TOKEN_IS(ctx, k, "const") || AN_TOKEN_IS(ctx, k, "noexcept") ||
				 AN_TOKEN_IS(ctx, k, "override") || AN_TOKEN_IS(ctx, k, "final")))
		k = before(ctx, k);
	if (k == SIZE_MAX || !AN_TOKEN_IS(ctx, k, ")"))
		return false;
	for (n = 0; k != SIZE_MAX && n < 64; k = before(ctx, k), n++) {
		if (AN_TOKEN_IS(ctx, k, ";") || AN_TOKEN_IS(ctx, k, "}") || AN_TOKEN_IS(ctx, k, "{"))
			break;
		if (AN_TOKEN_IS(ctx, k, "constexpr") || AN_TOKEN_IS(ctx, k, "consteval") || AN_TOKEN_IS(ctx, k, "auto"))
			return false;
	}
	return true;
}

/* Blanks [from, to) of copy, keeping line ends (places stay the same). */
static void blank(char *copy, uint32_t from, uint32_t to)
{
	uint32_t p;

	for (p = from; p < to; p++)
		if (copy[p] != '\n' && copy[p] != '\r')
			copy[p] = ' ';
}

/* Whether the statement of tokens [from, to) stays in a body kept for its
 * shared memory: a __shared__ declaration, or a constant, type or enum that
 * its sizes may name. */
static bool keeps_statement(const an_ctx *ctx, size_t from, size_t to)
{
	size_t k;

	while (from < to && (ctx->tokens[from].kind == PORT_TOKEN_COMMENT || AN_TOKEN_IS(ctx, from, "static")))
		from++;
	if (from == to)
		return false;
	if (AN_TOKEN_IS(ctx, from, "const") || AN_TOKEN_IS(ctx, from, "constexpr") ||
	    AN_TOKEN_IS(ctx, from, "enum") || AN_TOKEN_IS(ctx, from, "typedef") || AN_TOKEN_IS(ctx, from, "using"))
		return true;
	for (k = from; k < to; k++)
		if (AN_TOKEN_IS(ctx, k, "__shared__"))
			return true;
	return false;
}

static bool separates(const an_ctx *ctx, size_t k)
{
	return ctx->tokens[k].kind == PORT_TOKEN_PUNCT &&
	       (AN_TOKEN_IS(ctx, k, ";") || AN_TOKEN_IS(ctx, k, "{") || AN_TOKEN_IS(ctx, k, "}"));
}

/* Blanks the statements of the body between the tokens open ("{") and
 * close ("}") but those keeps_statement wants. Every ";", "{" and "}"
 * stays: what remains are empty statements and blocks around the kept
 * ones, whatever the statements were (for headers, lambdas, initializer
 * lists). Preprocessor lines (#pragma) go. */
static void slice_body(const an_ctx *ctx, char *copy, size_t open, size_t close)
{
	size_t from = open + 1, k, depth;
	bool keep_next = false; /* the declarators after a kept "{ ... }" */

	for (k = open + 1; k < close; k++) {
		bool directive = ctx->tokens[k].flags & PORT_TOKEN_DIRECTIVE;

		if (!directive && !separates(ctx, k))
			continue;
		if (!directive && (keep_next || keeps_statement(ctx, from, k))) {
			keep_next = false;
			if (AN_TOKEN_IS(ctx, k, "{")) { /* an enum, a struct, an initializer: all of it */
				for (depth = 1; depth && ++k < close;)
					depth += AN_TOKEN_IS(ctx, k, "{") - AN_TOKEN_IS(ctx, k, "}");
				keep_next = true;
			}
		} else if (from < k) {
			blank(copy, ctx->tokens[from].start, ctx->tokens[k - 1].end);
		}
		if (directive)
			blank(copy, ctx->tokens[k].start, ctx->tokens[k].end);
		from = k + 1;
	}
	if (from < close && !keep_next && !keeps_statement(ctx, from, close))
		blank(copy, ctx->tokens[from].start, ctx->tokens[close - 1].end);
}

typedef struct frame {
	size_t open;    /* the "{" token */
	bool body;      /* a function body (outside any other) */
	bool directive; /* a preprocessor line inside: #if branches may not balance */
} frame;

char *an_reduced_text(const an_ctx *ctx)
{
	frame stack[256];
	size_t depth = 0, bodies = 0, i;
	char *copy = NULL;
	uint8_t *wants = malloc(ctx->ntokens ? ctx->ntokens : 1);
	unsigned file = 0;
	int need;

	if (!wants)
		return NULL;
	for (i = 0; i < ctx->ntokens; i++)
		file |= wants[i] = (uint8_t)token_wants(ctx, i);
	for (i = 0; i < ctx->ntokens; i++) {
		const port_token *t = &ctx->tokens[i];

		if (t->flags & PORT_TOKEN_DIRECTIVE) {
			if (bodies && !an_in_pragma(ctx, i)) /* #pragma unroll changes no braces */
				stack[depth - 1].directive = true;
			continue;
		}
		if (t->kind != PORT_TOKEN_PUNCT)
			continue;
		if (AN_TOKEN_IS(ctx, i, "{")) {
			if (depth == sizeof(stack) / sizeof(stack[0]))
				goto give_up;
			stack[depth].open = i;
			stack[depth].body = !bodies && opens_body(ctx, i);
			stack[depth].directive = false;
			bodies += stack[depth].body;
			depth++;
		} else if (AN_TOKEN_IS(ctx, i, "}")) {
			frame f;

			if (!depth)
				goto give_up;
			f = stack[--depth];
			if (depth && f.directive)
				stack[depth - 1].directive = true;
			if (!f.body)
				continue;
			bodies--;
			if (f.directive)
				continue;
			need = body_need(range_wants(wants, declaration_start(ctx, f.open), i), file);
			if (need == BODY_WHOLE)
				continue;
			if (!copy) {
				if (!(copy = malloc(ctx->len ? ctx->len : 1)))
					goto give_up;
				memcpy(copy, ctx->src, ctx->len);
			}
			if (need == BODY_SHARED)
				slice_body(ctx, copy, f.open, i);
			else
				blank(copy, ctx->tokens[f.open].end, t->start);
		}
	}
	if (!depth) {
		free(wants);
		return copy;
	}
give_up: /* braces that do not balance over every #if branch: parse as written */
	free(wants);
	free(copy);
	return NULL;
}
