/* S: hipport sync from the review. Where a sync is under way it needs no
 * commit: S resumes it at once. Else a prompt on the status bar asks for the
 * upstream commit (typed as it is: no key does its action here); Enter
 * syncs to it, Escape cancels. The command layer does the sync (the hook);
 * once it wrote files, the review ends its loop and the command layer makes
 * it again from them, with the sync's summary in the status bar. */
#include "tui/sync.h"

#include <stdio.h>
#include <string.h>

typedef struct sync_state {
	char to[128];  /* the upstream commit, as typed */
	bool running;  /* the hook is at work: the bar says so */
} sync_state;

static void sync_draw(tui_view *view, tui_screen *s)
{
	const sync_state *st = tui_view_state(view);
	char line[192];

	if (st->running && st->to[0])
		snprintf(line, sizeof(line), "syncing to %s...", st->to);
	else if (st->running)
		snprintf(line, sizeof(line), "sync: resuming the sync under way, if there is one...");
	else
		snprintf(line, sizeof(line), "sync to upstream commit: %s_", st->to);
	tui_screen_fill(s, s->height - 1, 0, s->width, TUI_TITLE);
	tui_screen_put(s, s->height - 1, 0, s->width, line, strlen(line), TUI_TITLE);
}

/* The sync to st->to ("": the one under way), shown as it runs; its summary
 * or its error in the status bar. UTIL_ENOTFOUND: no sync is under way. */
static int run(tui_view *view)
{
	sync_state *st = tui_view_state(view);
	tui_core *core = tui_view_core(view);
	const tui_hooks *hooks = &tui_view_model(view)->hooks;
	char summary[256];
	int error;

	st->running = true;
	tui_core_show(core);
	error = hooks->sync(hooks->payload, st->to[0] ? st->to : NULL, summary, sizeof(summary));
	st->running = false;
	if (error == UTIL_ENOTFOUND && !st->to[0])
		return error;
	if (error < 0)
		tui_core_error(core, "sync: %s", util_error_last());
	else
		tui_core_message(core, "%s", summary);
	if (error > 0) /* the files are new: the review is made again */
		tui_core_quit(core);
	return error;
}

/* A sync under way is resumed; else the prompt stays open for the commit. */
static int sync_open(tui_view *view)
{
	if (!tui_view_model(view)->hooks.sync) {
		tui_core_message(tui_view_core(view), "no sync here");
		return UTIL_ENOTFOUND;
	}
	if (run(view) == UTIL_ENOTFOUND) {
		util_error_clear();
		return 0;
	}
	return -1; /* resumed (or failed): no prompt */
}

static tui_handled sync_key(tui_view *view, tui_request *req)
{
	sync_state *st = tui_view_state(view);
	tui_core *core = tui_view_core(view);
	size_t n = strlen(st->to);

	if (req->kind != TUI_REQUEST_KEY)
		return TUI_PASS;
	if (req->key == TUI_KEY_ENTER && n) {
		run(view);
		tui_core_pop(core, view);
	} else if (req->key == TUI_KEY_ENTER || req->key == TUI_KEY_ESCAPE) {
		tui_core_message(core, "no sync made");
		tui_core_pop(core, view);
	} else if (req->key == TUI_KEY_BACKSPACE) {
		if (n)
			st->to[n - 1] = '\0';
	} else if (req->key > ' ' && req->key < 127 && n + 1 < sizeof(st->to)) {
		st->to[n] = (char)req->key; /* a commit's name has no blank */
		st->to[n + 1] = '\0';
	}
	return TUI_DONE;
}

const tui_view_ops tui_sync_view = {
	.name = "sync",
	.state_size = sizeof(sync_state),
	.open = sync_open,
	.draw = sync_draw,
	.key = sync_key,
};
