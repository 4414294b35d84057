/* Lane masks that reach a _sync warp intrinsic through a name: a macro
 * (#define MASK 0xffffffff), a variable or constant (unsigned m =
 * 0xffffffff; const uint32_t FULL = ...; unsigned m = __activemask()), a
 * parameter or an enum constant. HIP's _sync intrinsics take a 64-bit mask
 * (a static_assert from HIP 6.2), so such a name is widened where it is
 * defined when every use of it is a mask (or, for a variable, an assignment
 * of a mask), and at the call otherwise. A name defined in a header the file
 * includes with quotes is looked up there; the header's own translation
 * decides its definition by the same rule over the header's uses. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "port/xlate.h"
#include "util/file.h"

/* What a name is, where it is defined. */
enum mask_def_kind {
	DEF_NONE,
	DEF_MACRO, /* #define NAME value */
	DEF_VAR,   /* [qualifiers] TYPE NAME [= init]; */
	DEF_PARAM, /* TYPE NAME in a parameter list */
	DEF_ENUM   /* an enumerator */
};

/* The width of what a definition holds. */
enum mask_width {
	WIDTH_32,    /* a 32-bit value: widened */
	WIDTH_64,    /* already 64 bits: left alone */
	WIDTH_AUTO   /* auto: as wide as its initializer */
};

/* What a value (initializer, macro body, assigned value) is. */
enum mask_value {
	VALUE_NONE,   /* no initializer */
	VALUE_LIT32,  /* a 32-bit integer literal or all-ones expression */
	VALUE_LIT64,  /* a 64-bit integer literal */
	VALUE_BALLOT, /* __activemask() or __ballot_sync(...): 64-bit on HIP */
	VALUE_OTHER   /* any other expression */
};

typedef struct mask_def {
	enum mask_def_kind kind;
	size_t name;              /* the defining token */
	size_t scope_end;         /* uses up to this token (exclusive) are its own */
	size_t type_begin, type_end; /* DEF_VAR, DEF_PARAM: the type words */
	size_t value;             /* first token of the value, or SIZE_MAX */
	enum mask_width width;
	enum mask_value init;
	bool constant;            /* const or constexpr: never assigned */
	bool single_token;        /* a macro whose body is one token */
} mask_def;

/* A file's tokens and their enclosing braces, for the file being translated
 * or a header it includes. */
typedef struct mask_file {
	xlate *x;
	size_t *open_of; /* innermost '{' around each token, or SIZE_MAX */
	size_t *close_of; /* the '}' matching each '{' (x->ntok when none) */
} mask_file;

/* ---- tokens ---- */

static bool tok_in(const xlate *x, size_t i, const char *const *set)
{
	size_t k;

	if (i >= x->ntok)
		return false;
	for (k = 0; set[k]; k++)
		if (xlate_tok_is(x, i, set[k]))
			return true;
	return false;
}

static bool same_name(const xlate *a, size_t i, const xlate *b, size_t j)
{
	size_t n = xlate_tok_len(a, i);

	return b->tok[j].kind == PORT_TOKEN_IDENT && xlate_tok_len(b, j) == n &&
	       memcmp(xlate_tok_text(a, i), xlate_tok_text(b, j), n) == 0;
}

static const char *const type_words[] = { "unsigned", "signed", "int",     "long",    "short",
					  "char",     "uint32_t", "int32_t", "uint64_t", "int64_t",
					  "size_t",   "uint",    "auto",    NULL };
static const char *const qualifiers[] = { "const",    "constexpr",    "static",     "volatile",
					  "extern",   "inline",       "register",   "__device__",
					  "__constant__", "__shared__", "__host__", "__managed__",
					  NULL };

static bool is_integer_literal(const xlate *x, size_t i)
{
	const char *t = xlate_tok_text(x, i);

	return i < x->ntok && x->tok[i].kind == PORT_TOKEN_LITERAL && t[0] >= '0' && t[0] <= '9' &&
	       !memchr(t, '.', xlate_tok_len(x, i));
}

