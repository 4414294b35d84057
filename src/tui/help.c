/* ?: the help over everything: a row per action, or per group of actions
 * that share a row, from the list in tui/action.h, then the marks and the
 * mouse. Taller than the screen, it scrolls (the moving keys, the wheel);
 * any other key closes it. */
#include "tui/help.h"

#include <stdio.h>
#include <string.h>

/* The nth word of a blank-separated list, into word; false when none. */
static bool nth_word(const char *list, size_t n, char *word, size_t size)
{
	size_t len;

	for (;;) {
		list += strspn(list, " ");
		len = strcspn(list, " ");
		if (!len)
			return false;
		if (!n--)
			break;
		list += len;
	}
	snprintf(word, size, "%.*s", (int)len, list);
	return true;
}

/* The help's row of the actions from `first` on that share it (those after
 * it with no help of their own): the first key of each, then their second
 * keys, then the help. Returns the action after the row. */
static size_t help_row(size_t first, char *line, size_t size)
{
	char keys[64] = "", word[32];
	size_t end = first + 1, pos, a, n = 0;

	while (end < TUI_ACTION_COUNT && !tui_actions[end].help[0])
		end++;
	for (pos = 0;; pos++) {
		size_t before = n;

		for (a = first; a < end; a++)
			if (nth_word(tui_actions[a].keys, pos, word, sizeof(word)))
				n += (size_t)snprintf(keys + n, sizeof(keys) - n, "%s%s",
						      n == before ? (n ? "  " : "") : " ", word);
		if (n == before || n >= sizeof(keys))
			break;
	}
	snprintf(line, size, "%-14s %s", keys, tui_actions[first].help);
	return end;
}

typedef struct help_state {
	long top; /* the first line shown; clamped when drawn */
} help_state;

static const char *const marks[] = {
	"Marks: A R E ? a hunk accepted, rejected, edited, pending; C M a sync's conflict, M merged clean;",
	"E W N between the sides the worst finding on that source line (hipport scan lists it), X a build",
	"error; files: + accepted, v validated (checks passed), ~ partial, ! stale, c committed, * marked",
	"reviewed",
};

static const char *const mouse[] = {
	"Mouse (where the terminal sends it; --no-mouse leaves it to the terminal): a click on a file",
	"selects it, a second click opens it; a click in the diff puts the cursor on that hunk (or line,",
	"once split); the wheel scrolls the pane under the pointer, both sides of the diff together,",
	"and this help. Shift and drag selects text as the terminal does.",
};

/* Line k of the help (0-based) into line; false past its end. */
static bool help_line(size_t k, char *line, size_t size)
{
	size_t a, n = 2;

	if (k < 2) {
		snprintf(line, size, "%s", k ? "" : "Keys");
		return true;
	}
	for (a = 1; a < TUI_ACTION_COUNT; n++) {
		a = help_row(a, line, size);
		if (n == k)
			return true;
	}
	k -= n;
	if (k < sizeof(marks) / sizeof(marks[0])) {
		snprintf(line, size, "%s", marks[k]);
		return true;
	}
	k -= sizeof(marks) / sizeof(marks[0]);
	if (k < sizeof(mouse) / sizeof(mouse[0])) {
		snprintf(line, size, "%s", mouse[k]);
		return true;
	}
	return false;
}

static size_t help_lines(void)
{
	char line[256];
	size_t n = 0;

	while (help_line(n, line, sizeof(line)))
		n++;
	return n;
}

static void help_put(tui_screen *s, int y, int width, const char *text, tui_attr attr)
{
	tui_screen_fill(s, y, 2, width, attr);
	tui_screen_put(s, y, 3, width - 2, text, strlen(text), attr);
}

/* From row 2 to the status bar; when it is taller, the last row says what
 * is below and how to scroll. */
static void help_draw(tui_view *view, tui_screen *s)
{
	help_state *st = tui_view_state(view);
	int width = s->width - 4 < 100 ? s->width - 4 : 100, rows = s->height - 3, y;
	long total = (long)help_lines(), shown = total > rows ? rows - 1 : total;
	char line[256];

	if (rows < 2)
		return;
	if (st->top > total - shown)
		st->top = total - shown;
	if (st->top < 0)
		st->top = 0;
	for (y = 0; y < shown && help_line((size_t)(st->top + y), line, sizeof(line)); y++)
		help_put(s, 2 + y, width, line, TUI_TITLE);
	if (shown < total) {
		snprintf(line, sizeof(line), "-- lines %ld-%ld of %ld: j k PgDn PgUp g G and the wheel scroll, "
					     "another key closes --",
			 st->top + 1, st->top + shown, total);
		help_put(s, 2 + y, width, line, TUI_SELECTED);
	}
}

static void help_scroll(tui_view *view, int lines)
{
	help_state *st = tui_view_state(view);

	st->top += lines;
	if (st->top < 0)
		st->top = 0;
}

/* The moving keys scroll it; any other key closes it. */
static tui_handled help_key(tui_view *view, tui_request *req)
{
	help_state *st = tui_view_state(view);
	int page = tui_core_screen(tui_view_core(view))->height - 4;

	if (req->kind != TUI_REQUEST_KEY)
		return TUI_PASS;
	switch (req->action) {
	case TUI_ACTION_DOWN:
	case TUI_ACTION_UP:
		help_scroll(view, req->action == TUI_ACTION_DOWN ? 1 : -1);
		return TUI_DONE;
	case TUI_ACTION_PAGE_DOWN:
	case TUI_ACTION_PAGE_UP:
		help_scroll(view, req->action == TUI_ACTION_PAGE_DOWN ? page : -page);
		return TUI_DONE;
	case TUI_ACTION_FIRST:
		st->top = 0;
		return TUI_DONE;
	case TUI_ACTION_LAST:
		st->top = (long)help_lines(); /* clamped when drawn */
		return TUI_DONE;
	default:
		tui_core_pop(tui_view_core(view), view);
		return TUI_DONE;
	}
}

const tui_view_ops tui_help_view = {
	.name = "help",
	.state_size = sizeof(help_state),
	.draw = help_draw,
	.key = help_key,
	.scroll = help_scroll,
};
