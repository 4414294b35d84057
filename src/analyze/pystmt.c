/* Python statements on tokens, for the BUILD findings of setup.py: where a
 * logical line starts and ends, the blocks and if-chains around it, and
 * whether any of them asks about ROCm. A finding whose statement or an
 * enclosing branch names ROCm sits in code that already has a ROCm path,
 * and is not reported (docs/findings.md says which names count). */
#include <ctype.h>
#include <string.h>
#include <strings.h>

#include "analyze/ast.h"
#include "analyze/pylex.h"
#include "util/error.h"

size_t an_py_stmt_start(const an_ctx *ctx, size_t i)
{
	while (i > 0 && !(ctx->tokens[i].flags & PORT_TOKEN_LINE_START))
		i--;
	return i;
}

size_t an_py_stmt_end(const an_ctx *ctx, size_t i)
{
	for (i++; i < ctx->ntokens && !(ctx->tokens[i].flags & PORT_TOKEN_LINE_START); i++)
		;
	return i;
}

static unsigned indent_of(const an_ctx *ctx, size_t s)
{
	return an_python_indent(ctx->src, ctx->tokens[s].start);
}

size_t an_py_enclosing(const an_ctx *ctx, size_t i)
{
	size_t p = an_py_stmt_start(ctx, i);
	unsigned limit = indent_of(ctx, p);

	while (p > 0 && limit > 0) {
		p = an_py_stmt_start(ctx, p - 1);
		if (ctx->tokens[p].kind != PORT_TOKEN_COMMENT && indent_of(ctx, p) < limit)
			return p;
	}
	return ctx->ntokens;
}

/* Whether one word of s (split at anything not a letter or digit) is rocm,
 * hip or amd (IS_AMD, is_hip_, torch.version.hip), or names another vendor's
 * device (xpu, npu): code under such a test has its platform already. */
static bool rocm_word(const char *s, size_t n)
{
	size_t i = 0;

	while (i < n) {
		size_t w = i;

		while (w < n && isalnum((unsigned char)s[w]))
			w++;
		if ((w - i == 4 && strncasecmp(s + i, "rocm", 4) == 0) ||
		    (w - i == 3 && (strncasecmp(s + i, "hip", 3) == 0 || strncasecmp(s + i, "amd", 3) == 0 ||
				    strncasecmp(s + i, "xpu", 3) == 0 || strncasecmp(s + i, "npu", 3) == 0)))
			return true;
		i = w + 1;
	}
	return false;
}

static bool is_alias(const an_py_rocm *r, const char *s, size_t n)
{
	const char *p = r->aliases.ptr, *end = p + r->aliases.len;

	while (p && p < end) {
		size_t k = strlen(p);

		if (k == n && memcmp(p, s, n) == 0)
			return true;
		p += k + 1;
	}
	return false;
}

/* The names projects give their test of NVIDIA (is_cuda(), _is_cuda,
 * IS_NVIDIA): false on ROCm, so code under them already has its platform. */
static bool nvidia_test(const char *s, size_t n)
{
	static const char *const names[] = { "is_cuda", "_is_cuda", "IS_CUDA", "_IS_CUDA", "is_nvidia", "_is_nvidia",
					     "IS_NVIDIA", NULL };
	size_t k;

	for (k = 0; names[k]; k++)
		if (strlen(names[k]) == n && memcmp(s, names[k], n) == 0)
			return true;
	return false;
}

/* A name (or a string holding just a name, "USE_ROCM") that speaks of ROCm,
 * or of NVIDIA as the other platform. */
