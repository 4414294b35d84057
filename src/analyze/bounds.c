/* ARCH-006: a kernel launched in its own file with a known block size above
 * 256 threads and no __launch_bounds__. HIP-Clang compiles such a kernel for
 * blocks of up to 1024 threads, and sizes its registers for that; some ROCm
 * releases capped unmarked kernels at 256 threads instead. Read from the tokens: the
 * kernel's definition, its <<<grid, block ...>>> launches, and the constants
 * and dim3 variables that give the block size. */
#include <stdio.h>
#include <string.h>

#include "analyze/ast.h"

#define MAX_THREADS 1024ULL
#define UNMARKED_CAP 256ULL

/* The token after the bracket that closes the one at i ("(", "<<<" counts
 * as one), or ntokens. */
static size_t after_group(const an_ctx *ctx, size_t i)
{
	int depth = 0;

	for (; i < ctx->ntokens; i++) {
		if (AN_TOKEN_AT(ctx, i, "(") || AN_TOKEN_AT(ctx, i, "[") || AN_TOKEN_AT(ctx, i, "{"))
			depth++;
		else if ((AN_TOKEN_AT(ctx, i, ")") || AN_TOKEN_AT(ctx, i, "]") || AN_TOKEN_AT(ctx, i, "}")) && --depth <= 0)
			return i + 1;
	}
	return ctx->ntokens;
}

/* Whether the identifier at i marks launch bounds: __launch_bounds__,
 * PyTorch's C10_LAUNCH_BOUNDS_*, a project's *LAUNCH_BOUNDS* macro, or an
 * amdgpu_flat_work_group_size attribute. */
static bool bounds_token(const an_ctx *ctx, size_t i)
{
	const port_token *t = &ctx->tokens[i];

	return t->kind == PORT_TOKEN_IDENT &&
	       (memmem(ctx->src + t->start, t->end - t->start, "LAUNCH_BOUNDS", 13) ||
		memmem(ctx->src + t->start, t->end - t->start, "launch_bounds", 13) ||
		memmem(ctx->src + t->start, t->end - t->start, "flat_work_group_size", 20));
}

/* The value of tokens [from, to): a constant expression, or one name whose
 * last definition before the tokens is a constant (int n = 256; #define
 * THREADS 256; constexpr int kThreads = 256). */
static bool fold_value(const an_ctx *ctx, size_t from, size_t to, unsigned long long *v, int depth);

static bool name_value(const an_ctx *ctx, size_t name, unsigned long long *v, int depth)
{
	size_t k, end;

	if (depth > 3)
		return false;
	for (k = name; k-- > 0;) {
		if (!an_tokens_same(ctx, k, name) || k + 1 >= ctx->ntokens)
			continue;
		if (k > 0 && AN_TOKEN_AT(ctx, k - 1, "define") && (ctx->tokens[k - 1].flags & PORT_TOKEN_DIRECTIVE)) {
			end = an_directive_end(ctx, k - 1);
			return end > k + 1 && fold_value(ctx, k + 1, end, v, depth + 1);
		}
		if (AN_TOKEN_AT(ctx, k + 1, "=") && k > 0 && ctx->tokens[k - 1].kind != PORT_TOKEN_PUNCT) {
			for (end = k + 2; end < ctx->ntokens && !AN_TOKEN_AT(ctx, end, ";") && !AN_TOKEN_AT(ctx, end, ","); end++)
				;
			return fold_value(ctx, k + 2, end, v, depth + 1);
		}
	}
	return false;
}

static bool fold_value(const an_ctx *ctx, size_t from, size_t to, unsigned long long *v, int depth)
{
	from = an_code_after(ctx, from);
	if (from + 1 == to && ctx->tokens[from].kind == PORT_TOKEN_IDENT)
		return name_value(ctx, from, v, depth);
	return from < to && an_tokens_fold(ctx, from, to, v);
}

/* The threads of dim3(a, b, c) / dim3 x(a, b, c) / {a, b, c} arguments at
 * the bracket open: their product. */
