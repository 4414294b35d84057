/* Makefiles: nvcc -> hipcc, the CUDA install path -> ROCM_PATH, nvcc flags
 * and CUDA library flags. Comments are kept; a statement is a logical line
 * (backslash-newline continues it).
 *
 * An arch flag may name a variable (-arch=$(ARCH), -arch=sm_$(SM),
 * $(foreach sm,$(SMS),-gencode arch=compute_$(sm),code=sm_$(sm))). A first
 * pass records where the file's variables are set and used (bld_vars); where
 * the port can follow one, its definitions get the offload arch and the flag
 * names it (--offload-arch=$(ARCH)), so that make ARCH=gfx942 still works. */
#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "build/build.h"
#include "build/rewrite.h"

typedef struct make {
	bld_rewriter rw;
	bld_vars vars;
	bool path_noted;     /* BUILD-007 said once per file */
	size_t path_var_end; /* after the last CUDA path variable renamed, or 0 */
	bld_span *assigns;   /* NAME=sm_80 of recipes: a sub-make's command line */
	size_t nassigns, acap;
} make;

static const char *const path_vars[] = { "CUDA_PATH", "CUDA_HOME", "CUDA_ROOT", "CUDA_DIR", "CUDA_INSTALL_PATH",
					 "CUDA_TOOLKIT_ROOT_DIR", NULL };

static bool is_delim(char c)
{
	return isspace((unsigned char)c) || strchr("(){}$'\";`\\", c) != NULL;
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t';
}

static bool name_char(char c)
{
	return isalnum((unsigned char)c) || c == '_' || c == '.' || c == '-';
}

/* The offset after the reference "$(...)" or "${...}" whose '(' is at at. */
static size_t ref_end(const char *src, size_t at, size_t end)
{
	size_t depth = 0, i;

	for (i = at; i < end; i++) {
		if (src[i] == '(' || src[i] == '{')
			depth++;
		else if ((src[i] == ')' || src[i] == '}') && --depth == 0)
			return i + 1;
	}
	return end;
}

/* The end of the word at i: up to a blank, a comment, a shell character or
 * a ')' it did not open; references ($(foreach a,b,c)) are part of it. */
static size_t word_end(const char *src, size_t i, size_t end)
{
	while (i < end) {
		char c = src[i];

		if (c == '$' && i + 1 < end && (src[i + 1] == '(' || src[i + 1] == '{'))
			i = ref_end(src, i + 1, end);
		else if (c == '$')
			i += 2;
		else if (isspace((unsigned char)c) || strchr("#;'\"`|&<>(){}", c) || (c == '\\' && i + 1 < end && src[i + 1] == '\n'))
			break;
		else if (c == '\\')
			i += 2;
		else
			i++;
	}
	return i < end ? i : end;
}

/* ---- the first pass: where variables are set and used ---- */

static void scan_text(make *m, size_t from, size_t to, bld_use use, size_t owner);

static bool keyword(const char *src, size_t at, size_t end, const char *kw)
{
	size_t k = strlen(kw);

	return end - at >= k && memcmp(src + at, kw, k) == 0 && (end - at == k || isspace((unsigned char)src[at + k]) ||
								src[at + k] == '(');
}

static size_t skip_blanks(const char *src, size_t i, size_t end)
{
	while (i < end) {
		if (is_blank(src[i]))
			i++;
		else if (src[i] == '\\' && i + 1 < end && src[i + 1] == '\n')
			i += 2;
		else
			break;
	}
	return i;
}

static size_t trim_end(const char *src, size_t from, size_t to)
{
	while (to > from && isspace((unsigned char)src[to - 1]))
		to--;
	return to;
}

/* Whether a value is references only, perhaps through sort, strip, firstword
 * or lastword: $(lastword $(sort $(SMS))). */
static bool derived(const char *src, size_t from, size_t to)
{
	static const char *const through[] = { "strip ", "sort ", "firstword ", "lastword ", NULL };
	size_t i = from, k, e;
	bool any = false;

	while ((i = skip_blanks(src, i, to)) < to) {
		if (src[i] == '\n') {
			i++;
			continue;
		}
		if (src[i] != '$' || i + 1 >= to || (src[i + 1] != '(' && src[i + 1] != '{'))
			return false;
		e = ref_end(src, i + 1, to);
		for (k = i + 2; k < e - 1 && name_char(src[k]); k++)
			;
		if (k != e - 1) {
			for (k = 0; through[k]; k++)
				if (e - i > strlen(through[k]) + 3 && memcmp(src + i + 2, through[k], strlen(through[k])) == 0)
					break;
			if (!through[k] || !derived(src, i + 2 + strlen(through[k]), e - 1))
				return false;
		}
		any = true;
		i = e;
	}
	return any;
}