static bool rocm_token(const an_ctx *ctx, const an_py_rocm *r, size_t i)
{
	const port_token *t = &ctx->tokens[i];
	const char *s = ctx->src + t->start;
	size_t n = t->end - t->start, k;

	if (t->kind == PORT_TOKEN_IDENT)
		return rocm_word(s, n) || is_alias(r, s, n) || nvidia_test(s, n);
	if (t->kind != PORT_TOKEN_LITERAL || n < 3 || (s[n - 1] != '"' && s[n - 1] != '\''))
		return false;
	while (n && *s != '"' && *s != '\'')
		s++, n--;
	if (n < 3 || s[0] != s[n - 1])
		return false;
	for (k = 1; k + 1 < n; k++)
		if (!isalnum((unsigned char)s[k]) && s[k] != '_')
			return false;
	return rocm_word(s + 1, n - 2);
}

bool an_py_mentions_rocm(const an_ctx *ctx, const an_py_rocm *r, size_t from, size_t to)
{
	for (; from < to && from < ctx->ntokens; from++)
		if (rocm_token(ctx, r, from))
			return true;
	return false;
}

static bool starts_with(const an_ctx *ctx, size_t s, const char *word)
{
	size_t n = strlen(word);

	return s < ctx->ntokens && ctx->tokens[s].end - ctx->tokens[s].start == n &&
	       memcmp(ctx->src + ctx->tokens[s].start, word, n) == 0;
}

static bool header_rocm(const an_ctx *ctx, const an_py_rocm *r, size_t s)
{
	return an_py_mentions_rocm(ctx, r, s, an_py_stmt_end(ctx, s));
}

/* Whether a header of the if/elif/else chain holding statement s names ROCm. */
static bool chain_rocm(const an_ctx *ctx, const an_py_rocm *r, size_t s)
{
	unsigned d = indent_of(ctx, s);
	size_t p;

	if (!starts_with(ctx, s, "if") && !starts_with(ctx, s, "elif") && !starts_with(ctx, s, "else"))
		return false;
	if (header_rocm(ctx, r, s))
		return true;
	/* back to the if */
	for (p = s; !starts_with(ctx, p, "if") && p > 0;) {
		p = an_py_stmt_start(ctx, p - 1);
		if (ctx->tokens[p].kind == PORT_TOKEN_COMMENT || indent_of(ctx, p) > d)
			continue;
		if (indent_of(ctx, p) < d || (!starts_with(ctx, p, "if") && !starts_with(ctx, p, "elif")))
			break;
		if (header_rocm(ctx, r, p))
			return true;
	}
	/* on to the last elif or else */
	for (p = an_py_stmt_end(ctx, s); p < ctx->ntokens; p = an_py_stmt_end(ctx, p)) {
		if (ctx->tokens[p].kind == PORT_TOKEN_COMMENT || indent_of(ctx, p) > d)
			continue;
		if (indent_of(ctx, p) < d || (!starts_with(ctx, p, "elif") && !starts_with(ctx, p, "else")))
			break;
		if (header_rocm(ctx, r, p))
			return true;
	}
	return false;
}

/* Whether the block of the if at statement s leaves it: return, raise,
 * continue, break or exit() (an early way out for ROCm). */
static bool body_exits(const an_ctx *ctx, size_t s)
{
	static const char *const exits[] = { "return", "raise", "continue", "break", "exit", NULL };
	unsigned d = indent_of(ctx, s);
	size_t p, k;

	for (p = s; p < ctx->ntokens && (p == s || indent_of(ctx, p) > d); p = an_py_stmt_end(ctx, p))
		for (k = p == s ? s + 1 : p; k < an_py_stmt_end(ctx, p); k++) {
			size_t w;

			for (w = 0; exits[w]; w++)
				if (starts_with(ctx, k, exits[w]))
					return true;
		}
	return false;
}

