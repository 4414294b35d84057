/* The fix menu (f): the fixes of the findings at the cursor, each with a
 * preview of what it does to its first place, as a small diff. A fix is
 * taken by id, into every place of the file it applies to; the proposal is
 * made again with it, and its changes are hunks like any other. */
#include "tui/fixes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/analysis.h"
#include "util/buf.h"
#include "util/text.h"

enum { PREVIEW_LINES = 2 }; /* per side and fix */

/* What f offers: the fixes of the findings at the cursor — on the lines of
 * the hunk at the cursor, else on the source lines the diff shows — or,
 * when none there has one, of the whole file. */
typedef struct fixes_state {
	const char *ids[9];       /* distinct, at most 9 */
	const an_hit *first[9];   /* the first finding in scope with that fix */
	size_t places[9];         /* the findings of the file the fix changes */
	size_t n;
	size_t from_line, to_line; /* the source lines in scope, 1-based; 0 for the whole file */
	bool at_hunk;             /* the scope is the hunk at the cursor */
} fixes_state;

/* The start of the line holding offset, and the end of the line holding end. */
static size_t line_start(const char *text, size_t offset)
{
	while (offset && text[offset - 1] != '\n')
		offset--;
	return offset;
}

static size_t line_end(const char *text, size_t len, size_t offset)
{
	const char *nl = offset < len ? memchr(text + offset, '\n', len - offset) : NULL;

	return nl ? (size_t)(nl - text) : len;
}

/* One row of the menu, in the title's colours; a preview row (attr not the
 * title's) on the terminal's own background inside that frame, where its
 * diff colours read as they do in the diff. */
static void menu_row(tui_screen *s, int *y, int width, tui_attr attr, const char *text, size_t len)
{
	if (*y >= s->height - 1)
		return;
	tui_screen_fill(s, *y, 2, width, TUI_TITLE);
	if (attr != TUI_TITLE)
		tui_screen_fill(s, *y, 3, width - 2, TUI_NORMAL);
	tui_screen_put(s, *y, 3, width - 2, text, len, attr);
	(*y)++;
}

/* Up to PREVIEW_LINES lines of text[from, to), each after the prefix. */
static void preview_side(tui_screen *s, int *y, int width, tui_attr attr, const char *prefix, const char *text,
			 size_t from, size_t to)
{
	size_t shown = 0;

	while (from < to && shown < PREVIEW_LINES) {
		size_t end = line_end(text, to, from);
		char row[512];
		int n = snprintf(row, sizeof(row), "%s%.*s", prefix, (int)(end - from), text + from);

		if (++shown == PREVIEW_LINES && end < to)
			n = snprintf(row, sizeof(row), "%s...", prefix);
		menu_row(s, y, width, attr, row, n < (int)sizeof(row) ? (size_t)n : sizeof(row) - 1);
		from = end + 1;
	}
}

/* The fix of one finding alone, applied to the file: the lines it replaces
 * and what they become (a helper it adds is named). */
static void preview(tui_screen *s, int *y, int width, const tui_file *f, const an_hit *hit)
{
	an_analysis one = { (an_hit *)hit, 1 };
	util_buf fixed = UTIL_BUF_INIT;
	an_applied *spans = NULL;
	size_t applied = 0, nspans = 0, i, k;
	uint32_t lo = UINT32_MAX, hi = 0;
	long shift_lo = 0, shift_hi = 0;

	if (an_fixes_apply(&fixed, f->p->source.ptr, f->p->source.len, &one, hit->id, &applied, &spans, &nspans) < 0 ||
	    !applied || !fixed.ptr) {
		menu_row(s, y, width, TUI_TITLE, "   (no preview)", 15);
		goto done;
	}
	for (i = 0; i < hit->nedits; i++)
		if (!hit->edits[i].helper) {
			lo = hit->edits[i].offset < lo ? hit->edits[i].offset : lo;
			hi = hit->edits[i].offset + hit->edits[i].length > hi ? hit->edits[i].offset + hit->edits[i].length
									       : hi;
		}
	if (lo != UINT32_MAX) {
		size_t from = line_start(f->p->source.ptr, lo), to = line_end(f->p->source.ptr, f->p->source.len, hi);

		/* the same lines in the fixed text: shifted by what changed before them */
		for (k = 0; k < nspans; k++) {
			long delta = (long)spans[k].new_length - (long)spans[k].length;

			shift_lo += spans[k].offset < from ? delta : 0;
			shift_hi += spans[k].offset <= to ? delta : 0;
		}
		preview_side(s, y, width, TUI_REMOVED, "   - ", f->p->source.ptr, from, to);
		preview_side(s, y, width, TUI_ADDED, "   + ", fixed.ptr, (size_t)((long)from + shift_lo),
			     (size_t)((long)to + shift_hi));
	}
	for (i = 0; i < hit->nedits; i++)
		if (hit->edits[i].helper) {
			char row[256];
			unsigned line, col;
			int n;

			util_text_position(f->p->source.ptr, hit->edits[i].offset, &line, &col);
			n = snprintf(row, sizeof(row), "   + helper %s, once per file, before line %u", hit->edits[i].helper,
				     line);

			menu_row(s, y, width, TUI_ADDED, row, (size_t)n < sizeof(row) ? (size_t)n : sizeof(row) - 1);
		}
done:
	free(spans);
	util_buf_dispose(&fixed);
}

