/* The side-by-side diff: the original CUDA on the left, the proposed HIP on
 * the right, aligned row by row, each hunk marked with its decision. Its
 * keys decide the hunks; it scrolls when it has the focus. */
#include "tui/diff.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/analysis.h"
#include "build/build.h"
#include "tui/conflict.h"
#include "tui/editor.h"

typedef struct diff_state {
	size_t top; /* the first row shown */
} diff_state;

typedef struct diff_row {
	size_t old_no, new_no; /* 1-based; 0 when the side has no line here */
	long hunk;             /* -1 outside hunks */
	size_t tree_no;        /* the line of the file as the working tree holds it, or 0 */
} diff_row;

/* Whether the right side shows other lines than the proposal's for the
 * hunk: an edited one's, a conflict's side (tui/conflict.c). */
static bool is_edited(const tui_file *f, long hunk)
{
	return hunk >= 0 && tui_conflict_shown(f, (size_t)hunk) != NULL;
}

/* How many lines the right side shows for hunk h. */
static size_t new_height(const tui_file *f, size_t h)
{
	const tui_edit *shown = tui_conflict_shown(f, h);

	return shown ? shown->n : f->hunks.items[h].new_lines;
}

/* The right side's line of a row: of the edited text in an edited hunk (where
 * new_no counts from the hunk's start), else of the proposal. */
static const tui_line *new_line_of(const tui_file *f, const diff_row *r)
{
	if (!r->new_no)
		return NULL;
	return is_edited(f, r->hunk) ? &tui_conflict_shown(f, (size_t)r->hunk)->lines[r->new_no - 1]
				     : &f->new_lines[r->new_no - 1];
}

/* The number shown for it: an edited line continues from the hunk's start. */
static size_t new_number_of(const tui_file *f, const diff_row *r)
{
	return r->new_no && is_edited(f, r->hunk) ? f->hunks.items[r->hunk].new_start + r->new_no : r->new_no;
}

/* The rows of a file: context pairs, then each hunk's lines side by side. */
static diff_row *rows_of(const tui_file *f, size_t *count)
{
	size_t cap = f->nold + f->nnew + 1, n = 0, o = 0, w = 0, h, k, tree = 0;
	diff_row *rows;

	for (h = 0; h < f->hunks.count; h++)
		cap += new_height(f, h);
	if (!(rows = malloc(cap * sizeof(*rows))))
		return NULL;
	for (h = 0; h <= f->hunks.count; h++) {
		size_t old_to = h < f->hunks.count ? f->hunks.items[h].old_start : f->nold;

		for (; o < old_to && n < cap; o++, w++) {
			rows[n].old_no = o + 1;
			rows[n].new_no = w < f->nnew ? w + 1 : 0;
			rows[n].tree_no = ++tree;
			rows[n++].hunk = -1;
		}
		if (h == f->hunks.count)
			break;
		{
			const rv_hunk *hk = &f->hunks.items[h];
			size_t lines = new_height(f, h), height = hk->old_lines > lines ? hk->old_lines : lines;
			bool edited = is_edited(f, (long)h);
			/* the tree holds the new side once accepted or edited (a conflict: the port's), else the old */
			bool taken = rv_has_text(f->decisions[h]) || f->decisions[h] == RV_ACCEPTED;

			for (k = 0; k < height && n < cap; k++) {
				rows[n].old_no = k < hk->old_lines ? hk->old_start + k + 1 : 0;
				rows[n].new_no = k >= lines ? 0 : edited ? k + 1 : hk->new_start + k + 1;
				rows[n].tree_no = (taken ? rows[n].new_no : rows[n].old_no) ? ++tree : 0;
				rows[n++].hunk = (long)h;
			}
			o = hk->old_start + hk->old_lines;
			w = hk->new_start + hk->new_lines;
		}
	}
	*count = n;
	return rows;
}

static size_t first_row_of(const diff_row *rows, size_t n, size_t hunk)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (rows[i].hunk == (long)hunk)
			return i;
	return 0;
}

