#include "review/check_scope.h"

#include <stdlib.h>
#include <string.h>

#include "port/definitions.h"
#include "review/proposal.h"
#include "util/error.h"
#include "util/file.h"

/* A body the scope leaves out: another kernel's, or a host function's. */
typedef struct region {
	const char *name, *body, *end; /* name: a kernel's (NULL for a host function) */
	size_t name_len;
	bool kept;
} region;

typedef struct regions {
	region *items;
	size_t n;
	bool oom;
} regions;

static void regions_add(regions *r, const region *in)
{
	region *m = r->oom ? NULL : realloc(r->items, (r->n + 1) * sizeof(*m));

	if (!m) {
		r->oom = true;
		return;
	}
	r->items = m;
	r->items[r->n++] = *in;
}

/* A host function's body, left out where it holds no directive. */
static void add_host_body(void *payload, const char *head, const char *body, const char *end)
{
	region r = { NULL, body, end, 0, false };

	(void)head;
	if (!port_has_directive(body, end))
		regions_add(payload, &r);
}

/* Marks kept the other kernels a kept kernel's code names (a launch from
 * the device), until nothing changes. */
static void keep_launched(regions *k)
{
	bool more = true;
	size_t i, j;

	while (more) {
		more = false;
		for (i = 0; i < k->n; i++)
			for (j = 0; k->items[i].kept && j < k->n; j++)
				if (!k->items[j].kept &&
				    port_has_word(k->items[i].body, k->items[i].end, k->items[j].name, k->items[j].name_len))
					more = k->items[j].kept = true;
	}
}

static int by_body(const void *a, const void *b)
{
	const region *x = a, *y = b;

	return x->body < y->body ? -1 : x->body > y->body;
}

/* Appends kernel's scope in one file's text to out: true when text defines it. */
static bool file_scope(util_buf *out, const char *text, size_t len, const char *kernel)
{
	const char *at = text, *end = text + len, *from = text;
	regions r = { NULL, 0, false };
	port_definition d;
	size_t i, kernels;
	bool found = false;

	while (port_definition_next(&d, text, end, &at, "__global__")) {
		region k = { d.name, d.body, d.end, d.name_len,
			     port_definition_named(&d, kernel) || port_has_directive(d.body, d.end) };

		found |= port_definition_named(&d, kernel);
		regions_add(&r, &k);
	}
	kernels = r.n;
	if (found && !r.oom) {
		regions launched = { r.items, kernels, false };

		keep_launched(&launched);
		port_host_functions(text, end, add_host_body, &r);
		qsort(r.items, r.n, sizeof(*r.items), by_body);
		for (i = 0; i < r.n && !r.oom; i++) {
			if (r.items[i].kept || r.items[i].body < from)
				continue;
			util_buf_put(out, from, (size_t)(r.items[i].body - from));
			util_buf_puts(out, "{}");
			from = r.items[i].end;
		}
		util_buf_put(out, from, (size_t)(end - from));
	}
	free(r.items);
	return found && !r.oom;
}

/* The directory part of path, with its slash ("" for none). */
static size_t dir_len(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? (size_t)(slash - path + 1) : 0;
}

/* Appends "path\0text\0" of every file path includes with quotes, found
 * beside the including file, on one side, each once (seen), its own
 * includes after it; a file not found is its name alone. */
static void includes(util_buf *out, const rv_check_content *c, const char *path, const char *text, size_t len,
		     bool port, util_buf *seen, int depth)
{
	const char *p = text, *end = text + len;

	while (depth < 16 && p < end) {
		const char *line = p, *eol = memchr(p, '\n', (size_t)(end - p)), *q, *close;
		util_buf name = UTIL_BUF_INIT, body = UTIL_BUF_INIT;

		eol = eol ? eol : end;
		p = eol + 1;
		for (q = line; q < eol && (*q == ' ' || *q == '\t'); q++)
			;
		if (q >= eol || *q != '#')
			continue;
		for (q++; q < eol && (*q == ' ' || *q == '\t'); q++)
			;
		if ((size_t)(eol - q) < 9 || memcmp(q, "include", 7) != 0)
			continue;
		for (q += 7; q < eol && (*q == ' ' || *q == '\t'); q++)
			;
		if (q >= eol || *q != '"' || !(close = memchr(q + 1, '"', (size_t)(eol - q - 1))))
			continue;
		/* "\0name\0": seen holds each so, and no name is found inside another */
		util_buf_putc(&name, '\0');
		util_buf_put(&name, path, dir_len(path));
		util_buf_put(&name, q + 1, (size_t)(close - q - 1));
		util_buf_putc(&name, '\0');
		if (util_buf_oom(&name) || (seen->ptr && memmem(seen->ptr, seen->len, name.ptr, name.len))) {
			util_buf_dispose(&name);
			continue;
		}
		util_buf_put(seen, name.ptr, name.len);
		util_buf_put(out, name.ptr + 1, name.len - 1);
		if (c->read && c->read(c->payload, name.ptr + 1, port, &body) == 0) {
			util_buf_put(out, body.ptr ? body.ptr : "", body.len);
			util_buf_putc(out, '\0');
			includes(out, c, name.ptr + 1, body.ptr ? body.ptr : "", body.len, port, seen, depth + 1);
		} else {
			util_error_clear(); /* not beside it: its name alone */
		}
		util_buf_dispose(&body);
		util_buf_dispose(&name);
	}
}