/* A literal that is 64 bits wide: an ll suffix, or a value above 32 bits. */
static bool literal_is_64(const xlate *x, size_t i)
{
	const char *t = xlate_tok_text(x, i);
	size_t n = xlate_tok_len(x, i), digits = n, k;
	bool hex = n > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X');
	unsigned long long v = 0;

	while (digits > 0 && strchr("uUlL", t[digits - 1]))
		digits--;
	for (k = digits; k < n; k++)
		if (t[k] == 'l' || t[k] == 'L')
			if (k + 1 < n && (t[k + 1] == 'l' || t[k + 1] == 'L'))
				return true;
	if (hex) {
		for (k = 2; k < digits && t[k] == '0'; k++)
			;
		return digits - k > 8;
	}
	for (k = 0; k < digits; k++) {
		if (v > 0xffffffffull)
			return true;
		v = v * 10 + (unsigned)(t[k] - '0');
	}
	return v > 0xffffffffull;
}

/* The token after the value at i when it is a literal or an all-ones
 * expression, one pair of parentheses allowed around it; SIZE_MAX else.
 * *lit is the literal's (or the expression's first) token. */
static size_t literal_value_end(const xlate *x, size_t i, size_t *lit)
{
	size_t end;

	if (xlate_tok_is(x, i, "(")) {
		size_t inner = xlate_next(x, i);

		end = literal_value_end(x, inner, lit);
		if (end != SIZE_MAX && end < x->ntok && xlate_tok_is(x, end, ")") && inner != i)
			return xlate_next(x, end);
		return SIZE_MAX;
	}
	*lit = i;
	if (is_integer_literal(x, i))
		return xlate_next(x, i);
	return xlate_full_mask_end(x, i);
}

/* __activemask ( ) or __ballot_sync ( ... ) at i: the token after it, or SIZE_MAX. */
static size_t ballot_end(const xlate *x, size_t i)
{
	size_t lparen = xlate_next(x, i), rparen;
	xlate_range args[1];

	if (!xlate_tok_is(x, i, "__activemask") && !xlate_tok_is(x, i, "__ballot_sync"))
		return SIZE_MAX;
	if (!xlate_tok_is(x, lparen, "(") || xlate_split_args(x, lparen, &rparen, args, 1, ")") < 0)
		return SIZE_MAX;
	return xlate_next(x, rparen);
}

/* The value from i to the token `end` (exclusive). */
static enum mask_value classify_value(const xlate *x, size_t i, size_t end, size_t *lit)
{
	size_t after;

	*lit = SIZE_MAX;
	if (i >= end)
		return VALUE_NONE;
	if ((after = literal_value_end(x, i, lit)) == end)
		return is_integer_literal(x, *lit) && literal_is_64(x, *lit) ? VALUE_LIT64 : VALUE_LIT32;
	*lit = SIZE_MAX;
	if (ballot_end(x, i) == end)
		return VALUE_BALLOT;
	return VALUE_OTHER;
}

/* The ';', ',' or closing bracket that ends the expression from i (depth 0). */
static size_t expression_end(const xlate *x, size_t i, bool *ends_statement)
{
	int depth = 0;

	for (; i < x->ntok; i = xlate_next(x, i)) {
		if (xlate_tok_is(x, i, "(") || xlate_tok_is(x, i, "[") || xlate_tok_is(x, i, "{")) {
			depth++;
		} else if (xlate_tok_is(x, i, ")") || xlate_tok_is(x, i, "]") || xlate_tok_is(x, i, "}")) {
			if (depth-- == 0)
				break;
		} else if (depth == 0 && (xlate_tok_is(x, i, ";") || xlate_tok_is(x, i, ","))) {
			break;
		}
	}
	*ends_statement = i < x->ntok && xlate_tok_is(x, i, ";");
	return i;
}

/* ---- scopes ---- */

