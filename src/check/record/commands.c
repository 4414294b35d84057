#include "check/record/commands.h"

#include <ctype.h>
#include <jansson.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/compile_db.h"
#include "util/error.h"
#include "util/process.h"

/* The compilers as make variables, as a [record] section would give them. */
#define MAKE_BUILD "make CC=\"$HIPPORT_CXX\" NVCC=\"$HIPPORT_CXX\""
/* CMake refuses a HIP compiler named hipcc: record.sh may name the port's
 * wrapper otherwise in HIPPORT_HIP_CXX. */
#define CMAKE_BUILD                                                                                                    \
	"cmake -S . -B build-hipport -DCMAKE_CUDA_COMPILER=\"$HIPPORT_CXX\" "                                          \
	"-DCMAKE_HIP_COMPILER=\"${HIPPORT_HIP_CXX:-$HIPPORT_CXX}\" && cmake --build build-hipport -j"
#define CMAKE_RUN "ctest --test-dir build-hipport --output-on-failure"
#define MAX_DB_ENTRIES 100 /* a compilation database longer than that is no program to build by hand */
#define MAX_SUBDIRS 16     /* add_subdirectory() of the top CMakeLists.txt read for add_test */

static const char *const makefile_names[] = { "GNUmakefile", "makefile", "Makefile", NULL }; /* GNU make's order */
static const char *const readme_names[] = { "README.md", "README", "README.txt", "readme.md", NULL };

static const char *str(const util_buf *b)
{
	return b->ptr ? b->ptr : "";
}

/* A list of distinct strings. */
typedef struct names {
	char **v;
	size_t n;
} names;

static int names_add(names *l, const char *s, size_t len)
{
	char **m;
	size_t i;

	for (i = 0; i < l->n; i++)
		if (strlen(l->v[i]) == len && !strncmp(l->v[i], s, len))
			return 0;
	if (!(m = realloc(l->v, (l->n + 1) * sizeof(*m))))
		return util_error_set(UTIL_ENOMEM, "out of memory");
	l->v = m;
	if (!(l->v[l->n] = strndup(s, len)))
		return util_error_set(UTIL_ENOMEM, "out of memory");
	l->n++;
	return 0;
}

static void names_dispose(names *l)
{
	while (l->n)
		free(l->v[--l->n]);
	free(l->v);
	l->v = NULL;
}

/* ---- what one directory holds ---- */

typedef struct level {
	const char *dir;  /* relative to the root, "." for the root */
	unsigned depth;   /* its components */
	rec_read_fn read;
	void *payload;
	util_buf make, cmake, db, readme;
	const char *make_name, *readme_name; /* the files found, or NULL */
	bool has_cmake, has_db;
} level;

/* dir/name through the reader; *found false when there is no such file
 * or it cannot be read as one. */
static int read_in(util_buf *out, bool *found, const level *lv, const char *dir, const char *name)
{
	util_buf path = UTIL_BUF_INIT;
	int error;

	*found = false;
	if (strcmp(dir, ".") != 0)
		util_buf_printf(&path, "%s/%s", dir, name);
	else
		util_buf_puts(&path, name);
	if (util_buf_oom(&path))
		return util_error_set(UTIL_ENOMEM, "out of memory");
	util_buf_clear(out);
	error = lv->read(out, path.ptr, lv->payload);
	util_buf_dispose(&path);
	if (error == UTIL_ENOTFOUND || error == UTIL_EINPUT) { /* none, or none to read (a directory) */
		util_error_clear();
		return 0;
	}
	*found = error == 0;
	return error;
}

/* The first of names that the directory holds, into out. */
static int read_first(util_buf *out, const char **name, const level *lv, const char *const *names_)
{
	bool found = false;
	int error = 0;

	*name = NULL;
	for (; *names_ && !found && !error; names_++)
		if (!(error = read_in(out, &found, lv, lv->dir, *names_)) && found)
			*name = *names_;
	return error;
}

static int level_load(level *lv)
{
	const char *name;
	int error;

	if ((error = read_first(&lv->make, &lv->make_name, lv, makefile_names)) < 0 ||
	    (error = read_in(&lv->cmake, &lv->has_cmake, lv, lv->dir, "CMakeLists.txt")) < 0 ||
	    (error = read_in(&lv->db, &lv->has_db, lv, lv->dir, "compile_commands.json")) < 0 ||
	    (error = read_first(&lv->readme, &name, lv, readme_names)) < 0)
		return error;
	lv->readme_name = name;
	return 0;
}

