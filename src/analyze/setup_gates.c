/* BUILD-011..014: what in a PyTorch extension's Python decides "CUDA or
 * not" the NVIDIA way, and so decides wrong on ROCm: CUDA_HOME tests (None
 * on ROCm: the extension builds CPU-only), nvcc run for its version,
 * torch.version.cuda (None on ROCm) and compute capabilities (MI300X
 * reports (9, 4)). Statements in a ROCm branch are left alone. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/ast.h"
#include "analyze/pylex.h"
#include "util/error.h"

static bool tok_in(const an_ctx *ctx, size_t i, const char *const *words)
{
	size_t k;

	for (k = 0; i < ctx->ntokens && words[k]; k++)
		if (ctx->tokens[i].end - ctx->tokens[i].start == strlen(words[k]) &&
		    memcmp(ctx->src + ctx->tokens[i].start, words[k], strlen(words[k])) == 0)
			return true;
	return false;
}

static const char *const compare_ops[] = { "<", ">", "<=", ">=", "==", "!=", NULL };
static const char *const bool_before[] = { "if", "elif", "while", "not", "and", "or", NULL };
static const char *const bool_after[] = { ":", "and", "or", "else", NULL };

static size_t after(const an_ctx *ctx, size_t i)
{
	return an_code_after(ctx, i + 1);
}

/* Whether the name ending at last (first at first) is tested for truth:
 * `if NAME:`, `not NAME`, `a and NAME or b`. */
static bool truth_test(const an_ctx *ctx, size_t first, size_t last, size_t stmt_end)
{
	size_t p = an_code_before(ctx, first), n = after(ctx, last);

	if (p == ctx->ntokens || !tok_in(ctx, p, bool_before))
		return false;
	return tok_in(ctx, n, bool_after) ||
	       (AN_TOKEN_AT(ctx, p, "not") && (n >= stmt_end || AN_TOKEN_AT(ctx, n, ")") || AN_TOKEN_AT(ctx, n, ",")));
}

static bool import_stmt(const an_ctx *ctx, size_t s)
{
	return AN_TOKEN_AT(ctx, s, "from") || AN_TOKEN_AT(ctx, s, "import");
}

static bool stmt_has(const an_ctx *ctx, size_t s, size_t end, const char *name)
{
	size_t n = strlen(name);

	for (; s < end; s++)
		if (ctx->tokens[s].end - ctx->tokens[s].start == n && memcmp(ctx->src + ctx->tokens[s].start, name, n) == 0)
			return true;
	return false;
}

/* ---- BUILD-011: CUDA_HOME as the test of a CUDA build ---- */

typedef enum home_test { HOME_VALUE, HOME_SOME, HOME_NONE, HOME_PATH } home_test;

/* What the use of CUDA_HOME at token i is: a test (its range in *first,
 * *last) or a use of the path. */
static home_test home_use(const an_ctx *ctx, size_t i, size_t *first, size_t *last)
{
	static const char *const path_calls[] = { "exists", "isdir", "isfile", "lexists", "access", NULL };
	size_t s = an_py_stmt_start(ctx, i), end = an_py_stmt_end(ctx, s), n = after(ctx, i), k;
	size_t open[32], depth = 0;

	*first = an_py_dotted_start(ctx, i);
	*last = i;
	if (AN_TOKEN_AT(ctx, n, "is") && AN_TOKEN_AT(ctx, after(ctx, n), "not") &&
	    AN_TOKEN_AT(ctx, after(ctx, after(ctx, n)), "None")) {
		*last = after(ctx, after(ctx, n));
		return HOME_SOME;
	}
	if ((AN_TOKEN_AT(ctx, n, "is") || AN_TOKEN_AT(ctx, n, "==") || AN_TOKEN_AT(ctx, n, "!=")) &&
	    AN_TOKEN_AT(ctx, after(ctx, n), "None")) {
		*last = after(ctx, n);
		return AN_TOKEN_AT(ctx, n, "!=") ? HOME_SOME : HOME_NONE;
	}
	if (truth_test(ctx, *first, i, end))
		return HOME_SOME;
	/* os.path.exists(CUDA_HOME), os.path.isdir(os.path.join(CUDA_HOME, "bin")) */
	for (k = s; k < i; k++) {
		if (AN_TOKEN_IS(ctx, k, "(") || AN_TOKEN_IS(ctx, k, "[") || AN_TOKEN_IS(ctx, k, "{")) {
			if (depth < 32)
				open[depth] = k;
			depth++;
		} else if ((AN_TOKEN_IS(ctx, k, ")") || AN_TOKEN_IS(ctx, k, "]") || AN_TOKEN_IS(ctx, k, "}")) && depth) {
			depth--;
		}
	}
	for (k = depth < 32 ? depth : 32; k-- > 0;)
		if (open[k] > 0 && AN_TOKEN_IS(ctx, open[k], "(") && tok_in(ctx, open[k] - 1, path_calls)) {
			*first = an_py_dotted_start(ctx, open[k] - 1);
			*last = an_py_closing(ctx, open[k], end);
			if (*last >= end)
				*last = i;
			return HOME_PATH;
		}
	return HOME_VALUE;
}

