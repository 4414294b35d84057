/* Text checks for source files: binary content, UTF-8, positions. */
#ifndef HIPPORT_UTIL_TEXT_H
#define HIPPORT_UTIL_TEXT_H

#include <stdbool.h>
#include <stddef.h>

/* Offset of the first NUL byte, or len when there is none. */
size_t util_text_find_nul(const char *data, size_t len);

/* Offset of the first byte that is not valid UTF-8, or len when all is valid. */
size_t util_text_find_invalid_utf8(const char *data, size_t len);

/* 1-based line and column (in bytes) of offset. */
void util_text_position(const char *data, size_t offset, unsigned *line, unsigned *col);

#endif