static bool dims_value(const an_ctx *ctx, size_t open, unsigned long long *v, int depth)
{
	size_t k, first = open + 1, end = after_group(ctx, open) - 1;
	int d = 0;
	unsigned long long x;

	*v = 1;
	for (k = open + 1; k <= end && k < ctx->ntokens; k++) {
		if (AN_TOKEN_AT(ctx, k, "(") || AN_TOKEN_AT(ctx, k, "[") || AN_TOKEN_AT(ctx, k, "{"))
			d++;
		else if (k < end && (AN_TOKEN_AT(ctx, k, ")") || AN_TOKEN_AT(ctx, k, "]") || AN_TOKEN_AT(ctx, k, "}")))
			d--;
		else if (k == end || (d == 0 && AN_TOKEN_AT(ctx, k, ","))) {
			if (!fold_value(ctx, first, k, &x, depth + 1))
				return false;
			*v *= x;
			first = k + 1;
		}
	}
	return true;
}

/* The block size of a launch configuration argument [from, to). */
static bool block_threads(const an_ctx *ctx, size_t from, size_t to, unsigned long long *v)
{
	size_t k;

	from = an_code_after(ctx, from);
	if (from < to && AN_TOKEN_AT(ctx, from, "dim3") && from + 1 < to && AN_TOKEN_AT(ctx, from + 1, "("))
		return dims_value(ctx, from + 1, v, 0);
	if (from + 1 == to && ctx->tokens[from].kind == PORT_TOKEN_IDENT) {
		/* a dim3 variable: its last declaration before the launch */
		for (k = from; k-- > 1;)
			if (an_tokens_same(ctx, k, from) && AN_TOKEN_AT(ctx, k - 1, "dim3")) {
				if (AN_TOKEN_AT(ctx, k + 1, "(") || AN_TOKEN_AT(ctx, k + 1, "{"))
					return dims_value(ctx, k + 1, v, 0);
				if (AN_TOKEN_AT(ctx, k + 1, "=") && AN_TOKEN_AT(ctx, k + 2, "dim3") && AN_TOKEN_AT(ctx, k + 3, "("))
					return dims_value(ctx, k + 3, v, 0);
				return false;
			}
	}
	return fold_value(ctx, from, to, v, 0);
}

/* A kernel defined in the file: its name token, and whether it is marked. */
typedef struct kernel {
	size_t name;
	bool marked;
	unsigned long long threads; /* the largest block launched, 0 when none known */
	bool unknown;               /* a launch whose block size is not known */
} kernel;

/* The kernel __global__ at token g defines: the name before the parameter
 * list, when a body follows it. */
static bool kernel_at(const an_ctx *ctx, size_t g, kernel *out)
{
	size_t k, start = g;

	memset(out, 0, sizeof(*out));
	/* marks written before __global__ (template <...> __launch_bounds__(n) __global__) */
	while (start > 0 && !AN_TOKEN_AT(ctx, start - 1, ";") && !AN_TOKEN_AT(ctx, start - 1, "}") &&
	       !AN_TOKEN_AT(ctx, start - 1, "{") && !(ctx->tokens[start - 1].flags & PORT_TOKEN_DIRECTIVE) &&
	       g - start < 64)
		start--;
	for (k = start; k < g; k++)
		out->marked |= bounds_token(ctx, k);
	for (k = g + 1; k < ctx->ntokens && k < g + 64; k++) {
		if (AN_TOKEN_AT(ctx, k, ";") || AN_TOKEN_AT(ctx, k, "{"))
			return false;
		if (bounds_token(ctx, k)) {
			out->marked = true;
			k = after_group(ctx, k + 1) - 1;
			continue;
		}
		if (AN_TOKEN_AT(ctx, k, "(") && ctx->tokens[k - 1].kind == PORT_TOKEN_IDENT) {
			size_t body = an_code_after(ctx, after_group(ctx, k));

			if (AN_TOKEN_AT(ctx, k - 1, "__attribute__") || AN_TOKEN_AT(ctx, k - 1, "__declspec")) {
				k = after_group(ctx, k) - 1;
				continue;
			}
			out->name = k - 1;
			return AN_TOKEN_AT(ctx, body, "{");
		}
	}
	return false;
}

/* The kernel a launch at "<<<" (token i) names: the identifier before it,
 * past template arguments. */
