#include "check/kernel/accessor.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "port/definitions.h"
#include "util/buf.h"

/* s[from, to) without the spaces around it, allocated. */
static char *trimmed(const char *from, const char *to)
{
	while (from < to && isspace((unsigned char)*from))
		from++;
	while (to > from && isspace((unsigned char)to[-1]))
		to--;
	return strndup(from, (size_t)(to - from));
}

bool chk_accessor_of(const char *type, char **elem, unsigned *dims)
{
	const char *name = type ? strstr(type, "PackedTensorAccessor") : NULL, *open, *p, *comma = NULL, *second;
	int depth = 0;
	char *end;
	long n;

	*elem = NULL;
	if (!name || !(open = strchr(name, '<')))
		return false;
	/* the first two template arguments: the element type and the dimensions */
	for (p = open + 1; *p && !comma; p++) {
		depth += *p == '<' || *p == '(';
		depth -= *p == '>' || *p == ')';
		if (depth < 0)
			return false;
		if (*p == ',' && depth == 0)
			comma = p;
	}
	if (!comma)
		return false;
	for (second = comma + 1; isspace((unsigned char)*second); second++)
		;
	n = strtol(second, &end, 10);
	while (isspace((unsigned char)*end))
		end++;
	if (end == second || n < 1 || n > 8 || (*end != ',' && *end != '>'))
		return false;
	*elem = trimmed(open + 1, comma);
	*dims = (unsigned)n;
	return *elem && **elem;
}

/* The text of a definition from `from` to the line's end, continued lines joined. */
static char *definition_text(const char *from, const char *end)
{
	util_buf b = UTIL_BUF_INIT;
	const char *to = memchr(from, '\n', (size_t)(end - from));
	char *text;

	to = to ? to : end;
	while (to > from && to[-1] == '\\' && to < end) {
		util_buf_put(&b, from, (size_t)(to - 1 - from));
		from = to + 1;
		to = memchr(from, '\n', (size_t)(end - from));
		to = to ? to : end;
	}
	util_buf_put(&b, from, (size_t)(to - from));
	text = util_buf_oom(&b) || !b.ptr ? NULL : trimmed(b.ptr, b.ptr + b.len);
	util_buf_dispose(&b);
	return text;
}

char *chk_macro_text(const char *src, size_t len, const char *name)
{
	const char *end = src + len, *p = src;
	size_t n = strlen(name);

	while (p < end) {
		const char *q = p, *eol = memchr(p, '\n', (size_t)(end - p));

		eol = eol ? eol : end;
		p = eol + 1;
		while (q < eol && (*q == ' ' || *q == '\t'))
			q++;
		if (q >= eol || *q++ != '#')
			continue;
		while (q < eol && (*q == ' ' || *q == '\t'))
			q++;
		if ((size_t)(eol - q) < 7 || memcmp(q, "define", 6) || !isspace((unsigned char)q[6]))
			continue;
		for (q += 6; q < eol && (*q == ' ' || *q == '\t'); q++)
			;
		/* NAME, not NAME( of a function-like macro */
		if ((size_t)(eol - q) > n && !memcmp(q, name, n) && !port_ident_char(q[n]) && q[n] != '(')
			return definition_text(q + n, end);
	}
	return NULL;
}
