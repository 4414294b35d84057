/* Python's tokens, enough for Triton kernels: names, keywords, numbers,
 * strings (prefixed, triple-quoted), comments and operators, with the
 * first token of each logical line marked. Brackets continue a line, and
 * so does a backslash at its end. */
#include "analyze/pylex.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"

static bool is_keyword(const char *s, size_t n)
{
	static const char *const words[] = { "False", "None", "True", "and", "as", "assert", "async", "await",
					     "break", "class", "continue", "def", "del", "elif", "else", "except",
					     "finally", "for", "from", "global", "if", "import", "in", "is", "lambda",
					     "nonlocal", "not", "or", "pass", "raise", "return", "try", "while",
					     "with", "yield", NULL };
	size_t i;

	for (i = 0; words[i]; i++)
		if (strlen(words[i]) == n && memcmp(words[i], s, n) == 0)
			return true;
	return false;
}

static bool name_char(char c)
{
	return isalnum((unsigned char)c) || c == '_' || (unsigned char)c >= 0x80;
}

/* The end of a string literal whose quote starts at i (prefix skipped). */
static size_t string_end(const char *src, size_t len, size_t i)
{
	char q = src[i];
	bool triple = i + 2 < len && src[i + 1] == q && src[i + 2] == q;

	i += triple ? 3 : 1;
	while (i < len) {
		if (src[i] == '\\') {
			i += 2;
			continue;
		}
		if (!triple && src[i] == '\n')
			return i; /* unterminated: the line ends it */
		if (src[i] == q && (!triple || (i + 2 < len && src[i + 1] == q && src[i + 2] == q)))
			return i + (triple ? 3 : 1);
		i++;
	}
	return len;
}

/* The length of a string prefix (r, b, f, rb, ...) before a quote at s, or 0. */
static size_t prefix_len(const char *s, size_t left)
{
	size_t n = 0;

	while (n < 2 && n < left && strchr("rRbBuUfF", s[n]))
		n++;
	return n < left && n > 0 && (s[n] == '"' || s[n] == '\'') ? n : 0;
}

int an_python_tokenize(const char *src, size_t len, port_token **out, size_t *count)
{
	static const char *const ops3[] = { "**=", "//=", ">>=", "<<=", "...", NULL };
	static const char *const ops2[] = { "**", "//", "==", "!=", "<=", ">=", "->", "+=", "-=", "*=", "/=",
					    "%=", "&=", "|=", "^=", "<<", ">>", ":=", "@=", NULL };
	size_t i = 0, n = 0, cap = 256;
	int depth = 0;
	bool line_start = true;
	port_token *t = malloc(cap * sizeof(*t));

	*out = NULL;
	*count = 0;
	if (!t)
		return util_error_set(UTIL_ENOMEM, "out of memory");
	if (len > UINT32_MAX - 8) {
		free(t);
		return util_error_set(UTIL_EINPUT, "file too large");
	}
	while (i < len) {
		char c = src[i];
		size_t start = i, k;
		uint8_t kind;

		if (c == '\n') {
			if (depth == 0)
				line_start = true;
			i++;
			continue;
		}
		if (c == ' ' || c == '\t' || c == '\r' || c == '\f') {
			i++;
			continue;
		}
		if (c == '\\' && i + 1 < len && (src[i + 1] == '\n' || src[i + 1] == '\r')) {
			i += 2; /* a continued line */
			continue;
		}
		if (c == '#') {
			while (i < len && src[i] != '\n')
				i++;
			kind = PORT_TOKEN_COMMENT;
		} else if (c == '"' || c == '\'') {
			i = string_end(src, len, i);
			kind = PORT_TOKEN_LITERAL;
		} else if ((k = prefix_len(src + i, len - i)) > 0) {
			i = string_end(src, len, i + k);
			kind = PORT_TOKEN_LITERAL;
		} else if (isdigit((unsigned char)c) || (c == '.' && i + 1 < len && isdigit((unsigned char)src[i + 1]))) {
			while (i < len && (name_char(src[i]) || src[i] == '.' ||
					   ((src[i] == '+' || src[i] == '-') && (src[i - 1] == 'e' || src[i - 1] == 'E'))))
				i++;
			kind = PORT_TOKEN_LITERAL;
		} else if (name_char(c)) {
			while (i < len && name_char(src[i]))
				i++;
			kind = is_keyword(src + start, i - start) ? PORT_TOKEN_KEYWORD : PORT_TOKEN_IDENT;
		} else {
			const char *const *op;

			for (op = ops3; *op && (len - i < 3 || memcmp(src + i, *op, 3) != 0); op++)
				;
			if (*op) {
				i += 3;
			} else {
				for (op = ops2; *op && (len - i < 2 || memcmp(src + i, *op, 2) != 0); op++)
					;
				i += *op ? 2 : 1;
			}
			depth += (c == '(' || c == '[' || c == '{') - (c == ')' || c == ']' || c == '}');
			if (depth < 0)
				depth = 0;
			kind = PORT_TOKEN_PUNCT;
		}
		if (n == cap) {
			port_token *m = realloc(t, (cap *= 2) * sizeof(*t));

			if (!m) {
				free(t);
				return util_error_set(UTIL_ENOMEM, "out of memory");
			}
			t = m;
		}
		t[n].start = (uint32_t)start;
		t[n].end = (uint32_t)i;
		t[n].kind = kind;
		t[n].flags = line_start && kind != PORT_TOKEN_COMMENT ? PORT_TOKEN_LINE_START : 0;
		if (kind != PORT_TOKEN_COMMENT)
			line_start = false;
		n++;
	}
	*out = t;
	*count = n;
	return 0;
}

unsigned an_python_indent(const char *src, uint32_t offset)
{
	uint32_t s = offset;
	unsigned col = 0;

	while (s > 0 && src[s - 1] != '\n')
		s--;
	for (; s < offset; s++)
		col = src[s] == '\t' ? (col / 8 + 1) * 8 : col + 1;
	return col;
}
