/* The README reader of rec_commands_guess(): a README's fenced shell
 * blocks, the first line that runs a program after a build line (with the
 * cd and mkdir between them), or, for the other readers, the line that runs
 * a given program. Lines that install, fetch or leave the tree are refused. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "check/record/commands_readers.h"
#include "util/error.h"

/* Where a README's commands are, relative to its directory: up ".."
 * components, then down. */
typedef struct rd_dir {
	unsigned up;
	util_buf down;
} rd_dir;

/* Applies the relative path p (len bytes) to d; false when it is absolute,
 * names a variable or home, or leaves the tree (depth: the README's
 * directory's components below the root). */
static bool rd_walk(rd_dir *d, const char *p, size_t len, unsigned depth)
{
	size_t i = 0;

	if (!len || p[0] == '/' || p[0] == '~' || (len == 1 && p[0] == '-') || memchr(p, '$', len) ||
	    memchr(p, '*', len) || memchr(p, '"', len) || memchr(p, '\'', len))
		return false;
	while (i < len) {
		size_t n = 0;

		while (i + n < len && p[i + n] != '/')
			n++;
		if (n == 2 && !strncmp(p + i, "..", 2)) {
			char *slash;

			if (d->down.len) {
				slash = strrchr(d->down.ptr, '/');
				d->down.len = slash ? (size_t)(slash - d->down.ptr) : 0;
				d->down.ptr[d->down.len] = '\0';
			} else if (d->up < depth) {
				d->up++;
			} else {
				return false;
			}
		} else if (n && !(n == 1 && p[i] == '.')) {
			if (d->down.len)
				util_buf_putc(&d->down, '/');
			util_buf_put(&d->down, p + i, n);
		}
		i += n + 1;
	}
	return !util_buf_oom(&d->down);
}

static void rd_path(util_buf *out, const rd_dir *d)
{
	unsigned i;

	for (i = 0; i < d->up; i++)
		util_buf_puts(out, i + 1 < d->up || d->down.len ? "../" : "..");
	util_buf_puts(out, rec_str(&d->down));
}

typedef enum rd_kind { RD_OTHER, RD_INSTALL, RD_CD, RD_MKDIR, RD_BUILD, RD_RUN } rd_kind;

/* A command's words, the assignments before it skipped: its command word. */
static const char *rd_command(const char *part, size_t *len)
{
	const char *p = part;

	for (;;) {
		size_t n;

		p += strspn(p, " \t");
		n = strcspn(p, " \t");
		if (!n || !memchr(p, '=', n) || p[0] == '-' || p[0] == '=') {
			*len = n;
			return p;
		}
		p += n;
	}
}

static bool rd_has_word(const char *s, const char *w)
{
	size_t n = strlen(w);
	const char *p;

	for (p = s; (p = strstr(p, w)); p += n)
		if ((p == s || p[-1] == ' ' || p[-1] == '\t') && (!p[n] || p[n] == ' ' || p[n] == '\t'))
			return true;
	return false;
}

static bool is_cmd(const char *w, size_t n, const char *name)
{
	return n == strlen(name) && !strncmp(w, name, n);
}

static rd_kind rd_classify(const char *part)
{
	static const char *const installers[] = { "sudo",  "su",    "pip",    "pip3",  "pipx",  "apt",   "apt-get",
						  "aptitude", "yum", "dnf",   "zypper", "pacman", "brew",  "conda", "mamba",
						  "micromamba", "spack", "wget", "curl", "git",  "snap",  "npm",   "docker",
						  "vcpkg", NULL };
	const char *base, *w;
	size_t n, i;

	w = rd_command(part, &n);
	for (base = w + n; base > w && base[-1] != '/'; base--)
		;
	for (i = 0; installers[i]; i++)
		if (is_cmd(w, n, installers[i]))
			return RD_INSTALL;
	if ((is_cmd(w, n, "make") || is_cmd(w, n, "cmake") || is_cmd(w, n, "ninja") || !strncmp(w, "python", 6)) &&
	    (rd_has_word(w, "install") || rd_has_word(w, "--install") || strstr(w, "-m pip")))
		return RD_INSTALL;
	if (is_cmd(w, n, "cd"))
		return RD_CD;
	if (is_cmd(w, n, "mkdir"))
		return RD_MKDIR;
	if (is_cmd(w, n, "make"))
		return rd_has_word(w, "run") ? RD_RUN : rd_has_word(w, "clean") ? RD_OTHER : RD_BUILD;
	if (is_cmd(w, n, "cmake") || ((size_t)(w + n - base) == 4 && !strncmp(base, "nvcc", 4)))
		return RD_BUILD;
	if (is_cmd(w, n, "ctest"))
		return RD_RUN;
	if (n > 2 && !strncmp(w, "./", 2)) {
		char *name = strndup(base, (size_t)(w + n - base));
		bool setup = !name || !strcmp(name, "configure") || !strncmp(name, "autogen", 7) ||
			     !strncmp(name, "bootstrap", 9) || strstr(name, "install") || strstr(name, "download") ||
			     strstr(name, "setup");

		free(name);
		return setup ? RD_OTHER : RD_RUN;
	}
	return RD_OTHER;
}

