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

/* A place of a text whose line is known (zeroed: none yet). Positions at or
 * after it are counted from it rather than from the start: findings come
 * mostly in source order, and counting from the start each time makes a
 * file's findings cost the square of its size. */
typedef struct util_text_cursor {
	const char *data;
	size_t offset, line_start;
	unsigned line;
} util_text_cursor;

/* util_text_position, starting from *cursor where it can; moves *cursor to offset. */
void util_text_position_from(util_text_cursor *cursor, const char *data, size_t offset, unsigned *line,
			     unsigned *col);

#endif
