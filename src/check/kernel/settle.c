#include "check/kernel/settle.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "check/kernel/harness.h"
#include "util/buf.h"
#include "util/error.h"

typedef enum piece_kind { P_VAR, P_SCALAR, P_COUNT, P_GRID, P_BLOCK, P_SHARED, P_TEMPL, P_LAUNCH } piece_kind;

typedef struct piece {
	piece_kind kind;
	size_t index;   /* of the var or arg */
	int level;      /* fallbacks taken; -1 once settled for good */
	char *original; /* as drafted, restored when no fallback compiles either */
	bool named_bad; /* the name check failed it: never restored */
	bool type_bad;  /* its type does not compile here: its value is not judged */
	char *error;    /* this round's first error */
	int bad_arg;    /* P_LAUNCH: the argument the compiler names, or -1 */
} piece;

typedef struct settling {
	chk_spec *s;
	const chk_spec *fb;
	piece *p;
	size_t np;
	bool *dropped; /* per var */
	util_buf notes; /* for the spec's comment: what no drafted value fixed */
} settling;

#define PROBE_FILE "hipport-probe.cu"
#define PROBE_BASE 100000u
#define PROBE_SPAN 10000u

static char **slot(settling *st, const piece *p)
{
	chk_spec *s = st->s;

	switch (p->kind) {
	case P_VAR: return &s->vars[p->index].value;
	case P_SCALAR: return &s->args[p->index].value;
	case P_COUNT: return &s->args[p->index].count;
	case P_GRID: return &s->grid;
	case P_BLOCK: return &s->block;
	case P_SHARED: return &s->shared;
	case P_TEMPL: return &s->templ;
	default: return NULL;
	}
}

static void mark_key(settling *st, const piece *p, const char **section, const char **sub, const char **key)
{
	static const char *const keys[] = { "value", "value", "count", "grid", "block", "sharedBytes", "template", "" };

	*section = p->kind == P_VAR ? "var" : p->kind <= P_COUNT ? "arg" : "check";
	*sub = p->kind == P_VAR ? st->s->vars[p->index].name : p->kind <= P_COUNT ? st->s->args[p->index].name : NULL;
	*key = keys[p->kind];
}

/* The names the harness has declared before piece p: the vars, then the scalars. */
static size_t own_names(const settling *st, const piece *p, char **own)
{
	const chk_spec *s = st->s;
	size_t i, n = 0;

	for (i = 0; i < s->nvars && !(p->kind == P_VAR && i == p->index); i++)
		if (!st->dropped[i])
			own[n++] = s->vars[i].name;
	if (p->kind == P_VAR)
		return n;
	for (i = 0; i < s->nargs && !(p->kind == P_SCALAR && i == p->index); i++)
		if (s->args[i].role == CHK_ROLE_SCALAR)
			own[n++] = s->args[i].name;
	return n;
}

/* A literal of type t that declares: a number for numbers, T{} else. */
static char *type_literal(const char *t, const char *integer)
{
	unsigned lanes = 1;
	int d = chk_type_dtype(t, &lanes);
	char *v = NULL;

	if (!strcmp(t, "bool"))
		return strdup("true");
	if (d >= 0 && lanes == 1)
		return strdup(chk_dtype_is_float((chk_dtype)d) && d != CHK_F16 && d != CHK_BF16 ? "0.7"
			      : chk_dtype_is_float((chk_dtype)d) ? "{}" : integer);
	return asprintf(&v, "%s{}", t) < 0 ? NULL : v;
}

/* The next value to try for p, or NULL when there is none (*drop: a var
 * that is better left out). */
/* The template arguments templ with float made int: the which-th float
 * argument alone (which < the number of them), else every one; NULL past
 * the last variant. A drafted float stands for every type parameter, and
 * one the kernel indexes with or counts in (IndexType of HeCBench's
 * bincount) must be an integer. */