/* Whether token i is the string "CUDA_HOME" (either quote). */
static bool cuda_home_string(const an_ctx *ctx, size_t i)
{
	const port_token *t = &ctx->tokens[i];

	return t->kind == PORT_TOKEN_LITERAL && t->end - t->start == 11 &&
	       memcmp(ctx->src + t->start + 1, "CUDA_HOME", 9) == 0;
}

/* The environment's CUDA_HOME tested, the way setup.py files ask for a
 * toolkit without cpp_extension: `os.environ.get("CUDA_HOME")` or
 * `os.getenv("CUDA_HOME")` tested for truth or against None, and
 * `"CUDA_HOME" in os.environ`. The first token of the read is in *first,
 * its last in *last; false for any other use (a default path taken). */
static bool env_home_test(const an_ctx *ctx, size_t i, size_t *first, size_t *last)
{
	size_t s = an_py_stmt_start(ctx, i), end = an_py_stmt_end(ctx, s), p = an_code_before(ctx, i), n = after(ctx, i);

	if (AN_TOKEN_AT(ctx, n, "in") || (AN_TOKEN_AT(ctx, n, "not") && AN_TOKEN_AT(ctx, after(ctx, n), "in"))) {
		size_t e = after(ctx, AN_TOKEN_AT(ctx, n, "in") ? n : after(ctx, n));

		if (!AN_TOKEN_AT(ctx, e, "os") || !AN_TOKEN_AT(ctx, e + 1, ".") || !AN_TOKEN_AT(ctx, e + 2, "environ"))
			return false;
		*first = i;
		*last = e + 2;
		return true;
	}
	/* os.getenv("CUDA_HOME") / os.environ.get("CUDA_HOME"), no default */
	if (p == ctx->ntokens || !AN_TOKEN_IS(ctx, p, "(") || !AN_TOKEN_AT(ctx, n, ")") || p == 0 ||
	    (!AN_TOKEN_IS(ctx, p - 1, "getenv") && !AN_TOKEN_IS(ctx, p - 1, "get")))
		return false;
	*first = an_py_dotted_start(ctx, p - 1);
	if (!AN_TOKEN_AT(ctx, *first, "os"))
		return false;
	*last = n;
	n = after(ctx, n);
	if (AN_TOKEN_AT(ctx, n, "is") || AN_TOKEN_AT(ctx, n, "==") || AN_TOKEN_AT(ctx, n, "!=")) {
		size_t v = after(ctx, n);

		if (AN_TOKEN_AT(ctx, v, "not"))
			v = after(ctx, v);
		if (!AN_TOKEN_AT(ctx, v, "None"))
			return false;
		*last = v;
		return true;
	}
	return truth_test(ctx, *first, *last, end);
}

