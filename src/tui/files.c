/* The file list: a status glyph, the reviewed mark, the path, hunks left
 * and findings. j/k select a file when the list has the focus; Enter is the
 * diff's. m marks the selected file reviewed, N goes to the next file left
 * to review, from either pane. */
#include "tui/files.h"

#include <stdio.h>
#include <string.h>

typedef struct files_state {
	size_t top; /* the first file shown */
} files_state;

static const char *glyph(const tui_file *f)
{
	if (!f->ready)
		return f->why ? "x" : " ";
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
	if (!f->ready)
		return f->why ? TUI_ERROR : TUI_NORMAL;
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
	/* left (size_t)-1: not known yet, "…" (one column of three bytes) */
	int nbytes = left == (size_t)-1 ? snprintf(pending, sizeof(pending), " …")
					: snprintf(pending, sizeof(pending), " %zu", left),
	    np = left == (size_t)-1 ? 2 : nbytes, ne = 0, nw = 0, x;
	bool plain = attr != TUI_NORMAL;

	if (findings[0] + findings[1] + findings[2]) {
		ne = snprintf(errors, sizeof(errors), " %zuE", findings[2]);
		nw = snprintf(warnings, sizeof(warnings), "%zuW", findings[1]);
	}
	x = right - np - ne - nw;
	tui_screen_put(s, y, x, np, pending, (size_t)nbytes, plain ? attr : TUI_DIM);
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

static void files_draw(tui_view *view, tui_screen *s)
{
	files_state *st = tui_view_state(view);
	const tui_model *m = tui_view_model(view);
	tui_rect a = tui_view_area(view);
	bool focused = tui_view_focused(view);
	size_t i;
	int row;

	/* while proposals are computed, the last row says how far they are */
	if (m->nready < m->nfiles && a.height > 1) {
		char line[64];
		int n = snprintf(line, sizeof(line), " proposals %zu/%zu", m->nready, m->nfiles);

		a.height--;
		tui_screen_fill(s, a.y + a.height, a.x, a.width, TUI_DIM);
		tui_screen_put(s, a.y + a.height, a.x, a.width, line, (size_t)n, TUI_DIM);
	}
	if (m->selected < st->top)
		st->top = m->selected;
	if (a.height > 0 && m->selected >= st->top + (size_t)a.height)
		st->top = m->selected - (size_t)a.height + 1;
	for (row = 0, i = st->top; row < a.height; row++, i++) {
		const tui_file *f;
		int used, cw;
		tui_attr attr;

		if (i >= m->nfiles) {
			tui_screen_fill(s, a.y + row, a.x, a.width, TUI_NORMAL);
			continue;
		}
		f = &m->files[i];
		attr = i == m->selected ? (focused ? TUI_SELECTED : TUI_TITLE) : TUI_NORMAL;
		tui_screen_fill(s, a.y + row, a.x, a.width, attr);
		/* ">" marks the selection in screen dumps too, where colour is lost */
		tui_screen_put(s, a.y + row, a.x, 1, i == m->selected ? ">" : " ", 1, attr);
		used = 1 + tui_screen_put(s, a.y + row, a.x + 1, 1, glyph(f), 1, attr == TUI_NORMAL ? glyph_attr(f) : attr);
		if (f->reviewed)
			tui_screen_put(s, a.y + row, a.x + used, 1, "*", 1, attr == TUI_NORMAL ? TUI_ACCEPTED : attr);
		/* a file still computed: "…" for its hunks left */
		cw = counts_put(s, a.y + row, a.x + a.width, f->ready ? tui_model_pending(f) : f->why ? 0 : (size_t)-1,
				f->findings, attr);
		tui_screen_put(s, a.y + row, a.x + used + 1, a.width - used - 1 - cw, f->p->path, strlen(f->p->path),
			       attr);
	}
}

/* Another file selected: the hunk cursor and the diff start at its top. */
static void select_file(tui_view *view, size_t index)
{
	tui_model *m = tui_view_model(view);
	tui_request selected = { .kind = TUI_REQUEST_SELECTED };

	if (!m->nfiles)
		return;
	m->selected = index < m->nfiles ? index : m->nfiles - 1;
	m->hunk = 0;
	tui_core_request(tui_view_core(view), &selected);
}

static void move(tui_view *view, long delta)
{
	tui_model *m = tui_view_model(view);
	long to = (long)m->selected + delta;

	if (m->nfiles)
		select_file(view, to < 0 ? 0 : (size_t)to);
}

/* Enter in the search: the next file whose path holds the text. */
static void find(tui_view *view, const char *text)
{
	tui_model *m = tui_view_model(view);
	size_t k;

	for (k = 1; k <= m->nfiles; k++) {
		size_t i = (m->selected + k) % m->nfiles;

		if (strstr(m->files[i].p->path, text)) {
			select_file(view, i);
			return;
		}
	}
	tui_core_message(tui_view_core(view), "no file matches: %s", text);
}

/* m: the reviewed mark of the selected file set, or cleared. */
static void mark_reviewed(tui_view *view)
{
	tui_core *core = tui_view_core(view);
	tui_model *m = tui_view_model(view);
	tui_file *f = tui_model_current(m);

	if (!f)
		return;
	if (tui_model_mark_reviewed(m, !f->reviewed) < 0)
		tui_core_error(core, "%s", util_error_last());
	else
		tui_core_message(core, "%s %s", f->p->path, f->reviewed ? "marked reviewed" : "no longer marked reviewed");
}

/* N: the next file left to review, wrapping; in the diff, at its first
 * undecided hunk. */
static void next_file(tui_view *view)
{
	tui_model *m = tui_view_model(view);
	tui_request open = { .kind = TUI_REQUEST_OPEN };
	size_t k;

	for (k = 1; k <= m->nfiles; k++) {
		size_t i = (m->selected + k) % m->nfiles;

		if (!tui_model_unfinished(&m->files[i]))
			continue;
		select_file(view, i);
		if (!tui_view_focused(view))
			tui_core_request(tui_view_core(view), &open);
		return;
	}
	tui_core_message(tui_view_core(view), "nothing left: every hunk is decided, every file with findings reviewed");
}

static tui_handled files_key(tui_view *view, tui_request *req)
{
	tui_model *m = tui_view_model(view);
	int height = tui_core_screen(tui_view_core(view))->height, page = height > 4 ? height - 4 : 1;

	if (req->kind == TUI_REQUEST_KEY && req->action == TUI_ACTION_MARK_REVIEWED) {
		mark_reviewed(view);
		return TUI_DONE;
	}
	if (req->kind == TUI_REQUEST_KEY && req->action == TUI_ACTION_NEXT_FILE) {
		next_file(view);
		return TUI_DONE;
	}
	/* the list moves only when it has the focus; the rest is the diff's */
	if (!tui_view_focused(view))
		return TUI_PASS;
	if (req->kind == TUI_REQUEST_FIND) {
		find(view, req->text);
		return TUI_DONE;
	}
	if (req->kind != TUI_REQUEST_KEY)
		return TUI_PASS;
	switch (req->action) {
	case TUI_ACTION_DOWN:
		move(view, 1);
		break;
	case TUI_ACTION_UP:
		move(view, -1);
		break;
	case TUI_ACTION_PAGE_DOWN:
		move(view, page);
		break;
	case TUI_ACTION_PAGE_UP:
		move(view, -page);
		break;
	case TUI_ACTION_FIRST:
		select_file(view, 0);
		break;
	case TUI_ACTION_LAST:
		select_file(view, m->nfiles ? m->nfiles - 1 : 0);
		break;
	default:
		return TUI_PASS;
	}
	return TUI_DONE;
}

/* A click selects the file of the row; on the selected file, opens it. */
static tui_handled files_click(tui_view *view, int row)
{
	files_state *st = tui_view_state(view);
	const tui_model *m = tui_view_model(view);
	size_t i = st->top + (size_t)row;
	tui_request open = { .kind = TUI_REQUEST_OPEN };

	if (row < 0 || i >= m->nfiles)
		return TUI_PASS;
	if (i == m->selected)
		tui_core_request(tui_view_core(view), &open);
	else
		select_file(view, i);
	return TUI_DONE;
}

const tui_view_ops tui_files_view = {
	.name = "files",
	.state_size = sizeof(files_state),
	.draw = files_draw,
	.key = files_key,
	.click = files_click,
};
