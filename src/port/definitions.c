#include "port/definitions.h"

#include <ctype.h>
#include <string.h>

const char *port_skip_literal(const char *p, const char *end)
{
	if (p + 1 < end && p[0] == '/' && p[1] == '/') {
		const char *nl = memchr(p, '\n', (size_t)(end - p));

		return nl ? nl : end;
	}
	if (p + 1 < end && p[0] == '/' && p[1] == '*') {
		for (p += 2; p + 1 < end && !(p[0] == '*' && p[1] == '/'); p++)
			;
		return p + 1 < end ? p + 2 : end;
	}
	if (*p == '"' || *p == '\'') {
		char q = *p;

		for (p++; p < end && *p != q; p++)
			if (*p == '\\' && p + 1 < end)
				p++;
		return p < end ? p + 1 : end;
	}
	return p;
}

bool port_ident_char(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

/* Past the bracket that closes the one at p (( or {), or NULL. */
static const char *past_closing(const char *p, const char *end)
{
	char open = *p, close = open == '(' ? ')' : '}';
	int depth = 0;

	while (p < end) {
		const char *q = port_skip_literal(p, end);

		if (q != p) {
			p = q;
			continue;
		}
		if (*p == open)
			depth++;
		else if (*p == close && --depth == 0)
			return p + 1;
		p++;
	}
	return NULL;
}

static bool keyword_at(const char *p, const char *src, const char *end, const char *keyword, size_t klen)
{
	return (size_t)(end - p) >= klen && memcmp(p, keyword, klen) == 0 && !(p > src && port_ident_char(p[-1])) &&
	       !(p + klen < end && port_ident_char(p[klen]));
}

bool port_definition_next(port_definition *out, const char *src, const char *end, const char **at,
			  const char *keyword)
{
	const char *p = *at;
	size_t klen = strlen(keyword);

	while (p < end) {
		const char *q = port_skip_literal(p, end), *id = NULL, *r;

		if (q != p) {
			p = q;
			continue;
		}
		if (!keyword_at(p, src, end, keyword, klen)) {
			p++;
			continue;
		}
		/* the declarator's name is before the last parenthesised group
		 * (__launch_bounds__(256) comes first), then the body or ';' */
		for (r = p + klen; r && r < end && *r != '{' && *r != ';';) {
			const char *lit = port_skip_literal(r, end);

			if (lit != r) {
				r = lit;
			} else if (*r == '(') {
				for (id = r; id > p && isspace((unsigned char)id[-1]); id--)
					;
				r = past_closing(r, end);
			} else {
				r++;
			}
		}
		if (r && r < end && *r == '{' && id && (q = past_closing(r, end))) {
			const char *name = id;

			while (name > p && port_ident_char(name[-1]))
				name--;
			out->start = p;
			out->name = name;
			out->name_len = (size_t)(id - name);
			out->body = r;
			out->end = q;
			*at = q;
			return true;
		}
		p += klen;
	}
	*at = end;
	return false;
}

bool port_definition_named(const port_definition *d, const char *name)
{
	const char *colon, *lt;
	size_t n;

	while ((colon = strstr(name, "::")))
		name = colon + 2;
	lt = strchr(name, '<');
	n = lt ? (size_t)(lt - name) : strlen(name);
	return n > 0 && d->name_len == n && memcmp(d->name, name, n) == 0;
}

/* Whether [p, end) holds identifier word (outside literals). */
bool port_has_word(const char *p, const char *end, const char *word, size_t len)
{
	while (p < end) {
		const char *q = port_skip_literal(p, end);

		if (q != p) {
			p = q;
		} else if (port_ident_char(*p)) {
			for (q = p; q < end && port_ident_char(*q); q++)
				;
			if ((size_t)(q - p) == len && memcmp(p, word, len) == 0)
				return true;
			p = q;
		} else {
			p++;
		}
	}
	return false;
}

bool port_has_directive(const char *p, const char *end)
{
	bool line_start = false;

	for (; p < end; p++) {
		if (*p == '\n')
			line_start = true;
		else if (*p == '#' && line_start)
			return true;
		else if (*p != ' ' && *p != '\t')
			line_start = false;
	}
	return false;
}

static bool has_keyword(const char *p, const char *end, const char *word)
{
	return port_has_word(p, end, word, strlen(word));
}

/* The head [from, brace) of a block at namespace scope: a host function's
 * definition when it ends with its parameter list (and qualifiers), holds
 * no initializer, and no keyword that lets device code call it. */
static bool host_function(const char *from, const char *brace)
{
	static const char *const device[] = { "__device__", "__global__", "constexpr", "consteval", "class", "struct",
					      "union", "enum", "namespace", "extern" };
	const char *p = brace;
	size_t i;
	int depth = 0;

	for (;;) { /* past const, noexcept, override, final */
		while (p > from && (p[-1] == ' ' || p[-1] == '\t' || p[-1] == '\n' || p[-1] == '\r'))
			p--;
		if (p > from && port_ident_char(p[-1])) {
			const char *w = p;

			while (w > from && port_ident_char(w[-1]))
				w--;
			if (!((p - w == 5 && !memcmp(w, "const", 5)) || (p - w == 8 && !memcmp(w, "noexcept", 8)) ||
			      (p - w == 8 && !memcmp(w, "override", 8)) || (p - w == 5 && !memcmp(w, "final", 5))))
				return false;
			p = w;
			continue;
		}
		break;
	}
	if (p == from || p[-1] != ')')
		return false;
	for (i = 0; i < sizeof(device) / sizeof(*device); i++)
		if (has_keyword(from, brace, device[i]))
			return false;
	for (p = from; p < brace; p++) { /* an initializer: int a[] = {...} */
		const char *q = port_skip_literal(p, brace);

		if (q != p) {
			p = q - 1;
			continue;
		}
		depth += (*p == '(') - (*p == ')');
		if (*p == '=' && depth == 0)
			return false;
	}
	return true;
}

void port_host_functions(const char *text, const char *end, port_host_fn fn, void *payload)
{
	const char *p = text, *head = text;

	while (p < end) {
		const char *q = port_skip_literal(p, end);

		if (q != p) {
			p = q;
			continue;
		}
		if (*p == '#') { /* a directive line ends a head */
			while (p < end && *p != '\n')
				p += (*p == '\\' && p + 1 < end) ? 2 : 1;
			head = p;
			continue;
		}
		if (*p == ';' || *p == '}') {
			head = ++p;
			continue;
		}
		if (*p != '{') {
			p++;
			continue;
		}
		if (has_keyword(head, p, "namespace") ||
		    (has_keyword(head, p, "extern") && memchr(head, '"', (size_t)(p - head)) && !memchr(head, '(', (size_t)(p - head)))) {
			head = ++p; /* into the block */
			continue;
		}
		q = past_closing(p, end);
		if (!q)
			return;
		if (host_function(head, p))
			fn(payload, head, p, q);
		head = p = q;
	}
}

bool port_include_name(const char *line, const char *end, const char **name, size_t *len, bool *quoted)
{
	const char *p = line, *close;

	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	if (p >= end || *p++ != '#')
		return false;
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	if ((size_t)(end - p) < 7 || strncmp(p, "include", 7) != 0)
		return false;
	p += 7;
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	if (p >= end || (*p != '"' && *p != '<'))
		return false;
	*quoted = *p == '"';
	close = memchr(p + 1, *quoted ? '"' : '>', (size_t)(end - p - 1));
	if (!close || close == p + 1)
		return false;
	*name = p + 1;
	*len = (size_t)(close - p - 1);
	return true;
}
