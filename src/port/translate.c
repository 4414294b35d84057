#include "port/translate.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "port/xlate.h"
#include "util/text.h"

/* ---- token helpers ---- */

const char *xlate_tok_text(const xlate *x, size_t i)
{
	return x->src + x->tok[i].start;
}

size_t xlate_tok_len(const xlate *x, size_t i)
{
	return x->tok[i].end - x->tok[i].start;
}

bool xlate_tok_is(const xlate *x, size_t i, const char *text)
{
	size_t n = strlen(text);

	return i < x->ntok && xlate_tok_len(x, i) == n && memcmp(xlate_tok_text(x, i), text, n) == 0;
}

size_t xlate_next(const xlate *x, size_t i)
{
	for (i++; i < x->ntok && x->tok[i].kind == PORT_TOKEN_COMMENT; i++)
		;
	return i;
}

size_t xlate_prev(const xlate *x, size_t i)
{
	while (i-- > 0)
		if (x->tok[i].kind != PORT_TOKEN_COMMENT)
			return i;
	return SIZE_MAX;
}

int xlate_error_at(const xlate *x, uint32_t offset, const char *fmt, ...)
{
	char message[512];
	unsigned line, col;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(message, sizeof(message), fmt, ap);
	va_end(ap);
	util_text_position(x->src, offset, &line, &col);
	return util_error_set(UTIL_EINPUT, "%s:%u:%u: %s", x->name, line, col, message);
}

void xlate_add_ref(xlate *x, uint32_t offset, uint32_t length, const port_rule *rule,
		   port_ref_status status)
{
	port_result *res = x->res;
	port_ref *grown, *ref;

	if ((res->nrefs & (res->nrefs - 1)) == 0) { /* grow at powers of two */
		grown = realloc(res->refs, (res->nrefs ? res->nrefs * 2 : 16) * sizeof(*grown));
		if (!grown) {
			x->oom = true;
			return;
		}
		res->refs = grown;
	}
	ref = &res->refs[res->nrefs++];
	ref->offset = offset;
	ref->length = length;
	ref->rule = rule;
	ref->status = status;
	ref->line = ref->col = 0;
}

/* ---- lane masks ---- */

/* Lane masks of the HIP 6.2+ warp intrinsics are 64-bit: 32-bit literal
 * masks and all-ones expressions are widened here, masks reaching the call
 * through a name in mask.c. */
static bool is_integer_literal(const xlate *x, size_t i)
{
	const char *t = xlate_tok_text(x, i);

	return x->tok[i].kind == PORT_TOKEN_LITERAL && isdigit((unsigned char)t[0]) &&
	       !memchr(t, '.', xlate_tok_len(x, i));
}

/* The 32-bit all-ones masks written as expressions (vLLM's uint32_t(-1),
 * (unsigned)-1, ~0u), which the port writes as the 64-bit all-ones literal;
 * tokens separated by spaces. */
static const char *const full_mask_forms[] = {
	"uint32_t ( - 1 )", "unsigned ( - 1 )", "( uint32_t ) - 1", "( unsigned ) - 1", "( unsigned int ) - 1",
	"static_cast < uint32_t > ( - 1 )", "static_cast < unsigned > ( - 1 )", "~ 0u", "~ 0U", "~ 0", NULL
};

/* Whether the tokens from i on spell form; *after is the token after them. */
static bool tokens_spell(const xlate *x, size_t i, const char *form, size_t *after)
{
	while (*form) {
		size_t n = strcspn(form, " ");

		if (i == SIZE_MAX || xlate_tok_len(x, i) != n || memcmp(xlate_tok_text(x, i), form, n) != 0)
			return false;
		form += n;
		form += *form == ' ';
		i = xlate_next(x, i);
	}
	*after = i;
	return true;
}

size_t xlate_full_mask_end(const xlate *x, size_t i)
{
	size_t k, after;

	for (k = 0; full_mask_forms[k]; k++)
		if (tokens_spell(x, i, full_mask_forms[k], &after))
			return after;
	return SIZE_MAX;
}

bool port_is_full_mask_expression(const char *text, size_t len)
{
	size_t k;

	for (k = 0; full_mask_forms[k]; k++) {
		const char *f = full_mask_forms[k], *t = text, *end = text + len;

		for (;;) {
			while (*f == ' ')
				f++;
			while (t < end && isspace((unsigned char)*t))
				t++;
			if (!*f || t == end || *f != *t)
				break;
			f++, t++;
		}
		if (!*f && t == end)
			return true;
	}
	return false;
}