/* A scan of a README's fenced shell blocks: the first build-then-run pair,
 * or, with want, the first line that runs the program want. */
typedef struct rd_scan {
	unsigned depth;
	const char *want;  /* a program's path from the README's directory, or NULL */
	rd_dir cwd;
	util_buf steps;    /* the build so far: commands joined by " && " */
	bool built;        /* steps hold a build, not only cd and mkdir */
	char *clone;       /* the directory a refused git clone names: a cd into it stays here */
	util_buf build, run;
	bool found, stop;
} rd_scan;

/* A git clone's directory: its last argument's last component, less .git. */
static int rd_clone_dir(rd_scan *s, const char *part)
{
	const char *p = part, *last = NULL, *base;
	size_t lastn = 0, n;

	if (!strstr(part, "clone"))
		return 0;
	while (*(p += strspn(p, " \t"))) {
		n = strcspn(p, " \t");
		if (p[0] != '-') {
			last = p;
			lastn = n;
		}
		p += n;
	}
	if (!last)
		return 0;
	while (lastn && last[lastn - 1] == '/')
		lastn--;
	for (base = last + lastn; base > last && base[-1] != '/' && base[-1] != ':'; base--)
		;
	n = (size_t)(last + lastn - base);
	if (n > 4 && !strncmp(base + n - 4, ".git", 4))
		n -= 4;
	free(s->clone);
	if (!(s->clone = strndup(base, n)))
		return util_error_set(UTIL_ENOMEM, "out of memory");
	return 0;
}

static void rd_step(rd_scan *s, const char *part)
{
	if (s->steps.len)
		util_buf_puts(&s->steps, " && ");
	util_buf_puts(&s->steps, part);
}

/* A build command as the README gives it, with the side's compiler: nvcc
 * named as $HIPPORT_CXX, and make given it as CC and NVCC unless the line
 * sets them. */
static void rd_build_step(rd_scan *s, const char *part)
{
	size_t n;
	const char *w = rd_command(part, &n);

	if (s->steps.len)
		util_buf_puts(&s->steps, " && ");
	if (is_cmd(w, n, "make")) {
		util_buf_puts(&s->steps, part);
		if (!strstr(part, "CC=") && !strstr(part, "NVCC="))
			util_buf_puts(&s->steps, " CC=\"$HIPPORT_CXX\" NVCC=\"$HIPPORT_CXX\"");
	} else if (!is_cmd(w, n, "cmake")) {
		util_buf_put(&s->steps, part, (size_t)(w - part));
		util_buf_puts(&s->steps, "\"$HIPPORT_CXX\"");
		util_buf_puts(&s->steps, w + n);
	} else {
		util_buf_puts(&s->steps, part);
	}
	s->built = true;
}

/* Whether path p (len bytes), from where the README's commands are, stays
 * in the tree; into out (when given) its path from the README's directory. */
static bool rd_from_cwd(util_buf *out, const rd_scan *s, const char *p, size_t len)
{
	rd_dir d = { s->cwd.up, UTIL_BUF_INIT };
	bool ok;

	util_buf_puts(&d.down, rec_str(&s->cwd.down));
	ok = rd_walk(&d, p, len, s->depth);
	if (ok && out)
		rd_path(out, &d);
	util_buf_dispose(&d.down);
	return ok && (!out || !util_buf_oom(out));
}