static char *templ_int_variant(const char *templ, int which)
{
	util_buf b = UTIL_BUF_INIT;
	int nfloat = 0, pass, depth, i, n;

	for (pass = 0; templ && pass < 2; pass++) { /* counted, then written */
		if (pass == 1 && (!nfloat || which > nfloat || (which == nfloat && nfloat == 1)))
			break;
		for (i = depth = n = 0; templ[i];) {
			bool arg = depth == 0 && !strncmp(templ + i, "float", 5) &&
				   (i == 0 || templ[i - 1] == ' ' || templ[i - 1] == ',') &&
				   (templ[i + 5] == '\0' || templ[i + 5] == ',' || templ[i + 5] == ' ');

			if (arg) {
				if (pass == 1)
					util_buf_puts(&b, which == nfloat || which == n ? "int" : "float");
				n++;
				i += 5;
				continue;
			}
			depth += (templ[i] == '<') - (templ[i] == '>');
			if (pass == 1)
				util_buf_putc(&b, templ[i]);
			i++;
		}
		nfloat = n;
	}
	if (!b.len || util_buf_oom(&b)) {
		util_buf_dispose(&b);
		return NULL;
	}
	return util_buf_detach(&b);
}

/* The k-th of the template arguments templ (top level, trimmed), or NULL. */
static char *templ_arg(const char *templ, unsigned k)
{
	int depth = 0;
	const char *start = templ, *p;

	for (p = templ; templ; p++) {
		if (*p == '<' || *p == '(')
			depth++;
		else if (*p == '>' || *p == ')')
			depth--;
		if (*p && (*p != ',' || depth))
			continue;
		if (!k--) {
			while (start < p && isspace((unsigned char)*start))
				start++;
			while (p > start && isspace((unsigned char)p[-1]))
				p--;
			return strndup(start, (size_t)(p - start));
		}
		if (!*p)
			break;
		start = p + 1;
	}
	return NULL;
}

/* The arguments whose type is a template type parameter take the value
 * the spec's template now gives it: a variant that makes IndexType int
 * makes the int buffers and scalars the kernel then takes. */
static void follow_template(chk_spec *s)
{
	size_t i;

	for (i = 0; s->templ && i < s->nargs; i++) {
		chk_arg *a = &s->args[i];
		unsigned lanes = 1;
		char *t;
		int d;

		if (!a->typed_by || !(t = templ_arg(s->templ, a->typed_by - 1)))
			continue;
		if ((d = chk_type_dtype(t, &lanes)) < 0 || (a->type && !strcmp(a->type, t))) {
			free(t);
			continue;
		}
		free(a->type);
		a->type = t;
		a->dtype = (chk_dtype)d;
		a->lanes = lanes;
	}
}

static char *next_value(settling *st, piece *p, bool *drop)
{
	static const int last[] = { 2, 3, 2, 2, 2, 1, 1 + 1 + 6, 0 }; /* by kind */
	const chk_spec *fb = st->fb;
	chk_spec *s = st->s;
	char *cur = *slot(st, p);

	*drop = false;
	while (++p->level <= last[p->kind]) {
		const char *c = NULL;
		char *made = NULL;

		switch (p->kind) {
		case P_VAR:
			if (p->level == 2) {
				*drop = true;
				return NULL;
			}
			made = type_literal(s->vars[p->index].type, "64");
			break;
		case P_SCALAR:
			if (p->level == 1)
				c = fb && p->index < fb->nargs ? fb->args[p->index].value : NULL;
			else if (p->level == 2)
				made = type_literal(s->args[p->index].type, "1");
			else
				c = "{}";
			break;
		case P_COUNT:
			c = p->level == 1 ? (fb && p->index < fb->nargs ? fb->args[p->index].count : NULL) : "4096";
			break;
		case P_GRID:
			c = p->level == 1 ? (fb ? fb->grid : NULL) : "1";
			break;
		case P_BLOCK:
			c = p->level == 1 ? (fb ? fb->block : NULL) : "256";
			break;
		case P_SHARED:
			c = "0";
			break;
		case P_TEMPL:
			if (p->level == 1)
				c = fb ? fb->templ : NULL;
			else
				made = templ_int_variant(p->original, p->level - 2);
			break;
		default:
			break;
		}
		if (!c && !made)
			continue;
		if (!made && !(made = strdup(c)))
			return NULL;
		if (cur && !strcmp(made, cur)) {
			free(made);
			continue;
		}
		return made;
	}
	return NULL;
}

/* Replaces p's value by its next fallback, marked with why; false when
 * there is none. */
