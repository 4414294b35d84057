/* Fix templates (patches/<ID>.fix, compiled in) and their use: a fix is a
 * set of edits on the original source, applied before translation so that
 * it becomes an ordinary part of the proposal.
 *
 * A template file holds `@title TEXT` and one or more variants:
 *   @variant NAME            the analyzer picks a variant by name
 *   @leaf TEXT               how one operand is rewritten (${leaf})
 *   @replace TEXT            the text replacing the finding's range
 *   @replace.RANGE TEXT      ... replacing another range the analyzer names
 *   @helper NAME             code lines up to @end, inserted once per file;
 *                            with no lines (@end next), an earlier variant's NAME
 * ${name} in TEXT is a capture from the match. Lines starting with # outside
 * a helper are comments. */
#include <ctype.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/ast.h"
#include "analyze/finding.h"
#include "util/buf.h"
#include "util/embedded.h"
#include "util/error.h"

extern const util_embedded_file an_patches_builtin[];

#define MAX_REPLACE 4

typedef struct fix_variant {
	const char *name;
	const char *leaf;
	const char *range[MAX_REPLACE];
	const char *replace[MAX_REPLACE];
	size_t nreplace;
	const char *helper;      /* its name */
	const char *helper_code; /* lines up to @end */
} fix_variant;

typedef struct fix_template {
	char id[32];
	const char *title;
	fix_variant *variants;
	size_t nvariants;
} fix_template;

static fix_template *templates;
static size_t ntemplates;
static char *load_error;
static pthread_once_t load_once = PTHREAD_ONCE_INIT;

static const char *after_word(char *line, const char *word)
{
	size_t n = strlen(word);

	if (strncmp(line, word, n) != 0 || (line[n] != ' ' && line[n] != '\0' && line[n] != '.'))
		return NULL;
	return line + n;
}

/* Parses one template file, cut up in place; false with load_error set. */
static bool parse_template(fix_template *t, char *text, const char *name)
{
	char *line = text, *next;
	fix_variant *v = NULL;
	unsigned lineno = 0;
	const char *dot = strrchr(name, '.');

	snprintf(t->id, sizeof(t->id), "%.*s", dot ? (int)(dot - name) : (int)strlen(name), name);
	for (; line && *line; line = next) {
		const char *rest;

		lineno++;
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (line[0] == '#' || line[0] == '\0')
			continue;
		if ((rest = after_word(line, "@title")) && *rest == ' ') {
			t->title = rest + 1;
		} else if ((rest = after_word(line, "@variant")) && *rest == ' ') {
			fix_variant *nv = realloc(t->variants, (t->nvariants + 1) * sizeof(*nv));

			if (!nv)
				return false;
			t->variants = nv;
			v = &t->variants[t->nvariants++];
			memset(v, 0, sizeof(*v));
			v->name = rest + 1;
		} else if (v && (rest = after_word(line, "@leaf")) && *rest == ' ') {
			v->leaf = rest + 1;
		} else if (v && (rest = after_word(line, "@replace"))) {
			char *range = "match", *sp;

			if (*rest == '.') {
				range = (char *)rest + 1;
				if (!(sp = strchr(range, ' ')))
					goto bad;
				*sp = '\0'; /* ends the range's name; the text follows */
			} else if (*rest != ' ') {
				goto bad;
			} else {
				sp = (char *)rest;
			}
			if (v->nreplace == MAX_REPLACE)
				goto bad;
			v->range[v->nreplace] = range;
			v->replace[v->nreplace++] = sp + 1;
		} else if (v && (rest = after_word(line, "@helper")) && *rest == ' ') {
			char *end;
			size_t k;

			v->helper = rest + 1;
			if (next && strncmp(next, "@end", 4) == 0 && (next[4] == '\n' || next[4] == '\0')) {
				/* no code: the helper of that name an earlier variant gave */
				for (k = 0; k + 1 < t->nvariants && !v->helper_code; k++)
					if (t->variants[k].helper && strcmp(t->variants[k].helper, v->helper) == 0)
						v->helper_code = t->variants[k].helper_code;
				if (!v->helper_code)
					goto bad;
				next = next[4] ? next + 5 : NULL;
				lineno++;
				continue;
			}
			if (!next || !(end = strstr(next, "\n@end")))
				goto bad;
			v->helper_code = next;
			end[1] = '\0'; /* keeps the code's last newline */
			next = strchr(end + 2, '\n');
			next = next ? next + 1 : NULL;
		} else {
			goto bad;
		}
	}
	if (!t->title || !t->nvariants)
		goto bad;
	return true;
bad:
	if (asprintf(&load_error, "patches/%s:%u: not a fix template line (see src/analyze/fix.c)", name, lineno) < 0)
		load_error = NULL;
	return false;
}

static void load(void)
{
	size_t n = 0, i;

	while (an_patches_builtin[n].name)
		n++;
	templates = calloc(n ? n : 1, sizeof(*templates));
	if (!templates)
		return;
	for (i = 0; i < n; i++) {
		char *copy = strdup(an_patches_builtin[i].data);

		if (!copy || !parse_template(&templates[ntemplates], copy, an_patches_builtin[i].name)) {
			free(copy);
			return;
		}
		ntemplates++;
	}
}

