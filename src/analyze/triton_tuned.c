/* TRITON-009: launch options a tuning run measured faster (hipport check
 * tune, kept in the review session). At each launch of a tuned kernel in the
 * file, the fix gives the platform measured the best config's options under
 * a platform test and keeps the other platform's as they were: measured on
 * AMD, (BEST if torch.version.hip else AS_WAS); measured on NVIDIA, the
 * reverse, until a tuning run on the AMD GPU says what AMD's are. A kernel
 * an autotuner launches gets the tuned config added to its configs, under
 * the same test: its launches take no options (the autotuner gives them). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/ast.h"
#include "analyze/pylex.h"
#include "util/buf.h"
#include "util/error.h"

#define IMPROVES 0.95 /* the best must take at most this share of the launch's time */

typedef an_tuned_option tune_option;
typedef an_tuned_kernel tune_kernel;

static an_tuned_loader loader;

void an_tuned_set_loader(an_tuned_loader load)
{
	loader = load;
}

void an_tuned_set_dispose(an_tuned_set *set)
{
	size_t i, j;

	for (i = 0; i < set->n; i++) {
		an_tuned_kernel *k = &set->kernels[i];

		for (j = 0; j < k->noptions; j++)
			free(k->options[j].name);
		free(k->options);
		free(k->source);
		free(k->kernel);
		free(k->backend);
		free(k->device);
		free(k->skipped);
		free(k->autotuned);
	}
	free(set->kernels);
	set->kernels = NULL;
	set->n = 0;
}

bool an_tuned_improves(const an_tuned_kernel *k)
{
	size_t i;
	bool differs = false;

	for (i = 0; i < k->noptions; i++)
		differs = differs || k->options[i].best != k->options[i].program;
	return differs && k->program_ms > 0 && k->best_ms > 0 && k->best_ms <= IMPROVES * k->program_ms &&
	       k->best_q3 < k->program_q1;
}

/* Triton's defaults where a launch names no option (as hipport_tune.py). */
static long triton_default(const char *option, bool hip)
{
	if (strcmp(option, "num_warps") == 0)
		return 4;
	if (strcmp(option, "num_stages") == 0)
		return hip ? 2 : 3;
	if (strcmp(option, "kpack") == 0)
		return 1;
	return 0;
}

static const tune_option *swept(const tune_kernel *k, const an_ctx *ctx, size_t i)
{
	size_t j;

	for (j = 0; j < k->noptions; j++)
		if (an_py_token_is(ctx, i, k->options[j].name, strlen(k->options[j].name)))
			return &k->options[j];
	return NULL;
}

/* "(BEST if torch.version.hip else WAS)", or the reverse when measured on NVIDIA. */
static void platform_value(util_buf *b, const tune_kernel *k, long best, const char *was, int was_len)
{
	if (strcmp(k->backend, "hip") == 0)
		util_buf_printf(b, "(%ld if torch.version.hip else %.*s)", best, was_len, was);
	else
		util_buf_printf(b, "(%.*s if torch.version.hip else %ld)", was_len, was, best);
}

/* The call's arguments (open, close) with the tuned options in, into b. */
static void tuned_arguments(util_buf *b, const an_ctx *ctx, const an_py_rocm *rocm, const tune_kernel *k, size_t open,
			    size_t close)
{
	uint32_t at = ctx->tokens[open].end;
	bool *named = calloc(k->noptions + 1, sizeof(*named));
	size_t i, j, end, last = open;

	if (!named) {
		b->oom = true;
		return;
	}
	for (i = open + 1; i < close; i = end + 1) {
		const tune_option *o;
		size_t v;

		end = an_py_argument_end(ctx, i, close);
		while (i < end && ctx->tokens[i].kind == PORT_TOKEN_COMMENT)
			i++; /* a comment after the comma before it */
		for (v = end; v > i && ctx->tokens[v - 1].kind == PORT_TOKEN_COMMENT; v--)
			;
		if (v > i)
			last = v - 1;
		if (!AN_TOKEN_AT(ctx, i + 1, "=") || !(o = swept(k, ctx, i)))
			continue;
		named[o - k->options] = true;
		/* a value that already tests the platform is the engineer's */
		if (i + 2 >= v || o->best == o->program || an_py_mentions_rocm(ctx, rocm, i + 2, v))
			continue;
		util_buf_put(b, ctx->src + at, ctx->tokens[i + 2].start - at);
		platform_value(b, k, o->best, ctx->src + ctx->tokens[i + 2].start,
			       (int)(ctx->tokens[v - 1].end - ctx->tokens[i + 2].start));
		at = ctx->tokens[v - 1].end;
	}
	for (j = close - 1; j > open && ctx->tokens[j].kind == PORT_TOKEN_COMMENT; j--)
		;
	if (AN_TOKEN_AT(ctx, j, ","))
		last = j; /* a trailing comma */
	util_buf_put(b, ctx->src + at, ctx->tokens[close].start - at);
	/* options the launch left to Triton's defaults: after its last argument */
	for (j = 0; j < k->noptions; j++) {
		char was[32];

		if (named[j] || k->options[j].best == k->options[j].program)
			continue;
		snprintf(was, sizeof(was), "%ld", triton_default(k->options[j].name, strcmp(k->backend, "hip") == 0));
		util_buf_printf(b, "%s%s=", AN_TOKEN_IS(ctx, last, ",") || last == open ? " " : ", ",
				k->options[j].name);
		platform_value(b, k, k->options[j].best, was, (int)strlen(was));
		last = close; /* the next one goes after this one's comma */
	}
	free(named);
}