static void level_dispose(level *lv)
{
	util_buf_dispose(&lv->make);
	util_buf_dispose(&lv->cmake);
	util_buf_dispose(&lv->db);
	util_buf_dispose(&lv->readme);
}

static int result(rec_commands *out, const level *lv, const char *build, const char *run, const util_buf *origin)
{
	out->dir = strdup(lv->dir);
	out->build = strdup(build);
	out->run = strdup(run);
	out->origin = strdup(str(origin));
	if (util_buf_oom(origin) || !out->dir || !out->build || !out->run || !out->origin) {
		rec_commands_dispose(out);
		return util_error_set(UTIL_ENOMEM, "out of memory");
	}
	return 0;
}

/* ---- Makefiles ---- */

typedef struct mk_var {
	const char *name, *value;
	bool unclear; /* set in a conditional, appended to, or by a shell */
} mk_var;

typedef struct mk_rule {
	char *targets, *prereqs;
	size_t first, end; /* its recipe: the tab lines among lines[first..end) */
} mk_rule;

typedef struct mk_file {
	char *text;
	char **lines;
	size_t nlines;
	mk_var *vars;
	size_t nvars;
	mk_rule *rules;
	size_t nrules;
} mk_file;

static void mk_dispose(mk_file *mk)
{
	free(mk->text);
	free(mk->lines);
	free(mk->vars);
	free(mk->rules);
	memset(mk, 0, sizeof(*mk));
}

static char *trim(char *s)
{
	char *e;

	while (*s == ' ' || *s == '\t')
		s++;
	for (e = s + strlen(s); e > s && isspace((unsigned char)e[-1]); e--)
		;
	*e = '\0';
	return s;
}

static mk_var *mk_var_find(const mk_file *mk, const char *name, size_t len)
{
	size_t i;

	for (i = mk->nvars; i-- > 0;)
		if (strlen(mk->vars[i].name) == len && !strncmp(mk->vars[i].name, name, len))
			return &mk->vars[i];
	return NULL;
}

static bool word_is(const char *s, const char *w)
{
	size_t n = strlen(w);

	return !strncmp(s, w, n) && (s[n] == '\0' || isspace((unsigned char)s[n]));
}

/* A line that is no recipe: a variable, a rule, or neither. */
static int mk_parse_line(mk_file *mk, char *line, bool in_conditional, mk_rule **cur)
{
	char *eq = strchr(line, '='), *colon = strchr(line, ':');

	*cur = NULL;
	if (word_is(line, "export") || word_is(line, "override"))
		line = trim(line + strcspn(line, " \t"));
	if (eq && (!colon || colon >= eq - 2)) { /* NAME = v, NAME := v, NAME ::= v, NAME ?= v, NAME += v, NAME != v */
		char *end = eq, op = eq > line ? eq[-1] : '\0';
		mk_var *v, *m;

		if (op == ':' || op == '?' || op == '+' || op == '!')
			end--;
		while (end > line && end[-1] == ':')
			end--;
		*end = '\0';
		line = trim(line);
		if (!*line || strpbrk(line, " \t$"))
			return 0;
		if ((v = mk_var_find(mk, line, strlen(line)))) {
			if (op == '?')
				return 0;
			v->unclear = v->unclear || op == '+' || op == '!' || in_conditional;
			v->value = trim(eq + 1);
			return 0;
		}
		if (!(m = realloc(mk->vars, (mk->nvars + 1) * sizeof(*m))))
			return util_error_set(UTIL_ENOMEM, "out of memory");
		mk->vars = m;
		m[mk->nvars].name = line;
		m[mk->nvars].value = trim(eq + 1);
		m[mk->nvars++].unclear = op == '!' || in_conditional;
		return 0;
	}
	if (colon && !eq) {
		mk_rule *m;
		char *prereqs = colon + 1 + (colon[1] == ':');

		*colon = '\0';
		prereqs[strcspn(prereqs, ";")] = '\0';
		if (!(m = realloc(mk->rules, (mk->nrules + 1) * sizeof(*m))))
			return util_error_set(UTIL_ENOMEM, "out of memory");
		mk->rules = m;
		*cur = &m[mk->nrules++];
		(*cur)->targets = trim(line);
		(*cur)->prereqs = trim(prereqs);
		(*cur)->first = (*cur)->end = 0;
	}
	return 0;
}

/* The variables and rules of a Makefile; conditionals are not followed:
 * what they set is unclear. */