static bool fall_back(settling *st, piece *p, const char *why, const chk_scope *scope)
{
	char **field = slot(st, p);
	const char *section, *sub, *key;
	char *own[512];
	bool drop;

	if (!field || p->level < 0)
		return false;
	while (true) {
		char *v = next_value(st, p, &drop), *fixed = NULL, *bad = NULL;
		size_t nown = own_names(st, p, own);

		if (drop) {
			st->dropped[p->index] = true;
			p->level = -1;
			return true;
		}
		if (!v)
			return false;
		/* a fallback the name check fails is no better */
		if (chk_names_check(&fixed, &bad, v, scope, own, nown) != 0) {
			free(v);
			free(bad);
			continue;
		}
		free(v);
		free(*field);
		*field = fixed;
		mark_key(st, p, &section, &sub, &key);
		chk_spec_mark(st->s, section, sub, key, why);
		return true;
	}
}

/* When no fallback compiles either, the probe cannot judge p here (a type
 * of a system header it has not): the drafted value is kept. */
static void restore(settling *st, piece *p)
{
	char **field = slot(st, p);
	const char *section, *sub, *key;
	chk_spec *s = st->s;

	p->level = -1;
	if (!field || p->named_bad || !p->original)
		return;
	free(*field);
	*field = strdup(p->original);
	mark_key(st, p, &section, &sub, &key);
	chk_spec_unmark(s, section, sub, key);
}

static int add_piece(settling *st, piece_kind kind, size_t index)
{
	piece *m = realloc(st->p, (st->np + 1) * sizeof(*m)), *p;
	char **field;

	if (!m)
		return util_error_set(UTIL_ENOMEM, "out of memory");
	st->p = m;
	p = &m[st->np++];
	memset(p, 0, sizeof(*p));
	p->kind = kind;
	p->index = index;
	p->bad_arg = -1;
	field = slot(st, p);
	if (field && *field && !(p->original = strdup(*field)))
		return util_error_set(UTIL_ENOMEM, "out of memory");
	return 0;
}

/* The pieces of s in the harness's order. */
static int pieces_of(settling *st)
{
	chk_spec *s = st->s;
	size_t i;
	int error = 0;

	for (i = 0; i < s->nvars && error == 0; i++)
		error = add_piece(st, P_VAR, i);
	for (i = 0; i < s->nargs && error == 0; i++)
		if (s->args[i].role == CHK_ROLE_SCALAR)
			error = add_piece(st, P_SCALAR, i);
	for (i = 0; i < s->nargs && error == 0; i++)
		if (s->args[i].role != CHK_ROLE_SCALAR)
			error = add_piece(st, P_COUNT, i);
	if (error == 0)
		error = add_piece(st, P_GRID, 0);
	if (error == 0)
		error = add_piece(st, P_BLOCK, 0);
	if (error == 0)
		error = add_piece(st, P_SHARED, 0);
	if (error == 0 && s->templ)
		error = add_piece(st, P_TEMPL, 0);
	if (error == 0)
		error = add_piece(st, P_LAUNCH, 0);
	return error;
}

/* A var of pointer type drafted null ({}: a Domain * the program fills at
 * run time) that the expression of p reads through, as `(*locDom).dt()`:
 * the harness would dereference null on the host (HeCBench's lulesh, killed
 * by signal 11). Its name, or NULL. */
static const char *null_pointer_used(const settling *st, const piece *p, const char *expr)
{
	const chk_spec *s = st->s;
	size_t i;

	for (i = 0; i < s->nvars; i++) {
		const chk_var *v = &s->vars[i];
		size_t tl = v->type ? strlen(v->type) : 0;

		if ((p->kind == P_VAR && i == p->index) || !tl || v->type[tl - 1] != '*' || !v->value ||
		    (strcmp(v->value, "{}") != 0 && strcmp(v->value, "nullptr") != 0))
			continue;
		if (chk_names_uses(expr, v->name) > 0)
			return v->name;
	}
	return NULL;
}

/* The name check of every piece, in order: a namespace's names qualified,
 * a name the harness cannot see replaced. */
static int check_names(settling *st, const chk_scope *scope)
{
	size_t i;
	char *own[512];

	for (i = 0; i < st->np; i++) {
		piece *p = &st->p[i];
		char **field = slot(st, p), *fixed = NULL, *why = NULL;
		const char *null;
		size_t nown = own_names(st, p, own);
		int rc;

		if (!field || !*field || (p->kind == P_VAR && st->dropped[p->index]))
			continue;
		if ((null = null_pointer_used(st, p, *field))) {
			rc = asprintf(&why, "%s is a pointer the program sets at run time, which the harness has not", null);
			if (rc < 0)
				return util_error_set(UTIL_ENOMEM, "out of memory");
			rc = 1;
		} else if ((rc = chk_names_check(&fixed, &why, *field, scope, own, nown)) < 0)
			return rc;
		if (rc == 0) {
			free(*field);
			*field = fixed;
			continue;
		}
		p->named_bad = true;
		if (!fall_back(st, p, why, scope) && p->kind == P_VAR)
			st->dropped[p->index] = true;
		free(why);
	}
	/* types, as the harness spells them: qualified where they need it */
	for (i = 0; i < st->s->nvars + st->s->nargs; i++) {
		char **type = i < st->s->nvars ? &st->s->vars[i].type : &st->s->args[i - st->s->nvars].type;
		char *fixed = NULL, *why = NULL;

		if (*type && chk_names_check(&fixed, &why, *type, scope, NULL, 0) == 0) {
			free(*type);
			*type = fixed;
		}
		free(why);
	}
	return 0;
}

