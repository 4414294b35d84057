/* Integer constants read from tokens alone: literals, sizeof of a builtin
 * type, + - * / << and parentheses. What the parse would evaluate the same
 * way, for the few places (a launch's shared memory) where reading it here
 * spares the parse of a whole function. Anything else, a name above all (a
 * macro, a constant, a parameter), is not folded. */
#include <string.h>

#include "analyze/ast.h"

/* Past this a value is only "large": no overflow to care about. */
#define FOLD_MAX (1ULL << 40)

typedef struct fold {
	const an_ctx *ctx;
	size_t at, end; /* the next token, and where the expression ends */
	bool ok;
} fold;

static void skip_comments(fold *f)
{
	while (f->at < f->end && f->ctx->tokens[f->at].kind == PORT_TOKEN_COMMENT)
		f->at++;
}

/* Whether the next token, comments aside, is lit (a string literal); TAKE
 * also steps past it. */
#define NEXT_IS(f, lit) (skip_comments(f), (f)->at < (f)->end && AN_TOKEN_IS((f)->ctx, (f)->at, lit))
#define TAKE(f, lit) (NEXT_IS(f, lit) && ((f)->at++, true))

/* The size of a builtin type spelled by keywords (unsigned long long, double,
 * ...) on the LP64 hosts the parse runs for; 0 for anything else (long
 * double, a name). */
static unsigned long long builtin_size(fold *f)
{
	unsigned long long base = 0; /* of char, bool, short, int, float, double */
	int longs = 0;
	bool sign = false, is_int = false;

	while (!NEXT_IS(f, ")")) {
		if (f->at >= f->end || f->ctx->tokens[f->at].kind != PORT_TOKEN_KEYWORD)
			return 0;
		if (TAKE(f, "unsigned") || TAKE(f, "signed"))
			sign = true;
		else if (TAKE(f, "long"))
			longs++;
		else if (TAKE(f, "char") || TAKE(f, "bool"))
			base = 1;
		else if (TAKE(f, "short"))
			base = 2;
		else if (TAKE(f, "int")) {
			base = 4;
			is_int = true;
		}
		else if (TAKE(f, "float"))
			base = 4;
		else if (TAKE(f, "double"))
			base = 8;
		else
			return 0;
	}
	if (longs) /* long, long int, long long; not long double */
		return !base || is_int ? 8 : 0;
	return base ? base : sign ? 4 : 0;
}

static unsigned long long shift_expr(fold *f);

static unsigned long long primary(fold *f)
{
	unsigned long long v = 0;

	if (TAKE(f, "(")) {
		v = shift_expr(f);
		if (!TAKE(f, ")"))
			f->ok = false;
		return v;
	}
	if (TAKE(f, "sizeof")) {
		if (!TAKE(f, "(") || !(v = builtin_size(f)) || !TAKE(f, ")"))
			f->ok = false;
		return v;
	}
	skip_comments(f);
	if (f->at >= f->end || !an_token_integer(f->ctx, f->at, &v))
		f->ok = false;
	f->at++;
	return v < FOLD_MAX ? v : FOLD_MAX;
}

static unsigned long long product(fold *f)
{
	unsigned long long v = primary(f);

	while (f->ok) {
		if (TAKE(f, "*")) {
			unsigned long long w = primary(f);

			v = w && v > FOLD_MAX / w ? FOLD_MAX : v * w;
		} else if (TAKE(f, "/")) {
			unsigned long long w = primary(f);

			if (!w)
				f->ok = false;
			else
				v /= w;
		} else {
			break;
		}
	}
	return v;
}

static unsigned long long sum(fold *f)
{
	unsigned long long v = product(f);

	while (f->ok) {
		if (TAKE(f, "+")) {
			v += product(f);
			if (v > FOLD_MAX)
				v = FOLD_MAX;
		} else if (TAKE(f, "-")) {
			unsigned long long w = product(f);

			if (w > v) /* negative: not a size */
				f->ok = false;
			v -= w;
		} else {
			break;
		}
	}
	return v;
}

static unsigned long long shift_expr(fold *f)
{
	unsigned long long v = sum(f);

	while (f->ok && TAKE(f, "<<")) {
		unsigned long long w = sum(f);

		v = w >= 40 || v > (FOLD_MAX >> w) ? FOLD_MAX : v << w;
	}
	return v;
}

bool an_tokens_fold(const an_ctx *ctx, size_t from, size_t to, unsigned long long *value)
{
	fold f = { ctx, from, to, true };

	*value = shift_expr(&f);
	skip_comments(&f);
	return f.ok && f.at == to;
}