static int file_scopes(mask_file *f)
{
	const xlate *x = f->x;
	size_t *stack, depth = 0, i;

	f->open_of = malloc((x->ntok + 1) * sizeof(size_t));
	f->close_of = malloc((x->ntok + 1) * sizeof(size_t));
	stack = malloc((x->ntok + 1) * sizeof(size_t));
	if (!f->open_of || !f->close_of || !stack) {
		free(stack);
		return -1;
	}
	for (i = 0; i < x->ntok; i++) {
		f->close_of[i] = x->ntok;
		f->open_of[i] = depth ? stack[depth - 1] : SIZE_MAX;
		if (x->tok[i].flags & PORT_TOKEN_DIRECTIVE)
			continue;
		if (xlate_tok_is(x, i, "{")) {
			stack[depth++] = i;
		} else if (xlate_tok_is(x, i, "}") && depth) {
			f->close_of[stack[--depth]] = i;
			f->open_of[i] = depth ? stack[depth - 1] : SIZE_MAX;
		}
	}
	free(stack);
	return 0;
}

static void file_dispose(mask_file *f)
{
	free(f->open_of);
	free(f->close_of);
}

/* The end of the block around token i (exclusive), or the file's end. */
static size_t block_end(const mask_file *f, size_t i)
{
	size_t open = f->open_of[i];

	return open == SIZE_MAX ? f->x->ntok : f->close_of[open];
}

/* ---- definitions ---- */

static bool is_member_or_qualified(const xlate *x, size_t i)
{
	size_t p = xlate_prev(x, i);

	return p != SIZE_MAX && (xlate_tok_is(x, p, ".") || xlate_tok_is(x, p, "->") || xlate_tok_is(x, p, "::"));
}

/* #define NAME value */
static bool macro_definition(const mask_file *f, size_t i, mask_def *d)
{
	const xlate *x = f->x;
	size_t p = xlate_prev(x, i), body = xlate_next(x, i), end, lit;

	if (!(x->tok[i].flags & PORT_TOKEN_DIRECTIVE) || p == SIZE_MAX || !xlate_tok_is(x, p, "define"))
		return false;
	if (body < x->ntok && xlate_tok_is(x, body, "(") && x->tok[body].start == x->tok[i].end)
		return false; /* a function-like macro */
	for (end = body; end < x->ntok && (x->tok[end].flags & PORT_TOKEN_DIRECTIVE) &&
			 !(x->tok[end].flags & PORT_TOKEN_LINE_START);
	     end = xlate_next(x, end))
		;
	memset(d, 0, sizeof(*d));
	d->kind = DEF_MACRO;
	d->name = i;
	d->scope_end = x->ntok;
	d->type_begin = d->type_end = SIZE_MAX;
	d->init = classify_value(x, body, end, &lit);
	d->value = lit;
	d->single_token = xlate_next(x, body) == end;
	d->constant = true;
	if (d->init == VALUE_NONE)
		return false;
	d->width = d->init == VALUE_LIT64 || d->init == VALUE_BALLOT ? WIDTH_64 : WIDTH_32;
	if (d->init == VALUE_OTHER) {
		size_t k;

		for (k = body; k < end; k = xlate_next(x, k))
			if (ballot_end(x, k) != SIZE_MAX || (is_integer_literal(x, k) && literal_is_64(x, k)))
				d->width = WIDTH_64; /* 64 bits somewhere in it: left alone */
	}
	return true;
}

/* An enumerator: { NAME [= value] , ... } after 'enum [name] [: type]'. */
static bool enum_definition(const mask_file *f, size_t i, mask_def *d)
{
	const xlate *x = f->x;
	size_t p = xlate_prev(x, i), next = xlate_next(x, i), open = f->open_of[i], k;
	int steps;

	if (open == SIZE_MAX || p == SIZE_MAX || !(xlate_tok_is(x, p, "{") || xlate_tok_is(x, p, ",")) ||
	    !(xlate_tok_is(x, next, "=") || xlate_tok_is(x, next, ",") || xlate_tok_is(x, next, "}")))
		return false;
	for (k = xlate_prev(x, open), steps = 0; k != SIZE_MAX && steps < 8; k = xlate_prev(x, k), steps++) {
		if (xlate_tok_is(x, k, "enum"))
			break;
		if (x->tok[k].kind != PORT_TOKEN_IDENT && !xlate_tok_is(x, k, ":") && !xlate_tok_is(x, k, "::") &&
		    !tok_in(x, k, type_words))
			return false;
	}
	if (k == SIZE_MAX || steps == 8)
		return false;
	memset(d, 0, sizeof(*d));
	d->kind = DEF_ENUM;
	d->name = i;
	d->scope_end = block_end(f, open);
	d->type_begin = d->type_end = SIZE_MAX;
	d->value = SIZE_MAX;
	d->width = WIDTH_32; /* an enum type is not an integer type to HIP's templates */
	d->init = VALUE_OTHER;
	d->constant = true;
	return true;
}

