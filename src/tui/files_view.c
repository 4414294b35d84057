/* The file list: a status glyph, the path, hunks left and findings. */
#include <stdio.h>
#include <string.h>

#include "tui/views.h"

static const char *glyph(const tui_file *f)
{
	switch (f->state) {
	case RV_STATE_PARTIAL:
		return "~";
	case RV_STATE_ACCEPTED:
		return f->validated ? "v" : "+";
	case RV_STATE_STALE:
		return "!";
	case RV_STATE_COMMITTED:
		return "c";
	default:
		return " ";
	}
}

/* The glyph's colour on a row not selected: done in green, stale in red. */
static tui_attr glyph_attr(const tui_file *f)
{
	switch (f->state) {
	case RV_STATE_ACCEPTED:
	case RV_STATE_COMMITTED:
		return TUI_ACCEPTED;
	case RV_STATE_STALE:
		return TUI_ERROR;
	case RV_STATE_PARTIAL:
		return TUI_NOTE;
	default:
		return TUI_NORMAL;
	}
}

/* Puts the hunks left and the findings right-aligned, errors and warnings in
 * their marks' colours where there are any; returns the columns taken. */
static int counts_put(tui_screen *s, int y, int right, size_t left, const size_t findings[3], tui_attr attr)
{
	char pending[24], errors[24], warnings[24];
	int np = snprintf(pending, sizeof(pending), " %zu", left), ne = 0, nw = 0, x;
	bool plain = attr != TUI_NORMAL;

	if (findings[0] + findings[1] + findings[2]) {
		ne = snprintf(errors, sizeof(errors), " %zuE", findings[2]);
		nw = snprintf(warnings, sizeof(warnings), "%zuW", findings[1]);
	}
	x = right - np - ne - nw;
	tui_screen_put(s, y, x, np, pending, (size_t)np, plain ? attr : TUI_DIM);
	if (ne) {
		/* the blank before the count stays outside its colour */
		tui_screen_put(s, y, x + np, 1, " ", 1, plain ? attr : TUI_DIM);
		tui_screen_put(s, y, x + np + 1, ne - 1, errors + 1, (size_t)ne - 1,
			       plain ? attr : findings[2] ? TUI_ERROR : TUI_DIM);
		tui_screen_put(s, y, x + np + ne, nw, warnings, (size_t)nw,
			       plain ? attr : findings[1] ? TUI_WARNING : TUI_DIM);
	}
	return np + ne + nw;
}

void tui_files_draw(tui_app *app, const tui_layout *l)
{
	tui_screen *s = &app->screen;
	size_t i;
	int row;

	if (app->selected < app->files_top)
		app->files_top = app->selected;
	if (l->rows > 0 && app->selected >= app->files_top + (size_t)l->rows)
		app->files_top = app->selected - (size_t)l->rows + 1;
	for (row = 0, i = app->files_top; row < l->rows; row++, i++) {
		const tui_file *f;
		size_t k, left = 0;
		int used, cw;
		tui_attr attr;

		if (i >= app->nfiles) {
			tui_screen_fill(s, l->top + row, 0, l->files_width, TUI_NORMAL);
			continue;
		}
		f = &app->files[i];
		for (k = 0; k < f->hunks.count; k++)
			left += f->decisions[k] == RV_PENDING;
		attr = i == app->selected ? (app->focus == TUI_FOCUS_FILES ? TUI_SELECTED : TUI_TITLE) : TUI_NORMAL;
		tui_screen_fill(s, l->top + row, 0, l->files_width, attr);
		/* ">" marks the selection in screen dumps too, where colour is lost */
		tui_screen_put(s, l->top + row, 0, 1, i == app->selected ? ">" : " ", 1, attr);
		used = 1 + tui_screen_put(s, l->top + row, 1, 1, glyph(f), 1, attr == TUI_NORMAL ? glyph_attr(f) : attr);
		cw = counts_put(s, l->top + row, l->files_width, left, f->findings, attr);
		tui_screen_put(s, l->top + row, used + 1, l->files_width - used - 1 - cw, f->p->path, strlen(f->p->path),
			       attr);
	}
}