static const fix_template *find_template(const char *id)
{
	size_t i;

	pthread_once(&load_once, load);
	for (i = 0; i < ntemplates; i++)
		if (strcmp(templates[i].id, id) == 0)
			return &templates[i];
	return NULL;
}

const char *an_fix_error(void)
{
	pthread_once(&load_once, load);
	return load_error;
}

const char *an_fix_title(const char *id)
{
	const fix_template *t = find_template(id);

	return t ? t->title : NULL;
}

static const fix_variant *find_variant(const fix_template *t, const char *name)
{
	size_t i;

	for (i = 0; t && i < t->nvariants; i++)
		if (!name || strcmp(t->variants[i].name, name) == 0)
			return &t->variants[i];
	return NULL;
}

/* Fills ${name}s; false when a capture is missing. */
static bool expand(util_buf *out, const char *tmpl, const an_capture *caps, size_t ncaps)
{
	const char *p = tmpl;

	while (*p) {
		const char *open = strstr(p, "${"), *close;
		size_t i;

		if (!open) {
			util_buf_puts(out, p);
			break;
		}
		util_buf_put(out, p, (size_t)(open - p));
		if (!(close = strchr(open, '}')))
			return false;
		for (i = 0; i < ncaps; i++)
			if (strlen(caps[i].name) == (size_t)(close - open - 2) &&
			    memcmp(caps[i].name, open + 2, (size_t)(close - open - 2)) == 0)
				break;
		if (i == ncaps)
			return false;
		util_buf_puts(out, caps[i].text);
		p = close + 1;
	}
	return !util_buf_oom(out);
}

char *an_fix_leaf(const char *id, const char *variant, const char *leaf)
{
	const fix_variant *v = find_variant(find_template(id), variant);
	an_capture cap = { "leaf", leaf };
	util_buf out = UTIL_BUF_INIT;

	if (!v || !v->leaf || !expand(&out, v->leaf, &cap, 1)) {
		util_buf_dispose(&out);
		return NULL;
	}
	return util_buf_detach(&out);
}

static bool comment_line(const char *src, uint32_t start, uint32_t end)
{
	while (start < end && (src[start] == ' ' || src[start] == '\t'))
		start++;
	return end - start >= 2 && (memcmp(src + start, "//", 2) == 0 || memcmp(src + start, "/*", 2) == 0 ||
				    src[start] == '*');
}

/* Where helpers go: the start of the line of the current top-level
 * declaration, above the comment lines that document it. */
static uint32_t helper_offset(const an_ctx *ctx)
{
	uint32_t off = ctx->decl_start;

	while (off > 0 && ctx->src[off - 1] != '\n')
		off--;
	while (off > 0) {
		uint32_t prev = off - 1;

		while (prev > 0 && ctx->src[prev - 1] != '\n')
			prev--;
		if (!comment_line(ctx->src, prev, off - 1))
			break;
		off = prev;
	}
	return off;
}

/* A number replaced by a name keeps the type its suffix gave it: 32U becomes
 * (HIPPORT_WAVEFRONT_SIZE + 0U), not HIPPORT_WAVEFRONT_SIZEU. */
static void keep_suffix(const an_ctx *ctx, an_edit *e, util_buf *text)
{
	uint32_t end = e->offset + e->length, s = end;
	util_buf wrapped = UTIL_BUF_INIT;

	if (!e->length || !isdigit((unsigned char)ctx->src[e->offset]))
		return;
	while (s < ctx->len && strchr("uUlL", ctx->src[s]) && ctx->src[s])
		s++;
	if (s == end || (s < ctx->len && (isalnum((unsigned char)ctx->src[s]) || ctx->src[s] == '_')))
		return;
	util_buf_printf(&wrapped, "(%.*s + 0%.*s)", (int)text->len, text->ptr ? text->ptr : "", (int)(s - end),
			ctx->src + end);
	if (util_buf_oom(&wrapped)) {
		util_buf_dispose(&wrapped);
		return;
	}
	e->length = s - e->offset;
	util_buf_dispose(text);
	*text = wrapped;
}

