/* TRITON-003, -006, -008: the launch and autotune options of Triton kernels,
 * chosen for NVIDIA. A warp is 64 lanes on AMD Instinct, so num_warps above
 * 16 is more than the 1024 threads a workgroup holds; pipelines deeper than
 * AMD's stream pipeliner wants spill the 64 KiB of LDS; kernels with tl.dot
 * are tuned on AMD with knobs NVIDIA has not. Code in a branch that already
 * asks for ROCm (is_hip(), IS_AMD, torch.version.hip) is AMD's own and is not
 * reported. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/ast.h"
#include "analyze/pylex.h"

typedef struct opt_ctx {
	an_ctx *ctx;
	const an_py_rocm *rocm;
	bool torch; /* the file imports torch: torch.version.hip can be used */
} opt_ctx;

static const char *text_of(const an_ctx *ctx, size_t i, int *n)
{
	*n = (int)(ctx->tokens[i].end - ctx->tokens[i].start);
	return ctx->src + ctx->tokens[i].start;
}

/* Whether token i is the string "word" or 'word' (a key of a config dict). */
static bool key_is(const an_ctx *ctx, size_t i, const char *word)
{
	size_t n = strlen(word);
	const port_token *t = &ctx->tokens[i];

	return i < ctx->ntokens && t->kind == PORT_TOKEN_LITERAL && t->end - t->start == n + 2 &&
	       (ctx->src[t->start] == '"' || ctx->src[t->start] == '\'') &&
	       memcmp(ctx->src + t->start + 1, word, n) == 0;
}

/* Whether NAME = at token i assigns (or passes as a keyword), not compares. */
static bool assigned_at(const an_ctx *ctx, size_t i)
{
	return ctx->tokens[i].kind == PORT_TOKEN_IDENT && AN_TOKEN_AT(ctx, i + 1, "=") &&
	       !(i > 0 && AN_TOKEN_IS(ctx, i - 1, "."));
}

/* Whether token i names an option: NAME= (an assignment, a keyword
 * argument) or "NAME": (a key of a config dict). */
static bool option_at(const an_ctx *ctx, size_t i, const char *name)
{
	return (assigned_at(ctx, i) && an_py_token_is(ctx, i, name, strlen(name))) ||
	       (key_is(ctx, i, name) && AN_TOKEN_AT(ctx, i + 1, ":"));
}

/* A decimal integer literal at token i, or -1. */
static long int_literal(const an_ctx *ctx, size_t i)
{
	int n, k;
	const char *s;

	if (i >= ctx->ntokens || ctx->tokens[i].kind != PORT_TOKEN_LITERAL)
		return -1;
	s = text_of(ctx, i, &n);
	for (k = 0; k < n; k++)
		if (s[k] < '0' || s[k] > '9')
			return -1;
	return n > 0 && n < 10 ? strtol(s, NULL, 10) : -1;
}

static bool first_of_line(const an_ctx *ctx, size_t i)
{
	return i < ctx->ntokens && (ctx->tokens[i].flags & PORT_TOKEN_LINE_START);
}

static unsigned indent_at(const an_ctx *ctx, size_t i)
{
	return an_python_indent(ctx->src, ctx->tokens[i].start);
}

/* One past the value starting at token i: a top-level comma, a bracket it
 * did not open, a comment, or the end of the statement. */
static size_t value_end(const an_ctx *ctx, size_t i)
{
	size_t end = an_py_stmt_end(ctx, i);
	int depth = 0;

	for (; i < end; i++) {
		if (ctx->tokens[i].kind == PORT_TOKEN_COMMENT && depth == 0)
			return i;
		if (AN_TOKEN_IS(ctx, i, "(") || AN_TOKEN_IS(ctx, i, "[") || AN_TOKEN_IS(ctx, i, "{"))
			depth++;
		else if (AN_TOKEN_IS(ctx, i, ")") || AN_TOKEN_IS(ctx, i, "]") || AN_TOKEN_IS(ctx, i, "}")) {
			if (--depth < 0)
				return i;
		} else if (depth == 0 && AN_TOKEN_IS(ctx, i, ","))
			return i;
	}
	return end;
}

