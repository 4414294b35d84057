/* The Makefile reader of rec_commands_guess(): a Makefile's run target
 * ("make run"), else the executable its default target links with nvcc
 * (run as ./NAME, or as the README runs it), or each of them in turn. Variables are expanded only
 * where the file sets them plainly, outside conditionals. */
#include <ctype.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "check/record/commands_readers.h"
#include "util/error.h"

/* The compilers as make variables, as a [record] section would give them. */
#define MAKE_BUILD "make CC=\"$HIPPORT_CXX\" NVCC=\"$HIPPORT_CXX\""

typedef struct mk_var {
	const char *name, *value;
	bool unclear; /* set in a conditional, appended to, or by a shell */
} mk_var;

typedef struct mk_rule {
	char *targets, *prereqs;
	size_t first, end; /* its recipe: the tab lines among lines[first..end) */
} mk_rule;

struct rec_makefile {
	char *text;
	char **lines;
	char *raw;         /* the text as joined, before parsing cut its lines */
	char **raw_lines;
	bool *conditional; /* for each line: a conditional's directive, or inside one */
	size_t nlines;
	mk_var *vars;
	size_t nvars;
	mk_rule *rules;
	size_t nrules;
};

static void mk_dispose(rec_makefile *mk)
{
	free(mk->text);
	free(mk->lines);
	free(mk->conditional);
	free(mk->raw);
	free(mk->raw_lines);
	free(mk->vars);
	free(mk->rules);
	memset(mk, 0, sizeof(*mk));
}

static mk_var *mk_var_find(const rec_makefile *mk, const char *name, size_t len)
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
static int mk_parse_line(rec_makefile *mk, char *line, bool in_conditional, mk_rule **cur)
{
	char *eq = strchr(line, '='), *colon = strchr(line, ':');

	*cur = NULL;
	if (word_is(line, "export") || word_is(line, "override"))
		line = rec_trim(line + strcspn(line, " \t"));
	if (eq && (!colon || colon >= eq - 2)) { /* NAME = v, NAME := v, NAME ::= v, NAME ?= v, NAME += v, NAME != v */
		char *end = eq, op = eq > line ? eq[-1] : '\0';
		mk_var *v, *m;

		if (op == ':' || op == '?' || op == '+' || op == '!')
			end--;
		while (end > line && end[-1] == ':')
			end--;
		*end = '\0';
		line = rec_trim(line);
		if (!*line || strpbrk(line, " \t$"))
			return 0;
		if ((v = mk_var_find(mk, line, strlen(line)))) {
			if (op == '?')
				return 0;
			v->unclear = v->unclear || op == '+' || op == '!' || in_conditional;
			v->value = rec_trim(eq + 1);
			return 0;
		}
		if (!(m = realloc(mk->vars, (mk->nvars + 1) * sizeof(*m))))
			return util_error_set(UTIL_ENOMEM, "out of memory");
		mk->vars = m;
		m[mk->nvars].name = line;
		m[mk->nvars].value = rec_trim(eq + 1);
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
		(*cur)->targets = rec_trim(line);
		(*cur)->prereqs = rec_trim(prereqs);
		(*cur)->first = (*cur)->end = 0;
	}
	return 0;
}

/* The variables and rules of a Makefile; conditionals are not followed:
 * what they set is unclear. */
