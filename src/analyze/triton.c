/* TRITON: what a Triton kernel written for NVIDIA gets wrong or slow on AMD.
 * Found on Python tokens: the functions decorated @triton.jit (or @jit),
 * and launch or autotune options anywhere in the file. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/ast.h"
#include "analyze/pylex.h"


bool an_triton_call(const an_ctx *ctx, size_t i, const char *name)
{
	return AN_TOKEN_AT(ctx, i, "tl") && AN_TOKEN_AT(ctx, i + 1, ".") && an_py_token_is(ctx, i + 2, name, strlen(name)) &&
	       AN_TOKEN_AT(ctx, i + 3, "(");
}


/* Whether the file speaks of 16-bit floats: then a load used in arithmetic
 * is likely fp16 or bf16 data. */
static bool mentions_half(const an_ctx *ctx)
{
	static const char *const words[] = { "float16", "bfloat16", "fp16", "bf16", "half", NULL };
	size_t i, k;

	for (i = 0; i < ctx->ntokens; i++)
		for (k = 0; words[k]; k++)
			if (ctx->tokens[i].kind == PORT_TOKEN_IDENT &&
			    memmem(ctx->src + ctx->tokens[i].start, ctx->tokens[i].end - ctx->tokens[i].start, words[k],
				   strlen(words[k])))
				return true;
	return false;
}

static bool arithmetic(const an_ctx *ctx, size_t i)
{
	static const char *const ops[] = { "+", "-", "*", "/", "**", "+=", "-=", "*=", "/=", NULL };
	size_t k;

	for (k = 0; ops[k]; k++)
		if (an_py_token_is(ctx, i, ops[k], strlen(ops[k])))
			return true;
	return false;
}

/* Whether token i names a pointer (x_ptr, ptr): arithmetic with it is an
 * address, and the other operand an index, not data. */
static bool pointer_name(const an_ctx *ctx, size_t i)
{
	const port_token *t = &ctx->tokens[i];

	return i < ctx->ntokens && t->kind == PORT_TOKEN_IDENT && t->end - t->start >= 3 &&
	       memcmp(ctx->src + t->end - 3, "ptr", 3) == 0;
}

/* Whether the variable of token v takes part in arithmetic on data in
 * [from, to) (not as an index added to a pointer). */
static bool used_in_arithmetic(const an_ctx *ctx, size_t v, size_t from, size_t to)
{
	const port_token *name = &ctx->tokens[v];
	size_t i;

	for (i = from; i < to; i++) {
		if (i == v || !an_py_token_is(ctx, i, ctx->src + name->start, name->end - name->start) ||
		    (i > 0 && AN_TOKEN_AT(ctx, i - 1, ".")))
			continue;
		if (i >= 2 && arithmetic(ctx, i - 1) && !pointer_name(ctx, i - 2))
			return true;
		if (i + 2 < to && arithmetic(ctx, i + 1) && !pointer_name(ctx, i + 2))
			return true;
	}
	return false;
}

/* TRITON-002: NAME = tl.load(...) used in arithmetic with no .to(...): an
 * up-cast after the load; then each tl.store casts back. */
/* Whether the name at token v holds an index, not data: named like one
 * (offs_token, expert_id, idx), or scaled by a stride or divided into
 * blocks (// and %) in [from, to). */
static bool index_like(const an_ctx *ctx, size_t v, size_t from, size_t to)
{
	static const char *const words[] = { "off", "idx", "index", "_id", "ids", "token", "count", "len", "seq",
					     NULL };
	const port_token *name = &ctx->tokens[v];
	size_t i, n = name->end - name->start;

	for (i = 0; words[i]; i++)
		if (an_py_name_has(ctx, v, words[i]))
			return true;
	for (i = from + 1; i + 1 < to; i++) {
		const port_token *o;

		if (!an_py_token_is(ctx, i, ctx->src + name->start, n))
			continue;
		if (AN_TOKEN_IS(ctx, i + 1, "//") || AN_TOKEN_IS(ctx, i + 1, "%") || AN_TOKEN_IS(ctx, i - 1, "//"))
			return true;
		o = AN_TOKEN_IS(ctx, i + 1, "*") ? &ctx->tokens[i + 2] : AN_TOKEN_IS(ctx, i - 1, "*") ? &ctx->tokens[i - 2] : NULL;
		if (o && o->kind == PORT_TOKEN_IDENT && memmem(ctx->src + o->start, o->end - o->start, "stride", 6))
			return true;
	}
	return false;
}