static bool arithmetic_neighbour(const an_ctx *ctx, size_t i)
{
	static const char *const ops[] = { "*", "/", "//", "%", "<<", ">>", "<", ">", "<=", ">=", "==", "!=", "**",
					    "+", "-", NULL };
	size_t k;

	for (k = 0; ops[k]; k++)
		if ((i > 0 && AN_TOKEN_IS(ctx, i - 1, ops[k])) || AN_TOKEN_AT(ctx, i + 1, ops[k]))
			return true;
	return false;
}

static bool already_amd(opt_ctx *o, size_t from, size_t to)
{
	return an_py_rocm_branch(o->ctx, o->rocm, from) || an_py_mentions_rocm(o->ctx, o->rocm, from, to);
}

/* The fix of a value that must differ on AMD: (AMD if torch.version.hip else NVIDIA). */
static void platform_value_fix(opt_ctx *o, an_hit *h, size_t first, size_t last, const char *amd)
{
	an_ctx *ctx = o->ctx;
	an_range r = { "match", ctx->tokens[first].start, ctx->tokens[last].end };
	char *nvidia = strndup(ctx->src + r.start, r.end - r.start);
	an_capture c[2] = { { "nvidia", nvidia }, { "amd", amd } };

	if (!h || !nvidia) {
		free(nvidia);
		return;
	}
	ctx->decl_start = ctx->tokens[an_py_top_statement(ctx, first)].start;
	an_fix(ctx, h, o->torch ? "value" : "value_import", &r, 1, c, 2);
	free(nvidia);
}

/* A list or tuple of integer literals [open, close]: the same brackets with
 * the elements up to 16, or NULL when none is above 16 (or none is left). */
static char *warps_up_to_16(const an_ctx *ctx, size_t open, size_t close)
{
	util_buf b = UTIL_BUF_INIT;
	bool over = false;
	size_t i, kept = 0;

	util_buf_putc(&b, ctx->src[ctx->tokens[open].start]);
	for (i = open + 1; i < close; i++) {
		long v = int_literal(ctx, i);

		if (AN_TOKEN_IS(ctx, i, ","))
			continue;
		if (v < 0) { /* not a list of numbers */
			over = false;
			break;
		}
		if (v > 16)
			over = true;
		else
			util_buf_printf(&b, "%s%ld", kept++ ? ", " : "", v);
	}
	util_buf_puts(&b, kept == 1 && ctx->src[ctx->tokens[open].start] == '(' ? ",)" :
			  ctx->src[ctx->tokens[open].start] == '(' ? ")" : "]");
	if (!over || !kept || util_buf_oom(&b)) {
		util_buf_dispose(&b);
		return NULL;
	}
	return b.ptr;
}

static an_hit *over_16(opt_ctx *o, size_t at, size_t last, const char *what)
{
	an_ctx *ctx = o->ctx;

	return an_add(ctx, "TRITON-003", AN_ERROR, ctx->tokens[at].start, ctx->tokens[last].end,
		      "%s: more than 16 warps are more than the 1024 threads an AMD workgroup holds (a warp is 64 lanes "
		      "there): the launch fails on AMD; 16 at most",
		      what);
}

