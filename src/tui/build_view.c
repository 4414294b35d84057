/* b: the compile check of the selected file in a pane under the diff: the
 * compiler's output while it runs, then its errors; Enter on an error shows
 * its line in the diff (marked X in the middle column). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui/views.h"
#include "util/error.h"

void tui_build_result_dispose(tui_build_result *r)
{
	size_t i;

	for (i = 0; i < r->nerrors; i++) {
		free(r->errors[i].where);
		free(r->errors[i].text);
	}
	free(r->errors);
	free(r->status);
	free(r->summary);
	memset(r, 0, sizeof(*r));
}

/* The output as it comes: shown at once. */
static void watch(const char *data, size_t len, void *payload)
{
	tui_app *app = payload;

	util_buf_put(&app->build_pane.log, data, len);
	tui_app_draw(app);
	tui_terminal_show(&app->screen);
}

void tui_build_start(tui_app *app)
{
	tui_build_pane *b = &app->build_pane;
	int error;

	if (!app->build) {
		snprintf(app->message, sizeof(app->message), "no compile checks here");
		return;
	}
	tui_build_result_dispose(&b->result);
	util_buf_clear(&b->log);
	b->open = b->running = true;
	b->file = app->selected;
	b->selected = 0;
	error = app->build(app->payload, app->selected, watch, app, &b->result);
	b->running = false;
	tui_app_refresh_states(app);
	if (error < 0) {
		b->open = false;
		snprintf(app->message, sizeof(app->message), "%s", util_error_last());
	} else if (b->result.nerrors) {
		snprintf(app->message, sizeof(app->message), "compile check %s: %zu error%s; j/k pick one, Enter shows it, "
			 "Esc closes", b->result.status, b->result.nerrors, b->result.nerrors == 1 ? "" : "s");
	} else {
		snprintf(app->message, sizeof(app->message), "compile check %s: %s (Esc closes)", b->result.status,
			 b->result.summary ? b->result.summary : "");
	}
}

bool tui_build_key(tui_app *app, tui_action action, int key)
{
	tui_build_pane *b = &app->build_pane;

	if (!b->open)
		return false;
	if (key == TUI_KEY_ESCAPE) {
		b->open = false;
		return true;
	}
	switch (action) {
	case TUI_ACTION_DOWN:
		if (b->selected + 1 < b->result.nerrors)
			b->selected++;
		return true;
	case TUI_ACTION_UP:
		if (b->selected)
			b->selected--;
		return true;
	case TUI_ACTION_OPEN:
		if (b->selected < b->result.nerrors) {
			const tui_build_error *e = &b->result.errors[b->selected];

			app->selected = b->file;
			if (!e->line || !tui_diff_show_tree_line(app, e->line))
				snprintf(app->message, sizeof(app->message), "%s is not a line of this file", e->where);
			else
				snprintf(app->message, sizeof(app->message), "%s: %s", e->where, e->text);
		}
		return true;
	default:
		return false;
	}
}

/* The last lines of the log that fit in rows, from y. */
static void draw_log(tui_screen *s, const util_buf *log, int y, int rows, int width)
{
	const char *text = log->ptr ? log->ptr : "", *end = text + log->len, *p = end;
	int n = 0;

	while (p > text && n <= rows) { /* back over the last rows lines */
		p--;
		if (*p == '\n' && p + 1 < end)
			n++;
	}
	if (n > rows || (p > text && *p == '\n'))
		p++;
	for (; p < end && rows > 0; rows--, y++) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);

		tui_screen_put(s, y, 0, width, p, len, TUI_NORMAL);
		p += len + (nl != NULL);
	}
}

void tui_build_draw(tui_app *app)
{
	tui_screen *s = &app->screen;
	const tui_build_pane *b = &app->build_pane;
	int rows = s->height / 3 < 6 ? 6 : s->height / 3, top = s->height - 1 - rows, y, i;
	char line[512];
	size_t k;

	for (y = top; y < s->height - 1; y++)
		tui_screen_fill(s, y, 0, s->width, TUI_NORMAL);
	snprintf(line, sizeof(line), " compile check  %s  %s%s%s", b->file < app->nfiles ? app->files[b->file].p->path : "",
		 b->running ? "running..." : b->result.status ? b->result.status : "",
		 !b->running && b->result.summary ? ": " : "", !b->running && b->result.summary ? b->result.summary : "");
	tui_screen_fill(s, top, 0, s->width, TUI_TITLE);
	tui_screen_put(s, top, 0, s->width, line, strlen(line), TUI_TITLE);
	if (b->running || !b->result.nerrors) {
		draw_log(s, &b->log, top + 1, rows - 1, s->width);
		return;
	}
	/* the errors, the one at the cursor kept in view */
	k = b->selected >= (size_t)(rows - 1) ? b->selected - (size_t)(rows - 2) : 0;
	for (i = 1; i < rows && k < b->result.nerrors; i++, k++) {
		const tui_build_error *e = &b->result.errors[k];
		tui_attr attr = k == b->selected ? TUI_SELECTED : TUI_NORMAL;
		int n = snprintf(line, sizeof(line), "%s %s: %s", k == b->selected ? ">" : " ", e->where, e->text);

		tui_screen_fill(s, top + i, 0, s->width, attr);
		tui_screen_put(s, top + i, 0, s->width, line, n < (int)sizeof(line) ? (size_t)n : sizeof(line) - 1, attr);
	}
}