static void rd_take_run(rd_scan *s, const char *part)
{
	if (s->cwd.up || s->cwd.down.len) {
		util_buf_puts(&s->run, "cd ");
		rd_path(&s->run, &s->cwd);
		util_buf_puts(&s->run, " && ");
	}
	util_buf_puts(&s->run, part);
	util_buf_puts(&s->build, rec_str(&s->steps));
	s->found = true;
}

/* Whether each path a command names (its words after the first that are
 * no options) is inside the tree. */
static bool rd_inside(const rd_scan *s, const char *part)
{
	size_t n;
	const char *w = rd_command(part, &n);
	bool inside = true;

	for (w += n; inside && *(w += strspn(w, " \t"));) {
		n = strcspn(w, " \t");
		inside = w[0] == '-' || rd_from_cwd(NULL, s, w, n);
		w += n;
	}
	return inside;
}

/* A command of a line: one part between && and ;. */
static int rd_part(rd_scan *s, const char *part)
{
	util_buf prog = UTIL_BUF_INIT;
	const char *w;
	size_t n;

	switch (rd_classify(part)) {
	case RD_CD:
		w = rd_command(part, &n);
		w += n + strspn(w + n, " \t");
		n = strcspn(w, " \t");
		if (s->clone && strlen(s->clone) == n && !strncmp(w, s->clone, n))
			break; /* into what a clone would make: this tree */
		if (w[n + strspn(w + n, " \t")] || !rd_walk(&s->cwd, w, n, s->depth)) {
			s->stop = true; /* what follows runs outside the tree */
			break;
		}
		rd_step(s, part);
		break;
	case RD_MKDIR:
		if (rd_inside(s, part))
			rd_step(s, part);
		break;
	case RD_BUILD:
		w = strstr(part, "-C");
		if (w && (w == part || w[-1] == ' ')) { /* make -C DIR: inside the tree */
			w += 2 + strspn(w + 2, " \t");
			if (!rd_from_cwd(NULL, s, w, strcspn(w, " \t")))
				break;
		}
		rd_build_step(s, part);
		break;
	case RD_RUN:
		if (s->want) {
			w = rd_command(part, &n);
			if (n > 2 && !strncmp(w, "./", 2) && rd_from_cwd(&prog, s, w, n) &&
			    !strcmp(rec_str(&prog), s->want))
				rd_take_run(s, part);
		} else if (s->built) {
			rd_take_run(s, part);
		}
		break;
	case RD_INSTALL:
	case RD_OTHER:
		break;
	}
	util_buf_dispose(&prog);
	return util_buf_oom(&s->steps) || util_buf_oom(&s->run) || util_buf_oom(&s->cwd.down)
		       ? util_error_set(UTIL_ENOMEM, "out of memory")
		       : 0;
}

/* A line of a fenced block: refused whole when it installs something or
 * does what a build or run line has no need of (command substitution,
 * pipes, background jobs). */
static int rd_line(rd_scan *s, char *line)
{
	char *p, *parts[32];
	size_t n = 0, i;
	bool install = false;
	int error = 0;

	line = rec_trim(line);
	if (line[0] == '$' && line[1] == ' ')
		line = rec_trim(line + 2);
	for (p = line; (p = strchr(p, '#')); p++) /* a comment after the command */
		if (p == line || p[-1] == ' ' || p[-1] == '\t') {
			*p = '\0';
			break;
		}
	if (!*line || strchr(line, '`') || strstr(line, "$(") || strchr(line, '|'))
		return 0;
	for (p = line; (p = strchr(p, '&')); p++) {
		if (p[1] == '&') {
			p++;
			continue;
		}
		if (p == line || p[-1] != '>')
			return 0;
	}
	for (p = line; p && n < sizeof(parts) / sizeof(*parts);) { /* split at && and ; */
		char *amp = strstr(p, "&&"), *semi = strchr(p, ';'), *end = amp && (!semi || amp < semi) ? amp : semi;

		parts[n++] = p;
		if (end) {
			*end = '\0';
			p = end + (end == amp ? 2 : 1);
		} else {
			p = NULL;
		}
	}
	for (i = 0; i < n; i++) {
		parts[i] = rec_trim(parts[i]);
		if (rd_classify(parts[i]) == RD_INSTALL) {
			install = true;
			if (!strncmp(rd_command(parts[i], &(size_t){ 0 }), "git", 3) && (error = rd_clone_dir(s, parts[i])) < 0)
				return error;
		}
	}
	for (i = 0; i < n && !install && !error && !s->found && !s->stop; i++)
		if (*parts[i])
			error = rd_part(s, parts[i]);
	return error;
}