/* Whether the kernel [from, to) decides the precision of the name at token
 * v itself: it reads its dtype (x_dtype = x.dtype, to round back to it
 * later) or casts it somewhere (x.to(tl.float32) in one mode of several). An
 * up-cast at the load would change what it decides. */
static bool precision_decided(const an_ctx *ctx, size_t v, size_t from, size_t to)
{
	const port_token *name = &ctx->tokens[v];
	size_t i;

	for (i = from; i + 2 < to; i++)
		if (i != v && an_py_token_is(ctx, i, ctx->src + name->start, name->end - name->start) &&
		    !(i > 0 && AN_TOKEN_AT(ctx, i - 1, ".")) && AN_TOKEN_AT(ctx, i + 1, ".") &&
		    (AN_TOKEN_IS(ctx, i + 2, "dtype") || (AN_TOKEN_IS(ctx, i + 2, "to") && AN_TOKEN_AT(ctx, i + 3, "("))))
			return true;
	return false;
}

/* Whether the load at token call (tl.load(...)) reads from an array of
 * indices: its address starts with a name like one (seqstart + b). */
static bool loads_index(const an_ctx *ctx, size_t call, size_t to)
{
	size_t first = call + 4;

	return first < to && ctx->tokens[first].kind == PORT_TOKEN_IDENT && !pointer_name(ctx, first) &&
	       (index_like(ctx, first, first, first + 1) || an_py_name_has(ctx, first, "start") ||
		an_py_name_has(ctx, first, "pos"));
}

static bool loads(an_ctx *ctx, size_t from, size_t to, bool half)
{
	size_t i;
	bool any = false;

	for (i = from; i + 5 < to; i++) {
		size_t close;
		an_hit *h;

		if (!(ctx->tokens[i].flags & PORT_TOKEN_LINE_START) || ctx->tokens[i].kind != PORT_TOKEN_IDENT ||
		    !AN_TOKEN_AT(ctx, i + 1, "=") || !an_triton_call(ctx, i + 2, "load"))
			continue;
		close = an_py_closing(ctx, i + 5, to);
		if (close >= to || AN_TOKEN_AT(ctx, close + 1, ".") || !used_in_arithmetic(ctx, i, i + 1, to) ||
		    index_like(ctx, i, i, to) || loads_index(ctx, i + 2, to) || precision_decided(ctx, i, from, to))
			continue;
		h = an_add(ctx, "TRITON-002", AN_NOTE, ctx->tokens[i + 2].start, ctx->tokens[close].end,
			   half ? "%.*s is loaded and used in arithmetic in its own type: fp16/bf16 math may round "
				  "otherwise on AMD; up-cast it with .to(tl.float32)"
				: "%.*s is loaded and used in arithmetic in its own type: if it is fp16/bf16, up-cast it "
				  "with .to(tl.float32)",
			   (int)(ctx->tokens[i].end - ctx->tokens[i].start), ctx->src + ctx->tokens[i].start);
		if (h) {
			an_range r = { "match", ctx->tokens[i + 2].start, ctx->tokens[close].end };
			char *call = strndup(ctx->src + r.start, r.end - r.start);
			an_capture c = { "call", call };

			if (call)
				an_fix(ctx, h, "load", &r, 1, &c, 1);
			free(call);
		}
		any = true;
	}
	return any;
}

