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
		char counts[64];
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
		snprintf(counts, sizeof(counts), " %zu", left);
		if (f->findings[0] + f->findings[1] + f->findings[2])
			snprintf(counts + strlen(counts), sizeof(counts) - strlen(counts), " %zuE%zuW", f->findings[2],
				 f->findings[1]);
		attr = i == app->selected ? (app->focus == TUI_FOCUS_FILES ? TUI_SELECTED : TUI_TITLE) : TUI_NORMAL;
		tui_screen_fill(s, l->top + row, 0, l->files_width, attr);
		/* ">" marks the selection in screen dumps too, where colour is lost */
		tui_screen_put(s, l->top + row, 0, 1, i == app->selected ? ">" : " ", 1, attr);
		used = 1 + tui_screen_put(s, l->top + row, 1, 1, glyph(f), 1, attr);
		cw = (int)strlen(counts);
		tui_screen_put(s, l->top + row, used + 1, l->files_width - used - 1 - cw, f->p->path, strlen(f->p->path),
			       attr);
		tui_screen_put(s, l->top + row, l->files_width - cw, cw, counts, strlen(counts),
			       attr == TUI_NORMAL ? TUI_DIM : attr);
	}
}
