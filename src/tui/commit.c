/* c: the commit dialog: the files a commit would take, each validated or
 * why not, and the generated message; y commits, e edits the message in
 * $EDITOR, n or Esc cancels. */
#include "tui/commit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui/editor.h"
#include "util/buf.h"

typedef struct commit_state {
	tui_commit_info info;
} commit_state;

static int commit_open(tui_view *view)
{
	commit_state *st = tui_view_state(view);
	tui_core *core = tui_view_core(view);
	const tui_hooks *hooks = &tui_view_model(view)->hooks;
	int error;

	if (!hooks->commit_prepare || !hooks->commit_run) {
		tui_core_message(core, "no commits here");
		return UTIL_ENOTFOUND;
	}
	if ((error = hooks->commit_prepare(hooks->payload, &st->info)) < 0) {
		tui_core_error(core, "%s", util_error_last());
		return error;
	}
	if (!st->info.nfiles) {
		tui_core_message(core, "nothing to commit: no reviewed file holds a port not committed");
		return UTIL_ENOTFOUND;
	}
	return 0;
}

static void commit_close(tui_view *view)
{
	commit_state *st = tui_view_state(view);

	tui_commit_info_dispose(&st->info);
}

/* y: the commit made, unless a file is not validated; the dialog closes. */
static void commit(tui_view *view)
{
	commit_state *st = tui_view_state(view);
	tui_core *core = tui_view_core(view);
	tui_model *m = tui_view_model(view);
	char done[256];

	if (st->info.refused)
		tui_core_error(core, "nothing committed: %zu file%s not validated (hipport check; --force is on the "
				 "command line only)", st->info.refused, st->info.refused == 1 ? "" : "s");
	else if (m->hooks.commit_run(m->hooks.payload, st->info.message, done, sizeof(done)) < 0)
		tui_core_error(core, "%s", util_error_last());
	else
		tui_core_message(core, "%s", done);
	tui_core_pop(core, view);
	tui_model_refresh_states(m);
}

/* e: the message in the editor. */
static void edit_message(tui_view *view)
{
	commit_state *st = tui_view_state(view);
	tui_core *core = tui_view_core(view);
	util_buf text = UTIL_BUF_INIT;
	int error = tui_editor_edit(tui_core_screen(core), ".txt", st->info.message ? st->info.message : "", &text);

	if (error == 0 && text.len) {
		free(st->info.message);
		st->info.message = util_buf_detach(&text);
	} else if (error == UTIL_EINPUT) {
		tui_core_error(core, "%s", util_error_last());
	} else {
		tui_core_error(core, "the editor failed; the message is as it was");
	}
	util_buf_dispose(&text);
}

/* The dialog waits for an answer, given as letters whatever they are bound to. */
static tui_handled commit_key(tui_view *view, tui_request *req)
{
	if (req->kind != TUI_REQUEST_KEY)
		return TUI_PASS;
	if (req->key == 'y') {
		commit(view);
	} else if (req->key == 'e') {
		edit_message(view);
	} else if (req->key == 'n' || req->key == TUI_KEY_ESCAPE || req->action == TUI_ACTION_QUIT) {
		tui_core_message(tui_view_core(view), "no commit made");
		tui_core_pop(tui_view_core(view), view);
	}
	return TUI_DONE;
}

static void row(tui_screen *s, int *y, int width, const char *text, size_t len, tui_attr attr)
{
	if (*y >= s->height - 2)
		return;
	tui_screen_fill(s, *y, 2, width, TUI_TITLE);
	tui_screen_put(s, *y, 3, width - 2, text, len, attr);
	(*y)++;
}

static void commit_draw(tui_view *view, tui_screen *s)
{
	const commit_state *st = tui_view_state(view);
	const tui_commit_info *c = &st->info;
	int width = s->width - 4 < 110 ? s->width - 4 : 110, y = 2, n;
	const char *p;
	char line[512];
	size_t i;

	n = snprintf(line, sizeof(line), "Commit %zu file%s%s", c->nfiles, c->nfiles == 1 ? "" : "s",
		     c->refused ? " - not all validated: nothing can be committed" : "");
	row(s, &y, width, line, (size_t)n, c->refused ? TUI_ERROR : TUI_TITLE);
	for (i = 0; i < c->nlines; i++)
		row(s, &y, width, c->lines[i], strlen(c->lines[i]), TUI_TITLE);
	row(s, &y, width, "", 0, TUI_TITLE);
	for (p = c->message; p && *p && y < s->height - 3;) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);

		row(s, &y, width, p, len, TUI_TITLE);
		p += len + (nl != NULL);
	}
	row(s, &y, width, "", 0, TUI_TITLE);
	n = snprintf(line, sizeof(line), "%s  e edit the message  n cancel", c->refused ? "(y: refused)" : "y commit");
	row(s, &y, width, line, (size_t)n, TUI_TITLE);
}

const tui_view_ops tui_commit_view = {
	.name = "commit",
	.state_size = sizeof(commit_state),
	.open = commit_open,
	.draw = commit_draw,
	.key = commit_key,
	.close = commit_close,
};