static void fixes_draw(tui_view *view, tui_screen *s)
{
	const fixes_state *st = tui_view_state(view);
	const tui_model *m = tui_view_model(view);
	const tui_file *f = &m->files[m->selected];
	int width = s->width - 4 < 100 ? s->width - 4 : 100, y = 2, n;
	char line[512];
	size_t i;

	if (st->at_hunk)
		n = snprintf(line, sizeof(line), "Fixes of the findings in hunk %zu of %s", m->hunk + 1, f->p->path);
	else if (st->to_line)
		n = snprintf(line, sizeof(line), "Fixes of the findings on lines %zu-%zu of %s", st->from_line, st->to_line,
			     f->p->path);
	else
		n = snprintf(line, sizeof(line), "Fixes of the findings of %s", f->p->path);
	menu_row(s, &y, width, TUI_TITLE, line, (size_t)n < sizeof(line) ? (size_t)n : sizeof(line) - 1);
	n = snprintf(line, sizeof(line), "1-%zu takes one into every place of the file it fixes; any other key closes",
		     st->n);
	menu_row(s, &y, width, TUI_TITLE, line, (size_t)n);
	for (i = 0; i < st->n; i++) {
		n = snprintf(line, sizeof(line), "%zu  %s  %s  (line %u; %zu place%s in the file)", i + 1, st->ids[i],
			     an_fix_title(st->ids[i]) ? an_fix_title(st->ids[i]) : "", st->first[i]->line, st->places[i],
			     st->places[i] == 1 ? "" : "s");
		menu_row(s, &y, width, TUI_TITLE, line, (size_t)n < sizeof(line) ? (size_t)n : sizeof(line) - 1);
		preview(s, &y, width, f, st->first[i]);
	}
}

/* The fix ids of the findings of f on lines [from, to] (all when to is 0). */
static void fixes_in(const tui_file *f, size_t from, size_t to, fixes_state *st)
{
	size_t i, k;

	st->n = 0;
	for (i = 0; f && i < f->p->analysis.count && st->n < 9; i++) {
		const an_hit *h = &f->p->analysis.hits[i];

		if (!h->nedits || (to && (h->line < from || h->line > to)))
			continue;
		for (k = 0; k < st->n && strcmp(st->ids[k], h->id) != 0; k++)
			;
		if (k == st->n) {
			st->ids[st->n] = h->id;
			st->first[st->n++] = h;
		}
	}
	for (k = 0; k < st->n; k++)
		for (st->places[k] = 0, i = 0; i < f->p->analysis.count; i++)
			st->places[k] += f->p->analysis.hits[i].nedits && strcmp(f->p->analysis.hits[i].id, st->ids[k]) == 0;
	st->from_line = to ? from : 0;
	st->to_line = to;
}

static int fixes_open(tui_view *view)
{
	fixes_state *st = tui_view_state(view);
	tui_model *m = tui_view_model(view);
	const tui_file *f = tui_model_current(m);
	tui_request scope = { .kind = TUI_REQUEST_SCOPE };

	if (f) {
		/* the diff tells what it shows and whether its cursor counts */
		tui_core_request(tui_view_core(view), &scope);
		if (scope.focused && m->hunk < f->hunks.count) {
			const rv_hunk *h = &f->hunks.items[m->hunk];

			/* a hunk that only inserts lines sits between two source lines */
			fixes_in(f, h->old_lines ? h->old_start + 1 : h->old_start,
				 h->old_start + (h->old_lines ? h->old_lines : 1), st);
			st->at_hunk = st->n > 0;
		}
		if (!st->n && scope.first)
			fixes_in(f, scope.first, scope.last, st);
		if (!st->n)
			fixes_in(f, 0, 0, st);
	}
	if (!st->n) {
		tui_core_message(tui_view_core(view), "no fixes for the findings of this file");
		return UTIL_ENOTFOUND;
	}
	return 0;
}

/* 1-9: the session records the fix, the proposal is made again with it,
 * and the diff opens at its first pending hunk. */
static void choose(tui_core *core, const char *id)
{
	tui_model *m = tui_core_model(core);
	tui_file *f = tui_model_current(m);
	tui_request open = { .kind = TUI_REQUEST_OPEN };
	size_t before = f->hunks.count;
	rv_proposal *p = NULL;

	if (rv_session_choose_fix(m->session, f->p->path, f->p->fs_path, f->p->source.ptr, f->p->source.len, id) < 0 ||
	    !m->hooks.repropose || m->hooks.repropose(m->hooks.payload, m->selected, &p) < 0 || !p ||
	    tui_model_repropose(m, m->selected, p) < 0) {
		tui_core_error(core, "%s", util_error_last());
		return;
	}
	tui_core_request(core, &open);
	tui_core_message(core, "fix %s taken into the proposal: %zu hunks (%zu before)", id, f->hunks.count, before);
}

/* Every key closes the menu; a digit of the menu takes its fix. */
static tui_handled fixes_key(tui_view *view, tui_request *req)
{
	fixes_state *st = tui_view_state(view);
	tui_core *core = tui_view_core(view);
	size_t i = (size_t)(req->key - '1');
	const char *id;

	if (req->kind != TUI_REQUEST_KEY)
		return TUI_PASS;
	id = req->key >= '1' && req->key <= '9' && i < st->n ? st->ids[i] : NULL; /* static: outlives the menu */
	tui_core_pop(core, view);
	if (id)
		choose(core, id);
	return TUI_DONE;
}

const tui_view_ops tui_fixes_view = {
	.name = "fixes",
	.state_size = sizeof(fixes_state),
	.open = fixes_open,
	.draw = fixes_draw,
	.key = fixes_key,
};
