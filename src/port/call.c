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

/* Whether argument tokens [r.begin, r.end) are a null pointer constant:
 * NULL, 0 or nullptr alone. */
static bool is_null_arg(const xlate *x, xlate_range r)
{
	size_t i = r.begin;

	while (i < r.end && x->tok[i].kind == PORT_TOKEN_COMMENT)
		i++;
	if (i >= r.end || xlate_next(x, i) < r.end)
		return false;
	return xlate_tok_is(x, i, "NULL") || xlate_tok_is(x, i, "0") || xlate_tok_is(x, i, "nullptr");
}

/* The length out would have without a trailing "name_cast<...>(" (a cast
 * the template writes around the argument that follows), or SIZE_MAX. */
static size_t cast_start(const util_buf *out)
{
	size_t n = out->len, depth = 0;
	const char *s = out->ptr;

	if (n < 2 || s[n - 1] != '(' || s[n - 2] != '>')
		return SIZE_MAX;
	for (n -= 2;; n--) {
		if (s[n] == '>')
			depth++;
		else if (s[n] == '<' && --depth == 0)
			break;
		if (n == 0)
			return SIZE_MAX;
	}
	if (n < 5 || memcmp(s + n - 5, "_cast", 5) != 0)
		return SIZE_MAX;
	while (n > 0 && (isalnum((unsigned char)s[n - 1]) || s[n - 1] == '_'))
		n--;
	return n;
}

/* The ')' closing the first '(' of a template alternative when it is the
 * alternative's last character (the shape "name(...)"), else NULL. */
static const char *outer_close(const char *p, const char *end)
{
	const char *open = memchr(p, '(', (size_t)(end - p));
	int depth = 0;

	if (!open)
		return NULL;
	for (p = open; p < end; p++) {
		if (*p == '(')
			depth++;
		else if (*p == ')' && --depth == 0)
			return p + 1 == end ? p : NULL;
	}
	return NULL;
}

static void put_gap(util_buf *out, const xlate_gaps *g, int which)
{
	if (g && g->len[which])
		util_buf_put(out, g->text[which], g->len[which]);
}

static void expand(xlate *x, const char *p, const char *end, const xlate_range *args, int nargs,
		   const xlate_gaps *gaps, util_buf *out)
{
	const char *close = nargs > 0 ? outer_close(p, end) : NULL;
	bool opened = false;
	placeholder ph;

	while (p < end) {
		if (close && p == close)
			put_gap(out, gaps, XLATE_GAP_CLOSE);
		if (*p != '$' || !parse_placeholder(p, &ph)) {
			if (close && !opened && *p == '(') {
				opened = true;
				put_gap(out, gaps, XLATE_GAP_NAME);
				util_buf_putc(out, *p++);
				put_gap(out, gaps, XLATE_GAP_OPEN);
				continue;
			}
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
		if (!ph.rest && *p == ')' && is_null_arg(x, args[ph.first - 1])) {
			/* a null pointer constant needs no cast: "const_cast<T>($1)"
			 * writes NULL as NULL, as hipify-clang does */
			size_t at = cast_start(out);

			if (at != SIZE_MAX) {
				out->len = at, out->ptr[out->len] = '\0';
				p++;
			}
		}
		xlate_emit_range(x, args[ph.first - 1].begin,
				 ph.rest ? args[nargs - 1].end : args[ph.first - 1].end, out);
	}
}

/* Whether a template alternative calls name: "name(...)". */
static bool calls(const char *alt, const char *end, const char *name)
{
	size_t n = name ? strlen(name) : 0;

	return n && (size_t)(end - alt) > n && memcmp(alt, name, n) == 0 && alt[n] == '(';
}

bool xlate_expand_template(xlate *x, const char *tmpl, const char *roc, bool for_roc, const xlate_range *args,
			   int nargs, const xlate_gaps *gaps, util_buf *out)
{
	int pass;

	/* alternatives for overloads, "f($1)|g($1, $2)": the first that uses
	 * exactly the call's arguments, else the first whose arguments exist */
	for (pass = 0; pass < 2; pass++) {
		const char *alt = tmpl;

		for (;;) {
			const char *bar = strchr(alt, '|'), *end = bar ? bar : alt + strlen(alt);

			if (calls(alt, end, roc) == for_roc && alternative_fits(alt, end, nargs, pass == 0)) {
				expand(x, alt, end, args, nargs, gaps, out);
				return true;
			}
			if (!bar)
				break;
			alt = bar + 1;
		}
	}
	return false;
}