static void stores(an_ctx *ctx, size_t from, size_t to)
{
	size_t i;

	for (i = from; i + 3 < to; i++) {
		size_t close, ptr_end, value_end, k;
		char *value, *ptr = NULL;
		an_hit *h;

		if (!an_triton_call(ctx, i, "store"))
			continue;
		close = an_py_closing(ctx, i + 3, to);
		ptr_end = an_py_argument_end(ctx, i + 4, close);
		if (close >= to || ptr_end >= close)
			continue;
		value_end = an_py_argument_end(ctx, ptr_end + 1, close);
		if (value_end <= ptr_end + 1 ||
		    (value_end == ptr_end + 2 && ctx->tokens[ptr_end + 1].kind == PORT_TOKEN_LITERAL) ||
		    memmem(ctx->src + ctx->tokens[ptr_end + 1].start,
			   ctx->tokens[value_end - 1].end - ctx->tokens[ptr_end + 1].start, ".to(", 4))
			continue; /* nothing stored, a constant (stored in the pointer's type), or cast already */
		for (k = i + 4; k < ptr_end && ctx->tokens[k].kind != PORT_TOKEN_IDENT; k++)
			;
		if (k == ptr_end)
			continue;
		h = an_add(ctx, "TRITON-002", AN_NOTE, ctx->tokens[ptr_end + 1].start, ctx->tokens[value_end - 1].end,
			   "stored value computed from up-cast loads: cast it back to the pointer's element type");
		value = strndup(ctx->src + ctx->tokens[ptr_end + 1].start,
				ctx->tokens[value_end - 1].end - ctx->tokens[ptr_end + 1].start);
		ptr = strndup(ctx->src + ctx->tokens[k].start, ctx->tokens[k].end - ctx->tokens[k].start);
		if (h && value && ptr) {
			an_range r = { "match", ctx->tokens[ptr_end + 1].start, ctx->tokens[value_end - 1].end };
			an_capture c[2] = { { "value", value }, { "ptr", ptr } };

			/* a name needs no parentheses around it */
			an_fix(ctx, h, value_end == ptr_end + 2 ? "store_name" : "store", &r, 1, c, 2);
		}
		free(value);
		free(ptr);
	}
}

/* Whether the name at token v was assigned a tl.load(...) result without
 * a cast in [from, to): data of the loaded type. */
static bool loaded_uncast(const an_ctx *ctx, size_t v, size_t from, size_t to)
{
	const port_token *name = &ctx->tokens[v];
	size_t i;

	if (name->kind != PORT_TOKEN_IDENT)
		return false;
	for (i = from; i + 5 < to; i++)
		if ((ctx->tokens[i].flags & PORT_TOKEN_LINE_START) &&
		    an_py_token_is(ctx, i, ctx->src + name->start, name->end - name->start) && AN_TOKEN_AT(ctx, i + 1, "=") &&
		    an_triton_call(ctx, i + 2, "load")) {
			size_t close = an_py_closing(ctx, i + 5, to);

			return close < to && !AN_TOKEN_AT(ctx, close + 1, ".");
		}
	return false;
}

/* Whether the kernel [from, to) uses atomics to synchronize: a
 * compare-and-swap or exchange (a lock, a flag), or an atomic whose result
 * it reads (a ticket, the last block's turn). */
static bool synchronizes(const an_ctx *ctx, size_t from, size_t to)
{
	size_t i;

	for (i = from; i + 2 < to; i++) {
		const port_token *t = &ctx->tokens[i + 2];

		if (!AN_TOKEN_IS(ctx, i, "tl") || !AN_TOKEN_IS(ctx, i + 1, ".") || t->end - t->start <= 7 ||
		    memcmp(ctx->src + t->start, "atomic_", 7) != 0)
			continue;
		if (AN_TOKEN_IS(ctx, i + 2, "atomic_cas") || AN_TOKEN_IS(ctx, i + 2, "atomic_xchg") ||
		    !(ctx->tokens[i].flags & PORT_TOKEN_LINE_START))
			return true;
	}
	return false;
}