/* A mask argument marked XLATE_WIDEN: a literal gets 64 bits (0xffffffff
 * becomes all 64 lanes, a narrower mask keeps its value), an all-ones
 * expression the 64-bit all-ones literal. Returns the token after it. */
static size_t emit_widened_mask(xlate *x, size_t i, util_buf *out)
{
	const char *t = xlate_tok_text(x, i);
	size_t n = xlate_tok_len(x, i), digits = n, end = xlate_full_mask_end(x, i);
	bool upper = false;
	size_t k;

	if (end != SIZE_MAX) {
		util_buf_puts(out, "0xffffffffffffffffULL");
		return end;
	}
	while (digits > 0 && strchr("uUlL", t[digits - 1]))
		digits--;
	for (k = 0; k < digits; k++)
		if (t[k] >= 'A' && t[k] <= 'F')
			upper = true;
	if (digits == 10 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X') && strspn(t + 2, "fF") >= 8) {
		util_buf_put(out, t, 2);
		util_buf_puts(out, upper ? "FFFFFFFFFFFFFFFF" : "ffffffffffffffff");
	} else {
		util_buf_put(out, t, digits);
	}
	util_buf_puts(out, "ULL");
	return i + 1;
}

static void mark_mask_argument(xlate *x, size_t name)
{
	size_t lparen = xlate_next(x, name), rparen;
	xlate_range args[1];

	if (!xlate_tok_is(x, lparen, "("))
		return;
	if (xlate_split_args(x, lparen, &rparen, args, 1, ")") < 1)
		return;
	if (args[0].end == args[0].begin + 1 && is_integer_literal(x, args[0].begin)) {
		x->mark[args[0].begin] |= XLATE_WIDEN;
	} else if (xlate_full_mask_end(x, args[0].begin) == args[0].end) {
		x->mark[args[0].begin] |= XLATE_WIDEN;
	}
}

/* ---- identifiers ---- */

/* A name after '.', '->' or a user qualifier ('ns::name') is not the CUDA API. */
static bool is_member_or_qualified(const xlate *x, size_t i)
{
	size_t p = xlate_prev(x, i), q;

	if (p == SIZE_MAX)
		return false;
	if (xlate_tok_is(x, p, ".") || xlate_tok_is(x, p, "->"))
		return true;
	if (!xlate_tok_is(x, p, "::"))
		return false;
	q = xlate_prev(x, p);
	if (q == SIZE_MAX)
		return false;
	if (x->tok[q].kind == PORT_TOKEN_IDENT) {
		const port_rule *type = port_rules_find(x->rules, xlate_tok_text(x, q), xlate_tok_len(x, q));

		/* cudaError::cudaSuccess: an enumerator of a CUDA enum is CUDA's too */
		if (type && type->kind == PORT_RULE_TYPE)
			return false;
		return !port_rules_find_namespace(x->rules, xlate_tok_text(x, q), xlate_tok_len(x, q));
	}
	return xlate_tok_is(x, q, ">");
}

/* The keywords a declaration's type may end with. */
static const char *const type_keywords[] = { "int",	 "float",    "double", "char",	"bool", "void",
					     "long", "short", "unsigned", "signed", "auto", NULL };

/* 'cudaError_t cudaError = ...', 'int cudaStream;': a name the user declares
 * after a type, spelled like a CUDA name. */
/* Whether token p can end a declaration's type: a name (not a protected
 * one, not a directive's word) or a type keyword. */
static bool ends_type(const xlate *x, size_t p)
{
	size_t k;

	if (x->tok[p].kind == PORT_TOKEN_IDENT)
		return !(x->mark[p] & XLATE_PROTECT) && !xlate_tok_is(x, xlate_prev(x, p), "#");
	for (k = 0; type_keywords[k]; k++)
		if (xlate_tok_is(x, p, type_keywords[k]))
			return true;
	return false;
}

