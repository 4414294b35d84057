#include "tui/checks.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "review/check_scope.h"
#include "util/buf.h"
#include "util/error.h"
#include "util/file.h"

typedef struct checks_state {
	size_t file;          /* the file whose checks these are */
	size_t *items;        /* indices into the session's checks */
	bool *current;        /* beside items: whether it holds for the working tree's content */
	size_t n, selected;
	size_t slow, stale;
} checks_state;

static int checks_open(tui_view *view)
{
	checks_state *st = tui_view_state(view);
	tui_model *m = tui_view_model(view);
	const char *path = m->files[m->selected].p->path;
	const rv_proposal *p = m->files[m->selected].p;
	rv_tree_reader files = { m->root, m->session };
	util_buf tree = UTIL_BUF_INIT, original = UTIL_BUF_INIT;
	rv_check_content now;
	bool gone;
	size_t i;

	st->file = m->selected;
	if ((gone = util_file_read(&tree, p->fs_path, 0) < 0))
		util_error_clear(); /* gone: every check is of an earlier content */
	rv_check_content_of(&now, &original, &files, path, gone ? NULL : tree.ptr ? tree.ptr : "", tree.len);
	st->items = calloc(m->session->nchecks + 1, sizeof(*st->items));
	st->current = calloc(m->session->nchecks + 1, sizeof(*st->current));
	if (!st->items || !st->current) {
		util_buf_dispose(&tree);
		util_buf_dispose(&original);
		return util_error_set(UTIL_ENOMEM, "out of memory");
	}
	for (i = 0; i < m->session->nchecks; i++) {
		const rv_session_check *c = &m->session->checks[i];

		if (strcmp(c->path, path) != 0)
			continue;
		st->current[st->n] = rv_check_current(c, &now);
		st->items[st->n++] = i;
		if (!st->current[st->n - 1])
			st->stale++;
		else
			st->slow += c->time.slow;
	}
	util_buf_dispose(&tree);
	util_buf_dispose(&original);
	if (!st->n)
		tui_core_message(tui_view_core(view), "no checks of %s yet: b compile-checks it, hipport check runs its "
						      "kernels (Esc closes)", path);
	return 0;
}

static void checks_close(tui_view *view)
{
	checks_state *st = tui_view_state(view);

	free(st->items);
	free(st->current);
}

static const rv_session_check *item(tui_view *view, size_t k)
{
	const checks_state *st = tui_view_state(view);

	return &tui_view_model(view)->session->checks[st->items[k]];
}

/* The check's figures, or its message where it was not timed. */
static void describe(char *out, size_t size, const rv_session_check *c)
{
	if (c->time.timed)
		rv_check_time_format(out, size, &c->time);
	else
		snprintf(out, size, "%s", *c->message ? c->message : "not timed");
}

static tui_handled checks_key(tui_view *view, tui_request *req)
{
	checks_state *st = tui_view_state(view);
	char line[768];

	if (req->kind != TUI_REQUEST_KEY)
		return TUI_PASS;
	if (req->key == TUI_KEY_ESCAPE || req->action == TUI_ACTION_CHECKS) {
		tui_core_pop(tui_view_core(view), view);
		return TUI_DONE;
	}
	switch (req->action) {
	case TUI_ACTION_DOWN:
		if (st->selected + 1 < st->n)
			st->selected++;
		return TUI_DONE;
	case TUI_ACTION_UP:
		if (st->selected)
			st->selected--;
		return TUI_DONE;
	case TUI_ACTION_OPEN:
		if (st->selected < st->n) {
			const rv_session_check *c = item(view, st->selected);

			describe(line, sizeof(line), c);
			tui_core_message(tui_view_core(view), "%s: %s; %s", c->name, c->status, line);
		}
		return TUI_DONE;
	default:
		return TUI_PASS;
	}
}

/* The colour of a check's result: a failure or an error stands out, an
 * earlier content's is dim. */
static tui_attr result_attr(const checks_state *st, size_t k, const rv_session_check *c)
{
	if (!st->current[k])
		return TUI_DIM;
	if (strcmp(c->status, "fail") == 0 || strcmp(c->status, "error") == 0)
		return TUI_ERROR;
	return TUI_NORMAL;
}

/* A check's figures as the table's columns: ratio, range, each side's
 * time, GB/s, share of peak; blanks where it was not timed. */
