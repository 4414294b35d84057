#include "check/bundle/defines.h"

#include <ctype.h>
#include <string.h>

#include "util/error.h"

/* Whether line [p, end) opens (1) or closes (-1) a conditional block of a
 * Makefile (ifeq, ifneq, ifdef, ifndef / endif) or a CMakeLists.txt
 * (if( / endif(), or neither (0). */
static int conditional(const char *p, const char *end, bool cmake)
{
	static const char *const make_open[] = { "ifeq", "ifneq", "ifdef", "ifndef", NULL };
	size_t i, n;

	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	for (n = 0; p + n < end && (isalnum((unsigned char)p[n]) || p[n] == '_'); n++)
		;
	if (cmake) {
		const char *q = p + n;

		while (q < end && (*q == ' ' || *q == '\t'))
			q++;
		if (q == end || *q != '(')
			return 0;
		return n == 2 && strncasecmp(p, "if", 2) == 0 ? 1 : n == 5 && strncasecmp(p, "endif", 5) == 0 ? -1 : 0;
	}
	if (n == 5 && strncmp(p, "endif", 5) == 0)
		return -1;
	for (i = 0; make_open[i]; i++)
		if (n == strlen(make_open[i]) && strncmp(p, make_open[i], n) == 0)
			return 1;
	return 0;
}

/* Whether out already defines the macro name (len bytes). */
static bool defined(const util_buf *out, const char *name, size_t len)
{
	const char *p = out->ptr;

	while (p && (p = strstr(p, "#define "))) {
		p += 8;
		if (strncmp(p, name, len) == 0 && (p[len] == ' ' || p[len] == '\n'))
			return true;
	}
	return false;
}

/* The -D flags of line [line, end) as #define lines. */
static void line_defines(util_buf *out, const char *line, const char *end)
{
	const char *p;

	for (p = line; p + 2 < end; p++) {
		const char *name, *value = NULL;
		size_t n, v = 0;

		if (p[0] != '-' || p[1] != 'D' ||
		    !(p == line || p[-1] == ' ' || p[-1] == '\t' || p[-1] == '(' || p[-1] == '"' || p[-1] == '='))
			continue;
		name = p + 2;
		for (n = 0; name + n < end && (isalnum((unsigned char)name[n]) || name[n] == '_'); n++)
			;
		if (!n || isdigit((unsigned char)name[0]))
			continue;
		if (name + n < end && name[n] == '=') {
			value = name + n + 1;
			while (value + v < end && !isspace((unsigned char)value[v]) && value[v] != ')' && value[v] != '"')
				v++;
			/* a variable, a quote or an escape: not a value read here */
			if (!v || memchr(value, '$', v) || memchr(value, '\'', v) || memchr(value, '\\', v) ||
			    memchr(value, '`', v))
				continue;
		} else if (name + n < end && !isspace((unsigned char)name[n]) && name[n] != ')' && name[n] != '"') {
			continue;
		}
		if (defined(out, name, n))
			continue;
		if (value)
			util_buf_printf(out, "#define %.*s %.*s\n", (int)n, name, (int)v, value);
		else
			util_buf_printf(out, "#define %.*s 1\n", (int)n, name);
	}
}

/* The defines of a build file's text, outside its conditional blocks. */
static void file_defines(util_buf *out, const char *text, size_t len, bool cmake)
{
	const char *p = text, *end = text + len;
	int depth = 0;

	while (p < end) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		const char *hash;
		int c;

		if (!eol)
			eol = end;
		c = conditional(p, eol, cmake);
		depth += c;
		if (depth < 0)
			depth = 0;
		hash = memchr(p, '#', (size_t)(eol - p)); /* a comment to the line's end */
		if (depth == 0 && c == 0)
			line_defines(out, p, hash ? hash : eol);
		p = eol + 1;
	}
}

int bundle_build_defines(util_buf *out, const char *source, const bundle_input *in)
{
	static const char *const names[] = { "GNUmakefile", "makefile", "Makefile", "CMakeLists.txt", NULL };
	util_buf dir = UTIL_BUF_INIT, path = UTIL_BUF_INIT, text = UTIL_BUF_INIT, lines = UTIL_BUF_INIT;
	const char *slash = strrchr(source, '/');
	int error = 0;
	bool found = false;

	if (!in->read_program_file)
		return 0;
	util_buf_put(&dir, source, slash ? (size_t)(slash - source) : 0);
	for (;;) {
		size_t i;

		for (i = 0; names[i] && !found && !error; i++) {
			util_buf_clear(&path);
			util_buf_printf(&path, "%s%s%s", dir.len ? dir.ptr : "", dir.len ? "/" : "", names[i]);
			if (util_buf_oom(&path)) {
				error = util_error_set(UTIL_ENOMEM, "out of memory");
			} else if ((error = in->read_program_file(&text, path.ptr, false, in->payload)) == UTIL_ENOTFOUND) {
				util_error_clear(); /* none here */
				error = 0;
			} else if (error == 0) {
				found = true;
				file_defines(&lines, text.ptr ? text.ptr : "", text.len, names[i][0] == 'C');
			}
		}
		if (found || error || !dir.len)
			break;
		slash = memchr(dir.ptr, '/', dir.len) ? strrchr(dir.ptr, '/') : NULL;
		dir.len = slash ? (size_t)(slash - dir.ptr) : 0;
		if (dir.ptr)
			dir.ptr[dir.len] = '\0';
	}
	if (!error && lines.len)
		util_buf_printf(out, "// the program's build defines these (%s)\n%s", path.ptr, lines.ptr);
	if (!error && (util_buf_oom(&lines) || util_buf_oom(out)))
		error = util_error_set(UTIL_ENOMEM, "out of memory");
	util_buf_dispose(&dir);
	util_buf_dispose(&path);
	util_buf_dispose(&text);
	util_buf_dispose(&lines);
	return error;
}