/* Scrolls so that the hunk at the cursor is on screen. */
static void show_hunk(tui_view *view)
{
	diff_state *st = tui_view_state(view);
	tui_model *m = tui_view_model(view);
	tui_rect a = tui_view_area(view);
	tui_file *f = tui_model_current(m);
	diff_row *rows;
	size_t n, at, visible = a.height > 1 ? (size_t)a.height - 1 : 1;

	if (!f || !(rows = rows_of(f, &n)))
		return;
	at = first_row_of(rows, n, m->hunk);
	if (at < st->top || at >= st->top + visible)
		st->top = at > 2 ? at - 2 : 0;
	free(rows);
}

/* The source lines of the rows shown (1-based); false when none. */
static bool shown_lines(tui_view *view, size_t *first, size_t *last)
{
	diff_state *st = tui_view_state(view);
	tui_rect a = tui_view_area(view);
	tui_file *f = tui_model_current(tui_view_model(view));
	diff_row *rows;
	size_t n, i;

	*first = *last = 0;
	if (!f || !(rows = rows_of(f, &n)))
		return false;
	for (i = st->top; i < n && i < st->top + (size_t)(a.height > 1 ? a.height - 1 : 0); i++) {
		if (!rows[i].old_no)
			continue;
		if (!*first)
			*first = rows[i].old_no;
		*last = rows[i].old_no;
	}
	free(rows);
	return *first != 0;
}

/* Which numbering of the rows a line is in: the file as the working tree
 * holds it, the original, or the proposal (not of an edit). */
typedef enum line_side { SIDE_TREE, SIDE_ORIGINAL, SIDE_PROPOSAL } line_side;

static bool row_has(const tui_file *f, const diff_row *r, size_t line, line_side side)
{
	if (side == SIDE_TREE)
		return r->tree_no == line;
	if (side == SIDE_ORIGINAL)
		return r->old_no == line;
	return r->new_no == line && !(r->hunk >= 0 && is_edited(f, r->hunk));
}

/* Scrolls to the row of line (1-based) on side, the diff focused and the
 * cursor on its hunk; false when there is none. */
static bool show_line(tui_view *view, size_t line, line_side side)
{
	diff_state *st = tui_view_state(view);
	tui_model *m = tui_view_model(view);
	tui_file *f = tui_model_current(m);
	diff_row *rows;
	size_t n, i;

	if (!f || !line || !(rows = rows_of(f, &n)))
		return false;
	for (i = 0; i < n && !row_has(f, &rows[i], line, side); i++)
		;
	if (i < n) {
		tui_view_focus(view);
		st->top = i > 2 ? i - 2 : 0;
		if (rows[i].hunk >= 0)
			m->hunk = (size_t)rows[i].hunk;
	}
	free(rows);
	return i < n;
}

/* Whether the build of the file shown found an error on this tree line. */
static bool build_error_at(const tui_model *m, size_t tree_no)
{
	size_t i;

	if (!tree_no || m->build_file != m->selected)
		return false;
	for (i = 0; i < m->build.nerrors; i++)
		if (m->build.errors[i].line == tree_no)
			return true;
	return false;
}

static bool line_has(const tui_line *line, const char *text)
{
	size_t n = strlen(text);

	return line && n && memmem(line->text, line->len, text, n);
}

/* Scrolls to the first row after the top whose source or port line holds
 * text (wrapping); false when none does. */
static bool find(tui_view *view, const char *text)
{
	diff_state *st = tui_view_state(view);
	tui_model *m = tui_view_model(view);
	tui_file *f = tui_model_current(m);
	diff_row *rows;
	size_t n, k;

	if (!f || !(rows = rows_of(f, &n)))
		return false;
	for (k = 1; k <= n; k++) {
		size_t i = (st->top + k) % n;

		if (!line_has(rows[i].old_no ? &f->old_lines[rows[i].old_no - 1] : NULL, text) &&
		    !line_has(new_line_of(f, &rows[i]), text))
			continue;
		st->top = i;
		if (rows[i].hunk >= 0)
			m->hunk = (size_t)rows[i].hunk;
		free(rows);
		return true;
	}
	free(rows);
	return false;
}

