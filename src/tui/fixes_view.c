/* The fix menu (f): the fixes of the findings at the cursor, each with a
 * preview of what it does to its first place, as a small diff. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/analysis.h"
#include "tui/views.h"
#include "util/buf.h"
#include "util/text.h"

enum { PREVIEW_LINES = 2 }; /* per side and fix */

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

void tui_fixes_draw(tui_app *app)
{
	tui_screen *s = &app->screen;
	const tui_file *f = &app->files[app->selected];
	tui_fix_menu m;
	int width = s->width - 4 < 100 ? s->width - 4 : 100, y = 2, n;
	char line[512];
	size_t i;

	tui_fix_menu_make(app, &m);
	if (m.at_hunk)
		n = snprintf(line, sizeof(line), "Fixes of the findings in hunk %zu of %s", app->hunk + 1, f->p->path);
	else if (m.to_line)
		n = snprintf(line, sizeof(line), "Fixes of the findings on lines %zu-%zu of %s", m.from_line, m.to_line,
			     f->p->path);
	else
		n = snprintf(line, sizeof(line), "Fixes of the findings of %s", f->p->path);
	menu_row(s, &y, width, TUI_TITLE, line, (size_t)n < sizeof(line) ? (size_t)n : sizeof(line) - 1);
	n = snprintf(line, sizeof(line), "1-%zu takes one into every place of the file it fixes; any other key closes",
		     m.n);
	menu_row(s, &y, width, TUI_TITLE, line, (size_t)n);
	for (i = 0; i < m.n; i++) {
		n = snprintf(line, sizeof(line), "%zu  %s  %s  (line %u; %zu place%s in the file)", i + 1, m.ids[i],
			     an_fix_title(m.ids[i]) ? an_fix_title(m.ids[i]) : "", m.first[i]->line, m.places[i],
			     m.places[i] == 1 ? "" : "s");
		menu_row(s, &y, width, TUI_TITLE, line, (size_t)n < sizeof(line) ? (size_t)n : sizeof(line) - 1);
		preview(s, &y, width, f, m.first[i]);
	}
}