static void describe(util_buf *m, const tune_kernel *k, bool best)
{
	size_t j;
	const char *sep = "";

	for (j = 0; j < k->noptions; j++) {
		util_buf_printf(m, "%s%s=%ld", sep, k->options[j].name, best ? k->options[j].best : k->options[j].program);
		sep = ", ";
	}
}

/* The finding's message into m. */
static void tuned_message(util_buf *m, const tune_kernel *k)
{
	bool hip = strcmp(k->backend, "hip") == 0;

	util_buf_printf(m, "%s was tuned on %s (hipport check tune, %zu configs: %zu correct, %zu differ, %zu failed): ",
			k->kernel, k->device, k->nconfigs, k->nok, k->ndiffer, k->nfailed);
	describe(m, k, true);
	util_buf_printf(m, " takes %.4f ms, the launch's ", k->best_ms);
	describe(m, k, false);
	util_buf_printf(m, " %.4f ms (%.2fx), with outputs equal to the launch's own; the fix %s where "
			   "torch.version.hip says %s%s",
			k->program_ms, k->program_ms / k->best_ms,
			k->autotuned ? "adds it to the autotuner's configs" : "takes it", hip ? "ROCm" : "CUDA",
			hip ? "" : " (tune on the AMD GPU for AMD's side)");
}

static void tuned_launch(an_ctx *ctx, const an_py_rocm *rocm, const tune_kernel *k, size_t name, size_t close,
			 size_t open, size_t call_end, bool torch)
{
	util_buf m = UTIL_BUF_INIT, text = UTIL_BUF_INIT;
	size_t span;
	an_hit *h;

	tuned_message(&m, k);
	h = util_buf_oom(&m) ? NULL
			     : an_add(ctx, "TRITON-009", AN_NOTE, ctx->tokens[name].start, ctx->tokens[close].end, "%s",
				      m.ptr);
	tuned_arguments(&text, ctx, rocm, k, open, call_end);
	/* no fix where every tuned option already tests the platform */
	span = ctx->tokens[call_end].start - ctx->tokens[open].end;
	if (h && !util_buf_oom(&text) &&
	    (text.len != span || memcmp(text.ptr, ctx->src + ctx->tokens[open].end, span) != 0)) {
		an_range r = { "match", ctx->tokens[open].end, ctx->tokens[call_end].start };
		an_capture c[1] = { { "text", text.ptr ? text.ptr : "" } };

		ctx->decl_start = ctx->tokens[an_py_top_statement(ctx, name)].start;
		an_fix(ctx, h, torch ? "options" : "options_import", &r, 1, c, 1);
	}
	util_buf_dispose(&m);
	util_buf_dispose(&text);
}

/* An autotuned kernel: its decorator's configs=VALUE becomes
 * VALUE + ([triton.Config(...)] if torch.version.hip else []) (the lists
 * the other way round when measured on NVIDIA). */
