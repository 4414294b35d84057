#include "check/bundle/link_units.h"

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

/* Whether text defines a __device__ function named [name, +len). */
static bool defines(const char *text, size_t text_len, const char *name, size_t len)
{
	const char *at = text;
	port_definition d;

	while (port_definition_next(&d, text, text + text_len, &at, "__device__"))
		if (d.name_len == len && memcmp(d.name, name, len) == 0)
			return true;
	return false;
}

/* Lists the sources defining what s declares, then what those declare,
 * once each; never first, the kernel's own file. */
static void collect(util_buf *out, size_t start, const bundle_source *first, const bundle_source *s,
		    const bundle_input *in, int depth)
{
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
		if (!name || defines(s->orig, s->orig_len, name, len))
			continue;
		for (i = 0; i < in->nsources; i++) {
			const bundle_source *o = &in->sources[i];

			if (o == s || !defines(o->orig, o->orig_len, name, len))
				continue;
			if (o != first && !listed(out, start, o->path)) {
				util_buf_printf(out, "%s\n", o->path);
				collect(out, start, first, o, in, depth + 1);
			}
			break;
		}
	}
}

int bundle_link_units(util_buf *out, const bundle_source *source, const bundle_input *in)
{
	collect(out, out->len, source, source, in, 0);
	return util_buf_oom(out) ? util_error_set(UTIL_ENOMEM, "out of memory") : 0;
}
