#include "check/kernel/spec_list.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "util/buf.h"
#include "util/error.h"

void chk_spec_list_dispose(chk_spec_list *l)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		chk_spec_dispose(&l->items[i]);
	free(l->items);
	memset(l, 0, sizeof(*l));
}

static int by_string(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int chk_spec_list_load(chk_spec_list *out, const char *root)
{
	util_buf dir = UTIL_BUF_INIT, path = UTIL_BUF_INIT;
	char **names = NULL;
	size_t n = 0, i;
	struct dirent *e;
	DIR *d;
	int error = 0;

	memset(out, 0, sizeof(*out));
	util_buf_printf(&dir, "%s.hipport/checks", root);
	if (util_buf_oom(&dir) || !(d = opendir(dir.ptr))) {
		util_buf_dispose(&dir);
		return 0;
	}
	while ((e = readdir(d))) {
		size_t len = strlen(e->d_name);
		char **m;

		if (len <= 6 || strcmp(e->d_name + len - 6, ".check") != 0)
			continue;
		if (!(m = realloc(names, (n + 1) * sizeof(*m))) || !(m[n] = strdup(e->d_name))) {
			names = m ? m : names;
			error = util_error_set(UTIL_ENOMEM, "out of memory");
			break;
		}
		names = m;
		n++;
	}
	closedir(d);
	if (!error && n)
		qsort(names, n, sizeof(*names), by_string);
	if (!error && !(out->items = calloc(n + 1, sizeof(*out->items))))
		error = util_error_set(UTIL_ENOMEM, "out of memory");
	for (i = 0; !error && i < n; i++) {
		util_buf_clear(&path);
		util_buf_printf(&path, "%s/%s", dir.ptr, names[i]);
		if ((error = chk_spec_read(&out->items[out->n], path.ptr)) == 0)
			out->n++;
	}
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	util_buf_dispose(&dir);
	util_buf_dispose(&path);
	if (error < 0)
		chk_spec_list_dispose(out);
	return error;
}

size_t chk_spec_list_covering(const chk_spec_list *l, const char *path, const char **names, size_t max)
{
	size_t i, n = 0;

	for (i = 0; i < l->n && n < max; i++)
		if (l->items[i].source && strcmp(l->items[i].source, path) == 0)
			names[n++] = l->items[i].name;
	return n;
}