/* The kind of the value [from, to) of a definition or a loop's list. */
static bld_def_kind value_kind(const char *src, size_t from, size_t to, bool *named, bld_span *values)
{
	size_t i = from, e;
	bool any = false, archs = true;

	*named = false;
	values->at = values->len = 0;
	while ((i = skip_blanks(src, i, to)) < to) {
		if (isspace((unsigned char)src[i])) {
			i++;
			continue;
		}
		e = word_end(src, i, to);
		if (e == i)
			e = i + 1;
		if (!bld_vars_arch_word(src + i, e - i, named))
			archs = false;
		if (!any)
			values->at = i;
		values->len = e - values->at;
		any = true;
		i = e;
	}
	if (!any)
		return BLD_DEF_EMPTY;
	if (archs)
		return BLD_DEF_ARCHS;
	*named = false;
	return derived(src, from, to) ? BLD_DEF_DERIVED : BLD_DEF_OTHER;
}

/* The function's arguments of [from, to): split at the commas outside references. */
static size_t split_args(const char *src, size_t from, size_t to, bld_span *args, size_t max)
{
	size_t n = 0, s = from, i = from;

	while (i <= to && n < max) {
		if (i < to && src[i] == '$' && i + 1 < to && (src[i + 1] == '(' || src[i + 1] == '{')) {
			i = ref_end(src, i + 1, to);
			continue;
		}
		if (i == to || (src[i] == ',' && n + 1 < max)) {
			args[n].at = s;
			args[n++].len = i - s;
			s = i + 1;
		}
		i++;
	}
	return n;
}

static void scan_refs(make *m, size_t from, size_t to, bld_use use, size_t owner);

/* The inside [a, b) of a reference: a name, a function call, or a
 * substitution ($(SRC:.cu=.o)). */
static void reference(make *m, size_t a, size_t b, bld_use use, size_t owner)
{
	static const char *const transparent[] = { "strip", "sort", "firstword", "lastword", "eval", "or", "and", NULL };
	const char *src = m->rw.src;
	bld_span args[3];
	size_t k = a, n, i;

	while (k < b && name_char(src[k]))
		k++;
	if (k == b) {
		bld_vars_ref(&m->vars, (bld_span){ a, b - a }, use, owner);
		return;
	}
	if (k < b && is_blank(src[k])) {
		size_t f = k;

		k = skip_blanks(src, k, b);
		if (f - a == 7 && memcmp(src + a, "foreach", 7) == 0 && split_args(src, k, b, args, 3) == 3) {
			size_t v = skip_blanks(src, args[0].at, args[0].at + args[0].len), loop;
			size_t ve = trim_end(src, v, args[0].at + args[0].len);
			bld_var_loop *l;
			bool named;

			loop = bld_vars_loop(&m->vars, (bld_span){ v, ve - v }, args[2].at, args[2].at + args[2].len);
			if (loop == SIZE_MAX)
				return;
			l = &m->vars.loops[loop];
			l->list_kind = value_kind(src, args[1].at, args[1].at + args[1].len, &named, &l->list);
			if (memchr(src + args[1].at, '$', args[1].len)) {
				l->list_refs = true;
				if (l->list_kind == BLD_DEF_DERIVED)
					l->list_kind = BLD_DEF_EMPTY;
				scan_text(m, args[1].at, args[1].at + args[1].len, BLD_USE_LIST, loop);
			}
			scan_text(m, args[2].at, args[2].at + args[2].len, use, owner);
			return;
		}
		if ((f - a == 4 && memcmp(src + a, "info", 4) == 0) || (f - a == 7 && memcmp(src + a, "warning", 7) == 0) ||
		    (f - a == 5 && memcmp(src + a, "error", 5) == 0)) {
			scan_text(m, k, b, BLD_USE_NEUTRAL, 0);
			return;
		}
		if (f - a == 2 && memcmp(src + a, "if", 2) == 0 && (n = split_args(src, k, b, args, 3)) > 0) {
			scan_text(m, args[0].at, args[0].at + args[0].len, BLD_USE_NEUTRAL, 0);
			for (i = 1; i < n; i++)
				scan_text(m, args[i].at, args[i].at + args[i].len, use, owner);
			return;
		}
		for (i = 0; transparent[i]; i++)
			if (bld_word_is(src + a, f - a, transparent[i]))
				break;
		scan_text(m, k, b, transparent[i] ? use : BLD_USE_OTHER, transparent[i] ? owner : 0);
		return;
	}
	/* $(SRC:.cu=.o), $(CUFILES_$(1)): taken as they are */
	if (k < b && src[k] == ':' && k > a)
		bld_vars_ref(&m->vars, (bld_span){ a, k - a }, BLD_USE_OTHER, 0);
	scan_refs(m, a, b, BLD_USE_OTHER, 0);
}

