/* ?: the help over everything: a row per action, or per group of actions
 * that share a row, from the list in tui/action.h, then the marks. Any key
 * closes it. */
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

static void help_put(tui_screen *s, int *y, int width, const char *text)
{
	if (*y >= s->height - 1)
		return;
	tui_screen_fill(s, *y, 2, width, TUI_TITLE);
	tui_screen_put(s, *y, 3, width - 2, text, strlen(text), TUI_TITLE);
	(*y)++;
}

static void help_draw(tui_view *view, tui_screen *s)
{
	static const char *const marks[] = {
		"Marks: A R E ? a hunk accepted, rejected, edited, pending; E W N between the sides the worst",
		"finding on that source line (hipport scan lists it), X a build error; files: + accepted,",
		"v validated (checks passed), ~ partial, ! stale, c committed, * marked reviewed",
	};
	int width = s->width - 4 < 100 ? s->width - 4 : 100, y = 2;
	char line[256];
	size_t i, a;

	help_put(s, &y, width, "Keys");
	help_put(s, &y, width, "");
	for (a = 1; a < TUI_ACTION_COUNT;) {
		a = help_row(a, line, sizeof(line));
		help_put(s, &y, width, line);
	}
	for (i = 0; i < sizeof(marks) / sizeof(marks[0]); i++)
		help_put(s, &y, width, marks[i]);
}

static tui_handled help_key(tui_view *view, tui_request *req)
{
	if (req->kind != TUI_REQUEST_KEY)
		return TUI_PASS;
	tui_core_pop(tui_view_core(view), view);
	return TUI_DONE;
}

const tui_view_ops tui_help_view = {
	.name = "help",
	.draw = help_draw,
	.key = help_key,
};