/* [qualifiers] TYPE [qualifiers] NAME followed by '=', ';', ',' or ')'. */
static bool variable_definition(const mask_file *f, size_t i, mask_def *d)
{
	const xlate *x = f->x;
	size_t next = xlate_next(x, i), k, before, tb = SIZE_MAX, te = SIZE_MAX, lit;
	bool constant = false, has64 = false, has_auto = false, contiguous = true, in_params;
	int longs = 0;

	if (x->tok[i].flags & PORT_TOKEN_DIRECTIVE)
		return false;
	for (k = xlate_prev(x, i); k != SIZE_MAX; k = xlate_prev(x, k)) {
		if (tok_in(x, k, type_words)) {
			if (te == SIZE_MAX)
				te = k;
			else if (tb != SIZE_MAX && xlate_next(x, k) != tb)
				contiguous = false;
			tb = k;
			longs += xlate_tok_is(x, k, "long");
			has64 |= xlate_tok_is(x, k, "uint64_t") || xlate_tok_is(x, k, "int64_t") ||
				 xlate_tok_is(x, k, "size_t");
			has_auto |= xlate_tok_is(x, k, "auto");
		} else if (tok_in(x, k, qualifiers)) {
			constant |= xlate_tok_is(x, k, "const") || xlate_tok_is(x, k, "constexpr");
		} else if (xlate_tok_is(x, k, "::") && xlate_prev(x, k) != SIZE_MAX &&
			   xlate_tok_is(x, xlate_prev(x, k), "std") && tb != SIZE_MAX && xlate_next(x, k) == tb) {
			k = xlate_prev(x, k); /* std::uint32_t */
		} else {
			break;
		}
	}
	before = k;
	if (tb == SIZE_MAX)
		return false;
	in_params = before != SIZE_MAX && (xlate_tok_is(x, before, "(") || xlate_tok_is(x, before, ","));
	/* a declaration starts a statement, a line or a parameter */
	if (before != SIZE_MAX && !in_params && !xlate_tok_is(x, before, ";") && !xlate_tok_is(x, before, "{") &&
	    !xlate_tok_is(x, before, "}") && !xlate_tok_is(x, before, ")") && !xlate_tok_is(x, before, ":") &&
	    !(x->tok[before].flags & PORT_TOKEN_DIRECTIVE) && !(x->tok[xlate_next(x, before)].flags & PORT_TOKEN_LINE_START))
		return false;
	memset(d, 0, sizeof(*d));
	d->name = i;
	d->type_begin = contiguous ? tb : SIZE_MAX;
	d->type_end = contiguous ? xlate_next(x, te) : SIZE_MAX;
	d->constant = constant;
	d->value = SIZE_MAX;
	d->width = has_auto ? WIDTH_AUTO : (has64 || longs > 0) ? WIDTH_64 : WIDTH_32;
	if (longs == 1 && !has64) /* 'long' alone is 64-bit on LP64 hosts and on the device */
		d->width = WIDTH_64;
	if (xlate_tok_is(x, next, "=")) {
		bool statement;
		size_t end = expression_end(x, xlate_next(x, next), &statement);

		if (!statement) {
			if (!in_params)
				return false; /* several declarators: left alone */
			d->kind = DEF_PARAM; /* a default argument */
		} else {
			d->kind = DEF_VAR;
			d->init = classify_value(x, xlate_next(x, next), end, &lit);
			d->value = lit;
		}
	} else if (xlate_tok_is(x, next, ";") && !in_params) {
		d->kind = DEF_VAR;
		d->init = VALUE_NONE;
	} else if ((xlate_tok_is(x, next, ",") || xlate_tok_is(x, next, ")")) && in_params) {
		d->kind = DEF_PARAM;
	} else {
		return false;
	}
	if (d->width == WIDTH_AUTO)
		d->width = d->init == VALUE_LIT32 ? WIDTH_32 : WIDTH_64; /* auto m = __activemask(): 64 bits */
	if (d->kind == DEF_PARAM) {
		/* the parameter's scope: the function body after its parameter list */
		size_t close = xlate_next(x, i), body;
		int depth = 0;

		for (; close < x->ntok; close = xlate_next(x, close)) {
			if (xlate_tok_is(x, close, "("))
				depth++;
			else if (xlate_tok_is(x, close, ")") && depth-- == 0)
				break;
		}
		for (body = close; body < x->ntok && !xlate_tok_is(x, body, "{") && !xlate_tok_is(x, body, ";");
		     body = xlate_next(x, body))
			;
		d->scope_end = body < x->ntok && xlate_tok_is(x, body, "{") ? f->close_of[body] : close;
	} else {
		d->scope_end = block_end(f, i);
	}
	return true;
}