static void scan_refs(make *m, size_t from, size_t to, bld_use use, size_t owner)
{
	const char *src = m->rw.src;
	size_t i = from;

	while (i < to) {
		if (src[i] == '$' && i + 1 < to && src[i + 1] == '$') {
			i += 2;
		} else if (src[i] == '$' && i + 1 < to && (src[i + 1] == '(' || src[i + 1] == '{')) {
			size_t e = ref_end(src, i + 1, to);

			reference(m, i + 2, e > i + 2 && (src[e - 1] == ')' || src[e - 1] == '}') ? e - 1 : e, use, owner);
			i = e;
		} else {
			i++;
		}
	}
}

/* An arch flag's value at [at, at + n): its variables are the arch. */
static void arch_value(make *m, size_t at, size_t n, bool gencode)
{
	bld_arch_value v;
	size_t i;

	bld_arch_value_parse(m->rw.src, at, n, gencode, &v);
	if (v.kind == BLD_ARCH_COMPLEX)
		scan_refs(m, at, at + n, BLD_USE_OTHER, 0);
	else
		for (i = 0; i < v.nvars; i++)
			bld_vars_ref(&m->vars, v.vars[i], BLD_USE_ARCH, 0);
}

/* NAME=sm_80 in a recipe hands a sub-make or the command an arch: recorded
 * for the rewrite; NAME=$(NAME) passes a variable on without using it. */
static bool command_assignment(make *m, size_t i, size_t e)
{
	const char *src = m->rw.src;
	bool named = false;
	bld_span values;
	size_t k;

	for (k = i; k < e && (isalnum((unsigned char)src[k]) || src[k] == '_'); k++)
		;
	if (k == i || k == e || src[k] != '=' || isdigit((unsigned char)src[i]))
		return false;
	if (value_kind(src, k + 1, e, &named, &values) == BLD_DEF_ARCHS && named) {
		if (m->nassigns == m->acap) {
			size_t cap = m->acap ? m->acap * 2 : 8;
			bld_span *a = realloc(m->assigns, cap * sizeof(*a));

			if (!a) {
				m->rw.oom = true;
				return true;
			}
			m->assigns = a;
			m->acap = cap;
		}
		m->assigns[m->nassigns++] = values;
	}
	scan_refs(m, k + 1, e, BLD_USE_NEUTRAL, 0);
	return true;
}

/* The words of [from, to): arch flags, and the references of the others;
 * in a recipe, command-line assignments too. */
static void scan_words(make *m, size_t from, size_t to, bld_use use, size_t owner, bool recipe)
{
	const char *src = m->rw.src;
	size_t i = from, e, value_at;
	bool pending = false, gencode = false;
	bld_arch_flag_kind kind;

	while (i < to) {
		if (isspace((unsigned char)src[i]) || src[i] == '\\') {
			i++;
			continue;
		}
		e = word_end(src, i, to);
		if (e == i) {
			i++;
			continue;
		}
		if (pending) {
			arch_value(m, i, e - i, gencode);
			pending = false;
		} else if ((kind = bld_arch_flag(src + i, e - i, &value_at)) != BLD_ARCH_FLAG_NONE) {
			gencode = kind == BLD_ARCH_FLAG_GENCODE;
			if (value_at == e - i)
				pending = true;
			else
				arch_value(m, i + value_at, e - i - value_at, gencode);
		} else if (!recipe || !command_assignment(m, i, e)) {
			scan_refs(m, i, e, use, owner);
		}
		i = e;
	}
}

