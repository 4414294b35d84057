/* rec_commands_guess(): the walk from the program's directory up to the
 * nearest one with a build file or a README that gives both commands, and
 * the order in which its readers are asked there (commands_make.c,
 * commands_cmake.c, commands_readme.c, commands_db.c); and what they share. */
#include "check/record/commands.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "check/record/commands_readers.h"
#include "util/error.h"

static const char *const makefile_names[] = { "GNUmakefile", "makefile", "Makefile", NULL }; /* GNU make's order */
static const char *const readme_names[] = { "README.md", "README", "README.txt", "readme.md", NULL };

/* ---- shared by the readers ---- */

int rec_names_add(rec_names *l, const char *s, size_t len)
{
	char **m;
	size_t i;

	for (i = 0; i < l->n; i++)
		if (strlen(l->v[i]) == len && !strncmp(l->v[i], s, len))
			return 0;
	if (!(m = realloc(l->v, (l->n + 1) * sizeof(*m))))
		return util_error_set(UTIL_ENOMEM, "out of memory");
	l->v = m;
	if (!(l->v[l->n] = strndup(s, len)))
		return util_error_set(UTIL_ENOMEM, "out of memory");
	l->n++;
	return 0;
}

void rec_names_dispose(rec_names *l)
{
	while (l->n)
		free(l->v[--l->n]);
	free(l->v);
	l->v = NULL;
}

char *rec_trim(char *s)
{
	char *e;

	while (*s == ' ' || *s == '\t')
		s++;
	for (e = s + strlen(s); e > s && isspace((unsigned char)e[-1]); e--)
		;
	*e = '\0';
	return s;
}

bool rec_ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !strcmp(s + n - m, suffix);
}

/* ---- what one directory holds ---- */

/* dir/name through the reader; *found false when there is no such file
 * or it cannot be read as one. */
int rec_level_read(util_buf *out, bool *found, const rec_level *lv, const char *dir, const char *name)
{
	util_buf path = UTIL_BUF_INIT;
	int error;

	*found = false;
	if (strcmp(dir, ".") != 0)
		util_buf_printf(&path, "%s/%s", dir, name);
	else
		util_buf_puts(&path, name);
	if (util_buf_oom(&path))
		return util_error_set(UTIL_ENOMEM, "out of memory");
	util_buf_clear(out);
	error = lv->read(out, path.ptr, lv->payload);
	util_buf_dispose(&path);
	if (error == UTIL_ENOTFOUND || error == UTIL_EINPUT) { /* none, or none to read (a directory) */
		util_error_clear();
		return 0;
	}
	*found = error == 0;
	return error;
}

/* The first of names that the directory holds, into out. */
static int read_first(util_buf *out, const char **name, const rec_level *lv, const char *const *names_)
{
	bool found = false;
	int error = 0;

	*name = NULL;
	for (; *names_ && !found && !error; names_++)
		if (!(error = rec_level_read(out, &found, lv, lv->dir, *names_)) && found)
			*name = *names_;
	return error;
}

static int level_load(rec_level *lv)
{
	const char *name;
	int error;

	if ((error = read_first(&lv->make, &lv->make_name, lv, makefile_names)) < 0 ||
	    (error = rec_level_read(&lv->cmake, &lv->has_cmake, lv, lv->dir, "CMakeLists.txt")) < 0 ||
	    (error = rec_level_read(&lv->db, &lv->has_db, lv, lv->dir, "compile_commands.json")) < 0 ||
	    (error = read_first(&lv->readme, &name, lv, readme_names)) < 0)
		return error;
	lv->readme_name = name;
	return 0;
}

static void level_dispose(rec_level *lv)
{
	util_buf_dispose(&lv->make);
	util_buf_dispose(&lv->cmake);
	util_buf_dispose(&lv->db);
	util_buf_dispose(&lv->readme);
}

int rec_level_result(rec_commands *out, const rec_level *lv, const char *build, const char *run, const util_buf *origin)
{
	out->dir = strdup(lv->dir);
	out->build = strdup(build);
	out->run = strdup(run);
	out->origin = strdup(rec_str(origin));
	if (util_buf_oom(origin) || !out->dir || !out->build || !out->run || !out->origin) {
		rec_commands_dispose(out);
		return util_error_set(UTIL_ENOMEM, "out of memory");
	}
	return 0;
}

