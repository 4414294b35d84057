#include "check/bundle/defines.h"

#include <ctype.h>
#include <string.h>

#include "check/record/commands_readers.h"
#include "util/error.h"

/* Whether line [p, end) of a CMakeLists.txt opens (1) or closes (-1) a
 * conditional block (if( / endif(), or neither (0). A Makefile's are the
 * Makefile reader's (src/check/record/commands_make.c). */
static int cmake_conditional(const char *p, const char *end)
{
	const char *q;
	size_t n;

	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	for (n = 0; p + n < end && (isalnum((unsigned char)p[n]) || p[n] == '_'); n++)
		;
	for (q = p + n; q < end && (*q == ' ' || *q == '\t'); q++)
		;
	if (q == end || *q != '(')
		return 0;
	return n == 2 && strncasecmp(p, "if", 2) == 0 ? 1 : n == 5 && strncasecmp(p, "endif", 5) == 0 ? -1 : 0;
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

/* The defines of line [line, line + len), up to a comment. */
static int comment_free_defines(const char *line, size_t len, void *out)
{
	const char *hash = memchr(line, '#', len);

	line_defines(out, line, hash ? hash : line + len);
	return 0;
}

/* The defines of a CMakeLists.txt, outside its conditional blocks. */
static void cmake_defines(util_buf *out, const char *text, size_t len)
{
	const char *p = text, *end = text + len;
	int depth = 0;

	while (p < end) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		int c;

		if (!eol)
			eol = end;
		c = cmake_conditional(p, eol);
		depth += c;
		if (depth < 0)
			depth = 0;
		if (depth == 0 && c == 0)
			comment_free_defines(p, (size_t)(eol - p), out);
		p = eol + 1;
	}
}

/* The defines of a build file's text, outside its conditional blocks; a
 * Makefile's with the variables it sets plainly expanded (-DN=$(SIZE)). */
static int file_defines(util_buf *out, const char *text, size_t len, bool cmake)
{
	rec_makefile *mk;
	int error;

	if (cmake) {
		cmake_defines(out, text, len);
		return 0;
	}
	if ((error = rec_makefile_parse(&mk, text, len)) < 0)
		return error;
	error = rec_makefile_each_line(mk, comment_free_defines, out);
	rec_makefile_free(mk);
	return error;
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
				error = file_defines(&lines, text.ptr ? text.ptr : "", text.len, names[i][0] == 'C');
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
