/* compile_commands.json (clang's compilation database): the include paths,
 * defines and language standard each file is built with. */
#ifndef HIPPORT_ANALYZE_COMPILE_DB_H
#define HIPPORT_ANALYZE_COMPILE_DB_H

#include <stddef.h>

typedef struct an_compile_db an_compile_db;

/* Loads DIR/compile_commands.json; UTIL_EINPUT naming the file when it is
 * missing or not a compilation database. */
int an_compile_db_load(an_compile_db **out, const char *dir);
void an_compile_db_free(an_compile_db *db);

/* The flags that matter for parsing (-I, -isystem, -iquote, -D, -U,
 * -include, -std) of a file, with paths made absolute; NULL when the
 * database does not list it. The array and its strings stay owned by db. */
const char *const *an_compile_db_flags(const an_compile_db *db, const char *path, size_t *count);

/* A database's "command" split into words as a shell would (quotes and
 * backslashes, no expansions): count words, each and the array malloc'd;
 * NULL when out of memory. */
char **an_compile_db_split(const char *cmd, size_t *count);

#endif