/* TRITON-001: an accumulating atomic left at the default acq_rel order in
 * a kernel that does not synchronize through atomics; the fix adds
 * sem="relaxed" before the call's closing bracket. */
static void relax(an_ctx *ctx, size_t i, size_t close)
{
	const port_token *name = &ctx->tokens[i + 2];
	an_range r = { "match", ctx->tokens[close].start, ctx->tokens[close].end };
	an_hit *h = an_add(ctx, "TRITON-001", AN_NOTE, ctx->tokens[i].start, name->end,
			   "tl.%.*s at the default sem=\"acq_rel\": on AMD each such atomic writes back and invalidates "
			   "the caches around it; an accumulation the kernel does not read back needs only "
			   "sem=\"relaxed\", as AMD's ports write",
			   (int)(name->end - name->start), ctx->src + name->start);

	if (h)
		an_fix(ctx, h, AN_TOKEN_IS(ctx, close - 1, ",") ? "relaxed_comma" : "relaxed", &r, 1, NULL, 0);
}

/* TRITON-001, -004, -005 and the loads and stores of one kernel [from, to). */
static void kernel(an_ctx *ctx, const an_py_rocm *rocm, size_t from, size_t to, bool half)
{
	bool sync = synchronizes(ctx, from, to);
	size_t i;

	for (i = from; i + 3 < to; i++) {
		const port_token *name = &ctx->tokens[i + 2];
		size_t close, k;

		if (!AN_TOKEN_AT(ctx, i, "tl") || !AN_TOKEN_AT(ctx, i + 1, ".") || !AN_TOKEN_AT(ctx, i + 3, "("))
			continue;
		close = an_py_closing(ctx, i + 3, to);
		if (half && name->end - name->start > 7 && memcmp(ctx->src + name->start, "atomic_", 7) == 0 &&
		    close < to) {
			/* the value: the second argument, when a name loaded in its own 16-bit type */
			size_t value = an_py_argument_end(ctx, i + 4, close) + 1;

			if (value + 1 < close && (AN_TOKEN_AT(ctx, value + 1, ",") || AN_TOKEN_AT(ctx, value + 1, ")")) &&
			    loaded_uncast(ctx, value, from, to)) {
				an_add(ctx, "TRITON-001", AN_WARNING, ctx->tokens[i].start, name->end,
				       "tl.%.*s of %.*s, loaded as fp16/bf16: 16-bit float atomics are emulated on AMD "
				       "(slow, and not atomic on fine-grained memory); accumulate in fp32",
				       (int)(name->end - name->start), ctx->src + name->start,
				       (int)(ctx->tokens[value].end - ctx->tokens[value].start),
				       ctx->src + ctx->tokens[value].start);
				continue;
			}
		}
		if (close < to && (ctx->tokens[i].flags & PORT_TOKEN_LINE_START) && !sync &&
		    (AN_TOKEN_IS(ctx, i + 2, "atomic_add") || AN_TOKEN_IS(ctx, i + 2, "atomic_max") ||
		     AN_TOKEN_IS(ctx, i + 2, "atomic_min") || AN_TOKEN_IS(ctx, i + 2, "atomic_and") ||
		     AN_TOKEN_IS(ctx, i + 2, "atomic_or") || AN_TOKEN_IS(ctx, i + 2, "atomic_xor")) &&
		    !an_py_keyword_arg(ctx, i + 3, close, "sem") && !an_py_rocm_branch(ctx, rocm, i))
			relax(ctx, i, close);
		if (AN_TOKEN_IS(ctx, i + 2, "inline_asm_elementwise"))
			an_add(ctx, "TRITON-005", AN_ERROR, ctx->tokens[i].start, name->end,
			       "tl.inline_asm_elementwise: PTX assembly does not run on AMD GPUs");
		if (AN_TOKEN_IS(ctx, i + 2, "dot")) {
			if ((k = an_py_keyword_arg(ctx, i + 3, close, "allow_tf32")) && AN_TOKEN_AT(ctx, k + 2, "True")) {
				an_hit *h = an_add(ctx, "TRITON-004", AN_WARNING, ctx->tokens[k].start, ctx->tokens[k + 2].end,
						   "tl.dot with allow_tf32=True: TF32 is NVIDIA's; MI200 has none, MI300's "
						   "xf32 rounds differently");
				an_range r = { "match", ctx->tokens[k + 2].start, ctx->tokens[k + 2].end };

				if (h)
					an_fix(ctx, h, "allow", &r, 1, NULL, 0);
			}
			if ((k = an_py_keyword_arg(ctx, i + 3, close, "input_precision")) && k + 2 < close &&
			    ctx->tokens[k + 2].kind == PORT_TOKEN_LITERAL &&
			    memmem(ctx->src + ctx->tokens[k + 2].start, ctx->tokens[k + 2].end - ctx->tokens[k + 2].start,
				   "tf32", 4)) {
				an_hit *h = an_add(ctx, "TRITON-004", AN_WARNING, ctx->tokens[k].start, ctx->tokens[k + 2].end,
						   "tl.dot with input_precision=%.*s: TF32 is NVIDIA's; MI200 has none, "
						   "MI300's xf32 rounds differently",
						   (int)(ctx->tokens[k + 2].end - ctx->tokens[k + 2].start),
						   ctx->src + ctx->tokens[k + 2].start);
				an_range r = { "match", ctx->tokens[k + 2].start, ctx->tokens[k + 2].end };

				if (h)
					an_fix(ctx, h, "precision", &r, 1, NULL, 0);
			}
		}
	}
	if (loads(ctx, from, to, half))
		stores(ctx, from, to);
}