static bool rd_shell_fence(const char *info)
{
	static const char *const shells[] = { "sh", "bash", "shell", "console", "zsh", "shell-session", "sh-session",
					      "terminal", NULL };
	size_t n = strcspn(info, " \t{,\r\n"), i;

	if (!n)
		return true;
	for (i = 0; shells[i]; i++)
		if (strlen(shells[i]) == n && !strncasecmp(info, shells[i], n))
			return true;
	return false;
}

/* Scans text's ``` blocks of shell (or of no language). */
static int rd_scan_text(rd_scan *s, const char *text)
{
	util_buf line = UTIL_BUF_INIT;
	const char *p = text;
	bool in_block = false, shell = false;
	int error = 0;

	while (*p && !error && !s->found && !s->stop) {
		size_t n = strcspn(p, "\n");
		const char *t = p + strspn(p, " \t");

		if (!strncmp(t, "```", 3)) {
			shell = !in_block && rd_shell_fence(t + 3 + strspn(t + 3, "`"));
			in_block = !in_block;
			util_buf_clear(&line);
		} else if (in_block && shell) {
			util_buf_put(&line, p, n);
			while (line.len && (line.ptr[line.len - 1] == '\r' || line.ptr[line.len - 1] == ' '))
				line.ptr[--line.len] = '\0';
			if (line.len && line.ptr[line.len - 1] == '\\') { /* continued */
				line.ptr[line.len - 1] = ' ';
			} else if (!util_buf_oom(&line)) {
				for (size_t i = 0; i < line.len; i++)
					line.ptr[i] = line.ptr[i] == '\t' ? ' ' : line.ptr[i];
				error = rd_line(s, line.ptr ? line.ptr : (char[]){ "" });
				util_buf_clear(&line);
			}
		}
		if (util_buf_oom(&line))
			error = util_error_set(UTIL_ENOMEM, "out of memory");
		p += n + (p[n] == '\n');
	}
	util_buf_dispose(&line);
	return error;
}

static void rd_scan_dispose(rd_scan *s)
{
	util_buf_dispose(&s->cwd.down);
	util_buf_dispose(&s->steps);
	util_buf_dispose(&s->build);
	util_buf_dispose(&s->run);
	free(s->clone);
}

/* The run of program exe: the README's line that runs it (its arguments),
 * else ./exe; origin says which. */
int rec_readme_run(util_buf *run, util_buf *origin, const rec_level *lv, const char *exe)
{
	rd_scan s;
	int error = 0;

	memset(&s, 0, sizeof(s));
	s.depth = lv->depth;
	s.want = exe;
	if (lv->readme_name && (error = rd_scan_text(&s, rec_str(&lv->readme))) < 0)
		goto done;
	if (s.found) {
		util_buf_puts(run, rec_str(&s.run));
		util_buf_printf(origin, ", arguments from %s", lv->readme_name);
	} else {
		util_buf_printf(run, "./%s", exe);
	}
done:
	rd_scan_dispose(&s);
	return error;
}

int rec_readme_guess(rec_commands *out, const rec_level *lv)
{
	util_buf origin = UTIL_BUF_INIT;
	rd_scan s;
	int error;

	memset(&s, 0, sizeof(s));
	s.depth = lv->depth;
	if ((error = rd_scan_text(&s, rec_str(&lv->readme))) == 0) {
		util_buf_printf(&origin, "%s fenced block", lv->readme_name);
		error = s.found ? rec_level_result(out, lv, rec_str(&s.build), rec_str(&s.run), &origin)
				: UTIL_ENOTFOUND;
	}
	rd_scan_dispose(&s);
	util_buf_dispose(&origin);
	return error;
}