void an_fix(an_ctx *ctx, an_hit *hit, const char *variant, const an_range *ranges, size_t nranges,
	    const an_capture *captures, size_t ncaptures)
{
	const fix_variant *v = find_variant(find_template(hit->id), variant);
	an_edit *edits;
	size_t i, k, n = 0;

	if (!v || !hit)
		return;
	edits = calloc(v->nreplace + 1, sizeof(*edits));
	if (!edits) {
		ctx->error = UTIL_ENOMEM;
		return;
	}
	for (i = 0; i < v->nreplace; i++) {
		util_buf text = UTIL_BUF_INIT;

		for (k = 0; k < nranges; k++)
			if (strcmp(ranges[k].name, v->range[i]) == 0)
				break;
		if (k == nranges || !expand(&text, v->replace[i], captures, ncaptures)) {
			util_buf_dispose(&text);
			goto drop;
		}
		edits[n].offset = ranges[k].start;
		edits[n].length = ranges[k].end - ranges[k].start;
		keep_suffix(ctx, &edits[n], &text);
		edits[n++].text = util_buf_detach(&text);
	}
	if (v->helper) {
		util_buf text = UTIL_BUF_INIT;

		edits[n].offset = helper_offset(ctx);
		util_buf_puts(&text, v->helper_code);
		/* a blank line between the helper and the code, unless one follows already */
		if (edits[n].offset < ctx->len && ctx->src[edits[n].offset] != '\n' && ctx->src[edits[n].offset] != '\r')
			util_buf_putc(&text, '\n');
		edits[n].helper = strdup(v->helper);
		edits[n++].text = util_buf_detach(&text);
		if (!edits[n - 1].helper)
			goto drop;
	}
	hit->edits = edits;
	hit->nedits = n;
	return;
drop:
	for (i = 0; i < n; i++) {
		free(edits[i].text);
		free(edits[i].helper);
	}
	free(edits);
}

/* --- applying fixes --- */

typedef struct taken {
	const an_edit *edit;
	size_t order;
} taken;

static int taken_order(const void *a, const void *b)
{
	const taken *x = a, *y = b;

	if (x->edit->offset != y->edit->offset)
		return x->edit->offset < y->edit->offset ? -1 : 1;
	/* at one offset: helpers (insertions) first, then in the order taken */
	if (!x->edit->helper != !y->edit->helper)
		return x->edit->helper ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

static bool overlaps(const taken *list, size_t n, const an_edit *e)
{
	size_t i;

	for (i = 0; i < n; i++) {
		const an_edit *o = list[i].edit;

		if (o->helper)
			continue;
		if (e->offset < o->offset + o->length && o->offset < e->offset + e->length)
			return true;
		if (e->length == 0 && o->length == 0 && e->offset == o->offset)
			return true;
	}
	return false;
}

static bool helper_taken(const taken *list, size_t n, const char *name)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (list[i].edit->helper && strcmp(list[i].edit->helper, name) == 0)
			return true;
	return false;
}

int an_fixes_apply(util_buf *out, const char *src, size_t len, const an_analysis *analysis, const char *ids,
		   size_t *applied, an_applied **spans, size_t *nspans)
{
	taken *list;
	size_t i, k, n = 0, total = 0, pos = 0;
	bool all = strcmp(ids, "all") == 0;

	*applied = 0;
	*spans = NULL;
	*nspans = 0;
	for (i = 0; i < analysis->count; i++)
		total += analysis->hits[i].nedits;
	list = calloc(total + 1, sizeof(*list));
	*spans = calloc(total + 1, sizeof(**spans));
	if (!list || !*spans) {
		free(list);
		free(*spans);
		*spans = NULL;
		return util_error_set(UTIL_ENOMEM, "out of memory");
	}
	for (i = 0; i < analysis->count; i++) {
		const an_hit *h = &analysis->hits[i];
		bool ok = h->nedits > 0;

		if (!all && !an_id_listed(ids, strlen(ids), h->id))
			continue;
		for (k = 0; k < h->nedits && ok; k++)
			if (!h->edits[k].helper && overlaps(list, n, &h->edits[k]))
				ok = false;
		if (!ok)
			continue;
		for (k = 0; k < h->nedits; k++) {
			if (h->edits[k].helper && helper_taken(list, n, h->edits[k].helper))
				continue;
			list[n].edit = &h->edits[k];
			list[n].order = n;
			n++;
		}
		(*applied)++;
	}
	qsort(list, n, sizeof(*list), taken_order);
	for (i = 0; i < n; i++) {
		const an_edit *e = list[i].edit;

		if (e->offset < pos || e->offset + e->length > len)
			continue;
		util_buf_put(out, src + pos, e->offset - pos);
		util_buf_puts(out, e->text);
		pos = e->offset + e->length;
		(*spans)[*nspans].offset = e->offset;
		(*spans)[*nspans].length = e->length;
		(*spans)[(*nspans)++].new_length = (uint32_t)strlen(e->text);
	}
	util_buf_put(out, src + pos, len - pos);
	free(list);
	return util_buf_oom(out) ? util_error_set(UTIL_ENOMEM, "out of memory") : 0;
}

uint32_t an_applied_origin(const an_applied *spans, size_t nspans, uint32_t offset)
{
	int64_t delta = 0; /* bytes added before the span looked at */
	size_t i;

	for (i = 0; i < nspans; i++) {
		int64_t start = (int64_t)spans[i].offset + delta;

		if (offset < start)
			break;
		if (offset < start + spans[i].new_length)
			return spans[i].offset; /* inside the new text: where it went */
		delta += (int64_t)spans[i].new_length - (int64_t)spans[i].length;
	}
	return (uint32_t)((int64_t)offset - delta);
}