static bool is_declared_name(const xlate *x, size_t i)
{
	static const char *const ends[] = { "=", ";", ",", ")", "[", ":", "{", NULL };
	size_t p = xlate_prev(x, i), next = xlate_next(x, i), k;
	bool before_end = false;

	if (p == SIZE_MAX || xlate_tok_is(x, xlate_prev(x, p), "define"))
		return false; /* '#define ERR cudaErrorInvalidValue' */
	if ((x->tok[i].flags & PORT_TOKEN_DIRECTIVE) &&
	    (next >= x->ntok || (x->tok[next].flags & PORT_TOKEN_LINE_START)))
		return false; /* the directive ends here */
	for (k = 0; ends[k]; k++)
		before_end |= xlate_tok_is(x, next, ends[k]);
	return ends_type(x, p) && before_end;
}

void xlate_find_user_names(xlate *x)
{
	size_t i;

	for (i = 0; i < x->ntok; i++) {
		xlate_range *grown;

		if (x->tok[i].kind != PORT_TOKEN_IDENT || !is_declared_name(x, i) ||
		    !port_rules_find(x->rules, xlate_tok_text(x, i), xlate_tok_len(x, i)))
			continue;
		grown = realloc(x->user_names, (x->nuser_names + 1) * sizeof(*grown));
		if (!grown) {
			x->oom = true;
			return;
		}
		x->user_names = grown;
		x->user_names[x->nuser_names].begin = i;
		x->user_names[x->nuser_names++].end = i + 1;
	}
}

/* A name the file declares itself keeps its spelling everywhere in the file. */
static bool is_user_name(const xlate *x, size_t i)
{
	size_t k, n = xlate_tok_len(x, i);

	for (k = 0; k < x->nuser_names; k++) {
		size_t d = x->user_names[k].begin;

		if (xlate_tok_len(x, d) == n && memcmp(xlate_tok_text(x, d), xlate_tok_text(x, i), n) == 0)
			return true;
	}
	return false;
}

/* '__device__ at::Half __shfl_up_sync(unsigned mask, at::Half v, int d) {':
 * the user's own function (an overload for a type of theirs) spelled like a
 * CUDA one. Its name stays; calls of CUDA's overloads in the file are still
 * ported, so it is no user name for the whole file. */
static bool is_function_declarator(const xlate *x, size_t i)
{
	/* the lexer is C++17's: return, new, sizeof ... are keywords, these are names */
	static const char *const not_types[] = { "co_return", "co_yield", "co_await", NULL };
	static const char *const after[] = { "{", ";", "const", "noexcept", "->", "override", "final",
					     "__attribute__", "throw", NULL };
	size_t p = xlate_prev(x, i), lparen = xlate_next(x, i), rparen, k;
	xlate_range args[64];
	bool follows = false;

	if (p != SIZE_MAX && (xlate_tok_is(x, p, "*") || xlate_tok_is(x, p, "&")))
		p = xlate_prev(x, p); /* 'float *cudaThing(' */
	if (p == SIZE_MAX || (x->mark[p] & XLATE_PROTECT) || (x->tok[i].flags & PORT_TOKEN_DIRECTIVE) ||
	    (x->tok[p].flags & PORT_TOKEN_DIRECTIVE) || !xlate_tok_is(x, lparen, "(") || !ends_type(x, p))
		return false; /* '#ifdef PREFETCH' before a call is no type */
	for (k = 0; not_types[k]; k++)
		if (xlate_tok_is(x, p, not_types[k]))
			return false;
	if (xlate_split_args(x, lparen, &rparen, args, 64, ")") < 0)
		return false;
	for (k = 0; after[k]; k++)
		follows |= xlate_tok_is(x, xlate_next(x, rparen), after[k]);
	return follows;
}

/* 'cudaError_t (*cudaMalloc)(void **, size_t)': the user's function pointer. */
static bool is_pointer_declarator(const xlate *x, size_t i)
{
	size_t p = xlate_prev(x, i), q = p == SIZE_MAX ? SIZE_MAX : xlate_prev(x, p);

	return q != SIZE_MAX && (xlate_tok_is(x, p, "*") || xlate_tok_is(x, p, "&")) && xlate_tok_is(x, q, "(") &&
	       xlate_tok_is(x, xlate_next(x, i), ")");
}

/* sqrtf, min, cos: device math that HIP names the same, and that plain C++
 * uses too; renaming them is a no-op, counting them would be noise. */
