/* c: the commit dialog: the files a commit would take, each validated or
 * why not, and the generated message; y commits, e edits the message in
 * $EDITOR, n or Esc cancels. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui/views.h"
#include "util/error.h"

void tui_commit_info_dispose(tui_commit_info *info)
{
	size_t i;

	for (i = 0; i < info->nlines; i++)
		free(info->lines[i]);
	free(info->lines);
	free(info->message);
	memset(info, 0, sizeof(*info));
}

void tui_commit_start(tui_app *app)
{
	if (!app->commit_prepare) {
		snprintf(app->message, sizeof(app->message), "no commits here");
		return;
	}
	tui_commit_info_dispose(&app->commit);
	if (app->commit_prepare(app->payload, &app->commit) < 0) {
		snprintf(app->message, sizeof(app->message), "%s", util_error_last());
		return;
	}
	if (!app->commit.nfiles) {
		snprintf(app->message, sizeof(app->message), "nothing to commit: no reviewed file holds a port not committed");
		return;
	}
	app->commit_dialog = true;
}

static void commit(tui_app *app)
{
	char done[256];

	if (app->commit.refused) {
		snprintf(app->message, sizeof(app->message),
			 "nothing committed: %zu file%s not validated (hipport check; --force is on the command line only)",
			 app->commit.refused, app->commit.refused == 1 ? "" : "s");
		app->commit_dialog = false;
		return;
	}
	if (app->commit_run(app->payload, app->commit.message, done, sizeof(done)) < 0)
		snprintf(app->message, sizeof(app->message), "%s", util_error_last());
	else
		snprintf(app->message, sizeof(app->message), "%s", done);
	app->commit_dialog = false;
	tui_app_refresh_states(app);
}

bool tui_commit_key(tui_app *app, tui_action action, int key)
{
	util_buf text = UTIL_BUF_INIT;

	if (!app->commit_dialog)
		return false;
	/* the dialog's answers are letters as typed, whatever they are bound to */
	if (key == 'y') {
		commit(app);
	} else if (key == 'e') {
		if (tui_app_edit_text(app, ".txt", app->commit.message ? app->commit.message : "", &text) == 0 &&
		    text.len) {
			free(app->commit.message);
			app->commit.message = util_buf_detach(&text);
		} else if (!app->message[0]) {
			snprintf(app->message, sizeof(app->message), "the editor failed; the message is as it was");
		}
	} else if (key == 'n' || key == TUI_KEY_ESCAPE || action == TUI_ACTION_QUIT) {
		app->commit_dialog = false;
		snprintf(app->message, sizeof(app->message), "no commit made");
	}
	/* any other key: the dialog waits for an answer */
	util_buf_dispose(&text);
	return true;
}

static void row(tui_screen *s, int *y, int width, const char *text, size_t len, tui_attr attr)
{
	if (*y >= s->height - 2)
		return;
	tui_screen_fill(s, *y, 2, width, TUI_TITLE);
	tui_screen_put(s, *y, 3, width - 2, text, len, attr);
	(*y)++;
}

void tui_commit_draw(tui_app *app)
{
	tui_screen *s = &app->screen;
	const tui_commit_info *c = &app->commit;
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