/* Leaves out the vars no expression uses (a program's local that reached
 * the draft through a pointer, gpuResult of gpuResult[src]). */
static void drop_unused(settling *st)
{
	chk_spec *s = st->s;
	bool changed = true;
	size_t i, k;

	while (changed) {
		changed = false;
		for (i = 0; i < s->nvars; i++) {
			const char *name = s->vars[i].name;
			bool used = false;

			if (st->dropped[i])
				continue;
			for (k = 0; k < s->nvars && !used; k++)
				used = k != i && !st->dropped[k] && chk_names_uses(s->vars[k].value, name);
			for (k = 0; k < s->nargs && !used; k++) {
				const char *e = s->args[k].role == CHK_ROLE_SCALAR ? s->args[k].value : s->args[k].count;

				used = e && chk_names_uses(e, name);
			}
			for (k = 0; k < s->nglobals && !used; k++)
				used = s->globals[k].count && chk_names_uses(s->globals[k].count, name);
			used = used || chk_names_uses(s->grid, name) || chk_names_uses(s->block, name) ||
			       chk_names_uses(s->shared ? s->shared : "0", name) || (s->templ && chk_names_uses(s->templ, name)) ||
			       (s->setup && chk_names_uses(s->setup, name));
			if (!used) {
				st->dropped[i] = true;
				changed = true;
			}
		}
	}
}

/* --- the compile probe --- */

typedef struct line_entry {
	size_t spec, piece;
	bool type; /* the line that checks the piece's type */
} line_entry;

typedef struct probe {
	util_buf text;
	line_entry *lines; /* by spec * PROBE_SPAN / 10 + slot */
	size_t nlines;
} probe;

/* A #line of its own for each checked line: spec k's j-th is
 * PROBE_BASE + k * PROBE_SPAN + 10 * j. */
static void probe_line(probe *pr, size_t k, size_t *j, size_t which, bool type)
{
	size_t at = k * (PROBE_SPAN / 10) + *j;

	if (at < pr->nlines) {
		pr->lines[at].spec = k;
		pr->lines[at].piece = which;
		pr->lines[at].type = type;
	}
	util_buf_printf(&pr->text, "#line %zu\n", PROBE_BASE + k * PROBE_SPAN + 10 * *j);
	(*j)++;
}