static bool is_generic_identity(const port_rule *rule)
{
	return rule->hip && strcmp(rule->cuda, rule->hip) == 0 && strcmp(rule->family, "device") == 0 &&
	       strncmp(rule->cuda, "__", 2) != 0 && strncmp(rule->cuda, "atomic", 6) != 0;
}

/* The source between tokens a and b (a < b), as gap `which` when it is
 * white space only. */
static void set_gap(const xlate *x, size_t a, size_t b, xlate_gaps *gaps, int which)
{
	uint32_t from, to, k;

	if (b <= a || b >= x->ntok)
		return;
	from = x->tok[a].end;
	to = x->tok[b].start;
	if (to <= from)
		return;
	for (k = from; k < to; k++)
		if (!isspace((unsigned char)x->src[k]))
			return;
	gaps->text[which] = x->src + from;
	gaps->len[which] = to - from;
}

/* Applies a call template to name(args); returns the token after ')', or 0
 * when name is not called here. */
static size_t emit_call_template(xlate *x, size_t name, const port_rule *rule, const char *tmpl, bool for_roc,
				 util_buf *out)
{
	size_t lparen = xlate_next(x, name), rparen;
	xlate_range args[64];
	xlate_gaps gaps = { .len = { 0, 0, 0 } };
	int nargs;

	if (!xlate_tok_is(x, lparen, "("))
		return 0;
	nargs = xlate_split_args(x, lparen, &rparen, args, 64, ")");
	if (nargs < 0 || nargs > 64)
		return 0;
	set_gap(x, name, lparen, &gaps, XLATE_GAP_NAME);
	if (nargs > 0) {
		set_gap(x, lparen, args[0].begin, &gaps, XLATE_GAP_OPEN);
		set_gap(x, args[nargs - 1].end - 1, rparen, &gaps, XLATE_GAP_CLOSE);
	}
	if (!xlate_expand_template(x, tmpl, rule->roc, for_roc, args, nargs, &gaps, out))
		return 0;
	return rparen + 1;
}

/* A fallback that is a name, not a call template: a rename for older targets. */
static bool is_plain_name(const char *s)
{
	if (!*s || isdigit((unsigned char)*s))
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '_')
			return false;
	return true;
}

/* PyTorch's names in a torch file, as its own hipify writes them: `ns::name`
 * pairs first (cuda::getCurrentCUDAStream), then names, qualified or not
 * (hipify_torch matches text, not scopes); members (a.name) are left alone.
 * Returns the token after what was written, or 0. */
static size_t emit_torch_name(xlate *x, size_t i, util_buf *out)
{
	size_t colons = xlate_next(x, i), member = colons == SIZE_MAX ? SIZE_MAX : xlate_next(x, colons);
	size_t p = xlate_prev(x, i);
	const port_rule *rule;

	if (p != SIZE_MAX && (xlate_tok_is(x, p, ".") || xlate_tok_is(x, p, "->")))
		return 0;
	if (member != SIZE_MAX && member < x->ntok && xlate_tok_is(x, colons, "::") &&
	    x->tok[member].kind == PORT_TOKEN_IDENT && x->tok[colons].start == x->tok[i].end &&
	    x->tok[member].start == x->tok[colons].end) {
		char key[256];
		size_t n = x->tok[member].end - x->tok[i].start;

		if (n < sizeof(key)) {
			memcpy(key, x->src + x->tok[i].start, n);
			key[n] = '\0';
			rule = port_rules_find(x->torch, key, n);
			if (rule && rule->kind == PORT_RULE_QUALIFIED && rule->hip) {
				xlate_add_ref(x, x->tok[i].start, (uint32_t)n, rule, PORT_REF_CONVERTED);
				util_buf_puts(out, rule->hip);
				return member + 1;
			}
		}
	}
	rule = port_rules_find(x->torch, xlate_tok_text(x, i), xlate_tok_len(x, i));
	if (!rule || rule->kind == PORT_RULE_QUALIFIED || !rule->hip)
		return 0;
	xlate_add_ref(x, x->tok[i].start, (uint32_t)xlate_tok_len(x, i), rule, PORT_REF_CONVERTED);
	util_buf_puts(out, rule->hip);
	return i + 1;
}

/* Whether src includes cublas.h and not cublas_v2.h: the legacy API, whose
 * BLAS calls take no handle (hipify-clang, which sees cublas.h's
 * declarations, leaves them too). */
