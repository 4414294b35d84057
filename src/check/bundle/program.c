#include "check/bundle/program.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "port/definitions.h"
#include "util/buf.h"
#include "util/error.h"
#include "util/file.h"
#include "vcs/config.h"
#include "vcs/tracked.h"

/* A walk of includes stops here: a program, not a system's headers. */
#define MAX_FILES 20000

typedef struct collector {
	bundle_program *out;
	const bundle_program_input *in;
	char **dirs; /* -I directories, relative to the work tree, normalised */
	size_t ndirs;
	size_t next; /* files[next..] are still to be scanned for includes */
	vcs_tracked tracked; /* the work tree's tracked files, read at the first include found nowhere else */
	bool tracked_read;
} collector;

bool bundle_program_is_code(const char *path)
{
	static const char *const exts[] = { "c", "cc", "cpp", "cxx", "C", "cu", "cuh", "h", "hh", "hpp", "hxx", "inc",
					    "inl", "ipp", "tcc", "tpp", "cl", "def", "hip", NULL };
	const char *dot = strrchr(path, '.'), *slash = strrchr(path, '/');
	size_t i;

	if (!dot || (slash && dot < slash))
		return false;
	for (i = 0; exts[i]; i++)
		if (strcmp(dot + 1, exts[i]) == 0)
			return true;
	return false;
}

/* dir/name with "." and ".." folded away; NULL when it leaves the work tree. */
static char *join(const char *dir, const char *name, size_t len)
{
	util_buf b = UTIL_BUF_INIT;
	char *parts, *p, *save = NULL, *out = NULL;
	size_t *starts = NULL, n = 0;

	if (len && name[0] == '/')
		return NULL;
	util_buf_printf(&b, "%s/%.*s", dir, (int)len, name);
	if (util_buf_oom(&b) || !(parts = strdup(b.ptr)) || !(starts = calloc(b.len + 1, sizeof(*starts)))) {
		util_buf_dispose(&b);
		return NULL;
	}
	util_buf_clear(&b);
	for (p = strtok_r(parts, "/", &save); p; p = strtok_r(NULL, "/", &save)) {
		if (strcmp(p, ".") == 0)
			continue;
		if (strcmp(p, "..") == 0) {
			if (!n)
				goto done; /* above the work tree */
			b.len = starts[--n];
			b.ptr[b.len] = '\0';
			continue;
		}
		starts[n++] = b.len;
		util_buf_printf(&b, "%s%s", b.len ? "/" : "", p);
	}
	if (!util_buf_oom(&b))
		out = strdup(b.len ? b.ptr : ".");
done:
	free(parts);
	free(starts);
	util_buf_dispose(&b);
	return out;
}

static bool is_source(const bundle_program_input *in, const char *path)
{
	size_t i;

	for (i = 0; i < in->nsources; i++)
		if (strcmp(in->sources[i].path, path) == 0)
			return true;
	return false;
}

static bool is_file(const char *root, const char *path)
{
	util_buf b = UTIL_BUF_INIT;
	struct stat st;
	bool yes;

	util_buf_printf(&b, "%s%s", root, path);
	yes = !util_buf_oom(&b) && stat(b.ptr, &st) == 0 && S_ISREG(st.st_mode);
	util_buf_dispose(&b);
	return yes;
}

/* Adds path (owned by the call) for trees; 1 when it is new. */
static int add(collector *c, char *path, unsigned trees)
{
	bundle_program *out = c->out;
	bundle_program_file *m;
	size_t i;

	if (is_source(c->in, path)) {
		free(path);
		return 0;
	}
	for (i = 0; i < out->n; i++) {
		if (strcmp(out->files[i].path, path) == 0) {
			out->files[i].trees |= trees;
			free(path);
			return 0;
		}
	}
	if (out->n >= MAX_FILES) {
		free(path);
		return 0;
	}
	if (!(m = realloc(out->files, (out->n + 1) * sizeof(*m)))) {
		free(path);
		return util_error_set(UTIL_ENOMEM, "out of memory");
	}
	out->files = m;
	m[out->n].path = path;
	m[out->n++].trees = trees;
	return 1;
}

static int add_dir(collector *c, const char *dir, size_t len)
{
	char *path = join(".", dir, len), **m;
	size_t i;

	if (!path)
		return 0;
	for (i = 0; i < c->ndirs; i++) {
		if (strcmp(c->dirs[i], path) == 0) {
			free(path);
			return 0;
		}
	}
	if (!(m = realloc(c->dirs, (c->ndirs + 1) * sizeof(*m)))) {
		free(path);
		return util_error_set(UTIL_ENOMEM, "out of memory");
	}
	c->dirs = m;
	m[c->ndirs++] = path;
	return 0;
}