static bool find_definition(const mask_file *f, size_t i, mask_def *d)
{
	if (f->x->tok[i].kind != PORT_TOKEN_IDENT || is_member_or_qualified(f->x, i))
		return false;
	return macro_definition(f, i, d) || enum_definition(f, i, d) || variable_definition(f, i, d);
}

/* ---- uses ---- */

enum use_kind {
	USE_MASK,    /* the mask argument of a _sync call the port keeps */
	USE_NEUTRAL, /* #ifdef NAME, defined(NAME), #undef NAME, an argument the port drops */
	USE_ASSIGN,  /* NAME = literal / __activemask() / __ballot_sync(...) ; */
	USE_OTHER
};

/* The call whose first argument is the single token i: a _sync intrinsic
 * the port keeps at this target (its mask is widened: 1), or one it rewrites
 * to an older form that drops the mask (__syncwarp(m) before HIP 7.0: -1);
 * else 0. */
static int mask_argument(const xlate *x, size_t i)
{
	size_t lparen = xlate_prev(x, i), name, rparen;
	const port_rule *rule;
	port_version target = x->opts->target_hip;
	xlate_range args[1];

	if (lparen == SIZE_MAX || !xlate_tok_is(x, lparen, "(") || (name = xlate_prev(x, lparen)) == SIZE_MAX ||
	    x->tok[name].kind != PORT_TOKEN_IDENT || is_member_or_qualified(x, name))
		return 0;
	rule = port_rules_find(x->rules, xlate_tok_text(x, name), xlate_tok_len(x, name));
	if (!rule || rule->kind != PORT_RULE_WARP_SYNC || !rule->hip || (rule->experimental && !x->opts->experimental) ||
	    (rule->hip_removed && target >= rule->hip_removed))
		return 0;
	if (xlate_split_args(x, lparen, &rparen, args, 1, ")") < 1 || args[0].begin != i ||
	    xlate_next(x, i) != args[0].end)
		return 0;
	if (rule->hip_added && target < rule->hip_added)
		return rule->fallback && !strstr(rule->fallback, "$1") && strchr(rule->fallback, '(') ? -1 : 0;
	return 1;
}

static bool is_mask_argument(const xlate *x, size_t i)
{
	return mask_argument(x, i) > 0;
}

static enum use_kind classify_use(const xlate *x, size_t i, size_t *assigned)
{
	size_t p = xlate_prev(x, i), next = xlate_next(x, i), lit, end;
	bool statement;

	*assigned = SIZE_MAX;
	if (x->tok[i].flags & PORT_TOKEN_DIRECTIVE) {
		size_t pp = p == SIZE_MAX ? SIZE_MAX : xlate_prev(x, p);

		if (p != SIZE_MAX && (xlate_tok_is(x, p, "ifdef") || xlate_tok_is(x, p, "ifndef") ||
				      xlate_tok_is(x, p, "undef") || xlate_tok_is(x, p, "defined")))
			return USE_NEUTRAL;
		if (pp != SIZE_MAX && xlate_tok_is(x, p, "(") && xlate_tok_is(x, pp, "defined"))
			return USE_NEUTRAL;
	}
	if (x->mark[i] & XLATE_PROTECT)
		return USE_OTHER;
	switch (mask_argument(x, i)) {
	case 1:
		return USE_MASK;
	case -1:
		return USE_NEUTRAL; /* the port drops the argument */
	}
	if (xlate_tok_is(x, next, "=") && p != SIZE_MAX &&
	    (xlate_tok_is(x, p, ";") || xlate_tok_is(x, p, "{") || xlate_tok_is(x, p, "}") || xlate_tok_is(x, p, ")"))) {
		end = expression_end(x, xlate_next(x, next), &statement);
		if (statement) {
			enum mask_value v = classify_value(x, xlate_next(x, next), end, &lit);

			if (v == VALUE_LIT32 || v == VALUE_LIT64 || v == VALUE_BALLOT) {
				*assigned = v == VALUE_LIT32 ? lit : SIZE_MAX;
				return USE_ASSIGN;
			}
		}
	}
	return USE_OTHER;
}