static bool includes_cublas_v1(const char *src, size_t len)
{
	const char *p = src, *end = src + len;
	bool v1 = false;

	while (p < end) {
		const char *eol = memchr(p, '\n', (size_t)(end - p)), *q;

		eol = eol ? eol : end;
		for (q = p; q < eol && (*q == ' ' || *q == '\t'); q++)
			;
		if (q < eol && *q == '#' && memmem(q, (size_t)(eol - q), "include", 7)) {
			if (memmem(q, (size_t)(eol - q), "cublas_v2.h", 11))
				return false;
			v1 |= memmem(q, (size_t)(eol - q), "\"cublas.h\"", 10) || memmem(q, (size_t)(eol - q), "<cublas.h>", 10);
		}
		p = eol + 1;
	}
	return v1;
}

/* Whether name (n bytes) is a cuBLAS BLAS routine the v2 API takes a
 * handle for: the tables hold its _v2 twin. */
static bool v1_blas_call(const xlate *x, const char *name, size_t n)
{
	char v2[128];

	if (n < 7 || n + 4 > sizeof(v2) || memcmp(name, "cublas", 6) != 0)
		return false;
	memcpy(v2, name, n);
	memcpy(v2 + n, "_v2", 4);
	return port_rules_find(x->rules, v2, n + 3) != NULL;
}

static size_t emit_identifier(xlate *x, size_t i, util_buf *out)
{
	const char *t = xlate_tok_text(x, i);
	size_t n = xlate_tok_len(x, i), next, torch_end;
	const port_rule *rule;
	const char *to;
	port_version target = x->opts->target_hip;

	if (x->torch && (torch_end = emit_torch_name(x, i, out)) != 0)
		return torch_end;
	if (is_member_or_qualified(x, i) || is_pointer_declarator(x, i) || is_user_name(x, i) ||
	    is_function_declarator(x, i))
		goto copy;
	next = xlate_next(x, i);
	if ((xlate_tok_is(x, next, "::") || xlate_tok_is(x, xlate_prev(x, i), "namespace")) &&
	    (rule = port_rules_find_namespace(x->rules, t, n)) != NULL && rule->hip) {
		xlate_add_ref(x, x->tok[i].start, (uint32_t)n, rule, PORT_REF_CONVERTED);
		util_buf_puts(out, rule->hip);
		return i + 1;
	}
	rule = port_rules_find(x->rules, t, n);
	if (!rule)
		goto copy;
	if (x->cublas_v1 && v1_blas_call(x, t, n)) {
		xlate_add_ref(x, x->tok[i].start, (uint32_t)n, rule, PORT_REF_LEGACY);
		goto copy;
	}
	if (rule->experimental && !x->opts->experimental) {
		xlate_add_ref(x, x->tok[i].start, (uint32_t)n, rule, PORT_REF_EXPERIMENTAL);
		goto copy;
	}
	if (x->opts->roc && rule->roc) {
		to = rule->roc; /* versions in the tables are HIP's: ROC names are taken as they are */
	} else if (!rule->hip) {
		xlate_add_ref(x, x->tok[i].start, (uint32_t)n, rule, PORT_REF_UNSUPPORTED);
		goto copy;
	} else if (rule->hip_removed && target >= rule->hip_removed) {
		xlate_add_ref(x, x->tok[i].start, (uint32_t)n, rule, PORT_REF_REMOVED);
		goto copy;
	} else if (rule->hip_added && target < rule->hip_added) {
		/* a plain name renames the token alone: as a call template it would
		 * drop what follows (operator __nv_bfloat16() lost its parentheses) */
		bool plain = rule->fallback && is_plain_name(rule->fallback);
		size_t after = rule->fallback && !plain ? emit_call_template(x, i, rule, rule->fallback, false, out) : 0;

		if (plain) {
			/* a type or constant whose older HIP spelling is another name */
			xlate_add_ref(x, x->tok[i].start, (uint32_t)n, rule, PORT_REF_FALLBACK);
			util_buf_puts(out, rule->fallback);
			return i + 1;
		}
		if (!after) {
			xlate_add_ref(x, x->tok[i].start, (uint32_t)n, rule, PORT_REF_TOO_NEW);
			goto copy;
		}
		/* the ref goes in after the arguments' refs were added: keep the order */
		xlate_add_ref(x, x->tok[i].start, (uint32_t)n, rule, PORT_REF_FALLBACK);
		return after;
	} else {
		to = rule->hip;
	}
	if (!is_generic_identity(rule))
		xlate_add_ref(x, x->tok[i].start, (uint32_t)n, rule, PORT_REF_CONVERTED);
	if (rule->call) {
		size_t after = emit_call_template(x, i, rule, rule->call, to == rule->roc, out);

		if (after)
			return after;
	}
	if (rule->kind == PORT_RULE_WARP_SYNC)
		mark_mask_argument(x, i);
	util_buf_puts(out, to);
	return i + 1;
copy:
	util_buf_put(out, t, n);
	return i + 1;
}

