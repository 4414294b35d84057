#include "util/text.h"

#include <string.h>

size_t util_text_find_nul(const char *data, size_t len)
{
	const char *p = memchr(data, '\0', len);
	return p ? (size_t)(p - data) : len;
}

size_t util_text_find_invalid_utf8(const char *data, size_t len)
{
	const unsigned char *s = (const unsigned char *)data;
	size_t i = 0;

	while (i < len) {
		unsigned c = s[i];
		size_t n, k;
		unsigned cp;

		if (c < 0x80) {
			i++;
			continue;
		}
		if (c >= 0xc2 && c <= 0xdf) {
			n = 1;
			cp = c & 0x1f;
		} else if (c >= 0xe0 && c <= 0xef) {
			n = 2;
			cp = c & 0x0f;
		} else if (c >= 0xf0 && c <= 0xf4) {
			n = 3;
			cp = c & 0x07;
		} else {
			return i;
		}
		for (k = 1; k <= n; k++) {
			if (i + k >= len || (s[i + k] & 0xc0) != 0x80)
				return i;
			cp = (cp << 6) | (s[i + k] & 0x3f);
		}
		/* overlong forms, surrogates, beyond U+10FFFF */
		if ((n == 2 && cp < 0x800) || (n == 3 && cp < 0x10000) || cp > 0x10ffff ||
		    (cp >= 0xd800 && cp <= 0xdfff))
			return i;
		i += n + 1;
	}
	return len;
}

void util_text_position_from(util_text_cursor *cursor, const char *data, size_t offset, unsigned *line,
			     unsigned *col)
{
	const char *p, *end = data + offset;

	if (cursor->data != data || offset < cursor->offset) {
		cursor->data = data;
		cursor->offset = cursor->line_start = 0;
		cursor->line = 1;
	}
	for (p = data + cursor->offset; p < end && (p = memchr(p, '\n', (size_t)(end - p))); p++) {
		cursor->line++;
		cursor->line_start = (size_t)(p - data) + 1;
	}
	cursor->offset = offset;
	*line = cursor->line;
	*col = (unsigned)(offset - cursor->line_start + 1);
}

void util_text_position(const char *data, size_t offset, unsigned *line, unsigned *col)
{
	util_text_cursor cursor = { NULL, 0, 0, 1 };

	util_text_position_from(&cursor, data, offset, line, col);
}