static void probe_spec(probe *pr, settling *st, size_t k)
{
	chk_spec *s = st->s;
	size_t i, j = 0, n = 0;

	util_buf_printf(&pr->text, "static void hipport_probe_%zu()\n{\n", k);
	for (i = 0; i < st->np && j + 4 < PROBE_SPAN / 10; i++) {
		piece *p = &st->p[i];
		const chk_arg *a = p->kind == P_SCALAR || p->kind == P_COUNT ? &s->args[p->index] : NULL;

		switch (p->kind) {
		case P_VAR:
			if (st->dropped[p->index])
				break;
			probe_line(pr, k, &j, i, true);
			util_buf_printf(&pr->text, "\t%s *hp_probe_type_%zu = nullptr; (void)hp_probe_type_%zu;\n",
					s->vars[p->index].type, n, n);
			n++;
			probe_line(pr, k, &j, i, false);
			chk_harness_declare(&pr->text, s->vars[p->index].type, s->vars[p->index].name,
					    s->vars[p->index].value);
			break;
		case P_SCALAR:
			probe_line(pr, k, &j, i, true);
			util_buf_printf(&pr->text, "\t%s *hp_probe_type_%zu = nullptr; (void)hp_probe_type_%zu;\n", a->type,
					n, n);
			n++;
			probe_line(pr, k, &j, i, false);
			chk_harness_declare(&pr->text, a->type, a->name, a->value);
			break;
		case P_COUNT:
			probe_line(pr, k, &j, i, true);
			util_buf_printf(&pr->text, "\t%s *hp_arg_%s = nullptr;\n", a->type, a->name);
			probe_line(pr, k, &j, i, false);
			util_buf_printf(&pr->text, "\t(void)(size_t)(%s);\n", a->count);
			break;
		case P_GRID:
			probe_line(pr, k, &j, i, false);
			util_buf_printf(&pr->text, "\tdim3 hp_probe_grid = dim3(%s);\n", s->grid);
			break;
		case P_BLOCK:
			probe_line(pr, k, &j, i, false);
			util_buf_printf(&pr->text, "\tdim3 hp_probe_block = dim3(%s);\n", s->block);
			break;
		case P_SHARED:
			probe_line(pr, k, &j, i, false);
			util_buf_printf(&pr->text, "\tsize_t hp_probe_shared = (%s);\n", s->shared ? s->shared : "0");
			break;
		case P_TEMPL:
			break; /* on the launch's line */
		case P_LAUNCH: {
			size_t m;

			probe_line(pr, k, &j, i, false);
			util_buf_printf(&pr->text, "\t%s%s%s%s<<<hp_probe_grid, hp_probe_block, hp_probe_shared, 0>>>(",
					s->kernel, s->templ ? "<" : "", s->templ ? s->templ : "", s->templ ? ">" : "");
			for (m = 0; m < s->nargs; m++)
				util_buf_printf(&pr->text, "%s%s%s", m ? ", " : "",
						s->args[m].role == CHK_ROLE_SCALAR ? "" : "hp_arg_", s->args[m].name);
			util_buf_puts(&pr->text, ");\n");
			break;
		}
		}
	}
	util_buf_puts(&pr->text, "}\n");
}

/* "... for 2nd argument" of a candidate the compiler rejected: 1, or -1. */
static int argument_named(const char *message)
{
	const char *p = strstr(message, " argument");
	const char *q;

	if (!p || !strstr(message, "for "))
		return -1;
	q = p;
	while (q > message && isalpha((unsigned char)q[-1]))
		q--;
	while (q > message && isdigit((unsigned char)q[-1]))
		q--;
	return isdigit((unsigned char)*q) ? atoi(q) - 1 : -1;
}

/* Whether message says a name is not declared that the parse may just not
 * have seen: hipport parses without the project's include paths and the
 * system's headers, so only a name it knows the harness cannot see (a
 * local of the program, a __device__ variable, a var the draft left out)
 * proves the drafted value wrong. */
static bool unseen_name(const char *message, const chk_scope *scope, const settling *st)
{
	static const char *const forms[] = { "undeclared identifier '", "unknown type name '", "no template named '",
					     NULL };
	const char *const *f, *p = NULL, *end;
	size_t count, i;
	const chk_name *e;

	/* a member of a class the parse may not have made whole (a traits
	 * template whose instantiation needed a system header) */
	if (strstr(message, "no member named '"))
		return true;
	for (f = forms; *f && !p; f++)
		if ((p = strstr(message, *f)))
			p += strlen(*f);
	if (!p || !(end = strchr(p, '\'')))
		return false;
	e = chk_scope_lookup(scope, p, (size_t)(end - p), &count);
	for (i = 0; i < count; i++)
		if (e[i].kind == CHK_NAME_LOCAL || e[i].kind == CHK_NAME_DEVICE)
			return false;
	for (i = 0; i < st->s->nvars; i++)
		if (st->dropped[i] && strlen(st->s->vars[i].name) == (size_t)(end - p) &&
		    !strncmp(st->s->vars[i].name, p, (size_t)(end - p)))
			return false;
	return true;
}

