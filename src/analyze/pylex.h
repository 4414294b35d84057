/* Python's tokens for the Triton checks (no libclang: Python is not C). */
#ifndef HIPPORT_ANALYZE_PYLEX_H
#define HIPPORT_ANALYZE_PYLEX_H

#include <stddef.h>
#include <stdint.h>

#include "port/lex.h"

/* Tokenizes Python source into port tokens (names, keywords, literals,
 * comments, punctuation); PORT_TOKEN_LINE_START marks the first token of
 * each logical line. The caller free()s *out. */
int an_python_tokenize(const char *src, size_t len, port_token **out, size_t *count);

/* The indentation (columns, tabs to multiples of 8) of the line holding offset. */
unsigned an_python_indent(const char *src, uint32_t offset);

#endif