/* ---- emission ---- */

static size_t emit_token(xlate *x, size_t i, util_buf *out)
{
	uint8_t mark = x->mark[i];

	if (mark & XLATE_PROTECT)
		goto copy;
	if (mark & XLATE_INCLUDE)
		return xlate_emit_include(x, i, out);
	if ((mark & XLATE_LAUNCH) && x->opts->launch == PORT_LAUNCH_HIP && x->launch_name != i)
		return xlate_emit_launch(x, i, out);
	if (mark & XLATE_WIDEN) /* before identifiers: uint32_t(-1) starts with one */
		return emit_widened_mask(x, i, out);
	if (mark & XLATE_MASK) /* a mask's type or name, before identifiers */
		return xlate_emit_mask(x, i, out);
	if (x->tok[i].kind == PORT_TOKEN_IDENT)
		return emit_identifier(x, i, out);
	if (x->tok[i].kind == PORT_TOKEN_LITERAL && xlate_tok_text(x, i)[0] == '"')
		return xlate_emit_string(x, i, out);
copy:
	util_buf_put(out, xlate_tok_text(x, i), xlate_tok_len(x, i));
	return i + 1;
}

static void emit_gap(xlate *x, size_t from, size_t to, util_buf *out)
{
	/* the runtime header's place in the output, filled in at the end */
	if (x->insert_out == SIZE_MAX && x->insert_at != SIZE_MAX && x->insert_at >= from &&
	    x->insert_at <= to && out == &x->res->output) {
		util_buf_put(out, x->src + from, x->insert_at - from);
		x->insert_out = out->len;
		from = x->insert_at;
	}
	util_buf_put(out, x->src + from, to - from);
}

void xlate_emit_range(xlate *x, size_t begin, size_t end, util_buf *out)
{
	size_t i = begin, pos;

	if (begin >= end)
		return;
	pos = x->tok[begin].start;
	while (i < end) {
		size_t next;

		emit_gap(x, pos, x->tok[i].start, out);
		next = emit_token(x, i, out);
		if (next <= i)
			next = i + 1;
		pos = x->tok[next - 1].end;
		i = next;
	}
}

/* ---- results ---- */

static int compare_refs(const void *a, const void *b)
{
	const port_ref *x = a, *y = b;

	return x->offset < y->offset ? -1 : x->offset > y->offset;
}

static void locate_refs(const char *src, port_ref *refs, size_t n)
{
	unsigned line = 1;
	size_t i, pos = 0, line_start = 0;

	if (n)
		qsort(refs, n, sizeof(*refs), compare_refs);
	for (i = 0; i < n; i++) {
		for (; pos < refs[i].offset; pos++) {
			if (src[pos] == '\n') {
				line++;
				line_start = pos + 1;
			}
		}
		refs[i].line = line;
		refs[i].col = (unsigned)(refs[i].offset - line_start + 1);
	}
}

static size_t count_kernels(const xlate *x)
{
	size_t i, n = 0;

	for (i = 0; i < x->ntok; i++)
		if (x->tok[i].kind == PORT_TOKEN_IDENT && xlate_tok_is(x, i, "__global__"))
			n++;
	return n;
}

int port_source_check(const char *name, const char *src, size_t len)
{
	size_t bad;

	if (len == 0)
		return util_error_set(UTIL_EINPUT, "%s: file is empty", name);
	/* source files are bytes: Latin-1 or invalid UTF-8 ports byte for byte */
	if ((bad = util_text_find_nul(src, len)) < len)
		return util_error_set(UTIL_EINPUT, "%s: binary file (NUL byte at offset %zu)", name, bad);
	return 0;
}