static void scan_text(make *m, size_t from, size_t to, bld_use use, size_t owner)
{
	scan_words(m, from, to, use, owner, false);
}

/* NAME op value at [p, end), perhaps after a target (target-specific);
 * false when it is no assignment. */
static bool assignment(make *m, size_t p, size_t end)
{
	static const char *const ops[] = { ":::=", "::=", ":=", "?=", "+=", "!=", "=", NULL };
	const char *src = m->rw.src;
	size_t n = p, op = 0, i, vs, ve, def = SIZE_MAX;
	bool plain = true, named;
	bld_span values;
	bld_def_kind kind;

	while (n < end && !isspace((unsigned char)src[n]) && !strchr("=:?+!#", src[n])) {
		if (src[n] == '$' && n + 1 < end && (src[n + 1] == '(' || src[n + 1] == '{')) {
			n = ref_end(src, n + 1, end);
			plain = false;
		} else {
			plain &= name_char(src[n]);
			n++;
		}
	}
	if (n == p)
		return false;
	i = skip_blanks(src, n, end);
	for (op = 0; ops[op]; op++)
		if (end - i >= strlen(ops[op]) && memcmp(src + i, ops[op], strlen(ops[op])) == 0)
			break;
	if (!ops[op])
		return false;
	vs = skip_blanks(src, i + strlen(ops[op]), end);
	ve = trim_end(src, vs, end);
	kind = value_kind(src, vs, ve, &named, &values);
	if (strcmp(ops[op], "!=") == 0)
		kind = BLD_DEF_OTHER;
	if (plain)
		def = bld_vars_def(&m->vars, (bld_span){ p, n - p }, values, kind, named);
	else
		scan_refs(m, p, n, BLD_USE_OTHER, 0);
	scan_text(m, vs, ve, def == SIZE_MAX ? BLD_USE_OTHER : BLD_USE_DEF, def == SIZE_MAX ? 0 : def);
	return true;
}

/* A recipe line: a shell command. */
static void recipe(make *m, size_t from, size_t to)
{
	scan_words(m, from, to, BLD_USE_OTHER, 0, true);
}

/* ifeq/ifneq: a test for emptiness does not use the value; a comparison
 * with an architecture does. */
static void condition(make *m, size_t from, size_t to)
{
	const char *src = m->rw.src;
	size_t i = from, e;
	bool named, arch = false;

	while (i < to) {
		if (strchr(" \t(),\"'", src[i])) {
			i++;
			continue;
		}
		if (src[i] == '$' && i + 1 < to && (src[i + 1] == '(' || src[i + 1] == '{')) {
			i = ref_end(src, i + 1, to);
			continue;
		}
		for (e = i; e < to && !strchr(" \t(),\"'$", src[e]); e++)
			;
		arch |= bld_vars_arch_word(src + i, e - i, &named);
		i = e > i ? e : i + 1;
	}
	scan_text(m, from, to, arch ? BLD_USE_OTHER : BLD_USE_NEUTRAL, 0);
}

/* The first pass, line by line: assignments, rules and their recipes,
 * conditionals, define ... endef, include. */