/* The warp counts in the value [from, to) of a name that holds warps. */
static void warps_value(opt_ctx *o, size_t name, size_t from, size_t to)
{
	an_ctx *ctx = o->ctx;
	char what[96];
	int n;
	const char *s = text_of(ctx, name, &n);
	size_t i;

	if (from >= to || already_amd(o, from, to))
		return;
	if ((AN_TOKEN_IS(ctx, from, "[") || AN_TOKEN_IS(ctx, from, "(")) && an_py_closing(ctx, from, to) == to - 1) {
		char *amd = warps_up_to_16(ctx, from, to - 1);

		if (amd) {
			snprintf(what, sizeof(what), "%.*s lists warp counts above 16", n < 60 ? n : 60, s);
			platform_value_fix(o, over_16(o, from, to - 1, what), from, to - 1, amd);
			free(amd);
			return;
		}
	}
	for (i = from; i < to; i++) {
		long v = int_literal(ctx, i);

		if (v <= 16 || v > 64 || arithmetic_neighbour(ctx, i))
			continue;
		snprintf(what, sizeof(what), AN_TOKEN_IS(ctx, name, "return") ? "%.*s %ld" : "%.*s=%ld", n < 60 ? n : 60, s,
			 v);
		platform_value_fix(o, over_16(o, i, i, what), i, i, "16");
	}
	/* advice for a literal within AMD's limit: twice the threads */
	if (to == from + 1 && AN_TOKEN_IS(ctx, name, "num_warps")) {
		long v = int_literal(ctx, from);

		if (v >= 2 && v <= 16)
			an_add(ctx, "TRITON-003", AN_NOTE, ctx->tokens[name].start, ctx->tokens[from].end,
			       "num_warps=%ld: %ld threads on AMD (64-lane warps), %ld on NVIDIA; the AMD ports halve it, "
			       "or let hipport check --tune choose",
			       v, v * 64, v * 32);
	}
}

/* A hard-coded warp size of 32. */
static void warp_size_value(opt_ctx *o, size_t name, size_t from, size_t to)
{
	an_ctx *ctx = o->ctx;
	an_hit *h;
	int n;
	const char *s = text_of(ctx, name, &n);

	if (to != from + 1 || int_literal(ctx, from) != 32 || already_amd(o, from, to))
		return;
	h = an_add(ctx, "TRITON-003", AN_WARNING, ctx->tokens[name].start, ctx->tokens[from].end,
		   "%.*s = 32: a warp (wavefront) is 64 lanes on AMD Instinct", n < 60 ? n : 60, s);
	platform_value_fix(o, h, from, from, "64");
}

/* Whether the name at token i holds warp counts (num_warps, STATIC_WARPS,
 * WARP_LIST), not a warp's index or size. */
static bool holds_warps(const an_ctx *ctx, size_t i)
{
	return an_py_name_has(ctx, i, "warp") && !an_py_name_has(ctx, i, "size") && !an_py_name_has(ctx, i, "id") &&
	       !an_py_name_has(ctx, i, "lane") && !an_py_name_has(ctx, i, "special");
}

/* Whether the loop variable at token v feeds the option somewhere in the file (num_warps=w). */
static bool feeds(const an_ctx *ctx, size_t v, const char *option)
{
	int n;
	const char *s = text_of(ctx, v, &n);
	size_t i;

	for (i = 0; i + 2 < ctx->ntokens; i++)
		if (an_py_token_is(ctx, i, option, strlen(option)) && AN_TOKEN_IS(ctx, i + 1, "=") &&
		    an_py_token_is(ctx, i + 2, s, (size_t)n) && !AN_TOKEN_AT(ctx, i + 3, "."))
			return true;
	return false;
}

/* At a for at token i: the list literal its loop walks (for w in [...] or
 * for w in ([...])), its brackets in *open and *close. */
static bool loop_list(const an_ctx *ctx, size_t i, size_t *open, size_t *close)
{
	if (!AN_TOKEN_IS(ctx, i, "for") || i + 3 >= ctx->ntokens || ctx->tokens[i + 1].kind != PORT_TOKEN_IDENT ||
	    !AN_TOKEN_IS(ctx, i + 2, "in"))
		return false;
	*open = AN_TOKEN_IS(ctx, i + 3, "(") && AN_TOKEN_AT(ctx, i + 4, "[") ? i + 4 : i + 3;
	if (!AN_TOKEN_IS(ctx, *open, "["))
		return false;
	*close = an_py_closing(ctx, *open, ctx->ntokens);
	return *close < ctx->ntokens;
}

