#include "util/text.h"

#include <stdlib.h>
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

unsigned util_text_cp1252_char(unsigned char byte)
{
	static const unsigned short c1[32] = {
		0x20ac, '?',	0x201a, 0x0192, 0x201e, 0x2026, 0x2020, 0x2021, 0x02c6, 0x2030, 0x0160,
		0x2039, 0x0152, '?',	0x017d, '?',	'?',	0x2018, 0x2019, 0x201c, 0x201d, 0x2022,
		0x2013, 0x2014, 0x02dc, 0x2122, 0x0161, 0x203a, 0x0153, '?',	0x017e, 0x0178,
	};

	if (byte >= 0x80 && byte < 0xa0)
		return c1[byte - 0x80];
	return byte;
}

static size_t put_utf8(char *out, unsigned cp)
{
	if (cp < 0x80) {
		out[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		out[0] = (char)(0xc0 | (cp >> 6));
		out[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	out[0] = (char)(0xe0 | (cp >> 12));
	out[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
	out[2] = (char)(0x80 | (cp & 0x3f));
	return 3;
}

char *util_text_utf8_dup(const char *data, size_t len)
{
	/* a replaced byte takes at most 3 bytes */
	char *out = malloc(len * 3 + 1);
	size_t i = 0, o = 0;

	if (!out)
		return NULL;
	while (i < len) {
		size_t good = util_text_find_invalid_utf8(data + i, len - i);

		memcpy(out + o, data + i, good);
		o += good;
		i += good;
		if (i < len)
			o += put_utf8(out + o, util_text_cp1252_char((unsigned char)data[i++]));
	}
	out[o] = '\0';
	return out;
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