static void analyze(make *m)
{
	const char *src = m->rw.src;
	size_t len = m->rw.len, i = 0;
	bool in_rule = false, in_define = false;

	while (i < len) {
		size_t ls = i, le = i, ce, p, k, colon = SIZE_MAX;

		while (le < len && src[le] != '\n')
			le += src[le] == '\\' && le + 1 < len ? 2 : 1;
		if (le > len)
			le = len;
		i = le + 1;
		for (ce = ls; ce < le && !(src[ce] == '#' && (ce == ls || src[ce - 1] != '\\')); ce++)
			;
		p = skip_blanks(src, ls, ce);
		if (in_define) {
			if (keyword(src, p, ce, "endef"))
				in_define = false;
			else
				scan_text(m, ls, ce, BLD_USE_OTHER, 0);
			continue;
		}
		if (src[ls] == '\t' && in_rule) {
			recipe(m, ls + 1, ce);
			continue;
		}
		if (p >= ce)
			continue;
		if (keyword(src, p, ce, "else"))
			p = skip_blanks(src, p + 4, ce);
		if (keyword(src, p, ce, "ifeq") || keyword(src, p, ce, "ifneq")) {
			condition(m, p + (src[p + 2] == 'n' ? 5 : 4), ce);
			continue;
		}
		if (p >= ce || keyword(src, p, ce, "ifdef") || keyword(src, p, ce, "ifndef") || keyword(src, p, ce, "endif") ||
		    keyword(src, p, ce, "else"))
			continue;
		if (keyword(src, p, ce, "include") || keyword(src, p, ce, "-include") || keyword(src, p, ce, "sinclude")) {
			m->vars.includes = true;
			scan_text(m, p, ce, BLD_USE_OTHER, 0);
			continue;
		}
		while (keyword(src, p, ce, "export") || keyword(src, p, ce, "override") || keyword(src, p, ce, "private") ||
		       keyword(src, p, ce, "unexport"))
			p = skip_blanks(src, word_end(src, p, ce), ce);
		if (keyword(src, p, ce, "define")) {
			size_t n = skip_blanks(src, p + 6, ce), e = n;

			while (e < ce && !isspace((unsigned char)src[e]) && !strchr("=:?+!", src[e]))
				e++;
			if (e > n)
				bld_vars_def(&m->vars, (bld_span){ n, e - n }, (bld_span){ 0, 0 }, BLD_DEF_OTHER, false);
			in_define = true;
			in_rule = false;
			continue;
		}
		if (assignment(m, p, ce)) {
			in_rule = false;
			continue;
		}
		/* a rule: targets: prerequisites ; recipe, or targets: NAME = value */
		for (k = p; k < ce; k++) {
			if (src[k] == '$' && k + 1 < ce && (src[k + 1] == '(' || src[k + 1] == '{')) {
				k = ref_end(src, k + 1, ce) - 1;
				continue;
			}
			if (src[k] == ':') {
				colon = k;
				break;
			}
		}
		if (colon == SIZE_MAX) {
			scan_text(m, p, ce, BLD_USE_OTHER, 0);
			in_rule = false;
			continue;
		}
		in_rule = true;
		scan_text(m, p, colon, BLD_USE_OTHER, 0);
		k = colon + 1 + (colon + 1 < ce && src[colon + 1] == ':');
		if (!assignment(m, skip_blanks(src, k, ce), ce)) {
			size_t semi = k;

			while (semi < ce && src[semi] != ';')
				semi++;
			scan_text(m, k, semi, BLD_USE_OTHER, 0);
			if (semi < ce)
				recipe(m, semi + 1, ce);
		}
	}
}

/* ---- the second pass: the edits ---- */

static void note_path(make *m, size_t offset, size_t n, const char *what)
{
	if (m->path_noted)
		return;
	m->path_noted = true;
	bld_hit(&m->rw, "BUILD-007", AN_WARNING, offset, n,
		"%s: the CUDA install path became ROCM_PATH (/opt/rocm); check the include and library directories",
		what);
}

static void word(make *m, size_t offset, size_t n)
{
	const char *w = m->rw.src + offset;
	size_t i;

	if (bld_flag_word(&m->rw, offset, n))
		return;
	if (n >= 15 && memcmp(w, "/usr/local/cuda", 15) == 0) {
		size_t k = 15;

		/* /usr/local/cuda-12.4 */
		if (k < n && w[k] == '-')
			while (k < n && w[k] != '/')
				k++;
		bld_replace(&m->rw, offset, k, "/opt/rocm");
		note_path(m, offset, k, "/usr/local/cuda");
		if (k + 6 <= n && memcmp(w + k, "/lib64", 6) == 0 && (k + 6 == n || w[k + 6] == '/'))
			bld_replace(&m->rw, offset + k, 6, "/lib");
	}
	/* nvcc, $(CUDA_PATH)/bin/nvcc, NVCC=nvcc */
	if (n >= 4 && memcmp(w + n - 4, "nvcc", 4) == 0 && (n == 4 || w[n - 5] == '/' || w[n - 5] == '=')) {
		bld_replace(&m->rw, offset + n - 4, 4, "hipcc");
		return;
	}
	for (i = 0; path_vars[i]; i++)
		if (bld_word_is(w, n, path_vars[i])) {
			bld_replace(&m->rw, offset, n, "ROCM_PATH");
			note_path(m, offset, n, path_vars[i]);
			m->path_var_end = offset + n;
			return;
		}
	/* $(CUDA_PATH)/lib64: ROCm's libraries are in lib */
	if (m->path_var_end && offset == m->path_var_end + 1 && n >= 6 && memcmp(w, "/lib64", 6) == 0 &&
	    (n == 6 || w[6] == '/')) {
		bld_replace(&m->rw, offset, 6, "/lib");
		return;
	}
}

