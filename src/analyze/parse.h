/* Parsing one file for the analyzer: libclang in CUDA mode without a CUDA
 * SDK, the prelude (share/prelude/cuda.h) read first, precompiled once per
 * process, and the file's own flags from compile_commands.json. */
#ifndef HIPPORT_ANALYZE_PARSE_H
#define HIPPORT_ANALYZE_PARSE_H

#include <clang-c/Index.h>
#include <stddef.h>

#include "analyze/compile_db.h"

/* A thread's parser: a libclang index and the translation units it reuses. */
typedef struct an_parser an_parser;

int an_parser_new(an_parser **out);
void an_parser_free(an_parser *p);

/* Parses src (the text of fs_path) into *tu, whose main file is *file; the
 * unit is the parser's, valid until its next parse. UTIL_ETOOLCHAIN when
 * libclang cannot. db may be NULL. */
int an_parse(an_parser *p, const an_compile_db *db, const char *fs_path, const char *src, size_t len,
	     CXTranslationUnit *tu, CXFile *file);

#endif
