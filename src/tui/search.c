/* / and F: the search prompt, on the status bar while the text is typed (as
 * it is: no key does its action here). For /, Enter hands the text to the
 * focused pane, which finds the next file or row holding it. F (or Tab in
 * the prompt) searches every file instead: each file's proposed HIP text and
 * CUDA original, the matches listed as file:line over the panes; Enter opens
 * the file at the match's line. Escape closes. */
#include "tui/search.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct search_match {
	size_t file, line; /* line: 1-based */
	bool original;     /* the CUDA original's line, else the proposal's */
} search_match;

typedef struct search_state {
	char query[128];
	bool all;              /* every file's proposal and original */
	search_match *matches; /* listed once Enter searched every file */
	size_t nmatches, at, top;
} search_state;

/* A list this long is not read; it says to narrow the search instead. */
enum { SEARCH_MAX_MATCHES = 2000 };

static void search_draw_list(const search_state *st, const tui_model *m, tui_screen *s)
{
	char line[512];
	size_t i, rows = s->height > 2 ? (size_t)s->height - 2 : 1;
	int y = 1;

	snprintf(line, sizeof(line), " %zu match%s of \"%s\"%s: Enter opens, Escape closes", st->nmatches,
		 st->nmatches == 1 ? "" : "es", st->query, st->nmatches == SEARCH_MAX_MATCHES ? " (the first)" : "");
	tui_screen_fill(s, 0, 0, s->width, TUI_TITLE);
	tui_screen_put(s, 0, 0, s->width, line, strlen(line), TUI_TITLE);
	for (i = st->top; i < st->nmatches && i < st->top + rows; i++, y++) {
		const search_match *k = &st->matches[i];
		const tui_file *f = &m->files[k->file];
		const tui_line *l = k->original ? &f->old_lines[k->line - 1] : &f->new_lines[k->line - 1];
		tui_attr attr = i == st->at ? TUI_SELECTED : TUI_NORMAL;
		int n = snprintf(line, sizeof(line), "%s:%zu %s ", f->p->path, k->line, k->original ? "cuda" : "hip ");

		if (n < 0 || (size_t)n >= sizeof(line))
			n = (int)sizeof(line) - 1;
		tui_screen_fill(s, y, 0, s->width, attr);
		tui_screen_put(s, y, 0, s->width, line, (size_t)n, attr);
		tui_screen_put(s, y, n, s->width - n, l->text, l->len, attr);
	}
	for (; y < s->height - 1; y++)
		tui_screen_fill(s, y, 0, s->width, TUI_NORMAL);
}

static void search_draw(tui_view *view, tui_screen *s)
{
	const search_state *st = tui_view_state(view);
	char line[160];

	if (st->matches) {
		search_draw_list(st, tui_view_model(view), s);
		return;
	}
	snprintf(line, sizeof(line), "%s%s_", st->all ? "search all files: " : "/", st->query);
	tui_screen_fill(s, s->height - 1, 0, s->width, TUI_TITLE);
	tui_screen_put(s, s->height - 1, 0, s->width, line, strlen(line), TUI_TITLE);
}

static bool line_has(const tui_line *l, const char *text, size_t n)
{
	return memmem(l->text, l->len, text, n) != NULL;
}

static bool add_match(search_state *st, size_t *cap, search_match k)
{
	if (st->nmatches == *cap) {
		search_match *n = realloc(st->matches, (*cap = *cap ? *cap * 2 : 64) * sizeof(*n));

		if (!n)
			return false;
		st->matches = n;
	}
	st->matches[st->nmatches++] = k;
	return true;
}

/* Every line of every file's proposal and original holding the query, file
 * by file, the proposal's line first where both sides hold it. */
static bool search_all(search_state *st, const tui_model *m)
{
	size_t i, k, cap = 0, n = strlen(st->query);

	for (i = 0; i < m->nfiles; i++) {
		const tui_file *f = &m->files[i];

		for (k = 0; k < f->nnew && st->nmatches < SEARCH_MAX_MATCHES; k++)
			if (line_has(&f->new_lines[k], st->query, n) &&
			    !add_match(st, &cap, (search_match){ .file = i, .line = k + 1 }))
				return false;
		for (k = 0; k < f->nold && st->nmatches < SEARCH_MAX_MATCHES; k++)
			if (line_has(&f->old_lines[k], st->query, n) &&
			    !add_match(st, &cap, (search_match){ .file = i, .line = k + 1, .original = true }))
				return false;
	}
	return true;
}

