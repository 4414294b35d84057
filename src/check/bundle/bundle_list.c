#include "check/bundle/bundle_list.h"

#include <stdlib.h>
#include <string.h>

#include "util/buf.h"
#include "util/error.h"
#include "util/file.h"

/* The next tab-separated field of *p (up to the end of the line). */
static char *field(const char **p)
{
	size_t len = strcspn(*p, "\t\n");
	char *f = strndup(*p, len);

	*p += len;
	if (**p == '\t')
		(*p)++;
	return f;
}

static int read_list(bundle_list *out, const char *dir, const char *name, int record)
{
	util_buf path = UTIL_BUF_INIT, text = UTIL_BUF_INIT;
	const char *p;
	int error;

	util_buf_printf(&path, "%s/%s", dir, name);
	if (util_buf_oom(&path))
		return util_error_set(UTIL_ENOMEM, "out of memory");
	if ((error = util_file_read(&text, path.ptr, 64u << 20)) < 0) {
		if (record) { /* bundles without record runs */
			util_error_clear();
			error = 0;
		} else {
			error = util_error_set(UTIL_EINPUT, "%s: cannot read it: is %s a bundle (hipport check --bundle)?",
					       path.ptr, dir);
		}
		goto done;
	}
	for (p = text.ptr ? text.ptr : ""; *p && !error;) {
		const char *line = p, *eol = strchr(p, '\n');
		bundle_item *m, *it;
		char *timeout = NULL, *orig = NULL;

		p = eol ? eol + 1 : line + strlen(line);
		if (*line == '\n' || *line == '\t')
			continue;
		if (!(m = realloc(out->items, (out->nitems + 1) * sizeof(*m)))) {
			error = util_error_set(UTIL_ENOMEM, "out of memory");
			break;
		}
		out->items = m;
		it = &m[out->nitems++];
		memset(it, 0, sizeof(*it));
		it->record = record;
		it->name = field(&line);
		if (!record) {
			it->source = field(&line);
			it->kernel = field(&line);
			timeout = field(&line);
			orig = field(&line);
			it->port_blob = field(&line);
			if (!it->name || !it->source || !it->kernel || !timeout || !orig || !it->port_blob)
				error = util_error_set(UTIL_ENOMEM, "out of memory");
			else if (!*it->source || (it->timeout = (unsigned)strtoul(timeout, NULL, 10)) == 0)
				error = util_error_set(UTIL_EINPUT, "%s: the line of %s does not read (NAME, source, kernel, "
						       "timeout, blob ids)", path.ptr, it->name);
		} else { /* DIR, BUILD, RUN, and ORIGIN since it was added */
			free(field(&line));
			free(field(&line));
			it->origin = *line && *line != '\n' ? field(&line) : strdup("config");
			if (!it->name || !it->origin)
				error = util_error_set(UTIL_ENOMEM, "out of memory");
		}
		free(timeout);
		free(orig);
	}
done:
	util_buf_dispose(&path);
	util_buf_dispose(&text);
	return error;
}

static int read_bundle_id(bundle_list *out, const char *dir)
{
	util_buf path = UTIL_BUF_INIT, text = UTIL_BUF_INIT;
	const char *id;
	int error;

	util_buf_printf(&path, "%s/bundle.conf", dir);
	if (util_buf_oom(&path))
		return util_error_set(UTIL_ENOMEM, "out of memory");
	if ((error = util_file_read(&text, path.ptr, 1u << 20)) < 0)
		error = util_error_set(UTIL_EINPUT, "%s: cannot read it: is %s a bundle (hipport check --bundle)?", path.ptr,
				       dir);
	else if (!(id = strstr(text.ptr ? text.ptr : "", "BUNDLE_ID=")))
		error = util_error_set(UTIL_EINPUT, "%s: no BUNDLE_ID", path.ptr);
	else if (!(out->bundle_id = strndup(id + 10, strcspn(id + 10, "\n"))))
		error = util_error_set(UTIL_ENOMEM, "out of memory");
	util_buf_dispose(&path);
	util_buf_dispose(&text);
	return error;
}

int bundle_list_read(bundle_list *out, const char *dir)
{
	int error;

	memset(out, 0, sizeof(*out));
	if ((error = read_bundle_id(out, dir)) < 0 || (error = read_list(out, dir, "checks.list", 0)) < 0 ||
	    ((out->nchecks = out->nitems), (error = read_list(out, dir, "records.list", 1)) < 0))
		bundle_list_dispose(out);
	return error;
}

void bundle_list_dispose(bundle_list *list)
{
	size_t i;

	for (i = 0; i < list->nitems; i++) {
		free(list->items[i].name);
		free(list->items[i].source);
		free(list->items[i].kernel);
		free(list->items[i].port_blob);
		free(list->items[i].origin);
	}
	free(list->items);
	free(list->bundle_id);
	memset(list, 0, sizeof(*list));
}

const bundle_item *bundle_list_check(const bundle_list *list, const char *name)
{
	size_t i;

	for (i = 0; i < list->nchecks; i++)
		if (strcmp(list->items[i].name, name) == 0)
			return &list->items[i];
	return NULL;
}