static int mk_parse(mk_file *mk, const char *src, size_t len)
{
	size_t i, k, n = 1;
	int conditional = 0, error = 0;
	mk_rule *cur = NULL;
	size_t cur_index = 0;
	char *p;

	memset(mk, 0, sizeof(*mk));
	if (!(mk->text = malloc(len + 1)))
		return util_error_set(UTIL_ENOMEM, "out of memory");
	for (i = k = 0; i < len; i++) { /* continuation lines joined, \r dropped */
		if (src[i] == '\r')
			continue;
		if (src[i] == '\\' && i + 1 < len && src[i + 1 + (src[i + 1] == '\r' && i + 2 < len)] == '\n') {
			mk->text[k++] = ' ';
			i += src[i + 1] == '\r' ? 2 : 1;
			continue;
		}
		n += src[i] == '\n';
		mk->text[k++] = src[i];
	}
	mk->text[k] = '\0';
	if (!(mk->lines = calloc(n + 1, sizeof(*mk->lines))))
		return util_error_set(UTIL_ENOMEM, "out of memory");
	for (p = mk->text; p; mk->nlines++) {
		mk->lines[mk->nlines] = p;
		if ((p = strchr(p, '\n')))
			*p++ = '\0';
	}
	for (i = 0; i < mk->nlines && !error; i++) {
		char *line = mk->lines[i];

		if (line[0] == '\t') {
			if (cur) {
				if (!mk->rules[cur_index].first)
					mk->rules[cur_index].first = i;
				mk->rules[cur_index].end = i + 1;
			}
			continue;
		}
		line[strcspn(line, "#")] = '\0';
		line = trim(line);
		if (!*line)
			continue;
		if (word_is(line, "ifeq") || word_is(line, "ifneq") || word_is(line, "ifdef") || word_is(line, "ifndef")) {
			conditional++;
		} else if (word_is(line, "endif")) {
			conditional -= conditional > 0;
		} else if (!word_is(line, "else") && !word_is(line, "include") && !word_is(line, "-include") &&
			   !word_is(line, "sinclude") && !word_is(line, "define") && !word_is(line, "endef")) {
			error = mk_parse_line(mk, line, conditional > 0, &cur);
			cur_index = cur ? (size_t)(cur - mk->rules) : 0;
			continue;
		}
		cur = NULL;
	}
	return error;
}

/* s (len bytes) with $(VAR), ${VAR}, $@ (target) and $$ expanded, into
 * out; false when it names what the file does not set plainly (an
 * undefined or unclear variable, a function, an automatic variable). */
static bool mk_expand(util_buf *out, const mk_file *mk, const char *s, size_t len, const char *target, int depth)
{
	size_t i;

	if (depth > 8)
		return false;
	for (i = 0; i < len; i++) {
		const mk_var *v;
		char close;
		size_t k;

		if (s[i] != '$') {
			util_buf_putc(out, s[i]);
			continue;
		}
		if (++i >= len)
			return false;
		if (s[i] == '$') {
			util_buf_putc(out, '$');
			continue;
		}
		if (s[i] == '@' && target) {
			util_buf_puts(out, target);
			continue;
		}
		if (s[i] != '(' && s[i] != '{')
			return false;
		close = s[i] == '(' ? ')' : '}';
		for (k = i + 1; k < len && s[k] != close && !strchr(" \t:$(){}", s[k]); k++)
			;
		if (k >= len || s[k] != close || !(v = mk_var_find(mk, s + i + 1, k - i - 1)) || v->unclear ||
		    !mk_expand(out, mk, v->value, strlen(v->value), target, depth + 1))
			return false;
		i = k;
	}
	return true;
}

/* Whether the command word w (len bytes) runs nvcc: it or the value of the
 * variable it is ends in nvcc, or it is a variable named NVCC that the
 * file does not set. */
static bool mk_is_nvcc(const mk_file *mk, const char *w, size_t len, int depth)
{
	const mk_var *v;
	const char *base;

	if (depth > 8 || !len)
		return false;
	if (len > 3 && w[0] == '$' && (w[1] == '(' || w[1] == '{') && (w[len - 1] == ')' || w[len - 1] == '}')) {
		if (!(v = mk_var_find(mk, w + 2, len - 3))) {
			char *name = strndup(w + 2, len - 3);
			bool nvcc = name && strstr(name, "NVCC");

			free(name);
			return nvcc;
		}
		return mk_is_nvcc(mk, v->value, strcspn(v->value, " \t"), depth + 1);
	}
	for (base = w + len; base > w && base[-1] != '/'; base--)
		;
	return (size_t)(w + len - base) == 4 && !strncmp(base, "nvcc", 4);
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !strcmp(s + n - m, suffix);
}