/* ---- the walk up, and the order of preference ---- */

/* The cases of one directory; UTIL_ENOTFOUND when none applies. A Makefile
 * with a run target, CMake with tests, a README's pair, a Makefile's
 * default target, a compilation database. */
static int guess_level(rec_commands *out, const rec_level *lv, const util_buf *chain, bool cmake_top)
{
	rec_makefile *mk = NULL;
	int error = UTIL_ENOTFOUND;

	if (lv->make_name && (error = rec_makefile_parse(&mk, rec_str(&lv->make), lv->make.len)) < 0)
		goto done;
	if (mk && rec_makefile_has_target(mk, "run")) {
		error = rec_make_guess(out, lv, mk);
		goto done;
	}
	if (cmake_top && (error = rec_cmake_guess(out, lv, chain)) != UTIL_ENOTFOUND)
		goto done;
	error = lv->readme_name ? rec_readme_guess(out, lv) : UTIL_ENOTFOUND;
	if (error == UTIL_ENOTFOUND && mk)
		error = rec_make_guess(out, lv, mk);
	if (error == UTIL_ENOTFOUND && lv->has_db)
		error = rec_db_guess(out, lv);
done:
	rec_makefile_free(mk);
	return error;
}

int rec_commands_guess(rec_commands *out, const char *dir, rec_read_fn read, void *payload)
{
	util_buf cur = UTIL_BUF_INIT, chain = UTIL_BUF_INIT;
	bool build_files = false;
	int error = UTIL_ENOTFOUND;

	memset(out, 0, sizeof(*out));
	while (!strncmp(dir, "./", 2))
		dir += 2;
	util_buf_puts(&cur, *dir ? dir : ".");
	while (cur.len > 1 && cur.ptr[cur.len - 1] == '/')
		cur.ptr[--cur.len] = '\0';
	while (!util_buf_oom(&cur)) {
		rec_level lv;
		bool project = false, stop;
		char *slash;
		const char *p;

		memset(&lv, 0, sizeof(lv));
		lv.dir = cur.ptr;
		lv.read = read;
		lv.payload = payload;
		for (p = cur.ptr, lv.depth = strcmp(cur.ptr, ".") != 0; (p = strchr(p, '/')); p++)
			lv.depth++;
		if ((error = level_load(&lv)) == 0 && lv.has_cmake)
			error = rec_cmake_calls(&project, NULL, rec_str(&lv.cmake), "project", NULL);
		build_files = build_files || lv.make_name || lv.has_cmake || lv.has_db;
		if (error == 0)
			error = guess_level(out, &lv, &chain, project);
		/* a CMakeLists.txt without project() is the project's above */
		stop = error != UTIL_ENOTFOUND || lv.make_name || lv.has_db || project || !lv.depth;
		if (!stop && lv.has_cmake) {
			util_buf_puts(&chain, rec_str(&lv.cmake));
			util_buf_putc(&chain, '\n');
		}
		level_dispose(&lv);
		if (stop)
			break;
		if ((slash = strrchr(cur.ptr, '/'))) {
			cur.len = (size_t)(slash - cur.ptr);
			cur.ptr[cur.len] = '\0';
		} else {
			util_buf_clear(&cur);
			util_buf_puts(&cur, ".");
		}
	}
	if (util_buf_oom(&cur) || util_buf_oom(&chain))
		error = util_error_set(UTIL_ENOMEM, "out of memory");
	else if (error == UTIL_ENOTFOUND)
		util_error_set(UTIL_ENOTFOUND, "%s: no build and run commands in its build files or README", dir);
	out->build_files = build_files;
	util_buf_dispose(&cur);
	util_buf_dispose(&chain);
	return error;
}

void rec_commands_dispose(rec_commands *c)
{
	free(c->dir);
	free(c->build);
	free(c->run);
	free(c->origin);
	memset(c, 0, sizeof(*c));
}