static void dispose_xlate(xlate *x)
{
	size_t i;

	for (i = 0; i < x->nincludes; i++) {
		xlate_cond_path_dispose(&x->includes[i].path);
		free(x->includes[i].torch_path);
	}
	for (i = 0; i < x->nheaders; i++) {
		free(x->headers[i].name);
		xlate_cond_path_dispose(&x->headers[i].path);
	}
	free(x->includes);
	free(x->user_names);
	free(x->mask_edits);
	free(x->headers);
	free(x->launches);
	free(x->mark);
	free(x->tok);
}

/* A file of a PyTorch extension: it includes ATen, c10 or torch headers. */
static bool includes_torch(const xlate *x)
{
	size_t i;

	for (i = 0; i < x->nincludes; i++)
		if (port_is_torch_header(x->src + x->includes[i].name_start,
					 x->includes[i].name_end - x->includes[i].name_start))
			return true;
	return false;
}

bool port_is_torch_header(const char *name, size_t len)
{
	static const char *const folders[] = { "ATen/", "c10/", "torch/", NULL };
	size_t k;

	for (k = 0; folders[k]; k++)
		if (len > strlen(folders[k]) && memcmp(name, folders[k], strlen(folders[k])) == 0)
			return true;
	return false;
}

bool port_is_cuda_file(const char *name)
{
	size_t n = name ? strlen(name) : 0;

	return (n >= 3 && strcmp(name + n - 3, ".cu") == 0) || (n >= 4 && strcmp(name + n - 4, ".cuh") == 0);
}

static void emit_file(xlate *x)
{
	util_buf *out = &x->res->output;

	x->insert_out = SIZE_MAX;
	if (x->ntok) {
		emit_gap(x, 0, x->tok[0].start, out);
		xlate_emit_range(x, 0, x->ntok, out);
		emit_gap(x, x->tok[x->ntok - 1].end, x->len, out);
	} else {
		util_buf_put(out, x->src, x->len);
	}
}

/* Whether the file is a CUDA one apart from its strings: a CUDA source, a
 * kernel, a launch, or a CUDA name or header it refers to. */
static bool uses_cuda(const xlate *x)
{
	return port_is_cuda_file(x->name) || x->res->kernels || x->nlaunches || x->res->nrefs > 0;
}

/* The headers an emission wrote, forgotten before the file is emitted again. */
static void forget_headers(xlate *x)
{
	size_t i;

	for (i = 0; i < x->nheaders; i++) {
		free(x->headers[i].name);
		xlate_cond_path_dispose(&x->headers[i].path);
	}
	x->nheaders = 0;
	x->has_runtime_header = false;
}

int port_translate(port_result *out, port_lexer *lexer, const port_rules *rules,
		   const port_options *opts, const char *name, const char *src, size_t len)
{
	xlate x;
	int error;

	memset(out, 0, sizeof(*out));
	memset(&x, 0, sizeof(x));
	x.name = name;
	x.src = src;
	x.len = len;
	x.rules = rules;
	x.opts = opts;
	x.res = out;
	x.insert_at = SIZE_MAX;
	x.insert_out = SIZE_MAX;
	x.launch_name = SIZE_MAX;
	x.eol = memmem(src, len, "\r\n", 2) ? "\r\n" : "\n";
	x.cublas_v1 = includes_cublas_v1(src, len);
	if ((error = port_source_check(name, src, len)) < 0)
		return error;
	if ((error = port_lexer_tokenize(lexer, name, src, len, &x.tok, &x.ntok)) < 0)
		return error;
	x.mark = calloc(x.ntok ? x.ntok : 1, 1);
	if (!x.mark) {
		error = util_error_set(UTIL_ENOMEM, "out of memory");
		goto done;
	}
	if ((error = xlate_scan_directives(&x)) < 0 || (error = xlate_find_launches(&x)) < 0)
		goto done;
	x.torch = includes_torch(&x) ? port_rules_torch(rules, opts->torch) : NULL;
	xlate_plan_torch_headers(&x);
	xlate_find_user_names(&x);
	xlate_plan_masks(&x, lexer);
	out->kernels = count_kernels(&x);
	out->launches = x.nlaunches;
	xlate_plan_runtime_header(&x);

	emit_file(&x);
	if (x.string_renames && !uses_cuda(&x)) {
		/* names in the strings of a file without CUDA are no port: leave it */
		x.no_string_renames = true;
		forget_headers(&x);
		out->output.len = 0;
		emit_file(&x);
	}
	xlate_finish_runtime_header(&x);
	if (x.oom || util_buf_oom(&out->output)) {
		error = util_error_set(UTIL_ENOMEM, "%s: out of memory", name);
		goto done;
	}
	locate_refs(src, out->refs, out->nrefs);
	error = 0;
done:
	dispose_xlate(&x);
	if (error < 0)
		port_result_dispose(out);
	return error;
}

