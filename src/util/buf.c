#include "util/buf.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool util_buf_grow(util_buf *buf, size_t extra)
{
	size_t need, cap;
	char *p;

	if (buf->oom)
		return false;
	if (extra > SIZE_MAX - buf->len - 1)
		goto fail;
	need = buf->len + extra + 1;
	if (need <= buf->cap)
		return true;
	cap = buf->cap ? buf->cap : 64;
	while (cap < need)
		cap = cap > SIZE_MAX / 2 ? need : cap * 2;
	p = realloc(buf->ptr, cap);
	if (!p)
		goto fail;
	buf->ptr = p;
	buf->cap = cap;
	return true;
fail:
	buf->oom = true;
	return false;
}

void util_buf_put(util_buf *buf, const char *data, size_t len)
{
	if (!util_buf_grow(buf, len))
		return;
	if (len)
		memcpy(buf->ptr + buf->len, data, len);
	buf->len += len;
	buf->ptr[buf->len] = '\0';
}

void util_buf_puts(util_buf *buf, const char *str)
{
	util_buf_put(buf, str, strlen(str));
}

void util_buf_putc(util_buf *buf, char c)
{
	util_buf_put(buf, &c, 1);
}

void util_buf_vprintf(util_buf *buf, const char *fmt, va_list ap)
{
	va_list again;
	int n;

	va_copy(again, ap);
	n = vsnprintf(NULL, 0, fmt, ap);
	if (n < 0 || !util_buf_grow(buf, (size_t)n)) {
		buf->oom = true;
		va_end(again);
		return;
	}
	vsnprintf(buf->ptr + buf->len, (size_t)n + 1, fmt, again);
	va_end(again);
	buf->len += (size_t)n;
}

void util_buf_printf(util_buf *buf, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	util_buf_vprintf(buf, fmt, ap);
	va_end(ap);
}

char *util_buf_detach(util_buf *buf)
{
	char *p = buf->ptr;

	if (!p)
		p = calloc(1, 1);
	buf->ptr = NULL;
	buf->len = buf->cap = 0;
	buf->oom = false;
	return p;
}

void util_buf_clear(util_buf *buf)
{
	buf->len = 0;
	if (buf->ptr)
		buf->ptr[0] = '\0';
}

void util_buf_dispose(util_buf *buf)
{
	free(buf->ptr);
	buf->ptr = NULL;
	buf->len = buf->cap = 0;
	buf->oom = false;
}