static int mk_parse(rec_makefile *mk, const char *src, size_t len)
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
	if (!(mk->lines = calloc(n + 1, sizeof(*mk->lines))) || !(mk->raw_lines = calloc(n + 1, sizeof(char *))) ||
	    !(mk->conditional = calloc(n + 1, sizeof(bool))) || !(mk->raw = strdup(mk->text)))
		return util_error_set(UTIL_ENOMEM, "out of memory");
	for (p = mk->text; p; mk->nlines++) {
		mk->lines[mk->nlines] = p;
		if ((p = strchr(p, '\n')))
			*p++ = '\0';
	}
	for (p = mk->raw, i = 0; p; i++) {
		mk->raw_lines[i] = p;
		if ((p = strchr(p, '\n')))
			*p++ = '\0';
	}
	for (i = 0; i < mk->nlines && !error; i++) {
		char *line = mk->lines[i];

		mk->conditional[i] = conditional > 0;
		if (line[0] == '\t') {
			if (cur) {
				if (!mk->rules[cur_index].first)
					mk->rules[cur_index].first = i;
				mk->rules[cur_index].end = i + 1;
			}
			continue;
		}
		line[strcspn(line, "#")] = '\0';
		line = rec_trim(line);
		if (!*line)
			continue;
		if (word_is(line, "ifeq") || word_is(line, "ifneq") || word_is(line, "ifdef") || word_is(line, "ifndef")) {
			conditional++;
			mk->conditional[i] = true;
		} else if (word_is(line, "endif")) {
			conditional -= conditional > 0;
			mk->conditional[i] = true;
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
static bool mk_expand(util_buf *out, const rec_makefile *mk, const char *s, size_t len, const char *target, int depth)
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
static bool mk_is_nvcc(const rec_makefile *mk, const char *w, size_t len, int depth)
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

/* Whether the word w (len bytes) is a variable that expands to nothing:
 * one the file does not set, or sets empty (a command prefix such as
 * CUDA samples' $(EXEC)). */
static bool mk_is_empty_var(const rec_makefile *mk, const char *w, size_t len)
{
	const mk_var *v;

	if (len < 4 || w[0] != '$' || (w[1] != '(' && w[1] != '{') || (w[len - 1] != ')' && w[len - 1] != '}'))
		return false;
	v = mk_var_find(mk, w + 2, len - 3);
	return v ? !v->unclear && !v->value[strspn(v->value, " \t")] : !memmem(w + 2, len - 3, "NVCC", 4);
}

/* The executables a rule's recipe links with nvcc (-o NAME, no -c) into
 * exes; *unclear when an output does not expand plainly. */
static int mk_recipe_exes(rec_names *exes, bool *unclear, const rec_makefile *mk, const mk_rule *r, const char *target)
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
		while (mk_is_empty_var(mk, p, wl)) { /* $(EXEC) $(NVCC) ... */
			p += wl + strspn(p + wl, " \t");
			wl = strcspn(p, " \t");
		}
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
		    rec_ends_with(name.ptr, ".o") || rec_ends_with(name.ptr, ".a") || rec_ends_with(name.ptr, ".so") ||
		    rec_ends_with(name.ptr, ".obj") || rec_ends_with(name.ptr, ".ptx") || rec_ends_with(name.ptr, ".cubin") ||
		    rec_ends_with(name.ptr, ".fatbin"))
			continue;
		error = rec_names_add(exes, name.ptr + (strncmp(name.ptr, "./", 2) ? 0 : 2),
				  name.len - (strncmp(name.ptr, "./", 2) ? 0 : 2));
	}
	util_buf_dispose(&name);
	return error;
}