static void columns(char *out, size_t size, const rv_check_time *t)
{
	char gbps[16] = "", peak[16] = "";

	if (!t->timed) {
		snprintf(out, size, "%6s %9s %8s %8s %6s %4s", "", "", "", "", "", "");
		return;
	}
	if (t->gbps > 0)
		snprintf(gbps, sizeof(gbps), "%.0f", t->gbps);
	if (t->peak_share > 0)
		snprintf(peak, sizeof(peak), "%.0f%%", 100 * t->peak_share);
	snprintf(out, size, "%5.2fx %4.2f-%-4.2f %8.2f %8.2f %6s %4s", t->ratio, t->low, t->high, t->port_us, t->ref_us,
		 gbps, peak);
}

static void checks_draw(tui_view *view, tui_screen *s)
{
	const checks_state *st = tui_view_state(view);
	const tui_model *m = tui_view_model(view);
	int rows = s->height / 3 < 7 ? 7 : s->height / 3, top = s->height - 1 - rows, y, i, n, width = 5;
	char line[1024], figures[128], where[96];
	double budget = 0;
	size_t k;

	for (k = 0; k < st->n; k++) {
		const rv_session_check *c = item(view, k);
		int len = (int)strlen(c->name);

		width = len > width ? (len > 40 ? 40 : len) : width;
		budget = c->time.timed ? c->time.budget : budget;
	}
	for (y = top; y < s->height - 1; y++)
		tui_screen_fill(s, y, 0, s->width, TUI_NORMAL);
	n = snprintf(line, sizeof(line), " kernel checks  %s  %zu check%s", m->files[st->file].p->path, st->n,
		     st->n == 1 ? "" : "s");
	if (n > 0 && st->slow)
		n += snprintf(line + n, sizeof(line) - (size_t)n, ", %zu below the budget (%.2fx)", st->slow, budget);
	if (n > 0 && st->stale)
		snprintf(line + n, sizeof(line) - (size_t)n, ", %zu of an earlier content", st->stale);
	tui_screen_fill(s, top, 0, s->width, TUI_TITLE);
	tui_screen_put(s, top, 0, s->width, line, strlen(line), TUI_TITLE);
	n = snprintf(line, sizeof(line), "  %-*s %-7s %-18s %6s %9s %8s %8s %6s %4s", width, "CHECK", "RESULT", "RAN ON",
		     "RATIO", "RANGE", "PORT us", "REF us", "GB/s", "PEAK");
	tui_screen_put(s, top + 1, 0, s->width, line, (size_t)n, TUI_DIM);
	/* the one at the cursor kept in view */
	k = st->selected >= (size_t)(rows - 2) ? st->selected - (size_t)(rows - 3) : 0;
	for (i = 2; i < rows && k < st->n; i++, k++) {
		const rv_session_check *c = item(view, k);
		tui_attr attr = k == st->selected ? TUI_SELECTED : TUI_NORMAL;
		bool current = st->current[k];
		const char *result = current ? c->status : "earlier";

		snprintf(where, sizeof(where), "%s%s%s", c->platform, *c->arch ? " " : "", c->arch);
		columns(figures, sizeof(figures), &c->time);
		n = snprintf(line, sizeof(line), "%s %-*.*s %-7s %-18s %s  %s", k == st->selected ? ">" : " ", width, width,
			     c->name, result, where, figures, c->time.slow ? "slow" : c->message);
		tui_screen_fill(s, top + i, 0, s->width, attr);
		tui_screen_put(s, top + i, 0, s->width, line, n < (int)sizeof(line) ? (size_t)n : sizeof(line) - 1, attr);
		/* the result and "slow" in their colours, as tig colours a column */
		if (attr == TUI_NORMAL && width + 3 < s->width)
			tui_screen_put(s, top + i, width + 3, s->width - width - 3, result, strlen(result),
				       result_attr(st, k, c));
		if (attr == TUI_NORMAL && c->time.slow && n < s->width)
			tui_screen_put(s, top + i, n - 4, 4, "slow", 4, TUI_WARNING);
	}
}

const tui_view_ops tui_checks_view = {
	.name = "checks",
	.state_size = sizeof(checks_state),
	.open = checks_open,
	.draw = checks_draw,
	.key = checks_key,
	.close = checks_close,
};
