#include "check/kernel/host_free.h"

#include <string.h>

#include "port/definitions.h"

typedef struct host_free {
	util_buf *out;
	const char *src, *copied; /* copied: src up to here is in out */
	bool changed;
} host_free;

static bool space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* Whether the function whose head is [head, body) may stand as a plain
 * declaration: its declarator is an unqualified name (not X::f, an
 * operator or f<int>). */
static bool declarable(const char *head, const char *body)
{
	const char *p = body, *name;
	int depth = 0;

	while (p > head && p[-1] != ')') /* past const, noexcept, ... */
		p--;
	for (; p > head; p--) { /* to the parameter list's opening parenthesis */
		depth += (p[-1] == ')') - (p[-1] == '(');
		if (depth == 0)
			break;
	}
	if (p == head)
		return false;
	for (p--; p > head && space(p[-1]); p--)
		;
	name = p;
	while (p > head && port_ident_char(p[-1]))
		p--;
	if (p == name || (name - p == 8 && memcmp(p, "operator", 8) == 0))
		return false;
	while (p > head && space(p[-1]))
		p--;
	return !(p - head >= 2 && p[-1] == ':' && p[-2] == ':') && !(p > head && p[-1] == '~');
}

/* Text [from, to) with everything but newlines made blanks. */
static void put_blank(util_buf *out, const char *from, const char *to)
{
	for (; from < to; from++)
		util_buf_putc(out, *from == '\n' ? '\n' : ' ');
}

static void leave_out(void *payload, const char *head, const char *body, const char *end)
{
	host_free *h = payload;

	if (port_has_directive(body, end))
		return;
	if (declarable(head, body)) {
		util_buf_put(h->out, h->copied, (size_t)(body - h->copied));
		util_buf_putc(h->out, ';');
		put_blank(h->out, body + 1, end);
	} else {
		util_buf_put(h->out, h->copied, (size_t)(head - h->copied));
		put_blank(h->out, head, end);
	}
	h->copied = end;
	h->changed = true;
}

bool chk_source_host_free(util_buf *out, const char *src, size_t len)
{
	host_free h = { out, src, src, false };

	port_host_functions(src, src + len, leave_out, &h);
	util_buf_put(out, h.copied, (size_t)(src + len - h.copied));
	return h.changed;
}

void chk_host_free_path(util_buf *out, const char *path)
{
	const char *slash = strrchr(path, '/'), *dot = strrchr(path, '.');

	if (!dot || (slash && dot < slash) || dot == (slash ? slash + 1 : path)) {
		util_buf_printf(out, "%s.hipport-kernels", path);
		return;
	}
	util_buf_put(out, path, (size_t)(dot - path));
	util_buf_printf(out, ".hipport-kernels%s", dot);
}