void port_result_dispose(port_result *result)
{
	util_buf_dispose(&result->output);
	free(result->refs);
	memset(result, 0, sizeof(*result));
}

const char *port_ref_status_name(port_ref_status status)
{
	switch (status) {
	case PORT_REF_CONVERTED:
		return "converted";
	case PORT_REF_FALLBACK:
		return "converted to the older HIP form";
	case PORT_REF_UNSUPPORTED:
		return "unsupported";
	case PORT_REF_TOO_NEW:
		return "needs a newer HIP";
	case PORT_REF_REMOVED:
		return "removed from HIP";
	case PORT_REF_EXPERIMENTAL:
		return "experimental";
	case PORT_REF_LEGACY:
		return "legacy cuBLAS call";
	}
	return "?";
}

bool port_ref_is_problem(const port_ref *ref)
{
	return ref->status != PORT_REF_CONVERTED && ref->status != PORT_REF_FALLBACK;
}

/* One stable id per API family, in the order of docs/findings.md. */
static const char *const family_ids[][2] = {
	{ "runtime", "API-001" }, { "driver", "API-002" }, { "device", "API-003" },
	{ "complex", "API-004" }, { "blas", "API-005" },   { "rand", "API-006" },
	{ "dnn", "API-007" },     { "fft", "API-008" },    { "sparse", "API-009" },
	{ "solver", "API-010" },  { "cub", "API-011" },    { "rtc", "API-012" },
};

const char *port_ref_finding_id(const port_ref *ref)
{
	size_t i;

	for (i = 0; i < sizeof(family_ids) / sizeof(family_ids[0]); i++)
		if (strcmp(ref->rule->family, family_ids[i][0]) == 0)
			return family_ids[i][1];
	return "API-099";
}

void port_ref_message(util_buf *buf, const port_ref *ref, const port_options *opts)
{
	const port_rule *r = ref->rule;
	char need[32], target[32];

	port_version_format(need, sizeof(need), r->hip_added);
	port_version_format(target, sizeof(target), opts->target_hip);
	switch (ref->status) {
	case PORT_REF_UNSUPPORTED:
		util_buf_printf(buf, "%s '%s' has no HIP equivalent; left as is", r->family, r->cuda);
		break;
	case PORT_REF_TOO_NEW:
		/* a name HIP spells as CUDA does: nothing to rename, only missing before that HIP */
		if (r->hip && strcmp(r->cuda, r->hip) == 0)
			util_buf_printf(buf, "'%s' exists in HIP only from %s (target is %s)", r->cuda, need,
					target);
		else
			util_buf_printf(buf, "'%s' -> '%s' needs HIP %s (target is %s); left as is", r->cuda,
					r->hip, need, target);
		break;
	case PORT_REF_REMOVED:
		port_version_format(need, sizeof(need), r->hip_removed);
		util_buf_printf(buf, "'%s' -> '%s' was removed in HIP %s (target is %s); left as is", r->cuda,
				r->hip, need, target);
		break;
	case PORT_REF_LEGACY:
		util_buf_printf(buf, "'%s' is a call of the legacy cuBLAS API (cublas.h: no handle), which hipBLAS has "
			       "only with a handle; left as is: port it to cublas_v2.h's API", r->cuda);
		break;
	case PORT_REF_EXPERIMENTAL:
		util_buf_printf(buf, "'%s' -> '%s' is experimental; left as is (use --experimental)", r->cuda,
				r->hip ? r->hip : "?");
		break;
	case PORT_REF_FALLBACK:
		util_buf_printf(buf, "'%s' needs HIP %s; rewritten to the form HIP %s has", r->cuda, need,
				target);
		break;
	case PORT_REF_CONVERTED:
		util_buf_printf(buf, "'%s' -> '%s'", r->cuda, r->hip ? r->hip : r->roc ? r->roc : "(dropped)");
		break;
	}
}
