/* What rec_commands_guess() (commands.c) hands its readers, one file each:
 * commands_make.c, commands_cmake.c, commands_readme.c, commands_db.c. A
 * reader looks at one directory (a rec_level) and returns 0 with *out
 * filled, UTIL_ENOTFOUND when its files show no commands, or another
 * negative code on failure. Internal to check/record. */
#ifndef HIPPORT_CHECK_RECORD_COMMANDS_READERS_H
#define HIPPORT_CHECK_RECORD_COMMANDS_READERS_H

#include <stdbool.h>
#include <stddef.h>

#include "check/record/commands.h"
#include "util/buf.h"

static inline const char *rec_str(const util_buf *b)
{
	return b->ptr ? b->ptr : "";
}

/* A list of distinct strings. */
typedef struct rec_names {
	char **v;
	size_t n;
} rec_names;

int rec_names_add(rec_names *l, const char *s, size_t len);
void rec_names_dispose(rec_names *l);

/* s without the blanks around it (cut in place). */
char *rec_trim(char *s);
bool rec_ends_with(const char *s, const char *suffix);

/* What one directory holds. */
typedef struct rec_level {
	const char *dir;  /* relative to the root, "." for the root */
	unsigned depth;   /* its components */
	rec_read_fn read;
	void *payload;
	util_buf make, cmake, db, readme;
	const char *make_name, *readme_name; /* the files found, or NULL */
	bool has_cmake, has_db;
} rec_level;

/* dir/name through the level's reader; *found false when there is no such
 * file or it cannot be read as one. */
int rec_level_read(util_buf *out, bool *found, const rec_level *lv, const char *dir, const char *name);
/* *out: the commands, run from lv's directory; origin says what from. */
int rec_level_result(rec_commands *out, const rec_level *lv, const char *build, const char *run,
		     const util_buf *origin);

/* commands_make.c: a Makefile's run target, else its default target. */
typedef struct rec_makefile rec_makefile;
int rec_makefile_parse(rec_makefile **out, const char *src, size_t len);
bool rec_makefile_has_target(const rec_makefile *mk, const char *target);
void rec_makefile_free(rec_makefile *mk);
/* Calls fn with each line of mk outside its conditional blocks (rules,
 * variables and recipes alike, continuations joined, comments kept), each
 * word with the variables the file sets plainly expanded, or as written when
 * it names any other; stops at fn's first error. */
typedef int (*rec_makefile_line_fn)(const char *line, size_t len, void *payload);
int rec_makefile_each_line(const rec_makefile *mk, rec_makefile_line_fn fn, void *payload);
int rec_make_guess(rec_commands *out, const rec_level *lv, const rec_makefile *mk);

/* commands_cmake.c: whether text calls command (case-insensitive, at a
 * line's start), with arg as its first argument when given; each literal
 * first argument into args when given. */
int rec_cmake_calls(bool *calls, rec_names *args, const char *text, const char *command, const char *arg);
/* CMake with CTest; lv holds the top CMakeLists.txt (with project()), chain
 * the CMakeLists.txt of the directories between it and the program. */
int rec_cmake_guess(rec_commands *out, const rec_level *lv, const util_buf *chain);

/* commands_readme.c: a README's build-then-run pair. */
int rec_readme_guess(rec_commands *out, const rec_level *lv);
/* The run of program exe: the README's line that runs it (its arguments),
 * else ./exe; origin says which. */
int rec_readme_run(util_buf *run, util_buf *origin, const rec_level *lv, const char *exe);

/* commands_db.c: a compile_commands.json of one executable. */
int rec_db_guess(rec_commands *out, const rec_level *lv);

#endif
