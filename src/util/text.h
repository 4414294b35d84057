/* Text checks for source files: binary content, UTF-8, positions. */
#ifndef HIPPORT_UTIL_TEXT_H
#define HIPPORT_UTIL_TEXT_H

#include <stdbool.h>
#include <stddef.h>

/* Offset of the first NUL byte, or len when there is none. */
size_t util_text_find_nul(const char *data, size_t len);

/* Offset of the first byte that is not valid UTF-8, or len when all is valid. */
size_t util_text_find_invalid_utf8(const char *data, size_t len);

/* The Unicode character a byte that is not UTF-8 stands for, read as
 * Windows-1252 (Latin-1 with printable 0x80..0x9f); '?' for its five
 * unassigned bytes. */
unsigned util_text_cp1252_char(unsigned char byte);

/* A valid UTF-8 copy of len bytes (malloc'd, NUL-terminated; NULL when out
 * of memory): valid sequences are kept, every other byte becomes the
 * character util_text_cp1252_char gives it. For JSON and the screen; the
 * file itself is never rewritten this way. */
char *util_text_utf8_dup(const char *data, size_t len);

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