/* The executables a rule's recipe links with nvcc (-o NAME, no -c) into
 * exes; *unclear when an output does not expand plainly. */
static int mk_recipe_exes(names *exes, bool *unclear, const mk_file *mk, const mk_rule *r, const char *target)
{
	util_buf name = UTIL_BUF_INIT;
	size_t i;
	int error = 0;

	for (i = r->first; i < r->end && !error; i++) {
		const char *p = mk->lines[i], *w, *o = NULL;
		size_t wl, ol = 0;
		bool compile = false;

		while (*p == '\t' || *p == ' ' || *p == '@' || *p == '-' || *p == '+')
			p++;
		wl = strcspn(p, " \t");
		if (mk->lines[i][0] != '\t' || !mk_is_nvcc(mk, p, wl, 0))
			continue;
		for (w = p + wl; *w;) {
			size_t n;

			w += strspn(w, " \t");
			n = strcspn(w, " \t");
			if ((n == 2 && !strncmp(w, "-c", 2)) || (n == 3 && !strncmp(w, "-dc", 3)) ||
			    (n == 9 && !strncmp(w, "--compile", 9)) || (n == 2 && !strncmp(w, "-E", 2)))
				compile = true;
			if (((n == 2 && !strncmp(w, "-o", 2)) || (n == 13 && !strncmp(w, "--output-file", 13))) && w[n]) {
				o = w + n + strspn(w + n, " \t");
				ol = strcspn(o, " \t");
			}
			w += n;
		}
		if (compile || !o || !ol)
			continue;
		util_buf_clear(&name);
		if (!mk_expand(&name, mk, o, ol, target, 0) || util_buf_oom(&name) || !name.len) {
			*unclear = true;
			continue;
		}
		if (name.ptr[0] == '/' || strstr(name.ptr, "..") || strpbrk(name.ptr, " \t\"'*?") ||
		    ends_with(name.ptr, ".o") || ends_with(name.ptr, ".a") || ends_with(name.ptr, ".so") ||
		    ends_with(name.ptr, ".obj") || ends_with(name.ptr, ".ptx") || ends_with(name.ptr, ".cubin") ||
		    ends_with(name.ptr, ".fatbin"))
			continue;
		error = names_add(exes, name.ptr + (strncmp(name.ptr, "./", 2) ? 0 : 2),
				  name.len - (strncmp(name.ptr, "./", 2) ? 0 : 2));
	}
	util_buf_dispose(&name);
	return error;
}

/* Whether a rule's targets, expanded, include target. */
static bool mk_rule_makes(const mk_file *mk, const mk_rule *r, const char *target)
{
	util_buf t = UTIL_BUF_INIT;
	const char *p;
	bool makes = false;

	if (!mk_expand(&t, mk, r->targets, strlen(r->targets), NULL, 0) || util_buf_oom(&t)) {
		util_buf_dispose(&t);
		return false;
	}
	for (p = str(&t); *p && !makes;) {
		size_t n;

		p += strspn(p, " \t");
		n = strcspn(p, " \t");
		makes = n && strlen(target) == n && !strncmp(p, target, n);
		p += n;
	}
	util_buf_dispose(&t);
	return makes;
}

/* The executables target makes with nvcc: its recipe's, else its
 * prerequisites' (two levels down). */
static int mk_target_exes(names *exes, bool *unclear, const mk_file *mk, const char *target, int depth)
{
	util_buf pre = UTIL_BUF_INIT;
	size_t i, before = exes->n;
	int error = 0;

	for (i = 0; i < mk->nrules && !error; i++)
		if (mk_rule_makes(mk, &mk->rules[i], target))
			error = mk_recipe_exes(exes, unclear, mk, &mk->rules[i], target);
	for (i = 0; i < mk->nrules && !error && exes->n == before && depth < 2; i++) {
		const char *p;

		if (!mk_rule_makes(mk, &mk->rules[i], target))
			continue;
		util_buf_clear(&pre);
		if (!mk_expand(&pre, mk, mk->rules[i].prereqs, strlen(mk->rules[i].prereqs), NULL, 0) ||
		    util_buf_oom(&pre)) {
			*unclear = true;
			continue;
		}
		for (p = str(&pre); *p && !error;) {
			size_t n;
			char *dep;

			p += strspn(p, " \t");
			if (!(n = strcspn(p, " \t")))
				break;
			if (!(dep = strndup(p, n)))
				error = util_error_set(UTIL_ENOMEM, "out of memory");
			else if (strcmp(dep, target) != 0)
				error = mk_target_exes(exes, unclear, mk, dep, depth + 1);
			free(dep);
			p += n;
		}
	}
	util_buf_dispose(&pre);
	return error;
}