static void env_home_tests(an_ctx *ctx, const an_py_rocm *rocm)
{
	size_t i, first, last;

	for (i = 0; i < ctx->ntokens; i++) {
		uint32_t a, b;

		if (!cuda_home_string(ctx, i) || !env_home_test(ctx, i, &first, &last) || an_py_rocm_branch(ctx, rocm, i))
			continue;
		a = ctx->tokens[first].start;
		b = ctx->tokens[last].end;
		an_add(ctx, "BUILD-011", AN_WARNING, a, b,
		       "%.*s: a ROCm machine has no CUDA toolkit and no CUDA_HOME in its environment, so this test "
		       "takes the path without CUDA there; test ROCM_HOME or torch.version.hip as well",
		       (int)(b - a < 60 ? b - a : 60), ctx->src + a);
		i = last;
	}
}

/* Where `from torch.utils.cpp_extension import ROCM_HOME` goes: after the
 * top-level import of CUDA_HOME from there; false when there is none. */
static bool rocm_import_place(const an_ctx *ctx, uint32_t *offset, bool *imported)
{
	size_t s, end;
	bool found = false;

	*imported = false;
	for (s = 0; s < ctx->ntokens; s = end) {
		end = an_py_stmt_end(ctx, s);
		if (!AN_TOKEN_AT(ctx, s, "from") || an_python_indent(ctx->src, ctx->tokens[s].start) != 0 ||
		    !AN_TOKEN_AT(ctx, s + 1, "torch") || !AN_TOKEN_AT(ctx, s + 3, "utils") ||
		    !AN_TOKEN_AT(ctx, s + 5, "cpp_extension") || !AN_TOKEN_AT(ctx, s + 6, "import"))
			continue;
		if (stmt_has(ctx, s, end, "ROCM_HOME"))
			*imported = true;
		if (!found && stmt_has(ctx, s, end, "CUDA_HOME")) {
			const char *nl = memchr(ctx->src + ctx->tokens[end - 1].end, '\n',
						ctx->len - ctx->tokens[end - 1].end);

			*offset = nl ? (uint32_t)(nl + 1 - ctx->src) : (uint32_t)ctx->len;
			found = true;
		}
	}
	return found || *imported;
}

typedef struct home_hit {
	size_t first, last;
	home_test test;
} home_hit;

static void cuda_home_tests(an_ctx *ctx, const an_py_rocm *rocm)
{
	home_hit *hits = NULL;
	size_t nhits = 0, i, k;
	bool fixable = true, rocm_imported = false;
	uint32_t place = 0, decl = ctx->decl_start;

	for (i = 0; i < ctx->ntokens; i++) {
		size_t s, first, last;
		home_test t;
		home_hit *grown;

		if (ctx->tokens[i].kind != PORT_TOKEN_IDENT || !AN_TOKEN_IS(ctx, i, "CUDA_HOME"))
			continue;
		s = an_py_stmt_start(ctx, i);
		if (import_stmt(ctx, s) || AN_TOKEN_IS(ctx, s, "global"))
			continue;
		t = home_use(ctx, i, &first, &last);
		/* the fix keeps CUDA_HOME None on ROCm: only where no path is taken from it */
		if (t == HOME_VALUE || t == HOME_PATH)
			fixable = false;
		if (t == HOME_VALUE || an_py_rocm_branch(ctx, rocm, i))
			continue;
		if (!(grown = realloc(hits, (nhits + 1) * sizeof(*hits)))) {
			ctx->error = UTIL_ENOMEM;
			break;
		}
		hits = grown;
		hits[nhits].first = first;
		hits[nhits].last = last;
		hits[nhits++].test = t;
		if (t == HOME_PATH)
			i = last;
	}
	/* ROCM_HOME comes from an import at the top: added after CUDA_HOME's, or there already */
	if (fixable && (!rocm_import_place(ctx, &place, &rocm_imported) ||
			(!rocm_imported && stmt_has(ctx, 0, ctx->ntokens, "ROCM_HOME"))))
		fixable = false;
	for (k = 0; k < nhits; k++) {
		const home_hit *h = &hits[k];
		uint32_t start = ctx->tokens[h->first].start, end = ctx->tokens[h->last].end;
		int n = end - start < 60 ? (int)(end - start) : 60;
		an_hit *hit;

		if (h->test == HOME_PATH)
			hit = an_add(ctx, "BUILD-011", AN_WARNING, start, end,
				     "%.*s: a ROCm machine has no CUDA toolkit, so this test fails there and the build takes "
				     "the path without GPU code; test ROCM_HOME or torch.version.hip as well",
				     n, ctx->src + start);
		else
			hit = an_add(ctx, "BUILD-011", AN_WARNING, start, end,
				     "%.*s: CUDA_HOME is None on ROCm (no nvcc), so this test takes the path without CUDA "
				     "there: the extension builds CPU-only, or not at all; test ROCM_HOME or "
				     "torch.version.hip as well",
				     n, ctx->src + start);
		/* a qualified name (cpp_extension.CUDA_HOME) would need another import */
		if (hit && fixable && h->test != HOME_PATH && AN_TOKEN_IS(ctx, h->first, "CUDA_HOME")) {
			an_range r = { "match", start, end };
			char variant[32];

			snprintf(variant, sizeof(variant), "%s%s", h->test == HOME_NONE ? "none" : "some",
				 rocm_imported ? "_imported" : "");
			ctx->decl_start = place;
			an_fix(ctx, hit, variant, &r, 1, NULL, 0);
			ctx->decl_start = decl;
		}
	}
	free(hits);
}

