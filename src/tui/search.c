/* /: the search prompt, on the status bar while the text is typed (as it is:
 * no key does its action here); Enter hands the text to the focused pane,
 * which finds the next file or row holding it, Escape closes. */
#include "tui/search.h"

#include <stdio.h>
#include <string.h>

typedef struct search_state {
	char query[128];
} search_state;

static void search_draw(tui_view *view, tui_screen *s)
{
	const search_state *st = tui_view_state(view);
	char line[160];

	snprintf(line, sizeof(line), "/%s_", st->query);
	tui_screen_fill(s, s->height - 1, 0, s->width, TUI_TITLE);
	tui_screen_put(s, s->height - 1, 0, s->width, line, strlen(line), TUI_TITLE);
}

static tui_handled search_key(tui_view *view, tui_request *req)
{
	search_state *st = tui_view_state(view);
	tui_core *core = tui_view_core(view);
	size_t n = strlen(st->query);

	if (req->kind != TUI_REQUEST_KEY)
		return TUI_PASS;
	if (req->key == TUI_KEY_ENTER) {
		char query[sizeof(st->query)];
		tui_request find = { .kind = TUI_REQUEST_FIND, .text = query };

		memcpy(query, st->query, sizeof(query));
		tui_core_pop(core, view);
		if (query[0] && tui_core_model(core)->nfiles)
			tui_core_request(core, &find);
	} else if (req->key == TUI_KEY_ESCAPE) {
		tui_core_pop(core, view);
	} else if (req->key == TUI_KEY_BACKSPACE) {
		if (n)
			st->query[n - 1] = '\0';
	} else if (req->key >= ' ' && req->key < 127 && n + 1 < sizeof(st->query)) {
		st->query[n] = (char)req->key;
		st->query[n + 1] = '\0';
	}
	return TUI_DONE;
}

const tui_view_ops tui_search_view = {
	.name = "search",
	.state_size = sizeof(search_state),
	.draw = search_draw,
	.key = search_key,
};
