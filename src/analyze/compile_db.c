#include "analyze/compile_db.h"

#include <jansson.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"

typedef struct db_entry {
	char *path;   /* absolute, resolved */
	char **flags; /* the kept flags */
	size_t nflags;
} db_entry;

struct an_compile_db {
	db_entry *entries;
	size_t count;
};

char **an_compile_db_split(const char *cmd, size_t *count)
{
	size_t cap = 16, n = 0, len = strlen(cmd);
	char **argv = malloc(cap * sizeof(*argv));
	char *word = malloc(len + 1);
	size_t i = 0;

	if (!argv || !word)
		goto fail;
	while (i < len) {
		size_t w = 0;
		bool any = false;

		while (i < len && (cmd[i] == ' ' || cmd[i] == '\t' || cmd[i] == '\n'))
			i++;
		while (i < len && cmd[i] != ' ' && cmd[i] != '\t' && cmd[i] != '\n') {
			char q = cmd[i];

			any = true;
			if (q == '\'' || q == '"') {
				for (i++; i < len && cmd[i] != q; i++) {
					if (q == '"' && cmd[i] == '\\' && i + 1 < len)
						i++;
					word[w++] = cmd[i];
				}
				i++;
			} else {
				if (q == '\\' && i + 1 < len)
					i++;
				word[w++] = cmd[i++];
			}
		}
		if (!any)
			break;
		if (n == cap) {
			char **m = realloc(argv, (cap *= 2) * sizeof(*argv));

			if (!m)
				goto fail;
			argv = m;
		}
		if (!(argv[n] = strndup(word, w)))
			goto fail;
		n++;
	}
	free(word);
	*count = n;
	return argv;
fail:
	while (argv && n)
		free(argv[--n]);
	free(argv);
	free(word);
	return NULL;
}

static char *absolute(const char *dir, const char *path)
{
	char *joined, *real;

	if (path[0] == '/')
		joined = strdup(path);
	else if (asprintf(&joined, "%s/%s", dir, path) < 0)
		joined = NULL;
	if (!joined)
		return NULL;
	real = realpath(joined, NULL);
	if (real) {
		free(joined);
		return real;
	}
	return joined;
}

static bool keep_flag(db_entry *e, const char *flag)
{
	char *copy = strdup(flag);

	if (!copy)
		return false;
	e->flags[e->nflags++] = copy;
	return true;
}

/* Keeps what changes how the file parses; paths become absolute. */
static bool keep_flags(db_entry *e, char **argv, size_t argc, const char *dir)
{
	static const char *const with_path[] = { "-I", "-isystem", "-iquote", "-include", NULL };
	size_t i, k;

	e->flags = calloc(argc * 2 + 1, sizeof(*e->flags));
	if (!e->flags)
		return false;
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (strncmp(a, "-D", 2) == 0 || strncmp(a, "-U", 2) == 0) {
			if (!keep_flag(e, a))
				return false;
			if (a[2] == '\0' && i + 1 < argc && !keep_flag(e, argv[++i]))
				return false;
			continue;
		}
		if (strncmp(a, "-std=", 5) == 0 && strstr(a, "++")) {
			if (!keep_flag(e, a))
				return false;
			continue;
		}
		for (k = 0; with_path[k]; k++) {
			size_t n = strlen(with_path[k]);
			const char *path = NULL;

			if (strncmp(a, with_path[k], n) != 0)
				continue;
			if (a[n] == '\0' && i + 1 < argc)
				path = argv[++i];
			else if (a[n] != '\0' && with_path[k][1] == 'I')
				path = a + n;
			if (!path)
				continue;
			{
				char *abs = absolute(dir, path);

				if (!abs || !keep_flag(e, with_path[k])) {
					free(abs);
					return false;
				}
				e->flags[e->nflags++] = abs;
			}
			break;
		}
	}
	return true;
}

static void free_argv(char **argv, size_t n)
{
	while (n)
		free(argv[--n]);
	free(argv);
}

int an_compile_db_load(an_compile_db **out, const char *dir)
{
	char *path = NULL;
	json_error_t jerr;
	json_t *root;
	an_compile_db *db;
	size_t i;

	*out = NULL;
	if (asprintf(&path, "%s/compile_commands.json", dir) < 0)
		return util_error_set(UTIL_ENOMEM, "out of memory");
	root = json_load_file(path, 0, &jerr);
	if (!root || !json_is_array(root)) {
		util_error_set(UTIL_EINPUT, "%s: %s", path,
			       root ? "not a compilation database (expected an array)" : jerr.text);
		json_decref(root);
		free(path);
		return UTIL_EINPUT;
	}
	db = calloc(1, sizeof(*db));
	if (db)
		db->entries = calloc(json_array_size(root) + 1, sizeof(*db->entries));
	if (!db || !db->entries) {
		free(db);
		json_decref(root);
		free(path);
		return util_error_set(UTIL_ENOMEM, "out of memory");
	}
	for (i = 0; i < json_array_size(root); i++) {
		json_t *item = json_array_get(root, i), *args;
		const char *edir = json_string_value(json_object_get(item, "directory"));
		const char *file = json_string_value(json_object_get(item, "file"));
		const char *cmd = json_string_value(json_object_get(item, "command"));
		db_entry *e = &db->entries[db->count];
		char **argv = NULL;
		size_t argc = 0, k;

		if (!edir || !file) {
			util_error_set(UTIL_EINPUT, "%s: entry %zu lacks \"directory\" or \"file\"", path, i + 1);
			json_decref(root);
			an_compile_db_free(db);
			free(path);
			return UTIL_EINPUT;
		}
		args = json_object_get(item, "arguments");
		if (json_is_array(args)) {
			argc = json_array_size(args);
			argv = calloc(argc + 1, sizeof(*argv));
			for (k = 0; argv && k < argc; k++)
				argv[k] = strdup(json_string_value(json_array_get(args, k)) ?
						 json_string_value(json_array_get(args, k)) : "");
		} else if (cmd) {
			argv = an_compile_db_split(cmd, &argc);
		}
		e->path = absolute(edir, file);
		if (!e->path || (argv && !keep_flags(e, argv, argc, edir))) {
			free_argv(argv, argc);
			json_decref(root);
			db->count++;
			an_compile_db_free(db);
			free(path);
			return util_error_set(UTIL_ENOMEM, "out of memory");
		}
		free_argv(argv, argc);
		db->count++;
	}
	json_decref(root);
	free(path);
	*out = db;
	return 0;
}

void an_compile_db_free(an_compile_db *db)
{
	size_t i, k;

	if (!db)
		return;
	for (i = 0; i < db->count; i++) {
		for (k = 0; k < db->entries[i].nflags; k++)
			free(db->entries[i].flags[k]);
		free(db->entries[i].flags);
		free(db->entries[i].path);
	}
	free(db->entries);
	free(db);
}

const char *const *an_compile_db_flags(const an_compile_db *db, const char *path, size_t *count)
{
	char *real = realpath(path, NULL);
	size_t i;

	*count = 0;
	if (!real)
		return NULL;
	for (i = 0; i < db->count; i++) {
		if (strcmp(db->entries[i].path, real) == 0) {
			free(real);
			*count = db->entries[i].nflags;
			return (const char *const *)db->entries[i].flags;
		}
	}
	free(real);
	return NULL;
}