/* The definition in f that the token i of f refers to: the last one before
 * it whose scope holds it. */
static bool definition_of(const mask_file *f, size_t i, mask_def *out)
{
	const xlate *x = f->x;
	bool found = false;
	size_t k;

	for (k = 0; k < i; k++) {
		mask_def d;

		if (!same_name(x, i, x, k) || !find_definition(f, k, &d))
			continue;
		if (i < d.scope_end) {
			*out = d;
			found = true;
		}
	}
	return found;
}

/* Whether the port widens definition d of f where it is: it holds a 32-bit
 * value the port can widen, and its uses in f are masks (at least one),
 * assignments of masks to a variable, or #ifdef-like tests. Fills
 * assigned[] with the literals assigned to it (up to max). */
static bool widen_at_definition(const mask_file *f, const mask_def *d, size_t *assigned, size_t max, size_t *nassigned)
{
	const xlate *x = f->x;
	size_t k, masks = 0;

	*nassigned = 0;
	if (d->width != WIDTH_32 || (x->mark[d->name] & XLATE_PROTECT))
		return false;
	if (d->kind == DEF_MACRO) {
		if (d->init != VALUE_LIT32)
			return false;
	} else if (d->kind == DEF_VAR) {
		if (d->init == VALUE_OTHER || d->init == VALUE_LIT64)
			return false;
		if (d->type_begin == SIZE_MAX || (x->mark[d->type_begin] & XLATE_PROTECT))
			return false;
	} else {
		return false; /* parameters keep their callers' type; enums are not integers */
	}
	for (k = d->name + 1; k < d->scope_end && k < x->ntok; k++) {
		size_t lit;
		mask_def other;

		if (!same_name(x, d->name, x, k) || is_member_or_qualified(x, k))
			continue;
		if (find_definition(f, k, &other))
			return false; /* redefined or shadowed: widened at the uses */
		switch (classify_use(x, k, &lit)) {
		case USE_MASK:
			masks++;
			break;
		case USE_NEUTRAL:
			break;
		case USE_ASSIGN:
			if (d->kind != DEF_VAR || d->constant)
				return false;
			if (lit != SIZE_MAX) {
				if (*nassigned == max)
					return false;
				assigned[(*nassigned)++] = lit;
			}
			break;
		case USE_OTHER:
			return false;
		}
	}
	return masks > 0;
}

/* ---- edits ---- */

static void add_edit(xlate *x, size_t begin, size_t end, const char *text, bool paren)
{
	xlate_mask_edit *grown;

	if (x->mark[begin] & (XLATE_MASK | XLATE_PROTECT))
		return;
	grown = realloc(x->mask_edits, (x->nmask_edits + 1) * sizeof(*grown));
	if (!grown) {
		x->oom = true;
		return;
	}
	x->mask_edits = grown;
	grown[x->nmask_edits].begin = begin;
	grown[x->nmask_edits].end = end;
	grown[x->nmask_edits].text = text;
	grown[x->nmask_edits].paren = paren;
	x->nmask_edits++;
	x->mark[begin] |= XLATE_MASK;
}

