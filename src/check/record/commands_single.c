/* rec_commands_single(): a directory of CUDA programs that no build file
 * governs, each a source with its own main(): nvcc builds each by itself,
 * and they run in turn. What a GPU engineer types for a tutorial's or a
 * book's examples; nothing is added the files do not show (no arguments;
 * of flags, only the system libraries whose headers a source includes:
 * `#include <png.h>` links -lpng, as the course's `nvcc main.cu -lpng`). */
#include "check/record/commands.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "check/record/commands_readers.h"
#include "port/definitions.h"
#include "util/error.h"

static bool ident_char(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

/* Whether text defines main at file scope: `int main(` or `void main(` at
 * a line's start, or `main (` at a line's start below a line that is only
 * `int` or `void` (GNU style). A comment or a longer name is no main. */
bool rec_source_defines_main(const char *text, size_t len)
{
	bool typed = false; /* the line above was only a return type */
	size_t i = 0;

	while (i < len) {
		size_t s = i, e, t;
		bool was_typed = typed;

		while (i < len && text[i] != '\n')
			i++;
		e = i++;
		while (s < e && (text[s] == ' ' || text[s] == '\t'))
			s++;
		for (t = e; t > s && isspace((unsigned char)text[t - 1]); t--)
			;
		typed = (t - s == 3 && !strncmp(text + s, "int", 3)) || (t - s == 4 && !strncmp(text + s, "void", 4));
		if (e - s > 4 && !strncmp(text + s, "int", 3) && !ident_char(text[s + 3]))
			s += 3;
		else if (e - s > 5 && !strncmp(text + s, "void", 4) && !ident_char(text[s + 4]))
			s += 4;
		else if (!was_typed)
			continue;
		while (s < e && isspace((unsigned char)text[s]))
			s++;
		if (e - s < 5 || strncmp(text + s, "main", 4) != 0 || ident_char(text[s + 4]))
			continue;
		for (s += 4; s < e && isspace((unsigned char)text[s]); s++)
			;
		if (s < e && text[s] == '(')
			return true;
	}
	return false;
}

/* The file's name without its directory and extension. */
static void exe_name(util_buf *out, const char *path)
{
	const char *base = strrchr(path, '/'), *dot;

	base = base ? base + 1 : path;
	dot = strrchr(base, '.');
	util_buf_clear(out);
	util_buf_put(out, base, dot && dot > base ? (size_t)(dot - base) : strlen(base));
}

/* System libraries a source's #include <HEADER> stands for, the same on
 * both sides (the CUDA libraries' names differ between the original and the
 * port: those are left to a [record] section). */
static const struct {
	const char *header, *flag;
} system_libs[] = {
	{ "png.h", "-lpng" }, { "zlib.h", "-lz" }, { "jpeglib.h", "-ljpeg" }, { "tiffio.h", "-ltiff" },
};

/* Whether text includes <header>. */
static bool includes_system(const char *text, size_t len, const char *header)
{
	const char *p = text, *end = text + len;

	while (p < end) {
		const char *eol = memchr(p, '\n', (size_t)(end - p)), *name;
		size_t n;
		bool quoted;

		if (!eol)
			eol = end;
		if (port_include_name(p, eol, &name, &n, &quoted) && !quoted && n == strlen(header) &&
		    !strncmp(name, header, n))
			return true;
		p = eol + 1;
	}
	return false;
}

static void add_system_libs(util_buf *build, const util_buf *text)
{
	size_t k;

	for (k = 0; k < sizeof(system_libs) / sizeof(system_libs[0]); k++)
		if (includes_system(rec_str(text), text->len, system_libs[k].header))
			util_buf_printf(build, " %s", system_libs[k].flag);
}

static bool shell_plain(const char *s)
{
	for (; *s; s++)
		if (!ident_char(*s) && !strchr("./-+", *s))
			return false;
	return true;
}

int rec_commands_single(rec_commands *out, const char *dir, const char *const *paths, size_t n,
			rec_read_fn read, void *payload)
{
	util_buf build = UTIL_BUF_INIT, run = UTIL_BUF_INIT, text = UTIL_BUF_INIT, exe = UTIL_BUF_INIT;
	util_buf origin = UTIL_BUF_INIT;
	rec_level lv;
	size_t i, found = 0, skip = strcmp(dir, ".") ? strlen(dir) + 1 : 0;
	int error = 0;

	memset(out, 0, sizeof(*out));
	memset(&lv, 0, sizeof(lv));
	lv.dir = dir;
	for (i = 0; i < n && error == 0; i++) {
		const char *name = paths[i] + skip;

		if (!rec_ends_with(name, ".cu") || strchr(name, '/') || (skip && strncmp(paths[i], dir, skip - 1)))
			continue;
		util_buf_clear(&text);
		if ((error = read(&text, paths[i], payload)) < 0)
			break;
		exe_name(&exe, name);
		/* a name the shell would read otherwise is left to a [record] section */
		if (!rec_source_defines_main(rec_str(&text), text.len) || !shell_plain(name) || !shell_plain(rec_str(&exe)))
			continue;
		util_buf_printf(&build, "%s\"$HIPPORT_CXX\" -o %s %s", found ? " && " : "", rec_str(&exe), name);
		add_system_libs(&build, &text);
		util_buf_printf(&run, "%s./%s", found ? "; " : "", rec_str(&exe));
		found++;
	}
	if (error == 0 && !found)
		error = UTIL_ENOTFOUND;
	if (error == 0) {
		if (found > 1)
			util_buf_printf(&origin, "its %zu sources with main(), no build file, in turn", found);
		else
			util_buf_puts(&origin, "a source with main(), no build file");
		error = util_buf_oom(&build) || util_buf_oom(&run) ? util_error_set(UTIL_ENOMEM, "out of memory")
								   : rec_level_result(out, &lv, build.ptr, run.ptr, &origin);
	}
	util_buf_dispose(&build);
	util_buf_dispose(&run);
	util_buf_dispose(&text);
	util_buf_dispose(&exe);
	util_buf_dispose(&origin);
	return error;
}