/* The -I directories of a command or build file in dir: -Ipath and -I path
 * whose value names no make or shell variable. */
static int add_flag_dirs(collector *c, const char *dir, const char *text, size_t len)
{
	const char *p = text, *end = text + len;
	int error = 0;

	while (p < end && !error && (p = memmem(p, (size_t)(end - p), "-I", 2))) {
		const char *v = p + 2;
		size_t n;

		if (p > text && !isspace((unsigned char)p[-1]) && p[-1] != '"' && p[-1] != '\'') {
			p += 2;
			continue;
		}
		while (v < end && (*v == ' ' || *v == '\t'))
			v++;
		n = 0;
		while (v + n < end && !isspace((unsigned char)v[n]) && v[n] != '"' && v[n] != '\'' && v[n] != ';')
			n++;
		p = v + n;
		if (!n || memchr(v, '$', n) || memchr(v, '`', n) || v[0] == '/')
			continue;
		{
			util_buf rel = UTIL_BUF_INIT;

			util_buf_printf(&rel, "%s/%.*s", dir, (int)n, v);
			error = util_buf_oom(&rel) ? util_error_set(UTIL_ENOMEM, "out of memory")
						   : add_dir(c, rel.ptr, rel.len);
			util_buf_dispose(&rel);
		}
	}
	return error;
}

static char *dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? strndup(path, (size_t)(slash - path)) : strdup(".");
}

/* A "quoted" include found neither beside its file nor in the build's -I
 * directories: the build that names its directory is one hipport does not
 * read (a setup.py's include_dirs). The one tracked file whose path ends in
 * the name is it, and its directory becomes one of the -I directories;
 * none when no file or several match. */
static char *resolve_tracked(collector *c, const char *name, size_t len)
{
	const char *found = NULL;
	size_t i, dir_len;

	if (!c->tracked_read) {
		c->tracked_read = true;
		if (vcs_tracked_under(&c->tracked, c->in->root, ".") < 0) {
			util_error_clear();
			return NULL;
		}
	}
	for (i = 0; i < c->tracked.n; i++) {
		const char *t = c->tracked.paths[i];
		size_t tl = strlen(t);

		if (tl < len || strncmp(t + tl - len, name, len) != 0 || (tl > len && t[tl - len - 1] != '/'))
			continue;
		if (found)
			return NULL;
		found = t;
	}
	if (!found)
		return NULL;
	/* found is DIR/name, or name at the root */
	dir_len = strlen(found) - len;
	if (add_dir(c, dir_len ? found : ".", dir_len ? dir_len - 1 : 1) < 0) {
		util_error_clear();
		return NULL;
	}
	return strdup(found);
}

/* The file an include names, as the compiler finds it (NULL when it is
 * not in the work tree: a system or toolchain header). */
static char *resolve(collector *c, const char *including, const char *name, size_t len, bool quoted)
{
	char *dir = dir_of(including), *path = NULL;
	size_t i;

	if (!dir)
		return NULL;
	if (quoted && (path = join(dir, name, len)) && !is_file(c->in->root, path)) {
		free(path);
		path = NULL;
	}
	for (i = 0; !path && i < c->ndirs; i++) {
		if ((path = join(c->dirs[i], name, len)) && !is_file(c->in->root, path)) {
			free(path);
			path = NULL;
		}
	}
	free(dir);
	/* (a name starting "." or "/" says where it is: no other file is it) */
	if (!path && quoted && len && name[0] != '/' && name[0] != '.')
		path = resolve_tracked(c, name, len);
	return path;
}

static int add_include(bundle_program *out, const char *from, char *to)
{
	bundle_include *m = realloc(out->includes, (out->nincludes + 1) * sizeof(*m));

	if (!m) {
		free(to);
		return util_error_set(UTIL_ENOMEM, "out of memory");
	}
	out->includes = m;
	if (!(m[out->nincludes].from = strdup(from)) || !(m[out->nincludes].to = strdup(to))) {
		free(m[out->nincludes].from);
		free(to);
		return util_error_set(UTIL_ENOMEM, "out of memory");
	}
	out->nincludes++;
	return 0;
}