bool an_py_rocm_branch(const an_ctx *ctx, const an_py_rocm *r, size_t i)
{
	size_t s = an_py_stmt_start(ctx, i), p;
	unsigned limit;

	if (header_rocm(ctx, r, s) || chain_rocm(ctx, r, s))
		return true;
	/* the headers of the blocks around it: each less indented than the last */
	for (limit = indent_of(ctx, s), p = s; p > 0;) {
		p = an_py_stmt_start(ctx, p - 1);
		if (ctx->tokens[p].kind == PORT_TOKEN_COMMENT || indent_of(ctx, p) > limit)
			continue;
		/* an earlier `if ROCm: return` of the same block */
		if (indent_of(ctx, p) == limit) {
			if (starts_with(ctx, p, "if") && header_rocm(ctx, r, p) && body_exits(ctx, p))
				return true;
			continue;
		}
		limit = indent_of(ctx, p);
		if (header_rocm(ctx, r, p) || chain_rocm(ctx, r, p))
			return true;
	}
	return false;
}

/* Whether tokens [from, to) read as a test (IS_HIP = torch.version.hip is
 * not None, _is_hip = is_hip(), USE_AITER = IS_ROCM and flag): names,
 * argument-less calls, not/and/or, comparisons; no call with arguments,
 * which computes something else from a ROCm value (topk_func =
 * dispatch(use_rocm_aiter=...)). */
static bool test_shaped(const an_ctx *ctx, size_t from, size_t to)
{
	size_t i;

	for (i = from; i < to; i++) {
		if (ctx->tokens[i].kind == PORT_TOKEN_COMMENT)
			continue;
		if (AN_TOKEN_IS(ctx, i, "(") && !AN_TOKEN_AT(ctx, i + 1, ")") &&
		    !(i > from && (AN_TOKEN_IS(ctx, i - 1, "and") || AN_TOKEN_IS(ctx, i - 1, "or") ||
				   AN_TOKEN_IS(ctx, i - 1, "not") || AN_TOKEN_IS(ctx, i - 1, "="))) &&
		    i != from)
			return false;
		if (AN_TOKEN_IS(ctx, i, "=") || AN_TOKEN_IS(ctx, i, ","))
			return false;
	}
	return true;
}

void an_py_rocm_collect(an_ctx *ctx, an_py_rocm *r)
{
	size_t s, k, end;

	for (s = 0; s < ctx->ntokens; s = end) {
		end = an_py_stmt_end(ctx, s);
		/* NAME [, NAME ...] = or NAME: TYPE = */
		for (k = s; k + 1 < end && ctx->tokens[k].kind == PORT_TOKEN_IDENT && AN_TOKEN_IS(ctx, k + 1, ","); k += 2)
			;
		if (k >= end || ctx->tokens[k].kind != PORT_TOKEN_IDENT)
			continue;
		if (AN_TOKEN_AT(ctx, k + 1, ":") && ctx->tokens[k].kind == PORT_TOKEN_IDENT && k == s)
			for (k += 2; k < end && !AN_TOKEN_IS(ctx, k, "="); k++)
				;
		else
			k++;
		if (k >= end || !AN_TOKEN_IS(ctx, k, "=") || !an_py_mentions_rocm(ctx, r, k + 1, end) ||
		    !test_shaped(ctx, k + 1, end))
			continue;
		for (k = s; k < end && ctx->tokens[k].kind == PORT_TOKEN_IDENT; k += 2) {
			util_buf_put(&r->aliases, ctx->src + ctx->tokens[k].start, ctx->tokens[k].end - ctx->tokens[k].start);
			util_buf_putc(&r->aliases, '\0');
			if (!AN_TOKEN_AT(ctx, k + 1, ","))
				break;
		}
		if (util_buf_oom(&r->aliases))
			ctx->error = UTIL_ENOMEM;
	}
}

void an_py_rocm_dispose(an_py_rocm *r)
{
	util_buf_dispose(&r->aliases);
}

size_t an_py_closing(const an_ctx *ctx, size_t i, size_t to)
{
	int depth = 0;

	for (; i < to; i++) {
		depth += AN_TOKEN_AT(ctx, i, "(") || AN_TOKEN_AT(ctx, i, "[") || AN_TOKEN_AT(ctx, i, "{");
		depth -= AN_TOKEN_AT(ctx, i, ")") || AN_TOKEN_AT(ctx, i, "]") || AN_TOKEN_AT(ctx, i, "}");
		if (depth == 0)
			return i;
	}
	return ctx->ntokens;
}

