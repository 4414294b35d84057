/* Argument lists and call templates ("hipMemcpyToSymbol(HIP_SYMBOL($1), $2-)"). */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "port/xlate.h"

static bool is_open(const xlate *x, size_t i)
{
	return xlate_tok_is(x, i, "(") || xlate_tok_is(x, i, "[") || xlate_tok_is(x, i, "{") ||
	       xlate_tok_is(x, i, "<<<");
}

static bool is_close(const xlate *x, size_t i)
{
	return xlate_tok_is(x, i, ")") || xlate_tok_is(x, i, "]") || xlate_tok_is(x, i, "}") ||
	       xlate_tok_is(x, i, ">>>");
}

/* The '>' closing a template argument list opened by the '<' at i (after a
 * name), or SIZE_MAX when the '<' is a comparison: no match before the
 * argument or statement ends. */
static size_t template_close(const xlate *x, size_t i)
{
	int angles = 1, parens = 0;

	for (i++; i < x->ntok; i++) {
		if (xlate_tok_is(x, i, "<"))
			angles++;
		else if (xlate_tok_is(x, i, ">") && parens == 0 && --angles == 0)
			return i;
		else if (xlate_tok_is(x, i, ">>") && parens == 0 && (angles -= 2) <= 0)
			return angles == 0 ? i : SIZE_MAX;
		else if (xlate_tok_is(x, i, "(") || xlate_tok_is(x, i, "["))
			parens++;
		else if (xlate_tok_is(x, i, ")") || xlate_tok_is(x, i, "]")) {
			if (--parens < 0)
				return SIZE_MAX;
		} else if (xlate_tok_is(x, i, ";") || xlate_tok_is(x, i, "{") || xlate_tok_is(x, i, "}") ||
			   xlate_tok_is(x, i, ">>>") || xlate_tok_is(x, i, "&&") || xlate_tok_is(x, i, "||") ||
			   (parens == 0 && xlate_tok_is(x, i, "?")))
			return SIZE_MAX;
	}
	return SIZE_MAX;
}

int xlate_split_args(const xlate *x, size_t lparen, size_t *rparen, xlate_range *args, int max,
		     const char *closer)
{
	size_t i, begin = lparen + 1;
	int depth = 0, n = 0;

	for (i = lparen + 1; i < x->ntok; i++) {
		if (depth == 0 && xlate_tok_is(x, i, closer)) {
			if (n > 0 || i > begin) {
				if (n < max) {
					args[n].begin = begin;
					args[n].end = i;
				}
				n++;
			}
			*rparen = i;
			return n;
		}
		if (xlate_tok_is(x, i, "<") && i > lparen + 1 && x->tok[i - 1].kind == PORT_TOKEN_IDENT) {
			size_t close = template_close(x, i);

			if (close != SIZE_MAX) {
				i = close; /* commas inside template arguments do not split */
				continue;
			}
		}
		if (is_open(x, i)) {
			depth++;
		} else if (is_close(x, i)) {
			if (--depth < 0)
				return -1;
		} else if (depth == 0 && xlate_tok_is(x, i, ",")) {
			if (n < max) {
				args[n].begin = begin;
				args[n].end = i;
			}
			n++;
			begin = i + 1;
		}
	}
	return -1;
}

typedef struct placeholder {
	int first;     /* 1-based argument, or 1 for "$*" */
	bool rest;     /* "$N-" or "$*": arguments first..last */
	size_t length; /* characters of the placeholder */
} placeholder;

static bool parse_placeholder(const char *p, placeholder *ph)
{
	const char *q = p + 1;

	if (*q == '*') {
		ph->first = 1;
		ph->rest = true;
		ph->length = 2;
		return true;
	}
	if (!isdigit((unsigned char)*q))
		return false;
	ph->first = 0;
	while (isdigit((unsigned char)*q))
		ph->first = ph->first * 10 + (*q++ - '0');
	ph->rest = *q == '-';
	if (ph->rest)
		q++;
	ph->length = (size_t)(q - p);
	return ph->first > 0;
}

/* Whether a template alternative (up to end) fits a call of nargs
 * arguments: every "$N" exists and, when exact, it uses them all. */
static bool alternative_fits(const char *tmpl, const char *end, int nargs, bool exact)
{
	const char *p;
	placeholder ph;
	int highest = 0;
	bool rest = false;

	for (p = tmpl; p < end; p++) {
		if (*p != '$' || !parse_placeholder(p, &ph))
			continue;
		if (ph.rest ? ph.first > nargs + 1 : ph.first > nargs)
			return false;
		rest |= ph.rest;
		if (ph.first > highest)
			highest = ph.first;
	}
	return !exact || rest || highest == nargs;
}

static void expand(xlate *x, const char *p, const char *end, const xlate_range *args, int nargs, util_buf *out)
{
	placeholder ph;

	while (p < end) {
		if (*p != '$' || !parse_placeholder(p, &ph)) {
			util_buf_putc(out, *p++);
			continue;
		}
		p += ph.length;
		if (ph.rest && ph.first > nargs) {
			/* nothing to expand: drop the ", " written before it */
			if (out->len >= 2 && memcmp(out->ptr + out->len - 2, ", ", 2) == 0)
				out->len -= 2, out->ptr[out->len] = '\0';
			continue;
		}
		xlate_emit_range(x, args[ph.first - 1].begin,
				 ph.rest ? args[nargs - 1].end : args[ph.first - 1].end, out);
	}
}

bool xlate_expand_template(xlate *x, const char *tmpl, const xlate_range *args, int nargs, util_buf *out)
{
	int pass;

	/* alternatives for overloads, "f($1)|g($1, $2)": the first that uses
	 * exactly the call's arguments, else the first whose arguments exist */
	for (pass = 0; pass < 2; pass++) {
		const char *alt = tmpl;

		for (;;) {
			const char *bar = strchr(alt, '|'), *end = bar ? bar : alt + strlen(alt);

			if (alternative_fits(alt, end, nargs, pass == 0)) {
				expand(x, alt, end, args, nargs, out);
				return true;
			}
			if (!bar)
				break;
			alt = bar + 1;
		}
	}
	return false;
}