/* The def whose body holds token i, when its name names warps: return values are warp counts. */
static bool in_warps_function(const an_ctx *ctx, size_t i)
{
	size_t def = an_py_enclosing_def(ctx, i);

	return def < ctx->ntokens && an_py_name_has(ctx, def + 1, "warps");
}

static void warps(opt_ctx *o)
{
	an_ctx *ctx = o->ctx;
	size_t i, open, close;

	for (i = 0; i + 2 < ctx->ntokens; i++) {
		if (assigned_at(ctx, i) && (an_py_name_has(ctx, i, "warp_size") || an_py_name_has(ctx, i, "warpsize")))
			warp_size_value(o, i, i + 2, value_end(ctx, i + 2));
		else if (assigned_at(ctx, i) && holds_warps(ctx, i))
			warps_value(o, i, i + 2, value_end(ctx, i + 2));
		else if (key_is(ctx, i, "num_warps") && AN_TOKEN_AT(ctx, i + 1, ":"))
			warps_value(o, i, i + 2, value_end(ctx, i + 2));
		else if (loop_list(ctx, i, &open, &close) && (holds_warps(ctx, i + 1) || feeds(ctx, i + 1, "num_warps")))
			warps_value(o, i + 1, open, close + 1);
		else if (first_of_line(ctx, i) && AN_TOKEN_IS(ctx, i, "return") && in_warps_function(ctx, i))
			warps_value(o, i, i + 1, an_py_stmt_end(ctx, i));
	}
}

/* --- num_stages --- */

/* The body [def, end) of the jit kernel named by token k, or false. */
static bool kernel_body(const an_ctx *ctx, size_t k, size_t *def, size_t *end)
{
	int n;
	const char *s = text_of(ctx, k, &n);
	size_t i;

	for (i = 0; i + 1 < ctx->ntokens; i++) {
		if (!first_of_line(ctx, i) || !AN_TOKEN_IS(ctx, i, "def") || !an_py_token_is(ctx, i + 1, s, (size_t)n))
			continue;
		*def = i;
		for (*end = i + 1; *end < ctx->ntokens; (*end)++)
			if (first_of_line(ctx, *end) && ctx->tokens[*end].kind != PORT_TOKEN_COMMENT &&
			    indent_at(ctx, *end) <= indent_at(ctx, i))
				break;
		return true;
	}
	return false;
}

static size_t dots_in(const an_ctx *ctx, size_t from, size_t to)
{
	size_t i, n = 0;

	for (i = from; i + 3 < to; i++)
		n += an_triton_call(ctx, i, "dot");
	return n;
}

/* The kernel token i's options go to: the def an autotune decorator holding
 * i sits on; for a list of configs the file names (NAME = [...]), the
 * kernel of the decorator that takes configs=NAME; in a function, the
 * launch KERNEL[grid](...) holding i or the next one after it; else 0. */
static size_t kernel_of_option(const an_ctx *ctx, size_t i)
{
	size_t s = an_py_stmt_start(ctx, i), k, end;

	if (AN_TOKEN_IS(ctx, s, "@")) {
		for (k = an_py_stmt_end(ctx, s); k + 1 < ctx->ntokens; k = an_py_stmt_end(ctx, k))
			if (AN_TOKEN_IS(ctx, k, "def"))
				return k + 1;
			else if (!AN_TOKEN_IS(ctx, k, "@") && ctx->tokens[k].kind != PORT_TOKEN_COMMENT)
				return 0;
		return 0;
	}
	if (indent_at(ctx, s) == 0) {
		int n;
		const char *name = text_of(ctx, s, &n);

		if (ctx->tokens[s].kind != PORT_TOKEN_IDENT || !AN_TOKEN_AT(ctx, s + 1, "="))
			return 0;
		for (k = 0; k + 2 < ctx->ntokens; k++)
			if (AN_TOKEN_IS(ctx, k, "configs") && AN_TOKEN_IS(ctx, k + 1, "=") &&
			    an_py_token_is(ctx, k + 2, name, (size_t)n) && AN_TOKEN_IS(ctx, an_py_stmt_start(ctx, k), "@"))
				return kernel_of_option(ctx, k);
		return 0;
	}
	end = an_py_stmt_end(ctx, s);
	/* from here to the end of the function: KERNEL [ ... ] ( */
	for (k = s; k + 1 < ctx->ntokens; k++) {
		if (k >= end && first_of_line(ctx, k) && ctx->tokens[k].kind != PORT_TOKEN_COMMENT &&
		    indent_at(ctx, k) < indent_at(ctx, s))
			return 0;
		if (ctx->tokens[k].kind == PORT_TOKEN_IDENT && AN_TOKEN_AT(ctx, k + 1, "[") &&
		    AN_TOKEN_AT(ctx, an_py_closing(ctx, k + 1, ctx->ntokens) + 1, "(") &&
		    !(k > 0 && AN_TOKEN_IS(ctx, k - 1, ".")))
			return k;
	}
	return 0;
}

