#include "check/kernel/source.h"

#include <ctype.h>
#include <string.h>

/* The end of a comment, string or character literal starting at p, or p. */
const char *chk_source_skip_literal(const char *p, const char *end)
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

/* Past the bracket that closes the one at p (( or {), or NULL. */
static const char *past_closing(const char *p, const char *end)
{
	char open = *p, close = open == '(' ? ')' : '}';
	int depth = 0;

	while (p < end) {
		const char *q = chk_source_skip_literal(p, end);

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

bool chk_source_ident_char(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

/* Appends to out every definition after keyword (__global__, __device__)
 * named name (its last name), or every one when name is NULL. */
static void definitions(util_buf *out, const char *src, size_t len, const char *keyword, const char *kernel)
{
	const char *end = src + len, *p = src, *name = kernel ? kernel : "", *colon, *lt;
	size_t nlen, klen = strlen(keyword);

	while ((colon = strstr(name, "::")))
		name = colon + 2;
	lt = strchr(name, '<');
	nlen = lt ? (size_t)(lt - name) : strlen(name);
	while (p < end) {
		const char *q = chk_source_skip_literal(p, end), *id = NULL, *r;

		if (q != p) {
			p = q;
			continue;
		}
		if ((size_t)(end - p) < klen || memcmp(p, keyword, klen) != 0 || (p > src && chk_source_ident_char(p[-1])) ||
		    (p + klen < end && chk_source_ident_char(p[klen]))) {
			p++;
			continue;
		}
		/* the declarator's name is before the last parenthesised group
		 * (__launch_bounds__(256) comes first), then the body or ';' */
		for (r = p + klen; r && r < end && *r != '{' && *r != ';';) {
			const char *lit = chk_source_skip_literal(r, end);

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
		if (r && r < end && *r == '{' && id &&
		    (!kernel || ((size_t)(id - p) > nlen && memcmp(id - nlen, name, nlen) == 0 &&
				 !chk_source_ident_char(id[-(long)nlen - 1]))) &&
		    (q = past_closing(r, end))) {
			util_buf_put(out, p, (size_t)(q - p));
			util_buf_putc(out, '\n');
			p = q;
			continue;
		}
		p += klen;
	}
}

void chk_kernel_definitions(util_buf *out, const char *src, size_t len, const char *kernel)
{
	definitions(out, src, len, "__global__", kernel);
}

bool chk_kernel_unchanged(const char *orig, size_t orig_len, const char *port, size_t port_len, const char *kernel)
{
	util_buf a = UTIL_BUF_INIT, b = UTIL_BUF_INIT;
	bool same;

	chk_kernel_definitions(&a, orig, orig_len, kernel);
	chk_kernel_definitions(&b, port, port_len, kernel);
	same = !util_buf_oom(&a) && !util_buf_oom(&b) && a.len > 0 && a.len == b.len && memcmp(a.ptr, b.ptr, a.len) == 0;
	/* and the device functions it may call: a wrong port is often there */
	util_buf_clear(&a);
	util_buf_clear(&b);
	definitions(&a, orig, orig_len, "__device__", NULL);
	definitions(&b, port, port_len, "__device__", NULL);
	same = same && !util_buf_oom(&a) && !util_buf_oom(&b) && a.len == b.len && (!a.len || memcmp(a.ptr, b.ptr, a.len) == 0);
	util_buf_dispose(&a);
	util_buf_dispose(&b);
	return same;
}