/* A whole word goes to the flag mapping: a flag's argument, or an arch flag
 * with its references (-arch=$(ARCH) is one word, not -arch= and ARCH). */
/* ",-gencode" inside a function call ($(foreach a,60 70,-gencode ...)),
 * "=-arch" of an assignment without blanks (FLAGS=-arch=$(ARCH)): the flag
 * is a word of its own. */
static bool arch_after(make *m, size_t i)
{
	size_t value_at;

	return (m->rw.src[i] == ',' || m->rw.src[i] == '=') && i + 1 < m->rw.len && m->rw.src[i + 1] == '-' &&
	       bld_arch_flag(m->rw.src + i + 1, word_end(m->rw.src, i + 1, m->rw.len) - i - 1, &value_at) !=
		       BLD_ARCH_FLAG_NONE;
}

static size_t whole_word(make *m, size_t i)
{
	const char *src = m->rw.src;
	char prev = i ? src[i - 1] : ' ';
	bool wanted = bld_flag_wants_word(&m->rw);
	size_t e, value_at;

	if (wanted ? !(isspace((unsigned char)prev) || prev == '"' || prev == '\'')
		   : (src[i] != '-' || !(is_delim(prev) || prev == '=' || prev == ',')))
		return 0;
	e = word_end(src, i, m->rw.len);
	if (e == i || (!wanted && bld_arch_flag(src + i, e - i, &value_at) == BLD_ARCH_FLAG_NONE))
		return 0;
	return e;
}

/* After the edits of the words: the definitions and loop lists that now
 * hold the offload arch, what stays of the CUDA architectures, and the
 * assignments on the command lines. */
static void rewrite_values(make *m)
{
	size_t i;

	bld_vars_rewrite(&m->rw, &m->vars, NULL, "make");
	for (i = 0; i < m->nassigns; i++) {
		bld_replace(&m->rw, m->assigns[i].at, m->assigns[i].len, m->rw.arch);
		bld_hit(&m->rw, "BUILD-004", AN_NOTE, m->assigns[i].at, m->assigns[i].len,
			"CUDA architectures (%.*s) replaced by the offload arch %s", (int)m->assigns[i].len,
			m->vars.src + m->assigns[i].at, m->rw.arch);
	}
}

int bld_make_translate(util_buf *out, an_analysis *hits, const char *src, size_t len, const char *arch)
{
	make m;
	size_t i = 0, e;
	int error;

	memset(&m, 0, sizeof(m));
	bld_rewriter_init(&m.rw, src, len, arch);
	bld_vars_init(&m.vars, src, len, false);
	analyze(&m);
	bld_vars_decide(&m.vars);
	m.rw.vars = &m.vars;
	m.rw.oom |= m.vars.oom;
	while (i < len) {
		char ch = src[i];

		if (ch == '#') {
			while (i < len && src[i] != '\n')
				i++;
		} else if (ch == '\\' && i + 1 < len && src[i + 1] == '\n') {
			i += 2; /* the statement goes on */
		} else if (ch == '\n') {
			bld_statement(&m.rw);
			i++;
		} else if (!isspace((unsigned char)ch) && (e = whole_word(&m, i)) != 0) {
			bld_flag_word(&m.rw, i, e - i);
			i = e;
		} else if (ch == '\\') {
			i += 2;
		} else if (is_delim(ch) || arch_after(&m, i)) {
			i++;
		} else {
			size_t s = i;

			while (i < len && !is_delim(src[i]) && src[i] != '#' && !arch_after(&m, i))
				i++;
			word(&m, s, i - s);
		}
	}
	bld_statement(&m.rw);
	rewrite_values(&m);
	error = bld_rewriter_finish(&m.rw, out, hits);
	bld_rewriter_dispose(&m.rw);
	bld_vars_dispose(&m.vars);
	free(m.assigns);
	return error;
}
