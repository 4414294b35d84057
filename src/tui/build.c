/* b: the compile check of the selected file in a pane under the diff: the
 * compiler's output while it runs, then its errors, or once it passed each
 * kernel's resources (registers, spills, LDS, waves per SIMD) where the
 * compiler reported them; Enter on an error shows its line in the diff
 * (marked X in the middle column). The result stays in
 * the model, for those marks, once the pane is closed. */
#include "tui/build.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/buf.h"

typedef struct build_state {
	bool running;
	util_buf log;    /* the compiler's output, streamed */
	size_t selected; /* the error at the cursor */
} build_state;

/* The output as it comes: shown at once. */
static void watch(const char *data, size_t len, void *payload)
{
	tui_view *view = payload;
	build_state *st = tui_view_state(view);

	util_buf_put(&st->log, data, len);
	tui_core_show(tui_view_core(view));
}

/* Runs the check of the selected file; < 0 (the message set) when it could
 * not run. */
static int start(tui_view *view)
{
	build_state *st = tui_view_state(view);
	tui_core *core = tui_view_core(view);
	tui_model *m = tui_view_model(view);
	int error;

	tui_build_result_dispose(&m->build);
	util_buf_clear(&st->log);
	st->running = true;
	m->build_file = m->selected;
	st->selected = 0;
	error = m->hooks.build(m->hooks.payload, m->selected, watch, view, &m->build);
	st->running = false;
	tui_model_refresh_states(m);
	if (error < 0) {
		tui_core_error(core, "%s", util_error_last());
		return error;
	}
	if (m->build.nerrors)
		tui_core_error(core, "compile check %s: %zu error%s; j/k pick one, Enter shows it, Esc closes",
				 m->build.status, m->build.nerrors, m->build.nerrors == 1 ? "" : "s");
	else if (strcmp(m->build.status, "pass") == 0)
		tui_core_message(core, "compile check %s: %s (Esc closes)", m->build.status,
				 m->build.summary ? m->build.summary : "");
	else
		tui_core_error(core, "compile check %s: %s (Esc closes)", m->build.status,
			       m->build.summary ? m->build.summary : "");
	return 0;
}

static int build_open(tui_view *view)
{
	if (!tui_view_model(view)->hooks.build) {
		tui_core_message(tui_view_core(view), "no compile checks here");
		return UTIL_ENOTFOUND;
	}
	return start(view);
}

static void build_close(tui_view *view)
{
	build_state *st = tui_view_state(view);

	util_buf_dispose(&st->log);
}

/* Enter: the line of the error at the cursor in the diff. */
static void show_error(tui_view *view)
{
	build_state *st = tui_view_state(view);
	tui_core *core = tui_view_core(view);
	tui_model *m = tui_view_model(view);
	const tui_build_error *e;
	tui_request show = { .kind = TUI_REQUEST_SHOW_LINE };

	if (st->selected >= m->build.nerrors)
		return;
	e = &m->build.errors[st->selected];
	show.line = e->line;
	m->selected = m->build_file;
	if (!e->line || tui_core_request(core, &show) != TUI_DONE)
		tui_core_message(core, "%s is not a line of this file", e->where);
	else
		tui_core_message(core, "%s: %s", e->where, e->text);
}

/* Its own keys: j/k over the errors, Enter, b again, Esc; the others go to
 * the panes under it. */
static tui_handled build_key(tui_view *view, tui_request *req)
{
	build_state *st = tui_view_state(view);
	const tui_model *m = tui_view_model(view);

	if (req->kind != TUI_REQUEST_KEY)
		return TUI_PASS;
	if (req->key == TUI_KEY_ESCAPE) {
		tui_core_pop(tui_view_core(view), view);
		return TUI_DONE;
	}
	switch (req->action) {
	case TUI_ACTION_DOWN:
		if (st->selected + 1 < m->build.nerrors)
			st->selected++;
		return TUI_DONE;
	case TUI_ACTION_UP:
		if (st->selected)
			st->selected--;
		return TUI_DONE;
	case TUI_ACTION_OPEN:
		show_error(view);
		return TUI_DONE;
	case TUI_ACTION_CHECK:
		if (start(view) < 0)
			tui_core_pop(tui_view_core(view), view);
		return TUI_DONE;
	default:
		return TUI_PASS;
	}
}

/* The last lines of text (size bytes) that fit in rows, from y. */
static void draw_log(tui_screen *s, const char *text, size_t size, int y, int rows, int width)
{
	const char *end = text + size, *p = end;
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

static void build_draw(tui_view *view, tui_screen *s)
{
	const build_state *st = tui_view_state(view);
	const tui_model *m = tui_view_model(view);
	const tui_build_result *r = &m->build;
	int rows = s->height / 3 < 6 ? 6 : s->height / 3, top = s->height - 1 - rows, y, i;
	char line[512];
	size_t k;

	for (y = top; y < s->height - 1; y++)
		tui_screen_fill(s, y, 0, s->width, TUI_NORMAL);
	snprintf(line, sizeof(line), " compile check  %s  %s%s%s", m->build_file < m->nfiles ? m->files[m->build_file].p->path : "",
		 st->running ? "running..." : r->status ? r->status : "",
		 !st->running && r->summary ? ": " : "", !st->running && r->summary ? r->summary : "");
	tui_screen_fill(s, top, 0, s->width, TUI_TITLE);
	tui_screen_put(s, top, 0, s->width, line, strlen(line), TUI_TITLE);
	if (!st->running && !r->nerrors && r->resources) {
		draw_log(s, r->resources, strlen(r->resources), top + 1, rows - 1, s->width);
		return;
	}
	if (st->running || !r->nerrors) {
		draw_log(s, st->log.ptr ? st->log.ptr : "", st->log.len, top + 1, rows - 1, s->width);
		return;
	}
	/* the errors, the one at the cursor kept in view */
	k = st->selected >= (size_t)(rows - 1) ? st->selected - (size_t)(rows - 2) : 0;
	for (i = 1; i < rows && k < r->nerrors; i++, k++) {
		const tui_build_error *e = &r->errors[k];
		tui_attr attr = k == st->selected ? TUI_SELECTED : TUI_NORMAL;
		int n = snprintf(line, sizeof(line), "%s %s: %s", k == st->selected ? ">" : " ", e->where, e->text);

		tui_screen_fill(s, top + i, 0, s->width, attr);
		tui_screen_put(s, top + i, 0, s->width, line, n < (int)sizeof(line) ? (size_t)n : sizeof(line) - 1, attr);
	}
}

const tui_view_ops tui_build_view = {
	.name = "build",
	.state_size = sizeof(build_state),
	.open = build_open,
	.draw = build_draw,
	.key = build_key,
	.close = build_close,
};