/* ---- BUILD-012: nvcc run for its version ---- */

/* Whether token i names nvcc: a name holding it (nvcc, nvcc_bin) or a
 * string whose command or path ends in it ("nvcc", "/bin/nvcc", "nvcc -V"). */
static bool names_nvcc(const an_ctx *ctx, size_t i)
{
	const port_token *t = &ctx->tokens[i];
	const char *s = ctx->src + t->start, *end = ctx->src + t->end, *p;

	if (t->kind == PORT_TOKEN_IDENT)
		return memmem(s, t->end - t->start, "nvcc", 4) != NULL;
	if (t->kind != PORT_TOKEN_LITERAL)
		return false;
	for (p = s; (p = memmem(p, (size_t)(end - p), "nvcc", 4)) != NULL; p += 4)
		if ((p == s || strchr("/\\ '\"", p[-1])) && (p + 4 == end || strchr(" '\"", p[4])))
			return true;
	return false;
}

static bool version_flag(const an_ctx *ctx, size_t i)
{
	const port_token *t = &ctx->tokens[i];
	const char *s = ctx->src + t->start;
	size_t n = t->end - t->start;

	return t->kind == PORT_TOKEN_LITERAL &&
	       (memmem(s, n, "-V\"", 3) || memmem(s, n, "-V'", 3) || memmem(s, n, "-V ", 3) || memmem(s, n, "--version", 9));
}

static void nvcc_version(an_ctx *ctx, const an_py_rocm *rocm)
{
	static const char *const runs[] = { "check_output", "run", "Popen", "call", "check_call", "getoutput",
					    "getstatusoutput", "popen", "system", NULL };
	size_t s, end, k;

	for (s = 0; s < ctx->ntokens; s = end) {
		size_t nvcc = ctx->ntokens;
		bool run = false, flag = false;

		end = an_py_stmt_end(ctx, s);
		for (k = s; k < end; k++) {
			run |= tok_in(ctx, k, runs) && AN_TOKEN_AT(ctx, k + 1, "(");
			flag |= version_flag(ctx, k);
			if (nvcc == ctx->ntokens && names_nvcc(ctx, k))
				nvcc = k;
		}
		if (!run || !flag || nvcc == ctx->ntokens || an_py_rocm_branch(ctx, rocm, s))
			continue;
		an_add(ctx, "BUILD-012", AN_WARNING, ctx->tokens[nvcc].start, ctx->tokens[nvcc].end,
		       "nvcc run for its version: a ROCm machine has no nvcc, so this raises (or reads nothing) there; "
		       "take torch.version.hip on ROCm, torch.version.cuda on NVIDIA");
	}
}

/* ---- BUILD-013: torch.version.cuda ---- */