size_t an_py_dotted_start(const an_ctx *ctx, size_t i)
{
	while (i >= 2 && AN_TOKEN_IS(ctx, i - 1, ".") && ctx->tokens[i - 2].kind == PORT_TOKEN_IDENT)
		i -= 2;
	return i;
}

bool an_py_name_has(const an_ctx *ctx, size_t i, const char *word)
{
	size_t w = strlen(word), n, k;

	if (i >= ctx->ntokens || ctx->tokens[i].kind != PORT_TOKEN_IDENT)
		return false;
	n = ctx->tokens[i].end - ctx->tokens[i].start;
	for (k = 0; k + w <= n; k++)
		if (strncasecmp(ctx->src + ctx->tokens[i].start + k, word, w) == 0)
			return true;
	return false;
}

size_t an_py_enclosing_def(const an_ctx *ctx, size_t i)
{
	size_t p;

	for (p = an_py_enclosing(ctx, i); p < ctx->ntokens; p = an_py_enclosing(ctx, p))
		if (AN_TOKEN_IS(ctx, p, "def"))
			return p;
	return ctx->ntokens;
}

size_t an_py_argument_end(const an_ctx *ctx, size_t i, size_t close)
{
	int depth = 0;

	for (; i < close; i++) {
		depth += AN_TOKEN_AT(ctx, i, "(") || AN_TOKEN_AT(ctx, i, "[") || AN_TOKEN_AT(ctx, i, "{");
		depth -= AN_TOKEN_AT(ctx, i, ")") || AN_TOKEN_AT(ctx, i, "]") || AN_TOKEN_AT(ctx, i, "}");
		if (depth == 0 && AN_TOKEN_AT(ctx, i, ","))
			return i;
	}
	return close;
}

bool an_py_token_is(const an_ctx *ctx, size_t i, const char *text, size_t n)
{
	return i < ctx->ntokens && ctx->tokens[i].end - ctx->tokens[i].start == n &&
	       memcmp(ctx->src + ctx->tokens[i].start, text, n) == 0;
}

size_t an_py_keyword_arg(const an_ctx *ctx, size_t open, size_t close, const char *name)
{
	size_t i = open + 1;

	while (i < close) {
		if (an_py_token_is(ctx, i, name, strlen(name)) && AN_TOKEN_AT(ctx, i + 1, "="))
			return i;
		i = an_py_argument_end(ctx, i, close) + 1;
	}
	return 0;
}

/* The first token of the top-level statement holding token i, above its decorators. */
size_t an_py_top_statement(const an_ctx *ctx, size_t i)
{
	while (i > 0 && !((ctx->tokens[i].flags & PORT_TOKEN_LINE_START) && an_python_indent(ctx->src, ctx->tokens[i].start) == 0 &&
			  ctx->tokens[i].kind != PORT_TOKEN_COMMENT))
		i--;
	for (;;) {
		size_t p = i;

		while (p > 0 && !((ctx->tokens[p - 1].flags & PORT_TOKEN_LINE_START) && ctx->tokens[p - 1].kind != PORT_TOKEN_COMMENT))
			p--;
		if (p == 0 || !AN_TOKEN_AT(ctx, p - 1, "@"))
			return i;
		i = p - 1;
	}
}

bool an_py_imports_torch(const an_ctx *ctx)
{
	size_t i;

	for (i = 0; i + 1 < ctx->ntokens; i++)
		if ((ctx->tokens[i].flags & PORT_TOKEN_LINE_START) && an_python_indent(ctx->src, ctx->tokens[i].start) == 0 &&
		    AN_TOKEN_IS(ctx, i, "import") && AN_TOKEN_IS(ctx, i + 1, "torch") && !AN_TOKEN_AT(ctx, i + 2, "."))
			return true;
	return false;
}