static bool mk_has_target(const mk_file *mk, const char *target)
{
	size_t i;

	for (i = 0; i < mk->nrules; i++)
		if (mk_rule_makes(mk, &mk->rules[i], target))
			return true;
	return false;
}

/* The one executable the default target (the first that does not start
 * with '.') makes with nvcc, into out; false when that is not plain. */
static int mk_default_exe(util_buf *out, bool *found, const mk_file *mk)
{
	util_buf t = UTIL_BUF_INIT;
	names exes = { NULL, 0 };
	bool unclear = false;
	size_t i;
	int error = 0;

	*found = false;
	for (i = 0; i < mk->nrules; i++) {
		util_buf_clear(&t);
		if (!mk_expand(&t, mk, mk->rules[i].targets, strlen(mk->rules[i].targets), NULL, 0) ||
		    util_buf_oom(&t))
			break; /* the first target is not plain */
		t.len = strcspn(str(&t), " \t");
		if (t.len && t.ptr[0] != '.' && !memchr(t.ptr, '%', t.len)) {
			t.ptr[t.len] = '\0';
			error = mk_target_exes(&exes, &unclear, mk, t.ptr, 0);
			break;
		}
	}
	if (!error && !unclear && exes.n == 1) {
		util_buf_puts(out, exes.v[0]);
		*found = true;
	}
	names_dispose(&exes);
	util_buf_dispose(&t);
	return error;
}

/* ---- CMake ---- */

/* Whether text calls command (case-insensitive, at a line's start), with
 * arg as its first argument when given; *first_arg gets each literal
 * first argument when names is given. */
static int cmake_calls(bool *calls, names *args, const char *text, const char *command, const char *arg)
{
	const char *p;
	size_t n = strlen(command);
	int error = 0;

	*calls = false;
	for (p = text; p && *p && !error; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		const char *a;
		size_t al;

		p += strspn(p, " \t");
		if (strncasecmp(p, command, n) != 0)
			continue;
		a = p + n + strspn(p + n, " \t");
		if (*a != '(')
			continue;
		a += 1 + strspn(a + 1, " \t\r\n");
		al = strcspn(a, " \t\r\n)");
		if (arg && (al != strlen(arg) || strncmp(a, arg, al) != 0))
			continue;
		*calls = true;
		if (args && al && !memchr(a, '$', al) && !memchr(a, '"', al) && args->n < MAX_SUBDIRS)
			error = names_add(args, a, al);
	}
	return error;
}

/* The top CMakeLists.txt (lv, with project()) enables testing, and it, one
 * below it (chain: the CMakeLists.txt of the directories the program is
 * in, or those it adds with add_subdirectory()) adds a test. */
static int cmake_tests(bool *tests, const level *lv, const util_buf *chain)
{
	util_buf path = UTIL_BUF_INIT, sub = UTIL_BUF_INIT;
	names subdirs = { NULL, 0 };
	bool enable, ctest, add, found;
	size_t i;
	int error;

	*tests = false;
	if ((error = cmake_calls(&enable, NULL, str(&lv->cmake), "enable_testing", NULL)) < 0 ||
	    (error = cmake_calls(&ctest, NULL, str(&lv->cmake), "include", "CTest")) < 0)
		return error;
	if (!enable && !ctest)
		return 0;
	if ((error = cmake_calls(&add, NULL, str(&lv->cmake), "add_test", NULL)) < 0 ||
	    (!add && (error = cmake_calls(&add, NULL, str(chain), "add_test", NULL)) < 0) ||
	    (!add && (error = cmake_calls(&found, &subdirs, str(&lv->cmake), "add_subdirectory", NULL)) < 0))
		goto done;
	for (i = 0; i < subdirs.n && !add && !error; i++) {
		util_buf_clear(&path);
		if (strcmp(lv->dir, ".") != 0)
			util_buf_printf(&path, "%s/", lv->dir);
		util_buf_puts(&path, subdirs.v[i]);
		if (util_buf_oom(&path))
			error = util_error_set(UTIL_ENOMEM, "out of memory");
		else if (!strstr(path.ptr, "..") && !(error = read_in(&sub, &found, lv, path.ptr, "CMakeLists.txt")) && found)
			error = cmake_calls(&add, NULL, str(&sub), "add_test", NULL);
	}
done:
	*tests = !error && add;
	names_dispose(&subdirs);
	util_buf_dispose(&path);
	util_buf_dispose(&sub);
	return error;
}

