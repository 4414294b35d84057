/* Parsing one file for the analyzer: libclang in CUDA mode without a CUDA
 * SDK, the prelude (share/prelude/cuda.h) read first, precompiled once per
 * process, and the file's own flags from compile_commands.json. */
#ifndef HIPPORT_ANALYZE_PARSE_H
#define HIPPORT_ANALYZE_PARSE_H

#include <clang-c/Index.h>
#include <stddef.h>

#include "analyze/compile_db.h"

/* Parses src (the text of fs_path) into *tu; UTIL_ETOOLCHAIN when libclang
 * cannot. db may be NULL. */
int an_parse(CXTranslationUnit *tu, CXIndex index, const an_compile_db *db, const char *fs_path, const char *src,
	     size_t len);

#endif
