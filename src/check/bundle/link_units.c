#include "check/bundle/link_units.h"

#include <stdlib.h>
#include <string.h>

#include "port/definitions.h"
#include "util/error.h"

/* The name of a __device__ function declared without a body at keyword,
 * or NULL: [keyword, ';') holds a parameter list and no brace or '='. */
static const char *declared(const char *keyword, const char *end, size_t *len)
{
	const char *p = keyword, *open = NULL, *name;

	for (; p < end && *p != ';'; p++) {
		const char *q = port_skip_literal(p, end);

		if (q != p) {
			p = q - 1;
			continue;
		}
		if (*p == '{' || *p == '=' || *p == '#')
			return NULL;
		if (*p == '(' && !open)
			open = p;
	}
	if (p == end || !open)
		return NULL;
	for (name = open; name > keyword && (name[-1] == ' ' || name[-1] == '\t' || name[-1] == '\n'); name--)
		;
	*len = 0;
	while (name > keyword && port_ident_char(name[-1])) {
		name--;
		(*len)++;
	}
	return *len ? name : NULL;
}

/* Whether out, from start, has path as a line. */
static bool listed(const util_buf *out, size_t start, const char *path)
{
	const char *p = out->ptr ? out->ptr + start : NULL;
	size_t n = strlen(path);

	for (; p && *p; p = strchr(p, '\n') + 1)
		if (strncmp(p, path, n) == 0 && p[n] == '\n')
			return true;
	return false;
}

int bundle_link_index_make(bundle_link_index *out, const bundle_input *in)
{
	size_t i;

	out->n = 0;
	if (!(out->defined = calloc(in->nsources + 1, sizeof(*out->defined))))
		return util_error_set(UTIL_ENOMEM, "out of memory");
	out->n = in->nsources;
	for (i = 0; i < in->nsources; i++) {
		const bundle_source *s = &in->sources[i];
		const char *at = s->orig;
		port_definition d;

		util_buf_putc(&out->defined[i], '\n');
		while (port_definition_next(&d, s->orig, s->orig + s->orig_len, &at, "__device__"))
			util_buf_printf(&out->defined[i], "%.*s\n", (int)d.name_len, d.name);
		if (util_buf_oom(&out->defined[i]))
			return util_error_set(UTIL_ENOMEM, "out of memory");
	}
	return 0;
}

void bundle_link_index_dispose(bundle_link_index *idx)
{
	size_t i;

	for (i = 0; i < idx->n; i++)
		util_buf_dispose(&idx->defined[i]);
	free(idx->defined);
	memset(idx, 0, sizeof(*idx));
}

/* Whether source i defines a __device__ function named [name, +len). */
static bool defines(const bundle_link_index *idx, size_t i, const char *name, size_t len)
{
	const util_buf *d = &idx->defined[i];
	const char *p = d->ptr;

	while (p && (p = memmem(p, d->len - (size_t)(p - d->ptr), name, len)))
		if (p[-1] == '\n' && p[len] == '\n')
			return true;
		else
			p++;
	return false;
}

/* Lists the sources defining what source k declares, then what those
 * declare, once each; never first, the kernel's own file. */
static void collect(util_buf *out, size_t start, size_t first, size_t k, const bundle_input *in,
		    const bundle_link_index *idx, int depth)
{
	const bundle_source *s = &in->sources[k];
	const char *p = s->orig, *end = s->orig + s->orig_len;

	while (depth < 8 && (p = port_skip_literal(p, end)) < end) {
		const char *name;
		size_t len, i;

		if (!(end - p >= 10 && memcmp(p, "__device__", 10) == 0 && (p == s->orig || !port_ident_char(p[-1])))) {
			p++;
			continue;
		}
		name = declared(p, end, &len);
		p += 10;
		if (!name || defines(idx, k, name, len))
			continue;
		for (i = 0; i < in->nsources; i++) {
			if (i == k || !defines(idx, i, name, len))
				continue;
			if (i != first && !listed(out, start, in->sources[i].path)) {
				util_buf_printf(out, "%s\n", in->sources[i].path);
				collect(out, start, first, i, in, idx, depth + 1);
			}
			break;
		}
	}
}

int bundle_link_units(util_buf *out, const bundle_source *source, const bundle_input *in,
		      const bundle_link_index *idx)
{
	size_t k = (size_t)(source - in->sources);

	collect(out, out->len, k, k, in, idx, 0);
	return util_buf_oom(out) ? util_error_set(UTIL_ENOMEM, "out of memory") : 0;
}