/* The depth AMD's guide advises for the kernel token i's options go to:
 * 2 for one tl.dot (or a kernel not found), 1 for fused dots or none. */
static long advised_stages(const an_ctx *ctx, size_t i, size_t *dots)
{
	size_t kernel = kernel_of_option(ctx, i), def, end;

	*dots = kernel && kernel_body(ctx, kernel, &def, &end) ? dots_in(ctx, def, end) : 1;
	return *dots == 1 ? 2 : 1;
}

static void stages_hit(opt_ctx *o, size_t at, size_t first, size_t last, const char *what, long want, size_t dots)
{
	an_ctx *ctx = o->ctx;
	char amd[16];
	an_hit *h = an_add(ctx, "TRITON-006", AN_NOTE, ctx->tokens[at].start, ctx->tokens[last].end,
			   "%s: AMD's stream pipeliner wants %ld for %s, and each stage keeps its tiles in the 64 KiB "
			   "of LDS",
			   what, want, dots == 0 ? "a kernel without tl.dot" : dots == 1 ? "one tl.dot" : "fused tl.dots");

	snprintf(amd, sizeof(amd), first == last ? "%ld" : "[%ld]", want);
	platform_value_fix(o, h, first, last, amd);
}

/* TRITON-006: num_stages=N (an option, a variable, a config dict's key) and
 * the lists a loop feeding num_stages= walks. */
static void stages(opt_ctx *o)
{
	an_ctx *ctx = o->ctx;
	size_t i, k, dots, open, close;

	for (i = 0; i + 2 < ctx->ntokens; i++) {
		char what[48];
		long n, want, most = -1;

		if (option_at(ctx, i, "num_stages") || (assigned_at(ctx, i) && an_py_name_has(ctx, i, "stages"))) {
			if ((n = int_literal(ctx, i + 2)) < 0 || value_end(ctx, i + 2) != i + 3 || already_amd(o, i, i + 3))
				continue;
			if (n <= (want = advised_stages(ctx, i, &dots)))
				continue;
			snprintf(what, sizeof(what), "num_stages=%ld", n);
			stages_hit(o, i, i + 2, i + 2, what, want, dots);
		} else if (loop_list(ctx, i, &open, &close) && feeds(ctx, i + 1, "num_stages")) {
			if (already_amd(o, i, close + 1))
				continue;
			for (k = open + 1; k < close; k++) {
				if (AN_TOKEN_IS(ctx, k, ","))
					continue;
				if ((n = int_literal(ctx, k)) < 0)
					break; /* not a list of numbers */
				most = n > most ? n : most;
			}
			if (k < close || most <= (want = advised_stages(ctx, i, &dots)))
				continue;
			snprintf(what, sizeof(what), "num_stages up to %ld", most);
			stages_hit(o, open, open, close, what, want, dots);
		}
	}
}

/* --- AMD's knobs --- */

/* Whether the dict NAME at token v, passed as **NAME at a launch, may hold
 * options: anything but a name the function only ever sets to {}. */