/* The kernels: a def after a decorator line naming jit (@triton.jit, @jit). */
void an_triton_tokens(an_ctx *ctx, const an_py_rocm *rocm)
{
	bool half = mentions_half(ctx);
	size_t i;

	an_triton_options(ctx, rocm);
	an_triton_features(ctx, rocm);
	for (i = 0; i + 1 < ctx->ntokens; i++) {
		size_t d, end;
		unsigned indent;

		if (!(ctx->tokens[i].flags & PORT_TOKEN_LINE_START) || !AN_TOKEN_AT(ctx, i, "@"))
			continue;
		for (d = i + 1; d < ctx->ntokens && !(ctx->tokens[d].flags & PORT_TOKEN_LINE_START); d++)
			if (AN_TOKEN_AT(ctx, d, "jit") && !AN_TOKEN_AT(ctx, d + 1, "."))
				break;
		if (d == ctx->ntokens || (ctx->tokens[d].flags & PORT_TOKEN_LINE_START))
			continue;
		/* the def, after any further decorator lines */
		for (d++; d < ctx->ntokens && !(AN_TOKEN_AT(ctx, d, "def") && (ctx->tokens[d].flags & PORT_TOKEN_LINE_START)); d++)
			if ((ctx->tokens[d].flags & PORT_TOKEN_LINE_START) && !AN_TOKEN_AT(ctx, d, "@"))
				break;
		if (d == ctx->ntokens || !AN_TOKEN_AT(ctx, d, "def"))
			continue;
		indent = an_python_indent(ctx->src, ctx->tokens[d].start);
		ctx->decl_start = ctx->tokens[i].start;
		for (end = d + 1; end < ctx->ntokens; end++)
			if ((ctx->tokens[end].flags & PORT_TOKEN_LINE_START) &&
			    an_python_indent(ctx->src, ctx->tokens[end].start) <= indent)
				break;
		kernel(ctx, rocm, d, end, half);
		i = end - 1;
	}
}