static void tuned_configs(an_ctx *ctx, const an_py_rocm *rocm, const tune_kernel *k, bool torch)
{
	util_buf m = UTIL_BUF_INIT, text = UTIL_BUF_INIT, config = UTIL_BUF_INIT;
	size_t i, def = 0, at, open, close, key, end;
	an_hit *h;

	for (i = 0; i + 1 < ctx->ntokens && !def; i++)
		if ((ctx->tokens[i].flags & PORT_TOKEN_LINE_START) && AN_TOKEN_IS(ctx, i, "def") &&
		    an_py_token_is(ctx, i + 1, k->kernel, strlen(k->kernel)))
			def = i;
	if (!def)
		return;
	/* @triton.autotune( or @autotune( among its decorators */
	for (at = an_py_top_statement(ctx, def); at < def; at++)
		if (AN_TOKEN_IS(ctx, at, "autotune") && AN_TOKEN_AT(ctx, at + 1, "(") &&
		    (AN_TOKEN_AT(ctx, at - 1, "@") || AN_TOKEN_AT(ctx, at - 1, ".")))
			break;
	if (at >= def)
		return;
	open = at + 1;
	close = an_py_closing(ctx, open, def);
	if (close >= def || !(key = an_py_keyword_arg(ctx, open, close, "configs")) ||
	    (end = an_py_argument_end(ctx, key + 2, close)) <= key + 2)
		return;
	tuned_message(&m, k);
	h = util_buf_oom(&m) ? NULL
			     : an_add(ctx, "TRITON-009", AN_NOTE, ctx->tokens[key].start, ctx->tokens[end - 1].end, "%s",
				      m.ptr);
	util_buf_printf(&config, "[triton.Config(%s", k->autotuned);
	for (i = 0; i < k->noptions; i++)
		util_buf_printf(&config, ", %s=%ld", k->options[i].name, k->options[i].best);
	util_buf_puts(&config, ")]");
	util_buf_put(&text, ctx->src + ctx->tokens[key + 2].start, ctx->tokens[end - 1].end - ctx->tokens[key + 2].start);
	if (strcmp(k->backend, "hip") == 0)
		util_buf_printf(&text, " + (%s if torch.version.hip else [])", config.ptr ? config.ptr : "");
	else
		util_buf_printf(&text, " + ([] if torch.version.hip else %s)", config.ptr ? config.ptr : "");
	if (h && !util_buf_oom(&text) && !util_buf_oom(&config) && !an_py_mentions_rocm(ctx, rocm, open, close)) {
		an_range r = { "match", ctx->tokens[key + 2].start, ctx->tokens[end - 1].end };
		an_capture c[1] = { { "text", text.ptr } };

		ctx->decl_start = ctx->tokens[an_py_top_statement(ctx, def)].start;
		an_fix(ctx, h, torch ? "options" : "options_import", &r, 1, c, 1);
	}
	util_buf_dispose(&m);
	util_buf_dispose(&text);
	util_buf_dispose(&config);
}

static void tuned_kernel(an_ctx *ctx, const an_py_rocm *rocm, const tune_kernel *k, bool torch)
{
	size_t i;

	if (k->autotuned) {
		tuned_configs(ctx, rocm, k, torch);
		return;
	}

	for (i = 0; i + 1 < ctx->ntokens; i++) {
		size_t close, open, call_end;

		if (ctx->tokens[i].kind != PORT_TOKEN_IDENT || !AN_TOKEN_AT(ctx, i + 1, "[") ||
		    (i > 0 && AN_TOKEN_IS(ctx, i - 1, ".")) || !an_py_token_is(ctx, i, k->kernel, strlen(k->kernel)))
			continue;
		close = an_py_closing(ctx, i + 1, ctx->ntokens);
		open = close + 1;
		if (!AN_TOKEN_AT(ctx, open, "(") || (call_end = an_py_closing(ctx, open, ctx->ntokens)) >= ctx->ntokens)
			continue;
		tuned_launch(ctx, rocm, k, i, close, open, call_end, torch);
		i = call_end;
	}
}

void an_triton_tuned(an_ctx *ctx, const an_py_rocm *rocm, const char *fs_path)
{
	an_tuned_set set = { NULL, 0 };
	size_t i;
	bool torch;

	if (!loader || !memmem(ctx->src, ctx->len, "triton", 6))
		return;
	if (loader(&set, fs_path) < 0) {
		util_error_clear(); /* no tuning kept is no finding */
		return;
	}
	torch = an_py_imports_torch(ctx);
	for (i = 0; i < set.n; i++)
		if (an_tuned_improves(&set.kernels[i]))
			tuned_kernel(ctx, rocm, &set.kernels[i], torch);
	an_tuned_set_dispose(&set);
}