static void torch_version_cuda(an_ctx *ctx, const an_py_rocm *rocm)
{
	static const char *const order_ops[] = { "<", ">", "<=", ">=", NULL };
	static const char *const parsers[] = { "parse", "Version", "LooseVersion", "StrictVersion", "parse_version",
					       "int", "float", NULL };
	size_t i, last_stmt = ctx->ntokens;

	for (i = 0; i + 4 < ctx->ntokens; i++) {
		size_t s, n, p, open;
		const char *what;

		if (!AN_TOKEN_IS(ctx, i, "torch") || (i > 0 && AN_TOKEN_IS(ctx, i - 1, ".")) ||
		    !AN_TOKEN_IS(ctx, i + 1, ".") || !AN_TOKEN_IS(ctx, i + 2, "version") || !AN_TOKEN_IS(ctx, i + 3, ".") ||
		    !AN_TOKEN_IS(ctx, i + 4, "cuda"))
			continue;
		s = an_py_stmt_start(ctx, i);
		n = after(ctx, i + 4);
		p = an_code_before(ctx, i);
		open = p != ctx->ntokens && AN_TOKEN_IS(ctx, p, "(") && p > 0 ? an_code_before(ctx, p) : ctx->ntokens;
		if (tok_in(ctx, n, order_ops) || (p != ctx->ntokens && tok_in(ctx, p, order_ops)))
			what = "compared as a version: None on ROCm, and the comparison raises TypeError";
		else if (AN_TOKEN_AT(ctx, n, ".") || (open != ctx->ntokens && tok_in(ctx, open, parsers)))
			what = "parsed as a version: None on ROCm, and the parse raises";
		else if (tok_in(ctx, n, (const char *const[]){ "is", "==", "!=", NULL }) ||
			 truth_test(ctx, i, i + 4, an_py_stmt_end(ctx, s)))
			what = "tested: None on ROCm, so the test takes the path without CUDA";
		else
			continue;
		if (s == last_stmt || an_py_rocm_branch(ctx, rocm, i))
			continue;
		last_stmt = s;
		an_add(ctx, "BUILD-013", AN_WARNING, ctx->tokens[i].start, ctx->tokens[i + 4].end,
		       "torch.version.cuda %s; test torch.version.hip first", what);
	}
}

/* ---- BUILD-014: compute capability compared ---- */

static bool in_names(const an_ctx *ctx, const util_buf *names, size_t i)
{
	const char *p = names->ptr, *end = p + names->len;
	size_t n = ctx->tokens[i].end - ctx->tokens[i].start;

	while (p && p < end) {
		size_t k = strlen(p);

		if (k == n && memcmp(p, ctx->src + ctx->tokens[i].start, n) == 0)
			return true;
		p += k + 1;
	}
	return false;
}

/* The last token of a capability read at i (get_device_capability(...)[N],
 * get_device_properties(...).major), or ntokens when i starts none. */
static size_t capability_read(const an_ctx *ctx, size_t i, size_t end)
{
	size_t close, n;

	if (!AN_TOKEN_AT(ctx, i + 1, "(") ||
	    (!AN_TOKEN_IS(ctx, i, "get_device_capability") && !AN_TOKEN_IS(ctx, i, "get_device_properties")))
		return ctx->ntokens;
	if ((close = an_py_closing(ctx, i + 1, end)) >= end)
		return ctx->ntokens;
	n = after(ctx, close);
	if (AN_TOKEN_IS(ctx, i, "get_device_properties"))
		return AN_TOKEN_AT(ctx, n, ".") && (AN_TOKEN_AT(ctx, n + 1, "major") || AN_TOKEN_AT(ctx, n + 1, "minor"))
			       ? n + 1
			       : ctx->ntokens;
	if (AN_TOKEN_AT(ctx, n, "[") && (n = an_py_closing(ctx, n, end)) < end)
		return n;
	return close;
}

static bool capability_call(const an_ctx *ctx, size_t i)
{
	return AN_TOKEN_AT(ctx, i, "get_device_capability") || AN_TOKEN_AT(ctx, i, "get_device_properties");
}

/* NAME[, NAME] = torch.cuda.get_device_capability(...)[N]: NAME holds a
 * capability; NAME = torch.cuda.get_device_properties(...): NAME.major does. */