static size_t launched_name(const an_ctx *ctx, size_t i)
{
	size_t k = i;
	int depth = 0;

	if (k > 0 && AN_TOKEN_AT(ctx, k - 1, ">")) {
		for (k = i - 1; k > 0; k--) {
			if (AN_TOKEN_AT(ctx, k, ">"))
				depth++;
			else if (AN_TOKEN_AT(ctx, k, ">>"))
				depth += 2;
			else if (AN_TOKEN_AT(ctx, k, "<") && --depth == 0)
				break;
		}
	}
	return k > 0 && ctx->tokens[k - 1].kind == PORT_TOKEN_IDENT ? k - 1 : ctx->ntokens;
}

static void launch(const an_ctx *ctx, size_t open, kernel *kernels, size_t n)
{
	size_t name = launched_name(ctx, open), k, first = 0, j;
	int depth = 0;
	unsigned arg = 0;
	unsigned long long threads = 0;
	bool known;

	if (name == ctx->ntokens)
		return;
	for (k = open + 1; k < ctx->ntokens && k < open + 256; k++) {
		if (AN_TOKEN_AT(ctx, k, "(") || AN_TOKEN_AT(ctx, k, "[") || AN_TOKEN_AT(ctx, k, "{"))
			depth++;
		else if (AN_TOKEN_AT(ctx, k, ")") || AN_TOKEN_AT(ctx, k, "]") || AN_TOKEN_AT(ctx, k, "}"))
			depth--;
		else if (depth == 0 && (AN_TOKEN_AT(ctx, k, ",") || AN_TOKEN_AT(ctx, k, ">>>"))) {
			if (arg == 1)
				break;
			if (AN_TOKEN_AT(ctx, k, ">>>"))
				return;
			arg++;
			first = k + 1;
		}
	}
	if (arg != 1 || k >= ctx->ntokens)
		return;
	known = block_threads(ctx, first, k, &threads) && threads > 0 && threads <= MAX_THREADS;
	for (j = 0; j < n; j++) {
		if (!an_tokens_same(ctx, kernels[j].name, name))
			continue;
		if (!known)
			kernels[j].unknown = true;
		else if (threads > kernels[j].threads)
			kernels[j].threads = threads;
	}
}

static void report(an_ctx *ctx, const kernel *kr)
{
	const port_token *t = &ctx->tokens[kr->name];
	char threads[24];
	an_hit *h;

	if (kr->marked || !kr->threads || kr->unknown || an_hip_guarded(ctx, t->start))
		return;
	if (kr->threads <= UNMARKED_CAP)
		return; /* registers sized for 1024 threads: advice for a profiler, not a hazard */
	h = an_add(ctx, "ARCH-006", AN_WARNING, t->start, t->end,
		   "%.*s is launched with %llu threads per block and has no __launch_bounds__: HIP-Clang "
		   "then sizes its registers for 1024 threads, and ROCm releases that cap unmarked kernels at "
		   "256 fail the launch",
		   (int)(t->end - t->start), ctx->src + t->start, kr->threads);
	if (h) {
		an_range r = { "match", t->start, t->end };
		char name[128];
		size_t len = t->end - t->start < sizeof(name) - 1 ? t->end - t->start : sizeof(name) - 1;
		an_capture caps[2] = { { "threads", threads }, { "name", name } };

		snprintf(threads, sizeof(threads), "%llu", kr->threads);
		memcpy(name, ctx->src + t->start, len);
		name[len] = '\0';
		an_fix(ctx, h, "insert", &r, 1, caps, 2);
	}
}

void an_bounds_tokens(an_ctx *ctx)
{
	kernel ks[64];
	size_t n = 0, i, j;

	for (i = 0; i < ctx->ntokens && n < 64; i++)
		if (ctx->tokens[i].kind != PORT_TOKEN_COMMENT && AN_TOKEN_AT(ctx, i, "__global__") &&
		    !(ctx->tokens[i].flags & PORT_TOKEN_DIRECTIVE) && kernel_at(ctx, i, &ks[n]))
			n++;
	if (!n)
		return;
	for (i = 0; i < ctx->ntokens; i++)
		if (ctx->tokens[i].kind == PORT_TOKEN_PUNCT && AN_TOKEN_AT(ctx, i, "<<<"))
			launch(ctx, i, ks, n);
	/* one report per kernel name: overloads and template specializations share launches */
	for (i = 0; i < n; i++) {
		for (j = 0; j < i; j++)
			if (an_tokens_same(ctx, ks[j].name, ks[i].name))
				break;
		if (j == i)
			report(ctx, &ks[i]);
	}
}