/* ---- README fenced blocks ---- */

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
	util_buf_puts(out, str(&d->down));
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

	util_buf_puts(&d.down, str(&s->cwd.down));
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
	util_buf_puts(&s->build, str(&s->steps));
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
			if (n > 2 && !strncmp(w, "./", 2) && rd_from_cwd(&prog, s, w, n) && !strcmp(str(&prog), s->want))
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

	line = trim(line);
	if (line[0] == '$' && line[1] == ' ')
		line = trim(line + 2);
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
		parts[i] = trim(parts[i]);
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

/* ---- compile_commands.json ---- */

static void shell_word(util_buf *out, const char *w)
{
	const char *p;

	for (p = w; *p && (isalnum((unsigned char)*p) || strchr("_-./=+,:@%^", *p)); p++)
		;
	if (*w && !*p)
		util_buf_puts(out, w);
	else
		util_process_shell_quote(out, w);
}

/* arg with the database's directory dir made relative to it (the program's
 * directory, where the build runs). */
static void db_relative(util_buf *out, const char *arg, const char *dir)
{
	size_t n = strlen(dir);
	const char *p;

	while (n > 1 && dir[n - 1] == '/')
		n--;
	for (p = arg; *p;) {
		if (n && !strncmp(p, dir, n) && (p[n] == '/' || !p[n])) {
			if (p[n] == '/')
				p += n + 1;
			else {
				util_buf_putc(out, '.');
				p += n;
			}
			continue;
		}
		util_buf_putc(out, *p++);
	}
}

/* One entry's words: its "arguments", else its "command" split. */
static char **db_argv(json_t *item, size_t *argc)
{
	json_t *args = json_object_get(item, "arguments");
	const char *cmd = json_string_value(json_object_get(item, "command"));
	char **argv;
	size_t k;

	*argc = 0;
	if (!json_is_array(args))
		return cmd ? an_compile_db_split(cmd, argc) : NULL;
	if (!(argv = calloc(json_array_size(args) + 1, sizeof(*argv))))
		return NULL;
	for (k = 0; k < json_array_size(args); k++) {
		const char *a = json_string_value(json_array_get(args, k));

		if (!(argv[k] = strdup(a ? a : ""))) {
			while (k)
				free(argv[--k]);
			free(argv);
			return NULL;
		}
	}
	*argc = k;
	return argv;
}

/* The database's commands, each entry in the directory where it was made
 * (one for all, the program's), into build; the one executable they link
 * into exes. */