/* Whether a blank between a and b keeps two tokens apart that would
 * otherwise read as one (int x, a - -b, L "s", a .5). */
static bool blank_needed(char a, char b)
{
	static const char joins[] = "+-<>=&|/*.:#%^!";

	if (port_ident_char(a) && (port_ident_char(b) || b == '.' || b == '"' || b == '\''))
		return true;
	if (a == '.' && port_ident_char(b))
		return true;
	return strchr(joins, a) && strchr(joins, b);
}

/* Appends text's tokens to out as the compiler reads them: comments left
 * out, blanks and line breaks only where they keep tokens apart; literals
 * as they are, and each directive on a line of its own (it ends at its
 * line break). A file indented anew, wrapped or commented is the same
 * scope. */
static void tokens_only(util_buf *out, const char *p, size_t len)
{
	const char *end = p + len;
	bool blank = false, line_start = true, directive = false, out_start = true;

	while (p < end) {
		const char *q = port_skip_literal(p, end);

		if (q != p && *p == '/') { /* a comment: a blank */
			blank = true;
			p = q;
			continue;
		}
		if (*p == '\n') {
			if (directive && !(out->len && out->ptr[out->len - 1] == '\\')) {
				util_buf_putc(out, '\n');
				directive = false;
				out_start = true;
				blank = false;
			} else if (directive) {
				util_buf_putc(out, '\n'); /* a continued directive */
			} else {
				blank = true;
			}
			line_start = true;
			p++;
			continue;
		}
		if (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\f' || *p == '\v') {
			blank = true;
			p++;
			continue;
		}
		if (line_start && *p == '#' && !directive) {
			if (!out_start)
				util_buf_putc(out, '\n');
			directive = true;
			blank = false;
		} else if (blank && !out_start && out->len && blank_needed(out->ptr[out->len - 1], *p)) {
			util_buf_putc(out, ' ');
		}
		blank = line_start = out_start = false;
		if (q != p) { /* a string or character literal */
			util_buf_put(out, p, (size_t)(q - p));
			p = q;
		} else {
			util_buf_putc(out, *p++);
		}
	}
}

/* Appends the scope of kernel on one side to out; false when out of memory. */
static bool side_scope(util_buf *out, const rv_check_content *c, const char *text, size_t len, bool port,
		       const char *kernel, bool *found)
{
	bool ok;

	util_buf seen = UTIL_BUF_INIT, raw = UTIL_BUF_INIT;

	if (!(*found = file_scope(&raw, text, len, kernel)))
		util_buf_put(&raw, text, len); /* the original without the kernel: whole */
	util_buf_putc(&raw, '\0');
	includes(&raw, c, c->path ? c->path : "", text, len, port, &seen, 0);
	util_buf_putc(&raw, '\0');
	tokens_only(out, raw.ptr ? raw.ptr : "", raw.len);
	ok = !util_buf_oom(&raw) && !util_buf_oom(&seen);
	util_buf_dispose(&raw);
	util_buf_dispose(&seen);
	return ok;
}

void rv_check_scope(char out[41], const rv_check_content *c, const char *kernel)
{
	util_buf scope = UTIL_BUF_INIT;

	bool in_port = false, in_orig;

	out[0] = '\0';
	/* the reference's side too: upstream may change a kernel whose port
	 * the engineer kept */
	if (kernel && *kernel && c->port && side_scope(&scope, c, c->port, c->port_len, true, kernel, &in_port) &&
	    in_port && side_scope(&scope, c, c->orig, c->orig_len, false, kernel, &in_orig) && !util_buf_oom(&scope))
		rv_blob_id(out, scope.ptr ? scope.ptr : "", scope.len);
	util_buf_dispose(&scope);
}

void rv_check_content_init(rv_check_content *out, const char *path, const char *orig, size_t orig_len,
			   const char *port, size_t port_len, rv_scope_reader read, void *payload)
{
	memset(out, 0, sizeof(*out));
	out->path = path;
	out->orig = orig ? orig : "";
	out->orig_len = orig ? orig_len : 0;
	out->port = port;
	out->port_len = port ? port_len : 0;
	out->read = read;
	out->payload = payload;
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
	rv_check_scope(scope, now, c->kernel);
	return scope[0] && strcmp(scope, c->scope) == 0;
}

int rv_tree_read(void *payload, const char *path, bool port, util_buf *out)
{
	const rv_tree_reader *r = payload;
	const rv_session_file *f = port || !r->session ? NULL : rv_session_find(r->session, path);
	util_buf fs = UTIL_BUF_INIT;
	int error;

	if (f)
		return rv_session_original(r->session, f, out);
	util_buf_printf(&fs, "%s%s", r->root ? r->root : "", path);
	error = util_buf_oom(&fs) ? -1 : util_file_read(out, fs.ptr, 0);
	util_buf_dispose(&fs);
	return error;
}

void rv_check_content_of(rv_check_content *out, util_buf *orig, rv_tree_reader *tree, const char *path,
			 const char *port, size_t port_len)
{
	bool read = rv_tree_read(tree, path, false, orig) == 0;

	if (!read)
		util_error_clear(); /* no original: only its own content holds */
	rv_check_content_init(out, path, read ? (orig->ptr ? orig->ptr : "") : NULL, orig->len, port, port_len,
			      rv_tree_read, tree);
}
