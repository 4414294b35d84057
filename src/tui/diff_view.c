/* The side-by-side diff: the original CUDA on the left, the proposed HIP on
 * the right, aligned row by row, each hunk marked with its decision. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui/views.h"

typedef struct diff_row {
	size_t old_no, new_no; /* 1-based; 0 when the side has no line here */
	long hunk;             /* -1 outside hunks */
} diff_row;

/* The rows of a file: context pairs, then each hunk's lines side by side. */
static diff_row *rows_of(const tui_file *f, size_t *count)
{
	size_t cap = f->nold + f->nnew + 1, n = 0, o = 0, w = 0, h, k;
	diff_row *rows = malloc(cap * sizeof(*rows));

	if (!rows)
		return NULL;
	for (h = 0; h <= f->hunks.count; h++) {
		size_t old_to = h < f->hunks.count ? f->hunks.items[h].old_start : f->nold;

		for (; o < old_to && n < cap; o++, w++) {
			rows[n].old_no = o + 1;
			rows[n].new_no = w < f->nnew ? w + 1 : 0;
			rows[n++].hunk = -1;
		}
		if (h == f->hunks.count)
			break;
		{
			const rv_hunk *hk = &f->hunks.items[h];
			size_t height = hk->old_lines > hk->new_lines ? hk->old_lines : hk->new_lines;

			w = hk->new_start;
			for (k = 0; k < height && n < cap; k++) {
				rows[n].old_no = k < hk->old_lines ? hk->old_start + k + 1 : 0;
				rows[n].new_no = k < hk->new_lines ? hk->new_start + k + 1 : 0;
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

static bool line_has(const tui_line *lines, size_t no, const char *text)
{
	size_t n = strlen(text);

	return no && n && memmem(lines[no - 1].text, lines[no - 1].len, text, n);
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

		if (!line_has(f->old_lines, rows[i].old_no, text) && !line_has(f->new_lines, rows[i].new_no, text))
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

/* One side of a row: mark, line number, text. */
static void draw_side(tui_screen *s, int y, int x, int width, size_t no, const tui_line *lines, bool in_hunk,
		      tui_attr text_attr, const char *mark, tui_attr mark_attr)
{
	char num[32];

	tui_screen_fill(s, y, x, width, TUI_NORMAL);
	tui_screen_put(s, y, x, 1, mark, strlen(mark), mark_attr);
	if (!no)
		return;
	snprintf(num, sizeof(num), "%4zu ", no);
	tui_screen_put(s, y, x + 1, 5, num, strlen(num), TUI_DIM);
	tui_screen_put(s, y, x + 6, width - 6, lines[no - 1].text, lines[no - 1].len, in_hunk ? text_attr : TUI_NORMAL);
}

void tui_diff_draw(tui_app *app, const tui_layout *l)
{
	tui_screen *s = &app->screen;
	tui_file *f = app->nfiles ? &app->files[app->selected] : NULL;
	int half = (l->diff_width - 1) / 2, row;
	diff_row *rows;
	size_t n, i;
	char title[64];

	for (row = 0; row < l->rows; row++)
		tui_screen_fill(s, l->top + row, l->diff_x, l->diff_width, TUI_NORMAL);
	if (!f || l->rows < 2 || half < 8)
		return;
	snprintf(title, sizeof(title), " original (CUDA)");
	tui_screen_fill(s, l->top, l->diff_x, l->diff_width, TUI_TITLE);
	tui_screen_put(s, l->top, l->diff_x, half, title, strlen(title), TUI_TITLE);
	snprintf(title, sizeof(title), " proposed (HIP)");
	tui_screen_put(s, l->top, l->diff_x + half + 1, half, title, strlen(title), TUI_TITLE);
	if (!(rows = rows_of(f, &n)))
		return;
	if (n && app->diff_top >= n)
		app->diff_top = n - 1;
	for (row = 1, i = app->diff_top; row < l->rows && i < n; row++, i++) {
		const diff_row *r = &rows[i];
		bool in_hunk = r->hunk >= 0, start = in_hunk && (i == 0 || rows[i - 1].hunk != r->hunk);
		bool cursor = in_hunk && (size_t)r->hunk == app->hunk && app->focus == TUI_FOCUS_DIFF;
		rv_decision d = in_hunk ? f->decisions[r->hunk] : RV_PENDING;
		const char *mark = start ? mark_of(d) : cursor ? "|" : " ";
		tui_attr mark_attr = cursor ? TUI_SELECTED
				     : d == RV_ACCEPTED || d == RV_EDITED ? TUI_ACCEPTED
				     : d == RV_REJECTED			 ? TUI_REJECTED
									 : TUI_DIM;

		draw_side(s, l->top + row, l->diff_x, half, r->old_no, f->old_lines, in_hunk, TUI_REMOVED, mark,
			  mark_attr);
		/* the middle column: the worst finding on the source line (E, W, N) */
		{
			unsigned char m = r->old_no && f->marks ? f->marks[r->old_no - 1] : 0;

			tui_screen_put(s, l->top + row, l->diff_x + half, 1, m == 3 ? "E" : m == 2 ? "W" : m == 1 ? "N" : "|", 1,
				       m == 3 ? TUI_ERROR : m ? TUI_REJECTED : TUI_DIM);
		}
		draw_side(s, l->top + row, l->diff_x + half + 1, l->diff_width - half - 1, r->new_no, f->new_lines,
			  in_hunk, TUI_ADDED, mark, mark_attr);
	}
	free(rows);
}