static int db_commands(util_buf *build, names *exes, bool *usable, const char *text, size_t len)
{
	json_error_t jerr;
	json_t *root = json_loadb(text, len, 0, &jerr);
	util_buf word = UTIL_BUF_INIT;
	const char *dir = NULL;
	size_t i, k;
	int error = 0;

	*usable = json_is_array(root) && json_array_size(root) > 0 && json_array_size(root) <= MAX_DB_ENTRIES;
	for (i = 0; *usable && !error && i < json_array_size(root); i++) {
		json_t *item = json_array_get(root, i);
		const char *edir = json_string_value(json_object_get(item, "directory"));
		const char *file = json_string_value(json_object_get(item, "file"));
		const char *output = json_string_value(json_object_get(item, "output"));
		size_t argc = 0;
		char **argv;
		bool compile = false;

		if (!edir || !file || (dir && strcmp(dir, edir) != 0) ||
		    (file[0] == '/' && (strncmp(file, edir, strlen(edir)) || file[strlen(edir)] != '/'))) {
			*usable = false; /* made elsewhere than the program's directory */
			break;
		}
		dir = edir;
		if (!json_is_array(json_object_get(item, "arguments")) && !json_object_get(item, "command")) {
			*usable = false;
			break;
		}
		if (!(argv = db_argv(item, &argc)) || !argc) {
			error = argv ? 0 : util_error_set(UTIL_ENOMEM, "out of memory");
			*usable = false;
			free(argv);
			break;
		}
		if (build->len)
			util_buf_puts(build, " && ");
		util_buf_puts(build, "\"$HIPPORT_CXX\"");
		for (k = 1; k < argc; k++) {
			util_buf_clear(&word);
			db_relative(&word, argv[k], dir);
			if (util_buf_oom(&word))
				break;
			util_buf_putc(build, ' ');
			shell_word(build, word.ptr);
			compile = compile || !strcmp(argv[k], "-c") || !strcmp(argv[k], "-dc") ||
				  !strcmp(argv[k], "--compile") || !strcmp(argv[k], "-E") || !strcmp(argv[k], "-S");
			if (!strcmp(argv[k], "-o") && k + 1 < argc)
				output = argv[k + 1];
		}
		if (!compile && output && !ends_with(output, ".o") && !ends_with(output, ".obj")) {
			util_buf_clear(&word);
			db_relative(&word, output, dir);
			if (!util_buf_oom(&word) && word.ptr[0] != '/' && !strstr(word.ptr, ".."))
				error = names_add(exes, word.ptr + (strncmp(word.ptr, "./", 2) ? 0 : 2),
						  word.len - (strncmp(word.ptr, "./", 2) ? 0 : 2));
		}
		while (argc)
			free(argv[--argc]);
		free(argv);
	}
	if (!error && (util_buf_oom(build) || util_buf_oom(&word)))
		error = util_error_set(UTIL_ENOMEM, "out of memory");
	util_buf_dispose(&word);
	json_decref(root);
	return error;
}

/* ---- the cases, in order ---- */

/* The run of program exe: the README's line that runs it (its arguments),
 * else ./exe; origin says which. */
static int run_of(util_buf *run, util_buf *origin, const level *lv, const char *exe)
{
	rd_scan s;
	int error = 0;

	memset(&s, 0, sizeof(s));
	s.depth = lv->depth;
	s.want = exe;
	if (lv->readme_name && (error = rd_scan_text(&s, str(&lv->readme))) < 0)
		goto done;
	if (s.found) {
		util_buf_puts(run, str(&s.run));
		util_buf_printf(origin, ", arguments from %s", lv->readme_name);
	} else {
		util_buf_printf(run, "./%s", exe);
	}
done:
	rd_scan_dispose(&s);
	return error;
}

static int guess_make(rec_commands *out, const level *lv, const mk_file *mk)
{
	util_buf exe = UTIL_BUF_INIT, run = UTIL_BUF_INIT, origin = UTIL_BUF_INIT;
	bool found;
	int error;

	if (mk_has_target(mk, "run")) {
		util_buf_printf(&origin, "%s run target", lv->make_name);
		error = result(out, lv, MAKE_BUILD, "make run", &origin);
	} else if ((error = mk_default_exe(&exe, &found, mk)) == 0 && found) {
		util_buf_printf(&origin, "%s default target", lv->make_name);
		if ((error = run_of(&run, &origin, lv, str(&exe))) == 0)
			error = util_buf_oom(&run) ? util_error_set(UTIL_ENOMEM, "out of memory")
						   : result(out, lv, MAKE_BUILD, run.ptr, &origin);
	} else if (!error) {
		error = UTIL_ENOTFOUND;
	}
	util_buf_dispose(&exe);
	util_buf_dispose(&run);
	util_buf_dispose(&origin);
	return error;
}

static int guess_readme(rec_commands *out, const level *lv)
{
	util_buf origin = UTIL_BUF_INIT;
	rd_scan s;
	int error;

	memset(&s, 0, sizeof(s));
	s.depth = lv->depth;
	if ((error = rd_scan_text(&s, str(&lv->readme))) == 0) {
		util_buf_printf(&origin, "%s fenced block", lv->readme_name);
		error = s.found ? result(out, lv, str(&s.build), str(&s.run), &origin) : UTIL_ENOTFOUND;
	}
	rd_scan_dispose(&s);
	util_buf_dispose(&origin);
	return error;
}

