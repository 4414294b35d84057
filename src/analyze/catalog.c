/* The finding catalog: share/findings/catalog.txt, compiled into the binary. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/finding.h"
#include "util/buf.h"
#include "util/embedded.h"
#include "util/error.h"

extern const util_embedded_file an_catalog_builtin[];

static an_catalog_entry *entries;
static size_t nentries;
static char *text;
static char error_message[512];
static pthread_once_t once = PTHREAD_ONCE_INIT;

static char *trim(char *s)
{
	char *end = s + strlen(s);

	while (*s == ' ' || *s == '\t')
		s++;
	while (end > s && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r'))
		*--end = '\0';
	return s;
}

/* Appends a continuation line to the value before it, in place: the value
 * ends earlier in the same buffer. */
static void join(const char *value, char *line)
{
	char *v = (char *)value, *c = trim(line);
	size_t vl = strlen(v), cl = strlen(c);

	v[vl] = ' ';
	memmove(v + vl + 1, c, cl + 1);
}

int an_catalog_parse(an_catalog_entry **out, size_t *count, char *data, const char *name)
{
	an_catalog_entry *list = NULL, *cur = NULL;
	const char **last = NULL;
	size_t n = 0;
	unsigned lineno = 0;
	char *line = data;

	*out = NULL;
	*count = 0;
	while (line && *line) {
		char *nl = strchr(line, '\n'), *eq;

		lineno++;
		if (nl)
			*nl = '\0';
		if (line[0] == '#' || *trim(line) == '\0') {
			last = NULL;
		} else if ((line[0] == ' ' || line[0] == '\t') && last) {
			join(*last, line);
		} else if (line[0] == '[') {
			char *close = strchr(line, ']');
			an_catalog_entry *grown;

			if (!close)
				goto bad;
			*close = '\0';
			grown = realloc(list, (n + 1) * sizeof(*grown));
			if (!grown) {
				free(list);
				return util_error_set(UTIL_ENOMEM, "out of memory");
			}
			list = grown;
			cur = &list[n++];
			memset(cur, 0, sizeof(*cur));
			cur->id = line + 1;
			cur->severity = AN_ERROR;
			last = NULL;
		} else if ((eq = strchr(line, '=')) != NULL && cur) {
			char *key, *value;
			int sev;

			*eq = '\0';
			key = trim(line);
			value = trim(eq + 1);
			if (strcmp(key, "severity") == 0) {
				if ((sev = an_severity_parse(value)) < 0)
					goto bad;
				cur->severity = (an_severity)sev;
				last = NULL;
				goto next;
			} else if (strcmp(key, "title") == 0) {
				last = &cur->title;
			} else if (strcmp(key, "description") == 0) {
				last = &cur->description;
			} else if (strcmp(key, "action") == 0) {
				last = &cur->action;
			} else if (strcmp(key, "cost") == 0) {
				last = &cur->cost;
			} else {
				goto bad;
			}
			*last = value;
		} else {
			goto bad;
		}
next:
		line = nl ? nl + 1 : NULL;
	}
	for (size_t i = 0; i < n; i++)
		if (!list[i].title || !list[i].description || !list[i].action) {
			int error = util_error_set(UTIL_EINPUT, "%s: [%s] lacks a title, description or action",
						   name, list[i].id);

			free(list);
			return error;
		}
	*out = list;
	*count = n;
	return 0;
bad:
	free(list);
	return util_error_set(UTIL_EINPUT, "%s:%u: not a catalog line", name, lineno);
}

static void load(void)
{
	text = strdup(an_catalog_builtin[0].data);
	if (!text || an_catalog_parse(&entries, &nentries, text, an_catalog_builtin[0].name) < 0) {
		strncpy(error_message, text ? util_error_last() : "out of memory", sizeof(error_message) - 1);
		entries = NULL;
		nentries = 0;
	}
}

const an_catalog_entry *an_catalog_all(size_t *count)
{
	pthread_once(&once, load);
	*count = nentries;
	return entries;
}

const an_catalog_entry *an_catalog_find(const char *id)
{
	size_t n, i;
	const an_catalog_entry *all = an_catalog_all(&n);

	for (i = 0; i < n; i++)
		if (strcmp(all[i].id, id) == 0)
			return &all[i];
	return NULL;
}

const char *an_catalog_error(void)
{
	return error_message;
}