/* The errors of the probe, each set on the piece whose line it is. */
static void read_errors(CXTranslationUnit tu, const probe *pr, settling *sts, size_t n, const chk_scope *scope)
{
	unsigned i, nd = clang_getNumDiagnostics(tu);

	for (i = 0; i < nd; i++) {
		CXDiagnostic d = clang_getDiagnostic(tu, i);
		CXString file, text;
		unsigned line = 0, col = 0;
		size_t at;
		bool inside = false;

		if (clang_getDiagnosticSeverity(d) < CXDiagnostic_Error) {
			clang_disposeDiagnostic(d);
			continue;
		}
		clang_getPresumedLocation(clang_getDiagnosticLocation(d), &file, &line, &col);
		if (strcmp(clang_getCString(file), PROBE_FILE) != 0) {
			inside = true;
			/* an error inside a template the probe instantiates: the
			 * note "in instantiation ... requested here" is on its line */
			CXDiagnosticSet notes = clang_getChildDiagnostics(d);
			unsigned k, nn = clang_getNumDiagnosticsInSet(notes);

			for (k = 0; k < nn; k++) {
				CXDiagnostic note = clang_getDiagnosticInSet(notes, k);
				CXString nf;
				unsigned nl = 0;

				clang_getPresumedLocation(clang_getDiagnosticLocation(note), &nf, &nl, &col);
				if (strcmp(clang_getCString(nf), PROBE_FILE) == 0 && nl >= PROBE_BASE) {
					clang_disposeString(file);
					file = nf;
					line = nl;
					clang_disposeDiagnostic(note);
					break;
				}
				clang_disposeString(nf);
				clang_disposeDiagnostic(note);
			}
		}
		if (strcmp(clang_getCString(file), PROBE_FILE) == 0 && line >= PROBE_BASE &&
		    (at = (line - PROBE_BASE) / 10) < pr->nlines && pr->lines[at].spec < n) {
			const line_entry *e = &pr->lines[at];
			settling *st = &sts[e->spec];
			piece *p = &st->p[e->piece];

			/* inside the program's templates the parse, without the
			 * system's headers, is no judge of a value; of the template
			 * arguments the launch gives them, it may be */
			if (inside && p->kind != P_LAUNCH) {
				clang_disposeString(file);
				clang_disposeDiagnostic(d);
				continue;
			}
			text = clang_getDiagnosticSpelling(d);
			if (e->type) {
				p->type_bad = true;
			} else if (!p->error && !unseen_name(clang_getCString(text), scope, st)) {
				CXDiagnosticSet notes = clang_getChildDiagnostics(d);
				unsigned k, nn = clang_getNumDiagnosticsInSet(notes);

				p->error = strdup(clang_getCString(text));
				clang_disposeString(text);
				for (k = 0; k < nn && p->kind == P_LAUNCH && p->bad_arg < 0; k++) {
					CXDiagnostic note = clang_getDiagnosticInSet(notes, k);

					text = clang_getDiagnosticSpelling(note);
					p->bad_arg = argument_named(clang_getCString(text));
					clang_disposeString(text);
					clang_disposeDiagnostic(note);
				}
				text = clang_getDiagnosticSpelling(d);
			}
			clang_disposeString(text);
		}
		clang_disposeString(file);
		clang_disposeDiagnostic(d);
	}
}

static piece *piece_for(settling *st, piece_kind kind, size_t index)
{
	size_t i;

	for (i = 0; i < st->np; i++)
		if (st->p[i].kind == kind && st->p[i].index == index)
			return &st->p[i];
	return NULL;
}

/* One round's answer for a spec: its failing declarations first (a later
 * line's error may be theirs), else the rest. Returns whether it changed. */
