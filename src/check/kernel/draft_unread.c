#include "check/kernel/draft_unread.h"

#include <stdlib.h>
#include <string.h>

#include "port/definitions.h"
#include "util/buf.h"
#include "util/error.h"

/* Whether some spec is of the kernel defined by d. */
static bool drafted(const chk_spec *specs, size_t n, const port_definition *d)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (specs[i].kernel && port_definition_named(d, specs[i].kernel))
			return true;
	return false;
}

/* Blanks a host function's text, its newlines kept: the kernels after it
 * keep their lines. */
static void blank(void *payload, const char *head, const char *body, const char *end)
{
	util_buf *view = payload;
	size_t at = (size_t)(head - view->ptr);

	(void)body;
	for (; at < (size_t)(end - view->ptr); at++)
		if (view->ptr[at] != '\n')
			view->ptr[at] = ' ';
}

static int take(chk_spec **specs, size_t *n, chk_spec *s)
{
	chk_spec *m = realloc(*specs, (*n + 1) * sizeof(*m));
	char *comment = NULL;

	if (!m)
		return util_error_set(UTIL_ENOMEM, "out of memory");
	*specs = m;
	if (asprintf(&comment, "%s%sThe parse of the whole file did not reach this kernel (a declaration before\n"
			       "it that needs the file's headers): drafted from the file without its host\n"
			       "functions, so without its launch.", s->comment ? s->comment : "",
		     s->comment ? "\n" : "") < 0)
		return util_error_set(UTIL_ENOMEM, "out of memory");
	free(s->comment);
	s->comment = comment;
	m[(*n)++] = *s;
	memset(s, 0, sizeof(*s));
	return 0;
}

int chk_draft_unread(chk_spec **specs, size_t *n, const char *path, const char *fs_path, const char *src,
		     size_t len, const chk_draft_options *options, char **missed)
{
	const char *at = src;
	util_buf names = UTIL_BUF_INIT, view = UTIL_BUF_INIT;
	chk_spec *again = NULL;
	size_t nagain = 0, i, have = *n;
	port_definition d;
	int error = 0;

	*missed = NULL;
	while (port_definition_next(&d, src, src + len, &at, "__global__"))
		if (!drafted(*specs, have, &d))
			util_buf_printf(&names, "%s%.*s", names.len ? ", " : "", (int)d.name_len, d.name);
	if (!names.len)
		return 0;
	util_buf_put(&view, src, len);
	if (util_buf_oom(&view) || util_buf_oom(&names)) {
		error = util_error_set(UTIL_ENOMEM, "out of memory");
		goto done;
	}
	port_host_functions(view.ptr, view.ptr + view.len, blank, &view);
	if ((error = chk_draft_with(&again, &nagain, path, fs_path, view.ptr, view.len, options)) < 0)
		goto done;
	for (i = 0; i < nagain && error == 0; i++) {
		port_definition k;
		const char *from = src;
		bool wanted = false;

		/* a kernel of this file the first parse did not draft */
		while (!wanted && port_definition_next(&k, src, src + len, &from, "__global__"))
			wanted = again[i].kernel && port_definition_named(&k, again[i].kernel) &&
				 !drafted(*specs, have, &k) && !drafted(*specs + have, *n - have, &k);
		if (wanted)
			error = take(specs, n, &again[i]);
	}
	util_buf_clear(&names);
	for (at = src; error == 0 && port_definition_next(&d, src, src + len, &at, "__global__");)
		if (!drafted(*specs, *n, &d))
			util_buf_printf(&names, "%s%.*s", names.len ? ", " : "", (int)d.name_len, d.name);
	if (error == 0 && names.len)
		*missed = util_buf_detach(&names);
done:
	for (i = 0; i < nagain; i++)
		chk_spec_dispose(&again[i]);
	free(again);
	util_buf_dispose(&names);
	util_buf_dispose(&view);
	return error;
}