static const char *mark_of(const tui_file *f, size_t h, rv_decision d)
{
	if (d == RV_CONFLICT)
		return tui_conflict_mark(f, h);
	return d == RV_ACCEPTED ? "A" : d == RV_REJECTED ? "R" : d == RV_EDITED ? "E" : "?";
}

/* One side's text and colour. */
typedef struct side {
	const char *text;   /* the whole file, where tokens point */
	const port_token *tokens;
	size_t ntokens;
} side;

static tui_attr token_attr(uint8_t kind)
{
	return kind == PORT_TOKEN_KEYWORD ? TUI_KEYWORD
	       : kind == PORT_TOKEN_COMMENT ? TUI_COMMENT
	       : kind == PORT_TOKEN_LITERAL ? TUI_LITERAL
					    : TUI_NORMAL;
}

static bool is_hash(const side *sd, const port_token *t)
{
	return t->kind == PORT_TOKEN_PUNCT && (t->flags & PORT_TOKEN_LINE_START) && t->end == t->start + 1 &&
	       sd->text[t->start] == '#';
}

/* Colours the bytes of a context line by its tokens (syntax colour). */
static void colour_tokens(const side *sd, const tui_line *line, unsigned char *attrs, size_t n)
{
	size_t start = (size_t)(line->text - sd->text), lo = 0, hi = sd->ntokens, i;

	while (lo < hi) { /* the first token ending after the line's start */
		size_t mid = (lo + hi) / 2;

		if (sd->tokens[mid].end <= start)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (i = lo; i < sd->ntokens && sd->tokens[i].start < start + n; i++) {
		const port_token *t = &sd->tokens[i];
		size_t a = t->start > start ? t->start - start : 0;
		size_t b = t->end - start < n ? t->end - start : n;
		tui_attr attr = token_attr(t->kind);

		/* a directive's '#' and name read as keywords (#include, #define) */
		if ((t->flags & PORT_TOKEN_DIRECTIVE) &&
		    (is_hash(sd, t) || (i > 0 && (t[-1].flags & PORT_TOKEN_LINE_START) && is_hash(sd, &t[-1]))))
			attr = TUI_KEYWORD;
		for (; a < b; a++)
			attrs[a] = (unsigned char)attr;
	}
}

/* One side of a row: mark, line number, text in its colours (line NULL:
 * the side has no line here). */
static void draw_side(tui_screen *s, int y, int x, int width, const tui_line *line, size_t no, const side *sd,
		      bool in_hunk, tui_attr hunk_attr, size_t span_start, size_t span_end, tui_attr span_attr,
		      const char *mark, tui_attr mark_attr)
{
	unsigned char attrs[1024];
	char num[32];
	size_t n, i, run;
	int col;

	tui_screen_fill(s, y, x, width, TUI_NORMAL);
	tui_screen_put(s, y, x, 1, mark, strlen(mark), mark_attr);
	if (!line)
		return;
	snprintf(num, sizeof(num), "%4zu ", no);
	tui_screen_put(s, y, x + 1, 5, num, strlen(num), TUI_DIM);
	n = line->len < sizeof(attrs) ? line->len : sizeof(attrs);
	memset(attrs, in_hunk ? hunk_attr : TUI_NORMAL, n);
	if (!in_hunk && sd->tokens)
		colour_tokens(sd, line, attrs, n);
	for (i = span_start; in_hunk && i < span_end && i < n; i++)
		attrs[i] = (unsigned char)span_attr;
	/* runs of one attribute, each put where the last ended */
	for (i = 0, col = 6; i < n && col < width; i += run) {
		for (run = 1; i + run < n && attrs[i + run] == attrs[i]; run++)
			;
		col += tui_screen_put(s, y, x + col, width - col, line->text + i, run, (tui_attr)attrs[i]);
	}
}

/* The changed span of a pair of lines: what lies between their common
 * prefix and common suffix. */
static void changed_span(const tui_line *a, const tui_line *b, size_t *a_start, size_t *a_end, size_t *b_end)
{
	size_t p = 0, q = 0;

	while (p < a->len && p < b->len && a->text[p] == b->text[p])
		p++;
	while (q < a->len - p && q < b->len - p && a->text[a->len - 1 - q] == b->text[b->len - 1 - q])
		q++;
	*a_start = p;
	*a_end = a->len - q;
	*b_end = b->len - q;
}

/* What each side of the diff holds: a Python file stays Python (only its
 * fixes change it), a build file stays a build file for HIP. */
static void side_titles(const char *path, const char **old_title, const char **new_title)
{
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;

	if (strcmp(base, "setup.py") == 0) {
		*old_title = "setup.py";
		*new_title = "setup.py for ROCm";
	} else if (an_is_python(path)) {
		*old_title = "Triton";
		*new_title = "Triton on AMD";
	} else if (bld_kind_of(path) == BLD_CMAKE) {
		*old_title = "CMake, CUDA";
		*new_title = "CMake, HIP";
	} else if (bld_kind_of(path) == BLD_MAKE) {
		*old_title = "make, CUDA";
		*new_title = "make, HIP";
	} else {
		*old_title = "CUDA";
		*new_title = "HIP";
	}
}

static void diff_draw(tui_view *view, tui_screen *s)
{
	diff_state *st = tui_view_state(view);
	const tui_model *m = tui_view_model(view);
	const tui_file *f = m->nfiles ? &m->files[m->selected] : NULL;
	tui_rect a = tui_view_area(view);
	bool focused = tui_view_focused(view);
	int half = (a.width - 1) / 2, row;
	diff_row *rows;
	size_t n, i;
	char title[64];
	const char *old_title, *new_title;
	side old_side, new_side;

	for (row = 0; row < a.height; row++)
		tui_screen_fill(s, a.y + row, a.x, a.width, TUI_NORMAL);
	if (!f || a.height < 2 || half < 8)
		return;
	side_titles(f->p->path, &old_title, &new_title);
	tui_screen_fill(s, a.y, a.x, a.width, TUI_TITLE);
	snprintf(title, sizeof(title), " original (%s)", old_title);
	tui_screen_put(s, a.y, a.x, half, title, strlen(title), TUI_TITLE);
	snprintf(title, sizeof(title), " proposed (%s)", new_title);
	tui_screen_put(s, a.y, a.x + half + 1, half, title, strlen(title), TUI_TITLE);
	if (!f->ready) { /* its proposal is computed in the background */
		snprintf(title, sizeof(title), " %s", f->why ? "no proposal:" : "computing…");
		tui_screen_put(s, a.y + 1, a.x, a.width, title, strlen(title), TUI_DIM);
		if (f->why)
			tui_screen_put(s, a.y + 2, a.x + 1, a.width - 1, f->why, strlen(f->why), TUI_ERROR);
		return;
	}
	if (!(rows = rows_of(f, &n)))
		return;
	old_side.text = f->p->source.ptr;
	old_side.tokens = f->old_tokens;
	old_side.ntokens = f->nold_tokens;
	new_side.text = f->p->port.output.ptr;
	new_side.tokens = f->new_tokens;
	new_side.ntokens = f->nnew_tokens;
	if (n && st->top >= n)
		st->top = n - 1;
	for (row = 1, i = st->top; row < a.height && i < n; row++, i++) {
		const diff_row *r = &rows[i];
		bool in_hunk = r->hunk >= 0, first = in_hunk && (i == 0 || rows[i - 1].hunk != r->hunk);
		bool cursor = in_hunk && (size_t)r->hunk == m->hunk && focused;
		rv_decision d = in_hunk ? f->decisions[r->hunk] : RV_PENDING;
		const char *mark = first ? mark_of(f, (size_t)r->hunk, d) : cursor ? "|" : " ";
		tui_attr mark_attr = cursor ? TUI_SELECTED
				     : d == RV_ACCEPTED || d == RV_EDITED ? TUI_ACCEPTED
				     : d == RV_REJECTED			 ? TUI_REJECTED
				     : d == RV_CONFLICT			 ? (f->clean[r->hunk] ? TUI_WARNING : TUI_ERROR)
									 : TUI_DIM;
		const tui_line *old_line = r->old_no ? &f->old_lines[r->old_no - 1] : NULL, *new_line = new_line_of(f, r);
		size_t start = 0, old_end = 0, new_end = 0;

		if (in_hunk && old_line && new_line)
			changed_span(old_line, new_line, &start, &old_end, &new_end);
		draw_side(s, a.y + row, a.x, half, old_line, r->old_no, &old_side, in_hunk, TUI_REMOVED, start,
			  old_end, TUI_CHANGED_OLD, mark, mark_attr);
		/* the middle column: a build error on the line (X), else the worst
		 * finding on the source line (E, W, N) */
		if (build_error_at(m, r->tree_no)) {
			tui_screen_put(s, a.y + row, a.x + half, 1, "X", 1, TUI_ERROR);
		} else {
			unsigned char w = r->old_no && f->marks ? f->marks[r->old_no - 1] : 0;

			tui_screen_put(s, a.y + row, a.x + half, 1, w == 3 ? "E" : w == 2 ? "W" : w == 1 ? "N" : "|", 1,
				       w == 3 ? TUI_ERROR : w == 2 ? TUI_WARNING : w ? TUI_NOTE : TUI_DIM);
		}
		draw_side(s, a.y + row, a.x + half + 1, a.width - half - 1, new_line, new_number_of(f, r),
			  &new_side, in_hunk, TUI_ADDED, start, new_end, TUI_CHANGED_NEW, mark, mark_attr);
	}
	free(rows);
}

/* Enter: the diff takes the focus, at the file's first undecided hunk. */
static void open_file(tui_view *view)
{
	tui_model *m = tui_view_model(view);
	tui_file *f = tui_model_current(m);

	if (!f)
		return;
	tui_view_focus(view);
	m->hunk = tui_model_first_pending(f, 0);
	show_hunk(view);
}

static void scroll(tui_view *view, long delta)
{
	diff_state *st = tui_view_state(view);
	long to = (long)st->top + delta;

	if (tui_model_current(tui_view_model(view)))
		st->top = to < 0 ? 0 : (size_t)to;
}

static void next_hunk(tui_view *view, long delta)
{
	tui_model *m = tui_view_model(view);
	tui_file *f = tui_model_current(m);
	long to;

	if (!f || !f->hunks.count)
		return;
	to = (long)m->hunk + delta;
	m->hunk = to < 0 ? 0 : (size_t)to >= f->hunks.count ? f->hunks.count - 1 : (size_t)to;
	show_hunk(view);
}

/* a, r: the hunk at the cursor decided, the cursor on to the next pending. */
static void decide(tui_view *view, rv_decision d)
{
	tui_model *m = tui_view_model(view);
	tui_file *f = tui_model_current(m);

	if (tui_model_decide(m, m->hunk, d, NULL, true) < 0) {
		tui_core_error(tui_view_core(view), "%s", util_error_last());
		return;
	}
	m->hunk = tui_model_first_pending(f, m->hunk);
	show_hunk(view);
}

static void decide_pending(tui_view *view, rv_decision d)
{
	size_t n;

	if (tui_model_decide_pending(tui_view_model(view), d, &n) < 0)
		tui_core_error(tui_view_core(view), "%s", util_error_last());
	else
		tui_core_message(tui_view_core(view), "%s %zu hunks", d == RV_ACCEPTED ? "accepted" : "rejected", n);
}

/* e: the hunk's proposed lines (or its edited text) in the editor; what is
 * saved becomes the hunk's text, decided as edited. */
static void edit(tui_view *view)
{
	tui_core *core = tui_view_core(view);
	tui_model *m = tui_view_model(view);
	tui_file *f = tui_model_current(m);
	const rv_hunk *h = &f->hunks.items[m->hunk];
	const char *texts[1] = { NULL };
	util_buf text = UTIL_BUF_INIT, edited = UTIL_BUF_INIT;
	rv_hunks one = { .items = (rv_hunk *)h, .count = 1 };
	rv_decision d;
	int error;

	rv_session_decisions(rv_session_find(m->session, f->p->path), &one, &d, texts);
	if (rv_has_text(d) && texts[0]) /* an edit, or a conflict's port lines */
		util_buf_puts(&text, texts[0]);
	else
		rv_lines_copy(&text, f->p->port.output.ptr, f->p->port.output.len, h->new_start, h->new_lines);
	error = tui_editor_edit(tui_core_screen(core), ".cu", text.ptr ? text.ptr : "", &edited);
	if (error == UTIL_EINPUT)
		tui_core_error(core, "%s", util_error_last());
	else if (error < 0)
		tui_core_error(core, "the editor failed; the hunk is as it was");
	else if (tui_model_decide(m, m->hunk, RV_EDITED, edited.ptr ? edited.ptr : "", true) < 0)
		tui_core_error(core, "%s", util_error_last());
	else
		tui_core_message(core, "hunk %zu edited", m->hunk + 1);
	util_buf_dispose(&text);
	util_buf_dispose(&edited);
}

/* o keeps a sync's conflict as the port has it; t shows its next side. */
static void conflict_key(tui_view *view, tui_action action)
{
	tui_model *m = tui_view_model(view);
	tui_file *f = tui_model_current(m);
	size_t at = m->hunk;
	const char *what;

	if (action == TUI_ACTION_CONFLICT_SIDE) {
		if (tui_conflict_next_side(f, m->hunk, &what) < 0)
			tui_core_error(tui_view_core(view), "%s", util_error_last());
		else
			tui_core_message(tui_view_core(view), "conflict %zu shows %s", m->hunk + 1, what);
		return;
	}
	if (tui_conflict_keep(m, m->hunk) < 0) {
		tui_core_error(tui_view_core(view), "%s", util_error_last());
		return;
	}
	m->hunk = tui_model_first_pending(f, m->hunk);
	show_hunk(view);
	tui_core_message(tui_view_core(view), "conflict %zu resolved: the port's lines kept", at + 1);
}

/* s: the hunk at the cursor split into a hunk per line, or the hunk of the
 * line at the cursor joined again. */
static void split(tui_view *view)
{
	tui_model *m = tui_view_model(view);
	tui_file *f = tui_model_current(m);
	bool joining = f->hunks.items[m->hunk].parent[0] != '\0';
	size_t before = f->hunks.count, at;

	if (tui_model_split(m, m->hunk, &at) < 0) {
		tui_core_error(tui_view_core(view), "%s", util_error_last());
		return;
	}
	m->hunk = at;
	show_hunk(view);
	if (joining)
		tui_core_message(tui_view_core(view), "hunk %zu joined again", at + 1);
	else
		tui_core_message(tui_view_core(view), "hunk %zu split into %zu: a, r and e decide each line", at + 1,
				 f->hunks.count - before + 1);
}

/* Requests from other views: the diff is what they show a file's lines in. */
static tui_handled request(tui_view *view, tui_request *req)
{
	diff_state *st = tui_view_state(view);

	switch (req->kind) {
	case TUI_REQUEST_SELECTED:
		st->top = 0;
		return TUI_DONE;
	case TUI_REQUEST_OPEN:
		open_file(view);
		return TUI_DONE;
	case TUI_REQUEST_FIND:
		if (!tui_view_focused(view))
			return TUI_PASS;
		if (!find(view, req->text))
			tui_core_message(tui_view_core(view), "not found: %s", req->text);
		return TUI_DONE;
	case TUI_REQUEST_SHOW_LINE:
		return show_line(view, req->line, SIDE_TREE) ? TUI_DONE : TUI_PASS;
	case TUI_REQUEST_SHOW_ROW:
		return show_line(view, req->line, req->original ? SIDE_ORIGINAL : SIDE_PROPOSAL) ? TUI_DONE : TUI_PASS;
	case TUI_REQUEST_SCOPE:
		req->focused = tui_view_focused(view);
		shown_lines(view, &req->first, &req->last);
		return TUI_DONE;
	default:
		return TUI_PASS;
	}
}

/* Keys: scrolling when the diff has the focus, deciding the hunk at the
 * cursor then too; moving between hunks, Enter and A, R from either pane. */
static tui_handled diff_key(tui_view *view, tui_request *req)
{
	diff_state *st = tui_view_state(view);
	tui_model *m = tui_view_model(view);
	tui_file *f = tui_model_current(m);
	bool focused = tui_view_focused(view);
	int height = tui_core_screen(tui_view_core(view))->height, page = height > 4 ? height - 4 : 1;

	if (req->kind != TUI_REQUEST_KEY)
		return request(view, req);
	switch (req->action) {
	case TUI_ACTION_DOWN:
	case TUI_ACTION_UP:
	case TUI_ACTION_PAGE_DOWN:
	case TUI_ACTION_PAGE_UP:
		if (!focused)
			return TUI_PASS;
		scroll(view, req->action == TUI_ACTION_DOWN ? 1 : req->action == TUI_ACTION_UP ? -1
			     : req->action == TUI_ACTION_PAGE_DOWN ? page : -page);
		return TUI_DONE;
	case TUI_ACTION_FIRST:
	case TUI_ACTION_LAST:
		if (!focused)
			return TUI_PASS;
		st->top = req->action == TUI_ACTION_FIRST ? 0 : (size_t)-1 / 2; /* clamped when drawn */
		return TUI_DONE;
	case TUI_ACTION_OPEN:
		open_file(view);
		return TUI_DONE;
	case TUI_ACTION_NEXT_HUNK:
	case TUI_ACTION_PREV_HUNK:
		next_hunk(view, req->action == TUI_ACTION_NEXT_HUNK ? 1 : -1);
		return TUI_DONE;
	case TUI_ACTION_ACCEPT:
	case TUI_ACTION_REJECT:
		if (focused && f && f->hunks.count)
			decide(view, req->action == TUI_ACTION_ACCEPT ? RV_ACCEPTED : RV_REJECTED);
		return TUI_DONE;
	case TUI_ACTION_ACCEPT_ALL:
	case TUI_ACTION_REJECT_ALL:
		if (f)
			decide_pending(view, req->action == TUI_ACTION_ACCEPT_ALL ? RV_ACCEPTED : RV_REJECTED);
		return TUI_DONE;
	case TUI_ACTION_EDIT:
		if (focused && f && f->hunks.count)
			edit(view);
		return TUI_DONE;
	case TUI_ACTION_KEEP_PORT:
	case TUI_ACTION_CONFLICT_SIDE:
		if (focused && f && f->hunks.count)
			conflict_key(view, req->action);
		return TUI_DONE;
	case TUI_ACTION_SPLIT:
		if (!focused)
			return TUI_PASS;
		if (f && f->hunks.count)
			split(view);
		return TUI_DONE;
	default:
		return TUI_PASS;
	}
}

/* A click puts the cursor on the hunk of the row (a line, once split);
 * rows outside hunks and the title select nothing. */
static tui_handled diff_click(tui_view *view, int row)
{
	diff_state *st = tui_view_state(view);
	tui_model *m = tui_view_model(view);
	tui_file *f = tui_model_current(m);
	diff_row *rows;
	size_t n, i = st->top + (size_t)row - 1;
	long hunk;

	if (!f || row < 1 || !(rows = rows_of(f, &n)))
		return TUI_PASS;
	hunk = i < n ? rows[i].hunk : -1;
	free(rows);
	if (hunk < 0)
		return TUI_PASS;
	m->hunk = (size_t)hunk;
	return TUI_DONE;
}

const tui_view_ops tui_diff_view = {
	.name = "diff",
	.state_size = sizeof(diff_state),
	.draw = diff_draw,
	.key = diff_key,
	.click = diff_click,
};