static int scan(collector *c, const char *path, const char *text, size_t len)
{
	const char *p = text, *end = text + len;
	int error = 0;

	while (p < end && !error) {
		const char *eol = memchr(p, '\n', (size_t)(end - p)), *name;
		size_t n;
		bool quoted;
		char *found;

		if (!eol)
			eol = end;
		if (port_include_name(p, eol, &name, &n, &quoted) && (found = resolve(c, path, name, n, quoted)) &&
		    (error = add_include(c->out, path, found)) == 0)
			error = add(c, found, BUNDLE_PROGRAM_HARNESS | BUNDLE_PROGRAM_RECORD);
		p = eol + 1;
	}
	return error < 0 ? error : 0;
}

/* The tracked files of dir, for trees (code only for the harness trees). */
static int add_tracked(collector *c, const char *dir, unsigned trees)
{
	vcs_tracked t = { NULL, 0 };
	size_t i;
	int error;

	if ((error = vcs_tracked_under(&t, c->in->root, dir)) < 0)
		return error;
	for (i = 0; i < t.n && error >= 0; i++) {
		unsigned these = trees & (bundle_program_is_code(t.paths[i]) ? ~0u : ~(unsigned)BUNDLE_PROGRAM_HARNESS);
		const char *slash = strrchr(t.paths[i], '/');
		bool direct = strcmp(dir, ".") == 0 ? !slash : slash && (size_t)(slash - t.paths[i]) == strlen(dir);

		/* the harness trees take a checked directory's own files, not its subdirectories' */
		if (!these || (!(trees & BUNDLE_PROGRAM_RECORD) && !direct))
			continue;
		error = add(c, t.paths[i], these);
		t.paths[i] = NULL; /* add owns it now */
	}
	vcs_tracked_dispose(&t);
	return error < 0 ? error : 0;
}

/* The files a Makefile includes (include, -include, sinclude: names
 * without variables, relative to the directory make runs in), for the
 * record trees, and what they include in turn. */
static int add_make_includes(collector *c, const char *dir, const char *text, size_t len, int depth)
{
	const char *p = text, *end = text + len;
	util_buf path = UTIL_BUF_INIT, more = UTIL_BUF_INIT;
	int error = 0;

	while (p < end && !error && depth < 8) {
		const char *eol = memchr(p, '\n', (size_t)(end - p)), *w;

		if (!eol)
			eol = end;
		w = p;
		while (w < eol && *w == ' ')
			w++;
		if (*w == '-' || *w == 's')
			w++;
		if ((size_t)(eol - w) > 8 && strncmp(w, "include", 7) == 0 && (w[7] == ' ' || w[7] == '\t')) {
			for (w += 8; w < eol && !error;) {
				size_t n = strcspn(w, " \t\r\n#");
				char *rel;

				if (n && !memchr(w, '$', n) && (rel = join(dir, w, n))) {
					if (is_file(c->in->root, rel)) {
						util_buf_clear(&path);
						util_buf_printf(&path, "%s%s", c->in->root, rel);
						if (util_buf_oom(&path) || util_file_read(&more, path.ptr, UTIL_FILE_DEFAULT_MAX_SIZE) < 0)
							util_error_clear(); /* unreadable: carried, not followed */
						else
							error = add_make_includes(c, dir, more.ptr ? more.ptr : "", more.len, depth + 1);
						error = error < 0 ? error : add(c, rel, BUNDLE_PROGRAM_RECORD);
						error = error < 0 ? error : 0;
					} else {
						free(rel);
					}
				}
				w += n;
				if (w < eol && *w == '#')
					break;
				w += strspn(w, " \t\r"); /* a CRLF line ends at its \r */
			}
		}
		p = eol + 1;
	}
	util_buf_dispose(&path);
	util_buf_dispose(&more);
	return error;
}

/* -I directories of dir's Makefile, if it has one; the Makefile itself too
 * for a recorded program (tracked or not, it builds it). */
static int makefile_dirs(collector *c, const char *dir, bool recorded)
{
	static const char *const names[] = { "GNUmakefile", "makefile", "Makefile", NULL };
	util_buf path = UTIL_BUF_INIT, text = UTIL_BUF_INIT;
	size_t i;
	int error = 0;

	for (i = 0; names[i] && !error; i++) {
		util_buf_clear(&path);
		util_buf_printf(&path, "%s%s/%s", c->in->root, dir, names[i]);
		if (util_buf_oom(&path) || util_file_read(&text, path.ptr, UTIL_FILE_DEFAULT_MAX_SIZE) < 0) {
			util_error_clear();
			continue;
		}
		error = add_flag_dirs(c, dir, text.ptr ? text.ptr : "", text.len);
		if (!error && recorded)
			error = add_make_includes(c, dir, text.ptr ? text.ptr : "", text.len, 0);
		if (!error && recorded) {
			char *rel = join(dir, names[i], strlen(names[i]));

			error = rel ? add(c, rel, BUNDLE_PROGRAM_RECORD) : util_error_set(UTIL_ENOMEM, "out of memory");
			error = error < 0 ? error : 0;
		}
	}
	util_buf_dispose(&path);
	util_buf_dispose(&text);
	return error;
}

