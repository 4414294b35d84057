/* The default build and run commands of a program to record
 * (docs/checks.md, record and compare), from what the project shows when
 * .hipport/config has no [record] section: a Makefile's run target, CMake
 * with CTest, a README's fenced block, a Makefile's default target, or a
 * compile_commands.json; where no build file is there, each source with
 * its own main(). Nothing is guessed beyond the files: no arguments the
 * project does not give, no command that installs. */
#ifndef HIPPORT_CHECK_RECORD_COMMANDS_H
#define HIPPORT_CHECK_RECORD_COMMANDS_H

#include <stdbool.h>
#include <stddef.h>

#include "util/buf.h"

/* Reads path (relative to the repository root) into out; UTIL_ENOTFOUND
 * when there is no such file, another negative code when it cannot be read. */
typedef int (*rec_read_fn)(util_buf *out, const char *path, void *payload);

typedef struct rec_commands {
	char *dir;    /* where build and run start, relative to the root ("." for the root) */
	char *build;  /* shell commands; $HIPPORT_CXX is the compiler of the side being built */
	char *run;
	char *origin; /* what they were read from: "Makefile run target", "README.md fenced block", ... */
	bool build_files; /* the walk met a build file, whether or not it showed commands */
} rec_commands;

/* The commands of the program whose kernel source lies in dir (relative to
 * the root, "." for the root): from dir upwards, never above the root, the
 * nearest directory with a build file (Makefile, makefile, GNUmakefile,
 * CMakeLists.txt, compile_commands.json; a CMakeLists.txt without project()
 * belongs to the one above) or a README that gives both commands, read with
 * read. Returns 0 with *out filled, UTIL_ENOTFOUND when the files show no
 * commands (*out zeroed), another negative code on failure. */
int rec_commands_guess(rec_commands *out, const char *dir, rec_read_fn read, void *payload);
void rec_commands_dispose(rec_commands *c);

/* Where no build file governs dir (commands_single.c): each of paths (the
 * repository's sources, relative to the root) that lies in dir itself,
 * ends in .cu and defines main(), built alone by "$HIPPORT_CXX" -o NAME
 * and run as ./NAME, several in turn. UTIL_ENOTFOUND when none does. */
int rec_commands_single(rec_commands *out, const char *dir, const char *const *paths, size_t n,
			rec_read_fn read, void *payload);
/* Whether text defines main() at file scope (`int main(`, `void main(`). */
bool rec_source_defines_main(const char *text, size_t len);

#endif