static void widen_definition(xlate *x, const mask_def *d, const size_t *assigned, size_t nassigned)
{
	size_t k;

	if (d->value != SIZE_MAX && d->init == VALUE_LIT32)
		x->mark[d->value] |= XLATE_WIDEN;
	for (k = 0; k < nassigned; k++)
		x->mark[assigned[k]] |= XLATE_WIDEN;
	if (d->kind == DEF_VAR && d->type_begin != SIZE_MAX && !xlate_tok_is(x, d->type_begin, "auto")) {
		const char *to = "unsigned long long";

		if (xlate_next(x, d->type_begin) == d->type_end && xlate_tok_is(x, d->type_begin, "uint32_t"))
			to = "uint64_t";
		else if (xlate_next(x, d->type_begin) == d->type_end && xlate_tok_is(x, d->type_begin, "int32_t"))
			to = "int64_t";
		add_edit(x, d->type_begin, d->type_end, to, false);
	}
}

/* A mask argument whose definition stays 32-bit: all ones becomes all 64
 * lanes, any other value is kept. */
static void widen_use(xlate *x, size_t use, const mask_def *d)
{
	if (d->width != WIDTH_32)
		return;
	add_edit(x, use, use + 1, NULL, d->kind == DEF_MACRO && d->init == VALUE_OTHER && !d->single_token);
}

size_t xlate_emit_mask(xlate *x, size_t i, util_buf *out)
{
	size_t k;

	for (k = 0; k < x->nmask_edits; k++) {
		const xlate_mask_edit *e = &x->mask_edits[k];

		if (e->begin != i)
			continue;
		if (e->text) {
			util_buf_puts(out, e->text);
		} else {
			const char *name = xlate_tok_text(x, i);
			int n = (int)xlate_tok_len(x, i);

			if (e->paren)
				util_buf_printf(out, "((%.*s) == 0xffffffffu ? ~0ull : (unsigned long long)(%.*s))", n,
						name, n, name);
			else
				util_buf_printf(out, "(%.*s == 0xffffffffu ? ~0ull : (unsigned long long)%.*s)", n, name,
						n, name);
		}
		return e->end;
	}
	util_buf_put(out, xlate_tok_text(x, i), xlate_tok_len(x, i));
	return i + 1;
}

/* ---- quoted headers ---- */

enum { MAX_HEADERS = 64, MAX_DEPTH = 8 };

/* The headers a file includes by quotes, directly or not; fixed arrays: a
 * header's xlate stays where it is while the headers it includes load. */
typedef struct mask_headers {
	mask_file files[MAX_HEADERS];
	xlate xs[MAX_HEADERS];
	char *paths[MAX_HEADERS];
	size_t n;
} mask_headers;

static void headers_dispose(mask_headers *h)
{
	size_t k;

	for (k = 0; k < h->n; k++) {
		file_dispose(&h->files[k]);
		free(h->xs[k].tok);
		free(h->xs[k].mark);
		free((char *)h->xs[k].src);
		free(h->paths[k]);
	}
}

static char *dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');
	size_t n = slash ? (size_t)(slash - path) : 1;
	char *dir = malloc(n + 1);

	if (!dir)
		return NULL;
	memcpy(dir, slash ? path : ".", n);
	dir[n] = '\0';
	return dir;
}

static void load_headers(const xlate *from, const char *from_path, port_lexer *lexer, mask_headers *h, int depth);

/* Loads the header named by the string literal token i of `from` (#include
 * "name"), then the headers it includes by quotes. */