static int gather_dirs(collector *c)
{
	const bundle_program_input *in = c->in;
	const char *p = in->includes ? in->includes : "";
	size_t i;
	int error = 0;

	while (*p && !error) {
		size_t n = strcspn(p, " \t");

		if (n)
			error = add_dir(c, p, n);
		p += n;
		p += strspn(p, " \t");
	}
	for (i = 0; i < in->nrecords && !error; i++)
		if (!(error = add_flag_dirs(c, in->records[i].dir, in->records[i].build, strlen(in->records[i].build))))
			error = makefile_dirs(c, in->records[i].dir, true);
	for (i = 0; i < in->nchecked && !error; i++) {
		char *dir = dir_of(in->checked[i]);

		error = dir ? makefile_dirs(c, dir, false) : util_error_set(UTIL_ENOMEM, "out of memory");
		free(dir);
	}
	return error;
}

int bundle_program_collect(bundle_program *out, const bundle_program_input *in)
{
	collector c = { .out = out, .in = in };
	util_buf text = UTIL_BUF_INIT, path = UTIL_BUF_INIT;
	size_t i;
	int error;

	memset(out, 0, sizeof(*out));
	if ((error = gather_dirs(&c)) < 0)
		goto done;
	for (i = 0; i < in->nrecords && !error; i++)
		error = add_tracked(&c, in->records[i].dir, BUNDLE_PROGRAM_HARNESS | BUNDLE_PROGRAM_RECORD);
	for (i = 0; i < in->nchecked && !error; i++) {
		char *dir = dir_of(in->checked[i]);

		error = dir ? add_tracked(&c, dir, BUNDLE_PROGRAM_HARNESS) : util_error_set(UTIL_ENOMEM, "out of memory");
		free(dir);
	}
	/* the includes of the sources, then of every code file found, as found */
	for (i = 0; i < in->nsources && !error; i++)
		error = scan(&c, in->sources[i].path, in->sources[i].orig, in->sources[i].orig_len);
	for (c.next = 0; c.next < out->n && !error; c.next++) {
		const char *p = out->files[c.next].path;

		if (!bundle_program_is_code(p))
			continue;
		util_buf_clear(&path);
		util_buf_printf(&path, "%s%s", in->root, p);
		if (util_buf_oom(&path) || util_file_read(&text, path.ptr, UTIL_FILE_DEFAULT_MAX_SIZE) < 0) {
			util_error_clear(); /* unreadable or too big: carried, not followed */
			continue;
		}
		error = scan(&c, p, text.ptr ? text.ptr : "", text.len);
	}
done:
	vcs_tracked_dispose(&c.tracked);
	out->dirs = c.dirs;
	out->ndirs = c.ndirs;
	util_buf_dispose(&text);
	util_buf_dispose(&path);
	if (error < 0)
		bundle_program_dispose(out);
	return error;
}

const char *bundle_program_unit(const bundle_program *p, const char *source)
{
	const char *unit = source;
	size_t i, depth;

	/* a kernel's file that another includes (a .cu of a unity build, a
	 * .cuh after the includer's helpers: cuda-samples' fastWalshTransform
	 * uses helper_cuda.h's getLastCudaError) is compiled in its first
	 * includer, up the first includer each time; run.sh falls back to the
	 * file alone when that does not build. A cycle ends at the bound. */
	for (depth = 0; depth < 64; depth++) {
		for (i = 0; i < p->nincludes && strcmp(p->includes[i].to, unit) != 0; i++)
			;
		if (i == p->nincludes)
			break;
		unit = p->includes[i].from;
	}
	return unit;
}

void bundle_program_dispose(bundle_program *p)
{
	size_t i;

	for (i = 0; i < p->nincludes; i++) {
		free(p->includes[i].from);
		free(p->includes[i].to);
	}
	free(p->includes);

	for (i = 0; i < p->n; i++)
		free(p->files[i].path);
	free(p->files);
	for (i = 0; i < p->ndirs; i++)
		free(p->dirs[i]);
	free(p->dirs);
	memset(p, 0, sizeof(*p));
}