static int guess_db(rec_commands *out, const level *lv)
{
	util_buf build = UTIL_BUF_INIT, run = UTIL_BUF_INIT, origin = UTIL_BUF_INIT;
	names exes = { NULL, 0 };
	bool usable;
	int error;

	util_buf_puts(&origin, "compile_commands.json");
	if ((error = db_commands(&build, &exes, &usable, str(&lv->db), lv->db.len)) == 0) {
		if (!usable || exes.n != 1)
			error = UTIL_ENOTFOUND;
		else if ((error = run_of(&run, &origin, lv, exes.v[0])) == 0)
			error = util_buf_oom(&run) ? util_error_set(UTIL_ENOMEM, "out of memory")
						   : result(out, lv, str(&build), run.ptr, &origin);
	}
	names_dispose(&exes);
	util_buf_dispose(&build);
	util_buf_dispose(&run);
	util_buf_dispose(&origin);
	return error;
}

/* The cases of one directory; UTIL_ENOTFOUND when none applies. A Makefile
 * with a run target, CMake with tests, a README's pair, a Makefile's
 * default target, a compilation database. */
static int guess_level(rec_commands *out, const level *lv, const util_buf *chain, bool cmake_top)
{
	util_buf origin = UTIL_BUF_INIT;
	mk_file mk;
	bool tests = false;
	int error = UTIL_ENOTFOUND;

	memset(&mk, 0, sizeof(mk));
	if (lv->make_name && (error = mk_parse(&mk, str(&lv->make), lv->make.len)) < 0)
		goto done;
	if (lv->make_name && mk_has_target(&mk, "run")) {
		error = guess_make(out, lv, &mk);
		goto done;
	}
	if (cmake_top && (error = cmake_tests(&tests, lv, chain)) < 0)
		goto done;
	if (tests) {
		util_buf_puts(&origin, "CMakeLists.txt with CTest (add_test)");
		error = result(out, lv, CMAKE_BUILD, CMAKE_RUN, &origin);
		goto done;
	}
	error = lv->readme_name ? guess_readme(out, lv) : UTIL_ENOTFOUND;
	if (error == UTIL_ENOTFOUND && lv->make_name)
		error = guess_make(out, lv, &mk);
	if (error == UTIL_ENOTFOUND && lv->has_db)
		error = guess_db(out, lv);
done:
	mk_dispose(&mk);
	util_buf_dispose(&origin);
	return error;
}

int rec_commands_guess(rec_commands *out, const char *dir, rec_read_fn read, void *payload)
{
	util_buf cur = UTIL_BUF_INIT, chain = UTIL_BUF_INIT;
	int error = UTIL_ENOTFOUND;

	memset(out, 0, sizeof(*out));
	while (!strncmp(dir, "./", 2))
		dir += 2;
	util_buf_puts(&cur, *dir ? dir : ".");
	while (cur.len > 1 && cur.ptr[cur.len - 1] == '/')
		cur.ptr[--cur.len] = '\0';
	while (!util_buf_oom(&cur)) {
		level lv;
		bool project = false, stop;
		char *slash;
		const char *p;

		memset(&lv, 0, sizeof(lv));
		lv.dir = cur.ptr;
		lv.read = read;
		lv.payload = payload;
		for (p = cur.ptr, lv.depth = strcmp(cur.ptr, ".") != 0; (p = strchr(p, '/')); p++)
			lv.depth++;
		if ((error = level_load(&lv)) == 0 && lv.has_cmake)
			error = cmake_calls(&project, NULL, str(&lv.cmake), "project", NULL);
		if (error == 0)
			error = guess_level(out, &lv, &chain, project);
		/* a CMakeLists.txt without project() is the project's above */
		stop = error != UTIL_ENOTFOUND || lv.make_name || lv.has_db || project || !lv.depth;
		if (!stop && lv.has_cmake) {
			util_buf_puts(&chain, str(&lv.cmake));
			util_buf_putc(&chain, '\n');
		}
		level_dispose(&lv);
		if (stop)
			break;
		if ((slash = strrchr(cur.ptr, '/'))) {
			cur.len = (size_t)(slash - cur.ptr);
			cur.ptr[cur.len] = '\0';
		} else {
			util_buf_clear(&cur);
			util_buf_puts(&cur, ".");
		}
	}
	if (util_buf_oom(&cur) || util_buf_oom(&chain))
		error = util_error_set(UTIL_ENOMEM, "out of memory");
	else if (error == UTIL_ENOTFOUND)
		util_error_set(UTIL_ENOTFOUND, "%s: no build and run commands in its build files or README", dir);
	util_buf_dispose(&cur);
	util_buf_dispose(&chain);
	return error;
}

void rec_commands_dispose(rec_commands *c)
{
	free(c->dir);
	free(c->build);
	free(c->run);
	free(c->origin);
	memset(c, 0, sizeof(*c));
}
