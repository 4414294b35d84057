/* The side-by-side diff: the original CUDA on the left, the proposed HIP on
 * the right, aligned row by row, each hunk marked with its decision. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/analysis.h"
#include "build/build.h"
#include "tui/views.h"

typedef struct diff_row {
	size_t old_no, new_no; /* 1-based; 0 when the side has no line here */
	long hunk;             /* -1 outside hunks */
	size_t tree_no;        /* the line of the file as the working tree holds it, or 0 */
} diff_row;

static bool is_edited(const tui_file *f, long hunk)
{
	return hunk >= 0 && f->decisions[hunk] == RV_EDITED;
}

/* How many lines the right side shows for hunk h: its edited text's, once edited. */
static size_t new_height(const tui_file *f, size_t h)
{
	return is_edited(f, (long)h) ? f->edits[h].n : f->hunks.items[h].new_lines;
}

/* The right side's line of a row: of the edited text in an edited hunk (where
 * new_no counts from the hunk's start), else of the proposal. */
static const tui_line *new_line_of(const tui_file *f, const diff_row *r)
{
	if (!r->new_no)
		return NULL;
	return is_edited(f, r->hunk) ? &f->edits[r->hunk].lines[r->new_no - 1] : &f->new_lines[r->new_no - 1];
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
			/* the tree holds the new side once accepted or edited, else the old */
			bool taken = edited || f->decisions[h] == RV_ACCEPTED;

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

void tui_diff_show_hunk(tui_app *app)
{
	tui_layout l = tui_layout_of(&app->screen);
	tui_file *f = app->nfiles ? &app->files[app->selected] : NULL;
	diff_row *rows;
	size_t n, at, visible = l.rows > 1 ? (size_t)l.rows - 1 : 1;

	if (!f || !(rows = rows_of(f, &n)))
		return;
	at = first_row_of(rows, n, app->hunk);
	if (at < app->diff_top || at >= app->diff_top + visible)
		app->diff_top = at > 2 ? at - 2 : 0;
	free(rows);
}

bool tui_diff_shown_lines(const tui_app *app, size_t *first, size_t *last)
{
	tui_layout l = tui_layout_of(&app->screen);
	const tui_file *f = app->nfiles ? &app->files[app->selected] : NULL;
	diff_row *rows;
	size_t n, i;

	*first = *last = 0;
	if (!f || !(rows = rows_of(f, &n)))
		return false;
	for (i = app->diff_top; i < n && i < app->diff_top + (size_t)(l.rows > 1 ? l.rows - 1 : 0); i++) {
		if (!rows[i].old_no)
			continue;
		if (!*first)
			*first = rows[i].old_no;
		*last = rows[i].old_no;
	}
	free(rows);
	return *first != 0;
}

bool tui_diff_show_tree_line(tui_app *app, size_t line)
{
	tui_file *f = app->nfiles ? &app->files[app->selected] : NULL;
	diff_row *rows;
	size_t n, i;

	if (!f || !line || !(rows = rows_of(f, &n)))
		return false;
	for (i = 0; i < n && rows[i].tree_no != line; i++)
		;
	if (i < n) {
		app->focus = TUI_FOCUS_DIFF;
		app->diff_top = i > 2 ? i - 2 : 0;
		if (rows[i].hunk >= 0)
			app->hunk = (size_t)rows[i].hunk;
	}
	free(rows);
	return i < n;
}

/* Whether the build of the file shown found an error on this tree line. */
static bool build_error_at(const tui_app *app, size_t tree_no)
{
	size_t i;

	if (!tree_no || app->build_pane.file != app->selected)
		return false;
	for (i = 0; i < app->build_pane.result.nerrors; i++)
		if (app->build_pane.result.errors[i].line == tree_no)
			return true;
	return false;
}

static bool line_has(const tui_line *line, const char *text)
{
	size_t n = strlen(text);

	return line && n && memmem(line->text, line->len, text, n);
}

bool tui_diff_search(tui_app *app, const char *text)
{
	tui_file *f = app->nfiles ? &app->files[app->selected] : NULL;
	diff_row *rows;
	size_t n, k;

	if (!f || !(rows = rows_of(f, &n)))
		return false;
	for (k = 1; k <= n; k++) {
		size_t i = (app->diff_top + k) % n;

		if (!line_has(rows[i].old_no ? &f->old_lines[rows[i].old_no - 1] : NULL, text) &&
		    !line_has(new_line_of(f, &rows[i]), text))
			continue;
		app->diff_top = i;
		if (rows[i].hunk >= 0)
			app->hunk = (size_t)rows[i].hunk;
		free(rows);
		return true;
	}
	free(rows);
	return false;
}

static const char *mark_of(rv_decision d)
{
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

void tui_diff_draw(tui_app *app, const tui_layout *l)
{
	tui_screen *s = &app->screen;
	tui_file *f = app->nfiles ? &app->files[app->selected] : NULL;
	int half = (l->diff_width - 1) / 2, row;
	diff_row *rows;
	size_t n, i;
	char title[64];
	const char *old_title, *new_title;
	side old_side, new_side;

	for (row = 0; row < l->rows; row++)
		tui_screen_fill(s, l->top + row, l->diff_x, l->diff_width, TUI_NORMAL);
	if (!f || l->rows < 2 || half < 8)
		return;
	side_titles(f->p->path, &old_title, &new_title);
	tui_screen_fill(s, l->top, l->diff_x, l->diff_width, TUI_TITLE);
	snprintf(title, sizeof(title), " original (%s)", old_title);
	tui_screen_put(s, l->top, l->diff_x, half, title, strlen(title), TUI_TITLE);
	snprintf(title, sizeof(title), " proposed (%s)", new_title);
	tui_screen_put(s, l->top, l->diff_x + half + 1, half, title, strlen(title), TUI_TITLE);
	if (!(rows = rows_of(f, &n)))
		return;
	old_side.text = f->p->source.ptr;
	old_side.tokens = f->old_tokens;
	old_side.ntokens = f->nold_tokens;
	new_side.text = f->p->port.output.ptr;
	new_side.tokens = f->new_tokens;
	new_side.ntokens = f->nnew_tokens;
	if (n && app->diff_top >= n)
		app->diff_top = n - 1;
	for (row = 1, i = app->diff_top; row < l->rows && i < n; row++, i++) {
		const diff_row *r = &rows[i];
		bool in_hunk = r->hunk >= 0, first = in_hunk && (i == 0 || rows[i - 1].hunk != r->hunk);
		bool cursor = in_hunk && (size_t)r->hunk == app->hunk && app->focus == TUI_FOCUS_DIFF;
		rv_decision d = in_hunk ? f->decisions[r->hunk] : RV_PENDING;
		const char *mark = first ? mark_of(d) : cursor ? "|" : " ";
		tui_attr mark_attr = cursor ? TUI_SELECTED
				     : d == RV_ACCEPTED || d == RV_EDITED ? TUI_ACCEPTED
				     : d == RV_REJECTED			 ? TUI_REJECTED
									 : TUI_DIM;
		const tui_line *old_line = r->old_no ? &f->old_lines[r->old_no - 1] : NULL, *new_line = new_line_of(f, r);
		size_t start = 0, old_end = 0, new_end = 0;

		if (in_hunk && old_line && new_line)
			changed_span(old_line, new_line, &start, &old_end, &new_end);
		draw_side(s, l->top + row, l->diff_x, half, old_line, r->old_no, &old_side, in_hunk, TUI_REMOVED, start,
			  old_end, TUI_CHANGED_OLD, mark, mark_attr);
		/* the middle column: a build error on the line (X), else the worst
		 * finding on the source line (E, W, N) */
		if (build_error_at(app, r->tree_no)) {
			tui_screen_put(s, l->top + row, l->diff_x + half, 1, "X", 1, TUI_ERROR);
		} else {
			unsigned char m = r->old_no && f->marks ? f->marks[r->old_no - 1] : 0;

			tui_screen_put(s, l->top + row, l->diff_x + half, 1, m == 3 ? "E" : m == 2 ? "W" : m == 1 ? "N" : "|", 1,
				       m == 3 ? TUI_ERROR : m == 2 ? TUI_WARNING : m ? TUI_NOTE : TUI_DIM);
		}
		draw_side(s, l->top + row, l->diff_x + half + 1, l->diff_width - half - 1, new_line, new_number_of(f, r),
			  &new_side, in_hunk, TUI_ADDED, start, new_end, TUI_CHANGED_NEW, mark, mark_attr);
	}
	free(rows);
}