static bool act(settling *st, const chk_scope *scope)
{
	bool changed = false, decl = false;
	size_t i;
	util_buf why = UTIL_BUF_INIT;

	for (i = 0; i < st->np; i++)
		if (st->p[i].error && (st->p[i].kind == P_VAR || st->p[i].kind == P_SCALAR) && !st->p[i].type_bad &&
		    st->p[i].level >= 0)
			decl = true;
	for (i = 0; i < st->np; i++) {
		piece *p = &st->p[i];

		if (p->kind == P_VAR && p->type_bad && !st->dropped[p->index]) {
			/* a var is the drafter's own: one whose type does not compile goes */
			st->dropped[p->index] = changed = true;
			continue;
		}
		if (!p->error || p->level < 0 || p->type_bad || (decl && p->kind != P_VAR && p->kind != P_SCALAR) ||
		    (p->kind == P_VAR && st->dropped[p->index]))
			continue;
		util_buf_clear(&why);
		util_buf_printf(&why, "the drafted value does not compile in the harness (%s)", p->error);
		if (p->kind == P_LAUNCH) {
			chk_spec *s = st->s;
			int a = p->bad_arg;

			if (++p->level > 10)
				continue;
			if (a >= 0 && (size_t)a < s->nargs && s->args[a].role != CHK_ROLE_SCALAR && st->fb &&
			    (size_t)a < st->fb->nargs && st->fb->args[a].type &&
			    strcmp(st->fb->args[a].type, s->args[a].type) != 0) {
				/* the allocation's element type is not the parameter's: the parameter's */
				chk_arg *x = &s->args[a];

				free(x->type);
				x->type = strdup(st->fb->args[a].type);
				x->dtype = st->fb->args[a].dtype;
				x->lanes = st->fb->args[a].lanes;
				x->tol = st->fb->args[a].tol;
				chk_spec_mark(s, "arg", x->name, "count", "the allocation's element type does not convert "
									   "to the parameter's: the parameter's type, count as drafted");
				changed = true;
			} else if (a >= 0 && (size_t)a < s->nargs && s->args[a].role == CHK_ROLE_SCALAR &&
				   (p = piece_for(st, P_SCALAR, (size_t)a))) {
				changed |= fall_back(st, p, why.ptr ? why.ptr : "", scope);
			} else if (s->templ && (p = piece_for(st, P_TEMPL, 0)) && p->level >= 0) {
				if (fall_back(st, p, why.ptr ? why.ptr : "", scope)) {
					changed = true;
				} else {
					/* no drafted argument is better than the program's */
					restore(st, p);
					util_buf_printf(&st->notes, "\n- template: hipport's parse of the file could not "
								    "instantiate the kernel with %s (%s), nor with the "
								    "signature's: check the template arguments",
							s->templ, st->p[i].error);
				}
			} else if (!s->templ) {
				util_buf_printf(&st->notes, "\n- the launch does not compile in the harness (%s)",
						st->p[i].error);
			}
			continue;
		}
		if (fall_back(st, p, why.ptr ? why.ptr : "", scope)) {
			changed = true;
		} else if (p->kind == P_VAR) {
			st->dropped[p->index] = changed = true;
		} else {
			const char *section, *sub, *key;

			mark_key(st, p, &section, &sub, &key);
			p->level = -1;
			util_buf_printf(&st->notes, "\n- %s%s%s: no drafted value compiles in the harness (%s): give one",
					sub ? sub : "", sub ? " " : "", key, p->error);
		}
	}
	/* a value naming a var now left out follows it, judged or not */
	for (i = 0; i < st->np; i++) {
		piece *p = &st->p[i];
		char **field = slot(st, p);
		size_t k;

		if (!field || !*field || p->level < 0 || (p->kind == P_VAR && st->dropped[p->index]))
			continue;
		for (k = 0; k < st->s->nvars; k++)
			if (st->dropped[k] && chk_names_uses(*field, st->s->vars[k].name))
				break;
		if (k == st->s->nvars)
			continue;
		util_buf_clear(&why);
		util_buf_printf(&why, "%s, which it names, does not compile in the harness", st->s->vars[k].name);
		if (fall_back(st, p, why.ptr ? why.ptr : "", scope))
			changed = true;
		else if (p->kind == P_VAR)
			st->dropped[p->index] = changed = true;
	}
	util_buf_dispose(&why);
	return changed;
}

/* Removes the dropped vars from s and from its guessed names. */
static int remove_dropped(settling *st)
{
	chk_spec *s = st->s;
	size_t i, k = 0;

	for (i = 0; i < s->nvars; i++) {
		if (!st->dropped[i]) {
			s->vars[k++] = s->vars[i];
			continue;
		}
		if (s->guessed) {
			util_buf b = UTIL_BUF_INIT;
			const char *p = s->guessed, *name = s->vars[i].name;
			/* guessed names the program's local: n for a var n_host */
			size_t nl = strlen(name), base = nl > 5 && !strcmp(name + nl - 5, "_host") ? nl - 5 : nl;

			while (*p) {
				size_t len = strcspn(p, " ");

				if (len && !((len == nl || len == base) && !strncmp(p, name, len)))
					util_buf_printf(&b, "%s%.*s", b.len ? " " : "", (int)len, p);
				p += len;
				p += strspn(p, " ");
			}
			free(s->guessed);
			s->guessed = b.len ? util_buf_detach(&b) : NULL;
			util_buf_dispose(&b);
		}
		chk_spec_unmark(s, "var", s->vars[i].name, "value");
		free(s->vars[i].name);
		free(s->vars[i].type);
		free(s->vars[i].value);
	}
	s->nvars = k;
	return 0;
}

