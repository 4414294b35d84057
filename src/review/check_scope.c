#include "review/check_scope.h"

#include <stdlib.h>
#include <string.h>

#include "port/definitions.h"
#include "review/proposal.h"
#include "util/buf.h"

typedef struct scoped_kernel {
	port_definition def;
	bool kept;
} scoped_kernel;

/* Whether [p, end) holds a preprocessor line: a body that #defines or
 * #undefs changes the text after it. */
static bool has_directive(const char *p, const char *end)
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

/* Whether the body of d names identifier name (a launch from the device). */
static bool names(const port_definition *d, const char *name, size_t len)
{
	const char *p = d->body, *end = d->end;

	while (p < end) {
		const char *q = port_skip_literal(p, end);

		if (q != p) {
			p = q;
		} else if (port_ident_char(*p)) {
			for (q = p; q < end && port_ident_char(*q); q++)
				;
			if ((size_t)(q - p) == len && memcmp(p, name, len) == 0)
				return true;
			p = q;
		} else {
			p++;
		}
	}
	return false;
}

/* Marks kept what a kept kernel's code launches, until nothing changes. */
static void keep_launched(scoped_kernel *k, size_t n)
{
	bool more = true;
	size_t i, j;

	while (more) {
		more = false;
		for (i = 0; i < n; i++)
			for (j = 0; k[i].kept && j < n; j++)
				if (!k[j].kept && names(&k[i].def, k[j].def.name, k[j].def.name_len))
					more = k[j].kept = true;
	}
}

/* Appends kernel's scope in text to out: true when text defines it. */
static bool scope_text(util_buf *out, const char *text, size_t len, const char *kernel)
{
	const char *at = text, *end = text + len, *from = text;
	scoped_kernel *k = NULL;
	port_definition d;
	size_t n = 0, i;
	bool found = false;

	while (port_definition_next(&d, text, end, &at, "__global__")) {
		scoped_kernel *m = realloc(k, (n + 1) * sizeof(*k));

		if (!m) {
			free(k);
			return false;
		}
		k = m;
		k[n].def = d;
		k[n].kept = port_definition_named(&d, kernel) || has_directive(d.body, d.end);
		found |= port_definition_named(&d, kernel);
		n++;
	}
	if (found) {
		keep_launched(k, n);
		for (i = 0; i < n; i++) {
			if (k[i].kept)
				continue;
			util_buf_put(out, from, (size_t)(k[i].def.body - from));
			util_buf_puts(out, "{}");
			from = k[i].def.end;
		}
		util_buf_put(out, from, (size_t)(end - from));
	}
	free(k);
	return found;
}

void rv_check_scope(char out[41], const char *orig, size_t orig_len, const char *port, size_t port_len,
		    const char *kernel)
{
	util_buf scope = UTIL_BUF_INIT;

	out[0] = '\0';
	if (kernel && *kernel && orig && port && scope_text(&scope, port, port_len, kernel)) {
		/* the reference's side too: upstream may change a kernel whose
		 * port the engineer kept */
		util_buf_putc(&scope, '\0');
		if (!scope_text(&scope, orig, orig_len, kernel))
			util_buf_put(&scope, orig, orig_len);
		if (!util_buf_oom(&scope))
			rv_blob_id(out, scope.ptr ? scope.ptr : "", scope.len);
	}
	util_buf_dispose(&scope);
}

void rv_check_content_init(rv_check_content *out, const char *orig, size_t orig_len, const char *port,
			   size_t port_len)
{
	memset(out, 0, sizeof(*out));
	out->orig = orig ? orig : "";
	out->orig_len = orig ? orig_len : 0;
	out->port = port;
	out->port_len = port ? port_len : 0;
	if (port)
		rv_blob_id(out->blob, port, port_len);
}

bool rv_check_current(const rv_session_check *c, const rv_check_content *now)
{
	char scope[41];

	if (!now->port)
		return false;
	/* a kernel's scope takes in the original too, which the port's blob
	 * does not: upstream may change a kernel whose port was kept */
	if (!c->scope[0] || !c->kernel)
		return strcmp(c->port, now->blob) == 0;
	rv_check_scope(scope, now->orig, now->orig_len, now->port, now->port_len, c->kernel);
	return scope[0] && strcmp(scope, c->scope) == 0;
}