static bool may_hold_options(const an_ctx *ctx, size_t v)
{
	int n;
	const char *s = text_of(ctx, v, &n);
	unsigned limit = indent_at(ctx, an_py_stmt_start(ctx, v));
	size_t p = v, k;
	bool set_empty = false;

	/* back to the def of the function holding the launch */
	while (p > 0 && !(first_of_line(ctx, p) && AN_TOKEN_IS(ctx, p, "def") && indent_at(ctx, p) < limit))
		p--;
	if (p == 0 && !AN_TOKEN_IS(ctx, 0, "def"))
		return true;
	for (k = p; k < v; k++) {
		if (!an_py_token_is(ctx, k, s, (size_t)n) || (k > 0 && AN_TOKEN_IS(ctx, k - 1, ".")))
			continue;
		if (AN_TOKEN_AT(ctx, k + 1, "=") && AN_TOKEN_AT(ctx, k + 2, "{") && AN_TOKEN_AT(ctx, k + 3, "}") &&
		    value_end(ctx, k + 2) == k + 4)
			set_empty = true;
		else if (AN_TOKEN_AT(ctx, k + 1, "=") || AN_TOKEN_AT(ctx, k + 1, "[") || AN_TOKEN_AT(ctx, k + 1, ".") ||
			 AN_TOKEN_AT(ctx, k + 1, "|="))
			return true;
	}
	return !set_empty;
}

static bool names_knob(const an_ctx *ctx, size_t from, size_t to)
{
	size_t i;

	for (i = from; i < to && i < ctx->ntokens; i++)
		if (AN_TOKEN_IS(ctx, i, "waves_per_eu") || AN_TOKEN_IS(ctx, i, "matrix_instr_nonkdim") ||
		    AN_TOKEN_IS(ctx, i, "kpack") ||
		    (AN_TOKEN_IS(ctx, i, "**") && (i + 1 >= to || ctx->tokens[i + 1].kind != PORT_TOKEN_IDENT ||
						   may_hold_options(ctx, i + 1))) ||
		    (ctx->tokens[i].kind == PORT_TOKEN_LITERAL &&
		     memmem(ctx->src + ctx->tokens[i].start, ctx->tokens[i].end - ctx->tokens[i].start, "waves_per_eu", 12)))
			return true;
	return false;
}

/* TRITON-008: a launch of a kernel with tl.dot that gives none of AMD's knobs. */
static void knobs(opt_ctx *o)
{
	an_ctx *ctx = o->ctx;
	size_t i;

	for (i = 0; i + 1 < ctx->ntokens; i++) {
		size_t close, open, call_end, def, end;

		if (ctx->tokens[i].kind != PORT_TOKEN_IDENT || !AN_TOKEN_AT(ctx, i + 1, "[") ||
		    (i > 0 && AN_TOKEN_IS(ctx, i - 1, ".")))
			continue;
		close = an_py_closing(ctx, i + 1, ctx->ntokens);
		open = close + 1;
		if (!AN_TOKEN_AT(ctx, open, "(") || !kernel_body(ctx, i, &def, &end) || !dots_in(ctx, def, end))
			continue;
		call_end = an_py_closing(ctx, open, ctx->ntokens);
		if (call_end >= ctx->ntokens || names_knob(ctx, open, call_end) || already_amd(o, i, i + 1))
			continue;
		an_add(ctx, "TRITON-008", AN_NOTE, ctx->tokens[i].start, ctx->tokens[close].end,
		       "%.*s uses tl.dot and is launched without AMD's knobs (waves_per_eu, matrix_instr_nonkdim, kpack): "
		       "hipport check --tune sweeps them on the AMD GPU",
		       (int)(ctx->tokens[i].end - ctx->tokens[i].start), ctx->src + ctx->tokens[i].start);
		i = close;
	}
}

void an_triton_options(an_ctx *ctx, const an_py_rocm *rocm)
{
	opt_ctx o = { ctx, rocm, an_py_imports_torch(ctx) };

	warps(&o);
	stages(&o);
	knobs(&o);
}