static void capability_names(an_ctx *ctx, util_buf *names, util_buf *props)
{
	size_t s, end, k, c, close, tail;

	for (s = 0; s < ctx->ntokens; s = end) {
		util_buf *to = names;

		end = an_py_stmt_end(ctx, s);
		k = AN_TOKEN_AT(ctx, s, "(") ? s + 1 : s;
		while (k + 1 < end && ctx->tokens[k].kind == PORT_TOKEN_IDENT && AN_TOKEN_IS(ctx, k + 1, ","))
			k += 2;
		if (k >= end || ctx->tokens[k].kind != PORT_TOKEN_IDENT)
			continue;
		c = AN_TOKEN_AT(ctx, k + 1, ")") ? k + 2 : k + 1;
		if (!AN_TOKEN_AT(ctx, c, "="))
			continue;
		for (c++; c + 2 < end && ctx->tokens[c].kind == PORT_TOKEN_IDENT && AN_TOKEN_IS(ctx, c + 1, ".") &&
			  ctx->tokens[c + 2].kind == PORT_TOKEN_IDENT;
		     c += 2)
			;
		if (!capability_call(ctx, c) || !AN_TOKEN_AT(ctx, c + 1, "(") ||
		    (close = an_py_closing(ctx, c + 1, end)) >= end)
			continue;
		if ((tail = an_code_after(ctx, close + 1)) >= end) {
			if (AN_TOKEN_IS(ctx, c, "get_device_properties"))
				to = props;
		} else if ((close = capability_read(ctx, c, end)) == ctx->ntokens || an_code_after(ctx, close + 1) < end) {
			continue;
		}
		for (k = AN_TOKEN_AT(ctx, s, "(") ? s + 1 : s; k < end && ctx->tokens[k].kind == PORT_TOKEN_IDENT; k += 2) {
			util_buf_put(to, ctx->src + ctx->tokens[k].start, ctx->tokens[k].end - ctx->tokens[k].start);
			util_buf_putc(to, '\0');
			if (!AN_TOKEN_AT(ctx, k + 1, ","))
				break;
		}
	}
}

/* Whether token i reads a capability: a call, a name holding one, or
 * NAME.major of a properties name. */
static bool capability_operand(const an_ctx *ctx, const util_buf *names, const util_buf *props, size_t i)
{
	if (ctx->tokens[i].kind != PORT_TOKEN_IDENT || (i > 0 && AN_TOKEN_IS(ctx, i - 1, ".")))
		return false;
	return capability_call(ctx, i) || in_names(ctx, names, i) ||
	       (in_names(ctx, props, i) && AN_TOKEN_AT(ctx, i + 1, ".") &&
		(AN_TOKEN_AT(ctx, i + 2, "major") || AN_TOKEN_AT(ctx, i + 2, "minor")));
}

/* NAME = an expression of capabilities (`sm = major * 10 + minor`): NAME
 * holds one too. Followed in the order of the file. */
static void capability_derived(an_ctx *ctx, util_buf *names, const util_buf *props)
{
	size_t s, end, k;

	for (s = 0; s < ctx->ntokens; s = end) {
		end = an_py_stmt_end(ctx, s);
		if (ctx->tokens[s].kind != PORT_TOKEN_IDENT || !AN_TOKEN_AT(ctx, s + 1, "=") || in_names(ctx, names, s))
			continue;
		for (k = s + 2; k < end && !capability_operand(ctx, names, props, k); k++)
			;
		if (k < end) {
			util_buf_put(names, ctx->src + ctx->tokens[s].start, ctx->tokens[s].end - ctx->tokens[s].start);
			util_buf_putc(names, '\0');
		}
	}
}

static const char *const arith_ops[] = { "+", "-", "*", "/", "//", "%", NULL };

/* The token after an arithmetic chain that follows last (`major * 10 +
 * minor >= 80` from major: ">="). */
