/* B: the bulk of a port is hunks that only rename (tui_model_rename_only);
 * this asks on the status bar whether to accept all of them pending in
 * every file, y accepts (each file written once, the session recording them
 * as accepted in bulk), any other key cancels. */
#include "tui/bulk.h"

#include <stdio.h>
#include <string.h>

typedef struct bulk_state {
	size_t hunks, files;
} bulk_state;

static int bulk_open(tui_view *view)
{
	bulk_state *st = tui_view_state(view);

	tui_model_bulk_count(tui_view_model(view), &st->hunks, &st->files);
	if (!st->hunks) {
		tui_core_message(tui_view_core(view), "no rename-only hunks pending");
		return -1;
	}
	return 0;
}

static void bulk_draw(tui_view *view, tui_screen *s)
{
	const bulk_state *st = tui_view_state(view);
	char line[160];

	snprintf(line, sizeof(line), "accept %zu rename-only hunk%s in %zu file%s? y/n", st->hunks,
		 st->hunks == 1 ? "" : "s", st->files, st->files == 1 ? "" : "s");
	tui_screen_fill(s, s->height - 1, 0, s->width, TUI_TITLE);
	tui_screen_put(s, s->height - 1, 0, s->width, line, strlen(line), TUI_TITLE);
}

static tui_handled bulk_key(tui_view *view, tui_request *req)
{
	tui_core *core = tui_view_core(view);
	size_t hunks, files;

	if (req->kind != TUI_REQUEST_KEY)
		return TUI_PASS;
	tui_core_pop(core, view);
	if (req->key != 'y') {
		tui_core_message(core, "nothing accepted");
		return TUI_DONE;
	}
	if (tui_model_accept_bulk(tui_core_model(core), &hunks, &files) < 0)
		tui_core_message(core, "%s (%zu hunks accepted before)", util_error_last(), hunks);
	else
		tui_core_message(core, "accepted %zu rename-only hunk%s in %zu file%s (u undoes one)", hunks,
				 hunks == 1 ? "" : "s", files, files == 1 ? "" : "s");
	return TUI_DONE;
}

const tui_view_ops tui_bulk_view = {
	.name = "bulk",
	.state_size = sizeof(bulk_state),
	.open = bulk_open,
	.draw = bulk_draw,
	.key = bulk_key,
};