/* Enter on a match: its file selected, the diff at its line. */
static void open_match(tui_view *view)
{
	search_state *st = tui_view_state(view);
	tui_core *core = tui_view_core(view);
	tui_model *m = tui_view_model(view);
	search_match k = st->matches[st->at];
	tui_request selected = { .kind = TUI_REQUEST_SELECTED };
	tui_request show = { .kind = TUI_REQUEST_SHOW_ROW, .line = k.line, .original = k.original };

	tui_core_pop(core, view);
	m->selected = k.file;
	m->hunk = 0;
	tui_core_request(core, &selected);
	if (tui_core_request(core, &show) != TUI_DONE)
		tui_core_message(core, "%s:%zu is in an edited hunk", m->files[k.file].p->path, k.line);
}

static void move(search_state *st, long delta, size_t rows)
{
	long at = (long)st->at + delta;

	st->at = at < 0 ? 0 : (size_t)at >= st->nmatches ? st->nmatches - 1 : (size_t)at;
	if (st->at < st->top)
		st->top = st->at;
	if (st->at >= st->top + rows)
		st->top = st->at - rows + 1;
}

static tui_handled list_key(tui_view *view, tui_request *req)
{
	search_state *st = tui_view_state(view);
	tui_screen *s = tui_core_screen(tui_view_core(view));
	size_t rows = s->height > 2 ? (size_t)s->height - 2 : 1;

	if (req->key == TUI_KEY_ENTER)
		open_match(view);
	else if (req->key == TUI_KEY_ESCAPE || req->action == TUI_ACTION_QUIT)
		tui_core_pop(tui_view_core(view), view);
	else if (req->action == TUI_ACTION_DOWN)
		move(st, 1, rows);
	else if (req->action == TUI_ACTION_UP)
		move(st, -1, rows);
	else if (req->action == TUI_ACTION_PAGE_DOWN)
		move(st, (long)rows, rows);
	else if (req->action == TUI_ACTION_PAGE_UP)
		move(st, -(long)rows, rows);
	else if (req->action == TUI_ACTION_FIRST)
		move(st, -(long)st->nmatches, rows);
	else if (req->action == TUI_ACTION_LAST)
		move(st, (long)st->nmatches, rows);
	return TUI_DONE;
}

static void search_enter(tui_view *view)
{
	search_state *st = tui_view_state(view);
	tui_core *core = tui_view_core(view);
	char query[sizeof(st->query)];
	tui_request find = { .kind = TUI_REQUEST_FIND, .text = query };

	if (st->all && st->query[0]) {
		if (!search_all(st, tui_view_model(view))) {
			tui_core_error(core, "out of memory");
			tui_core_pop(core, view);
		} else if (!st->nmatches) {
			tui_core_message(core, "not found in any file: %s", st->query);
			tui_core_pop(core, view);
		}
		return;
	}
	memcpy(query, st->query, sizeof(query));
	tui_core_pop(core, view);
	if (query[0] && tui_core_model(core)->nfiles)
		tui_core_request(core, &find);
}

static tui_handled search_key(tui_view *view, tui_request *req)
{
	search_state *st = tui_view_state(view);
	size_t n = strlen(st->query);

	if (req->kind != TUI_REQUEST_KEY)
		return TUI_PASS;
	if (st->matches)
		return list_key(view, req);
	if (req->key == TUI_KEY_ENTER) {
		search_enter(view);
	} else if (req->key == TUI_KEY_ESCAPE) {
		tui_core_pop(tui_view_core(view), view);
	} else if (req->key == '\t') {
		st->all = !st->all;
	} else if (req->key == TUI_KEY_BACKSPACE) {
		if (n)
			st->query[n - 1] = '\0';
	} else if (req->key >= ' ' && req->key < 127 && n + 1 < sizeof(st->query)) {
		st->query[n] = (char)req->key;
		st->query[n + 1] = '\0';
	}
	return TUI_DONE;
}

static int search_all_open(tui_view *view)
{
	search_state *st = tui_view_state(view);

	st->all = true;
	return 0;
}

static void search_close(tui_view *view)
{
	search_state *st = tui_view_state(view);

	free(st->matches);
}

const tui_view_ops tui_search_view = {
	.name = "search",
	.state_size = sizeof(search_state),
	.draw = search_draw,
	.key = search_key,
	.close = search_close,
};

const tui_view_ops tui_search_all_view = {
	.name = "search",
	.state_size = sizeof(search_state),
	.open = search_all_open,
	.draw = search_draw,
	.key = search_key,
	.close = search_close,
};