static size_t after_arith(const an_ctx *ctx, size_t last, size_t end)
{
	size_t n = after(ctx, last);

	while (n < end && tok_in(ctx, n, arith_ops)) {
		size_t o = after(ctx, n);

		if (o >= end)
			break;
		while (AN_TOKEN_AT(ctx, o + 1, ".") && o + 2 < end)
			o += 2;
		if ((AN_TOKEN_AT(ctx, o + 1, "(") || AN_TOKEN_AT(ctx, o + 1, "[")) && an_py_closing(ctx, o + 1, end) < end)
			o = an_py_closing(ctx, o + 1, end);
		n = after(ctx, o);
	}
	return n;
}

/* The token before an arithmetic chain that precedes first. */
static size_t before_arith(const an_ctx *ctx, size_t first)
{
	size_t p = an_code_before(ctx, first);

	while (p != ctx->ntokens && tok_in(ctx, p, arith_ops)) {
		size_t o = an_code_before(ctx, p);

		if (o == ctx->ntokens || ctx->tokens[o].kind == PORT_TOKEN_PUNCT)
			break;
		p = an_code_before(ctx, an_py_dotted_start(ctx, o));
	}
	return p;
}

/* Whether token i lies before the statement's first "=" (a name assigned). */
static bool assigned(const an_ctx *ctx, size_t s, size_t end, size_t i)
{
	for (; s < end; s++)
		if (AN_TOKEN_IS(ctx, s, "="))
			return i < s;
	return false;
}

static void capability(an_ctx *ctx, const an_py_rocm *rocm)
{
	util_buf names = UTIL_BUF_INIT, props = UTIL_BUF_INIT;
	size_t s, end, i, last_stmt = ctx->ntokens;

	capability_names(ctx, &names, &props);
	capability_derived(ctx, &names, &props);
	for (i = 0; i < ctx->ntokens; i++) {
		size_t first = i, last, n, p;

		if (ctx->tokens[i].kind != PORT_TOKEN_IDENT)
			continue;
		s = an_py_stmt_start(ctx, i);
		end = an_py_stmt_end(ctx, s);
		if ((last = capability_read(ctx, i, end)) != ctx->ntokens) {
			first = an_py_dotted_start(ctx, i);
		} else if ((i > 0 && AN_TOKEN_IS(ctx, i - 1, ".")) || assigned(ctx, s, end, i)) {
			continue;
		} else if (in_names(ctx, &names, i)) {
			last = i;
			if (AN_TOKEN_AT(ctx, i + 1, "[") && (n = an_py_closing(ctx, i + 1, end)) < end)
				last = n;
		} else if (in_names(ctx, &props, i) && AN_TOKEN_AT(ctx, i + 1, ".") &&
			   (AN_TOKEN_AT(ctx, i + 2, "major") || AN_TOKEN_AT(ctx, i + 2, "minor"))) {
			last = i + 2;
		} else {
			continue;
		}
		n = after_arith(ctx, last, end);
		p = before_arith(ctx, first);
		if (!tok_in(ctx, n, compare_ops) && !(p != ctx->ntokens && tok_in(ctx, p, compare_ops)))
			continue;
		if (s != last_stmt && !an_py_rocm_branch(ctx, rocm, i)) {
			uint32_t a = ctx->tokens[first].start, b = ctx->tokens[last].end;

			an_add(ctx, "BUILD-014", AN_WARNING, a, b,
			       "%.*s compared: MI300X reports (9, 4) and MI250X (9, 0), so a gate for NVIDIA architectures "
			       "(sm_80 and up) is passed or failed by accident on AMD; test torch.version.hip first",
			       (int)(b - a < 60 ? b - a : 60), ctx->src + a);
			last_stmt = s;
		}
		i = last;
	}
	if (util_buf_oom(&names) || util_buf_oom(&props))
		ctx->error = UTIL_ENOMEM;
	util_buf_dispose(&names);
	util_buf_dispose(&props);
}

void an_setup_gates_tokens(an_ctx *ctx, const an_py_rocm *rocm)
{
	cuda_home_tests(ctx, rocm);
	env_home_tests(ctx, rocm);
	nvcc_version(ctx, rocm);
	torch_version_cuda(ctx, rocm);
	capability(ctx, rocm);
}
