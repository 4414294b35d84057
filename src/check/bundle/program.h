/* The files a program builds from besides the CUDA sources hipport ports:
 * what a bundle must carry so that a check compiles as the program does
 * (docs/checks.md, "What a bundle carries"). For each directory checked
 * (a spec's source) or recorded: its tracked files; and every file the
 * sources include, resolved as the compiler does: "quoted" names beside the
 * including file first, then, as <angled> ones, in the -I directories the
 * configuration, the record's build command or the directory's Makefile
 * name. */
#ifndef HIPPORT_CHECK_PROGRAM_H
#define HIPPORT_CHECK_PROGRAM_H

#include <stdbool.h>
#include <stddef.h>

#include "check/bundle/bundle.h"

enum {
	BUNDLE_PROGRAM_HARNESS = 1, /* orig/ and port/: what the harnesses include */
	BUNDLE_PROGRAM_RECORD = 2   /* record/orig and record/port: what the program's build and run use */
};

typedef struct bundle_program_file {
	char *path;   /* relative to the work tree */
	unsigned trees; /* BUNDLE_PROGRAM_HARNESS | BUNDLE_PROGRAM_RECORD */
} bundle_program_file;

/* An include: the file from includes the file to (both relative). */
typedef struct bundle_include {
	char *from, *to;
} bundle_include;

typedef struct bundle_program {
	bundle_include *includes; /* every include resolved, of sources and program files */
	size_t nincludes;
	bundle_program_file *files; /* in the order found; none of the sources */
	size_t n;
	char **dirs; /* the -I directories of the build (check.includes, record commands, Makefiles), from the
		      * work tree: the harnesses build with them */
	size_t ndirs;
} bundle_program;

typedef struct bundle_program_input {
	const char *root;                 /* the work tree, ending in '/' */
	const bundle_source *sources; /* the CUDA sources (their original text is scanned) */
	size_t nsources;
	const char *const *checked;       /* the sources of the specs bundled */
	size_t nchecked;
	const struct vcs_record *records;
	size_t nrecords;
	const char *includes;             /* check.includes: directories, relative, space separated */
} bundle_program_input;

int bundle_program_collect(bundle_program *out, const bundle_program_input *in);

/* The translation unit that compiles source: the file that includes it,
 * and so on up to one that nothing includes (a unity build's main.cu), the
 * first in include order; source itself when nothing includes it. */
const char *bundle_program_unit(const bundle_program *p, const char *source);
void bundle_program_dispose(bundle_program *p);

/* Whether path names a file of source code (by its extension), which the
 * harness trees carry; data files travel in the record trees only. */
bool bundle_program_is_code(const char *path);

#endif
