/* The compile_commands.json reader of rec_commands_guess(): a database
 * whose entries were all made in the program's directory and link exactly
 * one executable, replayed with the side's compiler. */
#include <ctype.h>
#include <jansson.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/compile_db.h"
#include "check/record/commands_readers.h"
#include "util/error.h"
#include "util/process.h"

#define MAX_DB_ENTRIES 100 /* a compilation database longer than that is no program to build by hand */

static void shell_word(util_buf *out, const char *w)
{
	const char *p;

	for (p = w; *p && (isalnum((unsigned char)*p) || strchr("_-./=+,:@%^", *p)); p++)
		;
	if (*w && !*p)
		util_buf_puts(out, w);
	else
		util_process_shell_quote(out, w);
}

/* arg with the database's directory dir made relative to it (the program's
 * directory, where the build runs). */
static void db_relative(util_buf *out, const char *arg, const char *dir)
{
	size_t n = strlen(dir);
	const char *p;

	while (n > 1 && dir[n - 1] == '/')
		n--;
	for (p = arg; *p;) {
		if (n && !strncmp(p, dir, n) && (p[n] == '/' || !p[n])) {
			if (p[n] == '/')
				p += n + 1;
			else {
				util_buf_putc(out, '.');
				p += n;
			}
			continue;
		}
		util_buf_putc(out, *p++);
	}
}

/* One entry's words: its "arguments", else its "command" split. */
static char **db_argv(json_t *item, size_t *argc)
{
	json_t *args = json_object_get(item, "arguments");
	const char *cmd = json_string_value(json_object_get(item, "command"));
	char **argv;
	size_t k;

	*argc = 0;
	if (!json_is_array(args))
		return cmd ? an_compile_db_split(cmd, argc) : NULL;
	if (!(argv = calloc(json_array_size(args) + 1, sizeof(*argv))))
		return NULL;
	for (k = 0; k < json_array_size(args); k++) {
		const char *a = json_string_value(json_array_get(args, k));

		if (!(argv[k] = strdup(a ? a : ""))) {
			while (k)
				free(argv[--k]);
			free(argv);
			return NULL;
		}
	}
	*argc = k;
	return argv;
}

/* The database's commands, each entry in the directory where it was made
 * (one for all, the program's), into build; the one executable they link
 * into exes. */
static int db_commands(util_buf *build, rec_names *exes, bool *usable, const char *text, size_t len)
{
	json_error_t jerr;
	json_t *root = json_loadb(text, len, 0, &jerr);
	util_buf word = UTIL_BUF_INIT;
	const char *dir = NULL;
	size_t i, k;
	int error = 0;

	*usable = json_is_array(root) && json_array_size(root) > 0 && json_array_size(root) <= MAX_DB_ENTRIES;
	for (i = 0; *usable && !error && i < json_array_size(root); i++) {
		json_t *item = json_array_get(root, i);
		const char *edir = json_string_value(json_object_get(item, "directory"));
		const char *file = json_string_value(json_object_get(item, "file"));
		const char *output = json_string_value(json_object_get(item, "output"));
		size_t argc = 0;
		char **argv;
		bool compile = false;

		if (!edir || !file || (dir && strcmp(dir, edir) != 0) ||
		    (file[0] == '/' && (strncmp(file, edir, strlen(edir)) || file[strlen(edir)] != '/'))) {
			*usable = false; /* made elsewhere than the program's directory */
			break;
		}
		dir = edir;
		if (!json_is_array(json_object_get(item, "arguments")) && !json_object_get(item, "command")) {
			*usable = false;
			break;
		}
		if (!(argv = db_argv(item, &argc)) || !argc) {
			error = argv ? 0 : util_error_set(UTIL_ENOMEM, "out of memory");
			*usable = false;
			free(argv);
			break;
		}
		if (build->len)
			util_buf_puts(build, " && ");
		util_buf_puts(build, "\"$HIPPORT_CXX\"");
		for (k = 1; k < argc; k++) {
			util_buf_clear(&word);
			db_relative(&word, argv[k], dir);
			if (util_buf_oom(&word))
				break;
			util_buf_putc(build, ' ');
			shell_word(build, word.ptr);
			compile = compile || !strcmp(argv[k], "-c") || !strcmp(argv[k], "-dc") ||
				  !strcmp(argv[k], "--compile") || !strcmp(argv[k], "-E") || !strcmp(argv[k], "-S");
			if (!strcmp(argv[k], "-o") && k + 1 < argc)
				output = argv[k + 1];
		}
		if (!compile && output && !rec_ends_with(output, ".o") && !rec_ends_with(output, ".obj")) {
			util_buf_clear(&word);
			db_relative(&word, output, dir);
			if (!util_buf_oom(&word) && word.ptr[0] != '/' && !strstr(word.ptr, ".."))
				error = rec_names_add(exes, word.ptr + (strncmp(word.ptr, "./", 2) ? 0 : 2),
						  word.len - (strncmp(word.ptr, "./", 2) ? 0 : 2));
		}
		while (argc)
			free(argv[--argc]);
		free(argv);
	}
	if (!error && (util_buf_oom(build) || util_buf_oom(&word)))
		error = util_error_set(UTIL_ENOMEM, "out of memory");
	util_buf_dispose(&word);
	json_decref(root);
	return error;
}

int rec_db_guess(rec_commands *out, const rec_level *lv)
{
	util_buf build = UTIL_BUF_INIT, run = UTIL_BUF_INIT, origin = UTIL_BUF_INIT;
	rec_names exes = { NULL, 0 };
	bool usable;
	int error;

	util_buf_puts(&origin, "compile_commands.json");
	if ((error = db_commands(&build, &exes, &usable, rec_str(&lv->db), lv->db.len)) == 0) {
		if (!usable || exes.n != 1)
			error = UTIL_ENOTFOUND;
		else if ((error = rec_readme_run(&run, &origin, lv, exes.v[0])) == 0)
			error = util_buf_oom(&run) ? util_error_set(UTIL_ENOMEM, "out of memory")
						   : rec_level_result(out, lv, rec_str(&build), run.ptr, &origin);
	}
	rec_names_dispose(&exes);
	util_buf_dispose(&build);
	util_buf_dispose(&run);
	util_buf_dispose(&origin);
	return error;
}
