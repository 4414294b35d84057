/* A growable byte buffer, always NUL-terminated. Out of memory is remembered,
 * so a run of appends is checked once with util_buf_oom(). */
#ifndef HIPPORT_UTIL_BUF_H
#define HIPPORT_UTIL_BUF_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

#include "util/error.h"

typedef struct util_buf {
	char *ptr;
	size_t len;
	size_t cap;
	bool oom;
} util_buf;

#define UTIL_BUF_INIT { 0, 0, 0, false }

void util_buf_put(util_buf *buf, const char *data, size_t len);
void util_buf_puts(util_buf *buf, const char *str);
void util_buf_putc(util_buf *buf, char c);
void util_buf_printf(util_buf *buf, const char *fmt, ...) UTIL_PRINTF(2, 3);
void util_buf_vprintf(util_buf *buf, const char *fmt, va_list ap);
bool util_buf_grow(util_buf *buf, size_t extra);
/* Hands the contents to the caller (free() it) and resets the buffer. */
char *util_buf_detach(util_buf *buf);
void util_buf_clear(util_buf *buf);
void util_buf_dispose(util_buf *buf);

static inline bool util_buf_oom(const util_buf *buf)
{
	return buf->oom;
}

#endif
