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

/* Whether every argument the template names exists in this call. */
static bool template_fits(const char *tmpl, int nargs)
{
	const char *p;
	placeholder ph;

	for (p = tmpl; *p; p++)
		if (*p == '$' && parse_placeholder(p, &ph) &&
		    (ph.rest ? ph.first > nargs + 1 : ph.first > nargs))
			return false;
	return true;
}

bool xlate_expand_template(xlate *x, const char *tmpl, const xlate_range *args, int nargs, util_buf *out)
{
	const char *p = tmpl;
	placeholder ph;

	if (!template_fits(tmpl, nargs))
		return false;
	while (*p) {
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
	return true;
}