static void load_header(const xlate *from, const char *from_path, size_t i, port_lexer *lexer, mask_headers *h,
			int depth)
{
	size_t n = xlate_tok_len(from, i), k;
	char *dir, *path;
	struct stat st;
	util_buf text = { 0 };
	xlate *hx;

	if (n < 3 || xlate_tok_text(from, i)[0] != '"' || h->n == MAX_HEADERS || !(dir = dir_of(from_path)))
		return;
	path = malloc(strlen(dir) + n);
	if (!path) {
		free(dir);
		return;
	}
	sprintf(path, "%s/%.*s", dir, (int)(n - 2), xlate_tok_text(from, i) + 1);
	free(dir);
	for (k = 0; k < h->n; k++)
		if (strcmp(h->paths[k], path) == 0)
			goto skip;
	if (stat(path, &st) != 0 || !S_ISREG(st.st_mode) ||
	    util_file_read(&text, path, UTIL_FILE_DEFAULT_MAX_SIZE) < 0 || text.len == 0 ||
	    memchr(text.ptr, '\0', text.len))
		goto skip;
	hx = &h->xs[h->n];
	memset(hx, 0, sizeof(*hx));
	memset(&h->files[h->n], 0, sizeof(h->files[h->n]));
	hx->name = path;
	hx->src = text.ptr;
	hx->len = text.len;
	hx->rules = from->rules;
	hx->opts = from->opts;
	if (port_lexer_tokenize(lexer, path, text.ptr, text.len, &hx->tok, &hx->ntok) < 0)
		goto skip;
	hx->mark = calloc(hx->ntok ? hx->ntok : 1, 1);
	h->files[h->n].x = hx;
	if (!hx->mark || file_scopes(&h->files[h->n]) < 0) {
		free(hx->mark);
		free(hx->tok);
		file_dispose(&h->files[h->n]);
		goto skip;
	}
	xlate_mark_protected(hx);
	h->paths[h->n++] = path;
	text.ptr = NULL; /* hx->src owns it */
	load_headers(hx, path, lexer, h, depth + 1);
	return;
skip:
	util_buf_dispose(&text);
	free(path);
}

static void load_headers(const xlate *from, const char *from_path, port_lexer *lexer, mask_headers *h, int depth)
{
	size_t i;

	if (depth > MAX_DEPTH)
		return;
	for (i = 0; i < from->ntok; i++) {
		size_t inc = xlate_next(from, i), name = xlate_next(from, inc);

		if (xlate_tok_is(from, i, "#") && (from->tok[i].flags & PORT_TOKEN_DIRECTIVE) &&
		    xlate_tok_is(from, inc, "include") && name < from->ntok &&
		    from->tok[name].kind == PORT_TOKEN_LITERAL)
			load_header(from, from_path, name, lexer, h, depth);
	}
}

/* The file-scope definition of the name at token use of x in the headers. */
static const mask_file *header_definition(const xlate *x, size_t use, const mask_headers *h, mask_def *d)
{
	size_t k, i;

	for (k = 0; k < h->n; k++) {
		const mask_file *f = &h->files[k];

		for (i = 0; i < f->x->ntok; i++)
			if (same_name(x, use, f->x, i) && find_definition(f, i, d) && d->scope_end == f->x->ntok &&
			    (d->kind == DEF_MACRO || f->open_of[i] == SIZE_MAX || d->kind == DEF_ENUM))
				return f;
	}
	return NULL;
}

/* ---- the pass ---- */

void xlate_plan_masks(xlate *x, port_lexer *lexer)
{
	mask_file self = { x, NULL, NULL };
	mask_headers *headers = NULL;
	size_t i, assigned[16], nassigned;
	bool any = false;

	for (i = 0; i < x->ntok && !any; i++)
		any = x->tok[i].kind == PORT_TOKEN_IDENT && is_mask_argument(x, i) && !(x->mark[i] & XLATE_PROTECT);
	if (!any)
		return;
	if (file_scopes(&self) < 0) {
		file_dispose(&self);
		x->oom = true;
		return;
	}
	for (i = 0; i < x->ntok; i++) {
		mask_def d;
		const mask_file *hf;

		if (x->tok[i].kind != PORT_TOKEN_IDENT || (x->mark[i] & (XLATE_PROTECT | XLATE_MASK)) ||
		    !is_mask_argument(x, i))
			continue;
		if (definition_of(&self, i, &d)) {
			if (widen_at_definition(&self, &d, assigned, 16, &nassigned))
				widen_definition(x, &d, assigned, nassigned);
			else
				widen_use(x, i, &d);
			continue;
		}
		if (!headers) {
			headers = calloc(1, sizeof(*headers));
			if (!headers) {
				x->oom = true;
				break;
			}
			if (lexer && x->name)
				load_headers(x, x->name, lexer, headers, 0);
		}
		/* defined in a header: its own port widens the definition, or the use is widened here */
		if ((hf = header_definition(x, i, headers, &d)) != NULL &&
		    !widen_at_definition(hf, &d, assigned, 16, &nassigned))
			widen_use(x, i, &d);
	}
	if (headers)
		headers_dispose(headers);
	free(headers);
	file_dispose(&self);
}