/* Whether a rule's targets, expanded, include target. */
static bool mk_rule_makes(const rec_makefile *mk, const mk_rule *r, const char *target)
{
	util_buf t = UTIL_BUF_INIT;
	const char *p;
	bool makes = false;

	if (!mk_expand(&t, mk, r->targets, strlen(r->targets), NULL, 0) || util_buf_oom(&t)) {
		util_buf_dispose(&t);
		return false;
	}
	for (p = rec_str(&t); *p && !makes;) {
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
static int mk_target_exes(rec_names *exes, bool *unclear, const rec_makefile *mk, const char *target, int depth)
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
		for (p = rec_str(&pre); *p && !error;) {
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

bool rec_makefile_has_target(const rec_makefile *mk, const char *target)
{
	size_t i;

	for (i = 0; i < mk->nrules; i++)
		if (mk_rule_makes(mk, &mk->rules[i], target))
			return true;
	return false;
}

/* The executables the default target (the first that does not start with
 * '.') makes with nvcc, into exes; none when that is not plain. */
static int mk_default_exes(rec_names *exes, const rec_makefile *mk)
{
	util_buf t = UTIL_BUF_INIT;
	bool unclear = false;
	size_t i;
	int error = 0;

	for (i = 0; i < mk->nrules; i++) {
		util_buf_clear(&t);
		if (!mk_expand(&t, mk, mk->rules[i].targets, strlen(mk->rules[i].targets), NULL, 0) ||
		    util_buf_oom(&t))
			break; /* the first target is not plain */
		t.len = strcspn(rec_str(&t), " \t");
		if (t.len && t.ptr[0] != '.' && !memchr(t.ptr, '%', t.len)) {
			t.ptr[t.len] = '\0';
			error = mk_target_exes(exes, &unclear, mk, t.ptr, 0);
			break;
		}
	}
	if (unclear)
		rec_names_dispose(exes);
	util_buf_dispose(&t);
	return error;
}

int rec_makefile_parse(rec_makefile **out, const char *src, size_t len)
{
	rec_makefile *mk;
	int error;

	*out = NULL;
	if (!(mk = calloc(1, sizeof(*mk))))
		return util_error_set(UTIL_ENOMEM, "out of memory");
	if ((error = mk_parse(mk, src, len)) < 0) {
		rec_makefile_free(mk);
		return error;
	}
	*out = mk;
	return 0;
}

int rec_makefile_each_line(const rec_makefile *mk, rec_makefile_line_fn fn, void *payload)
{
	util_buf b = UTIL_BUF_INIT;
	size_t i;
	int error = 0;

	for (i = 0; i < mk->nlines && error == 0; i++) {
		const char *line = mk->raw_lines[i];

		if (mk->conditional[i] || !*line)
			continue;
		util_buf_clear(&b);
		/* word by word: -DN=$(SIZE) beside a -DM=$(UNSET) */
		while (*line) {
			size_t gap = strspn(line, " \t"), n = strcspn(line + gap, " \t"), at;

			util_buf_put(&b, line, gap);
			at = b.len;
			if (!mk_expand(&b, mk, line + gap, n, NULL, 0)) {
				b.len = at; /* what the expansion wrote, taken back */
				if (b.ptr)
					b.ptr[at] = '\0';
				util_buf_put(&b, line + gap, n);
			}
			line += gap + n;
		}
		error = util_buf_oom(&b) ? util_error_set(UTIL_ENOMEM, "out of memory") : fn(b.ptr ? b.ptr : "", b.len, payload);
	}
	util_buf_dispose(&b);
	return error;
}

void rec_makefile_free(rec_makefile *mk)
{
	if (!mk)
		return;
	mk_dispose(mk);
	free(mk);
}

int rec_make_guess(rec_commands *out, const rec_level *lv, const rec_makefile *mk)
{
	util_buf run = UTIL_BUF_INIT, origin = UTIL_BUF_INIT;
	rec_names exes = { NULL, 0 };
	size_t i;
	int error;

	if (rec_makefile_has_target(mk, "run")) {
		util_buf_printf(&origin, "%s run target", lv->make_name);
		error = rec_level_result(out, lv, MAKE_BUILD, "make run", &origin);
	} else if ((error = mk_default_exes(&exes, mk)) == 0 && exes.n == 1) {
		util_buf_printf(&origin, "%s default target", lv->make_name);
		if ((error = rec_readme_run(&run, &origin, lv, exes.v[0])) == 0)
			error = util_buf_oom(&run) ? util_error_set(UTIL_ENOMEM, "out of memory")
						   : rec_level_result(out, lv, MAKE_BUILD, run.ptr, &origin);
	} else if (!error && exes.n > 1) {
		/* a directory of examples: each is run, in the Makefile's order,
		 * whatever the one before did */
		for (i = 0; i < exes.n; i++)
			util_buf_printf(&run, "%s./%s", i ? "; " : "", exes.v[i]);
		util_buf_printf(&origin, "%s default target, its %zu executables in turn", lv->make_name, exes.n);
		error = util_buf_oom(&run) || util_buf_oom(&origin)
				? util_error_set(UTIL_ENOMEM, "out of memory")
				: rec_level_result(out, lv, MAKE_BUILD, run.ptr, &origin);
	} else if (!error) {
		error = UTIL_ENOTFOUND;
	}
	rec_names_dispose(&exes);
	util_buf_dispose(&run);
	util_buf_dispose(&origin);
	return error;
}
