/* The pre-pass over a file's tokens: protected regions ("hipport off/on/keep"),
 * the #if structure, #include directives, and the lexical checks that refuse
 * a broken file instead of translating it wrongly. */
#include <stdlib.h>
#include <string.h>

#include "port/xlate.h"
#include "util/text.h"

typedef struct cond {
	uint32_t id;
	uint32_t branch;
	uint32_t active_branch; /* the branch the bracket check follows */
	uint32_t offset;
} cond;

typedef struct scan_state {
	cond *conds;
	size_t nconds, cap;
	uint32_t next_id;
	struct {
		char c;
		uint32_t offset;
	} *brackets;
	size_t nbrackets, bcap;
} scan_state;

/* A comment's words without the comment markers: "hipport off". */
static bool comment_says(const xlate *x, size_t i, const char *what)
{
	const char *t = xlate_tok_text(x, i), *end = t + xlate_tok_len(x, i);
	size_t n = strlen(what);

	if (end - t >= 2 && t[0] == '/' && (t[1] == '/' || t[1] == '*'))
		t += 2;
	if (end - t >= 2 && end[-2] == '*' && end[-1] == '/')
		end -= 2;
	while (t < end && (*t == ' ' || *t == '\t'))
		t++;
	while (end > t && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r'))
		end--;
	return (size_t)(end - t) == n && memcmp(t, what, n) == 0;
}

void xlate_mark_protected(xlate *x)
{
	bool off = false;
	size_t i, line_start = 0;

	for (i = 0; i < x->ntok; i++) {
		if (x->tok[i].flags & PORT_TOKEN_LINE_START)
			line_start = i;
		if (x->tok[i].kind == PORT_TOKEN_COMMENT) {
			if (comment_says(x, i, "hipport off"))
				off = true;
			else if (comment_says(x, i, "hipport keep")) {
				size_t k;

				for (k = line_start; k <= i; k++)
					x->mark[k] |= XLATE_PROTECT;
			}
		}
		if (off)
			x->mark[i] |= XLATE_PROTECT;
		if (x->tok[i].kind == PORT_TOKEN_COMMENT && comment_says(x, i, "hipport on"))
			off = false;
	}
}

static bool is_active(const scan_state *s)
{
	size_t k;

	for (k = 0; k < s->nconds; k++)
		if (s->conds[k].branch != s->conds[k].active_branch)
			return false;
	return true;
}

static int snapshot(xlate_cond_path *path, const scan_state *s)
{
	size_t k;

	path->depth = s->nconds;
	path->items = malloc((s->nconds ? s->nconds : 1) * sizeof(uint32_t));
	if (!path->items)
		return -1;
	for (k = 0; k < s->nconds; k++)
		path->items[k] = s->conds[k].id << 8 | (s->conds[k].branch & 0xff);
	return 0;
}

void xlate_cond_path_dispose(xlate_cond_path *path)
{
	free(path->items);
	path->items = NULL;
	path->depth = 0;
}

static size_t directive_end(const xlate *x, size_t hash)
{
	size_t j = hash + 1;

	while (j < x->ntok && (x->tok[j].flags & PORT_TOKEN_DIRECTIVE) &&
	       !(x->tok[j].flags & PORT_TOKEN_LINE_START))
		j++;
	return j;
}

static int record_include(xlate *x, size_t hash, size_t word, size_t end, const scan_state *s)
{
	const char *p = x->src + x->tok[word].end, *limit = x->src + x->tok[end - 1].end;
	char close;
	const char *name, *q;
	xlate_include *inc, *grown;

	while (p < limit && (*p == ' ' || *p == '\t'))
		p++;
	if (p >= limit || (*p != '<' && *p != '"'))
		return 0; /* #include MACRO: nothing to map */
	close = *p == '<' ? '>' : '"';
	name = p + 1;
	for (q = name; q < limit && *q != close && *q != '\n'; q++)
		;
	if (q >= limit || *q != close)
		return xlate_error_at(x, x->tok[hash].start, "#include without a closing %c", close);
	grown = realloc(x->includes, (x->nincludes + 1) * sizeof(*grown));
	if (!grown)
		return util_error_set(UTIL_ENOMEM, "out of memory");
	x->includes = grown;
	inc = &x->includes[x->nincludes];
	memset(inc, 0, sizeof(*inc));
	inc->hash = hash;
	inc->end = end;
	inc->name_start = (uint32_t)(name - x->src);
	inc->name_end = (uint32_t)(q - x->src);
	if (snapshot(&inc->path, s) < 0)
		return util_error_set(UTIL_ENOMEM, "out of memory");
	x->nincludes++;
	x->mark[hash] |= XLATE_INCLUDE;
	return 0;
}

static int handle_directive(xlate *x, scan_state *s, size_t hash, size_t end)
{
	size_t word = hash + 1;
	cond *top;

	if (word >= end)
		return 0;
	if (xlate_tok_is(x, word, "if") || xlate_tok_is(x, word, "ifdef") || xlate_tok_is(x, word, "ifndef")) {
		if (s->nconds == s->cap) {
			cond *grown = realloc(s->conds, (s->cap = s->cap ? s->cap * 2 : 16) * sizeof(*grown));

			if (!grown)
				return util_error_set(UTIL_ENOMEM, "out of memory");
			s->conds = grown;
		}
		top = &s->conds[s->nconds++];
		top->id = ++s->next_id;
		top->branch = 0;
		/* "#if 0" blocks hold dead text; the checks follow the #else branch */
		top->active_branch = (xlate_tok_is(x, word, "if") && word + 2 == end &&
				      (xlate_tok_is(x, word + 1, "0") || xlate_tok_is(x, word + 1, "false")))
					     ? 1 : 0;
		top->offset = x->tok[hash].start;
	} else if (xlate_tok_is(x, word, "elif") || xlate_tok_is(x, word, "else") ||
		   xlate_tok_is(x, word, "elifdef") || xlate_tok_is(x, word, "elifndef")) {
		if (!s->nconds)
			return xlate_error_at(x, x->tok[hash].start, "#%.*s without #if",
					      (int)xlate_tok_len(x, word), xlate_tok_text(x, word));
		s->conds[s->nconds - 1].branch++;
	} else if (xlate_tok_is(x, word, "endif")) {
		if (!s->nconds)
			return xlate_error_at(x, x->tok[hash].start, "#endif without #if");
		s->nconds--;
	} else if (xlate_tok_is(x, word, "include") || xlate_tok_is(x, word, "include_next")) {
		return record_include(x, hash, word, end, s);
	}
	return 0;
}

static int check_bracket(xlate *x, scan_state *s, size_t i)
{
	const char *t = xlate_tok_text(x, i);
	static const char open[] = "([{", close[] = ")]}";
	const char *o, *c;

	if (xlate_tok_len(x, i) != 1)
		return 0;
	if ((o = strchr(open, *t)) != NULL && *t) {
		if (s->nbrackets == s->bcap) {
			void *grown = realloc(s->brackets, (s->bcap = s->bcap ? s->bcap * 2 : 64) *
							       sizeof(*s->brackets));
			if (!grown)
				return util_error_set(UTIL_ENOMEM, "out of memory");
			s->brackets = grown;
		}
		s->brackets[s->nbrackets].c = *t;
		s->brackets[s->nbrackets].offset = x->tok[i].start;
		s->nbrackets++;
	} else if ((c = strchr(close, *t)) != NULL && *t) {
		char want = open[c - close];

		if (!s->nbrackets)
			return xlate_error_at(x, x->tok[i].start, "unbalanced '%c'", *t);
		if (s->brackets[s->nbrackets - 1].c != want) {
			unsigned line, col;

			util_text_position(x->src, s->brackets[s->nbrackets - 1].offset, &line, &col);
			return xlate_error_at(x, x->tok[i].start, "'%c' closes the '%c' opened at line %u",
					      *t, s->brackets[s->nbrackets - 1].c, line);
		}
		s->nbrackets--;
	}
	return 0;
}

static int check_token(xlate *x, const scan_state *s, size_t i)
{
	const char *t = xlate_tok_text(x, i);
	size_t n = xlate_tok_len(x, i);

	if (x->tok[i].kind == PORT_TOKEN_COMMENT && n >= 2 && t[1] == '*' &&
	    (n < 4 || t[n - 2] != '*' || t[n - 1] != '/'))
		return xlate_error_at(x, x->tok[i].start, "unterminated /* comment");
	if (x->tok[i].kind == PORT_TOKEN_PUNCT && (t[0] == '"' || t[0] == '\'') && is_active(s) &&
	    !(x->tok[i].flags & PORT_TOKEN_DIRECTIVE))
		return xlate_error_at(x, x->tok[i].start, "unterminated %s literal",
				      t[0] == '"' ? "string" : "character");
	return 0;
}

/* The raw lexer drops an unterminated block comment without a token: find
 * it in the gaps between tokens, which otherwise hold only white space. */
static int check_gaps(xlate *x)
{
	size_t i;
	uint32_t from = 0;

	for (i = 0; i <= x->ntok; i++) {
		uint32_t to = i < x->ntok ? x->tok[i].start : (uint32_t)x->len, p;

		for (p = from; p + 1 < to; p++)
			if (x->src[p] == '/' && x->src[p + 1] == '*')
				return xlate_error_at(x, p, "unterminated /* comment");
		if (i < x->ntok)
			from = x->tok[i].end;
	}
	return 0;
}

int xlate_scan_directives(xlate *x)
{
	scan_state s;
	size_t i;
	int error = 0;

	memset(&s, 0, sizeof(s));
	if ((error = check_gaps(x)) < 0)
		return error;
	xlate_mark_protected(x);
	for (i = 0; i < x->ntok && !error; i++) {
		if ((error = check_token(x, &s, i)) < 0)
			break;
		if ((x->tok[i].flags & PORT_TOKEN_LINE_START) && (x->tok[i].flags & PORT_TOKEN_DIRECTIVE) &&
		    xlate_tok_is(x, i, "#")) {
			size_t end = directive_end(x, i), k;

			for (k = i + 1; k < end && !error; k++)
				error = check_token(x, &s, k);
			if (!error)
				error = handle_directive(x, &s, i, end);
			i = end - 1;
			continue;
		}
		if (x->tok[i].kind == PORT_TOKEN_PUNCT && is_active(&s))
			error = check_bracket(x, &s, i);
	}
	if (!error && s.nconds)
		error = xlate_error_at(x, s.conds[s.nconds - 1].offset, "#if without #endif");
	if (!error && s.nbrackets)
		error = xlate_error_at(x, s.brackets[s.nbrackets - 1].offset, "'%c' is never closed",
				       s.brackets[s.nbrackets - 1].c);
	free(s.conds);
	free(s.brackets);
	return error;
}