/* Adds name to s's guessed list when it is not there. */
static void add_guessed(chk_spec *s, const char *name)
{
	util_buf b = UTIL_BUF_INIT;

	if (s->guessed && chk_names_uses(s->guessed, name))
		return;
	util_buf_printf(&b, "%s%s%s", s->guessed ? s->guessed : "", s->guessed ? " " : "", name);
	if (util_buf_oom(&b))
		return;
	free(s->guessed);
	s->guessed = util_buf_detach(&b);
}

int chk_settle(chk_spec *specs, size_t n, chk_spec *const *fallbacks, const chk_scope *scope, an_parser *parser,
	       const an_compile_db *db, const char *fs_path, const char *src, size_t len)
{
	settling *sts = calloc(n + 1, sizeof(*sts));
	probe pr;
	size_t i, k;
	int error = 0, round;

	memset(&pr, 0, sizeof(pr));
	if (!sts)
		return util_error_set(UTIL_ENOMEM, "out of memory");
	for (i = 0; i < n && error == 0; i++) {
		sts[i].s = &specs[i];
		sts[i].fb = fallbacks ? fallbacks[i] : NULL;
		if (!(sts[i].dropped = calloc(specs[i].nvars + 1, sizeof(bool))))
			error = util_error_set(UTIL_ENOMEM, "out of memory");
		else if ((error = pieces_of(&sts[i])) == 0 && (error = check_names(&sts[i], scope)) == 0)
			drop_unused(&sts[i]);
	}
	pr.nlines = n * (PROBE_SPAN / 10);
	if (error == 0 && n && !(pr.lines = calloc(pr.nlines, sizeof(*pr.lines))))
		error = util_error_set(UTIL_ENOMEM, "out of memory");
	/* compile what the harness will; each round answers the errors of the one before */
	for (round = 0; round < 6 && error == 0 && n; round++) {
		CXTranslationUnit tu;
		CXFile file;
		bool changed = false;

		util_buf_clear(&pr.text);
		util_buf_put(&pr.text, src, len);
		util_buf_printf(&pr.text, "\n#line 1 \"%s\"\n"
					  "template <class T> T hp_from_hex(const char *);\n",
				PROBE_FILE);
		for (i = 0; i < n; i++) {
			follow_template(sts[i].s);
			probe_spec(&pr, &sts[i], i);
		}
		if (util_buf_oom(&pr.text)) {
			error = util_error_set(UTIL_ENOMEM, "out of memory");
			break;
		}
		for (i = 0; i < n; i++)
			for (k = 0; k < sts[i].np; k++) {
				free(sts[i].p[k].error);
				sts[i].p[k].error = NULL;
				sts[i].p[k].bad_arg = -1;
			}
		if ((error = an_parse(parser, db, fs_path, pr.text.ptr, pr.text.len, &tu, &file)) < 0)
			break;
		read_errors(tu, &pr, sts, n, scope);
		for (i = 0; i < n; i++)
			changed |= act(&sts[i], scope);
		if (!changed)
			break;
		for (i = 0; i < n; i++)
			drop_unused(&sts[i]);
	}
	for (i = 0; i < n; i++) {
		/* the dropped vars are guessed no more; the arguments that lost
		 * their value are */
		if (error == 0)
			remove_dropped(&sts[i]);
		follow_template(&specs[i]);
		for (k = 0; error == 0 && k < sts[i].np; k++) {
			const char *section, *sub, *key;

			if (sts[i].p[k].kind != P_SCALAR && sts[i].p[k].kind != P_COUNT)
				continue;
			mark_key(&sts[i], &sts[i].p[k], &section, &sub, &key);
			if (chk_spec_mark_of(&specs[i], section, sub, key))
				add_guessed(&specs[i], sub);
		}
		if (sts[i].notes.len) {
			util_buf c = UTIL_BUF_INIT;

			util_buf_printf(&c, "%s%.*s", specs[i].comment ? specs[i].comment : "", (int)sts[i].notes.len,
					sts[i].notes.ptr);
			if (util_buf_oom(&c)) {
				error = util_error_set(UTIL_ENOMEM, "out of memory");
			} else {
				free(specs[i].comment);
				specs[i].comment = util_buf_detach(&c);
			}
		}
		util_buf_dispose(&sts[i].notes);
		for (k = 0; k < sts[i].np; k++) {
			free(sts[i].p[k].original);
			free(sts[i].p[k].error);
		}
		free(sts[i].p);
		free(sts[i].dropped);
	}
	free(sts);
	free(pr.lines);
	util_buf_dispose(&pr.text);
	return error;
}
