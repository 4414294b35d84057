/* The title, the status bar (file, hunk n/m, what is pending, key hints,
 * messages) and the help over everything. */
#include <stdio.h>
#include <string.h>

#include "analyze/analysis.h"
#include "tui/views.h"

tui_layout tui_layout_of(const tui_screen *s)
{
	tui_layout l;

	l.files_width = s->width / 4 < 20 ? 20 : s->width / 4 > 40 ? 40 : s->width / 4;
	l.diff_x = l.files_width + 1;
	l.diff_width = s->width - l.diff_x;
	l.top = 1;
	l.rows = s->height - 2;
	return l;
}

/* The title row: the repository by its directory's name, so that screens do
 * not depend on where it lies. */
static void title_draw(tui_screen *s, const char *root)
{
	char line[512];
	size_t n;

	snprintf(line, sizeof(line), "hipport review  %s", root ? root : "");
	n = strlen(line);
	while (n > 0 && line[n - 1] == '/')
		line[--n] = '\0';
	if (root && strrchr(line, '/'))
		memmove(line + 16, strrchr(line, '/') + 1, strlen(strrchr(line, '/') + 1) + 1);
	tui_screen_fill(s, 0, 0, s->width, TUI_TITLE);
	tui_screen_put(s, 0, 0, s->width, line, strlen(line), TUI_TITLE);
}

void tui_progress_draw(tui_screen *s, const char *root, size_t done, size_t total)
{
	char line[256];
	int width = s->width - 40 < 50 ? s->width - 40 : 50, filled, n;

	tui_screen_clear(s);
	title_draw(s, root);
	if (width < 10)
		width = 10;
	filled = total ? (int)(done * (size_t)width / total) : 0;
	if (total)
		n = snprintf(line, sizeof(line), "proposing ports  [%.*s%*s]  %zu/%zu files", filled,
			     "##################################################", width - filled, "", done, total);
	else
		n = snprintf(line, sizeof(line), "reading the repository...");
	tui_screen_put(s, s->height / 2, (s->width - n) / 2 > 0 ? (s->width - n) / 2 : 0, s->width, line, (size_t)n,
		       TUI_NORMAL);
}

void tui_status_draw(tui_app *app)
{
	tui_screen *s = &app->screen;
	const tui_file *f = app->nfiles ? &app->files[app->selected] : NULL;
	char line[512];
	size_t i, pending = 0, files_pending = 0;

	title_draw(s, app->root);
	for (i = 0; i < app->nfiles; i++) {
		size_t k, left = 0;

		for (k = 0; k < app->files[i].hunks.count; k++)
			left += app->files[i].decisions[k] == RV_PENDING;
		pending += left;
		files_pending += left > 0;
	}
	if (app->searching)
		snprintf(line, sizeof(line), "/%s_", app->query);
	else if (app->message[0])
		snprintf(line, sizeof(line), "%s", app->message);
	else if (f)
		snprintf(line, sizeof(line), "%s  hunk %zu/%zu  pending: %zu hunks in %zu files  "
					     "a accept  r reject  n/p hunk  Tab pane  ? keys  q quit",
			 f->p->path, f->hunks.count ? app->hunk + 1 : 0, f->hunks.count, pending, files_pending);
	else
		snprintf(line, sizeof(line), "no CUDA files here  q quit");
	tui_screen_fill(s, s->height - 1, 0, s->width, app->message[0] ? TUI_ERROR : TUI_TITLE);
	tui_screen_put(s, s->height - 1, 0, s->width, line, strlen(line), app->message[0] ? TUI_ERROR : TUI_TITLE);
}

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

void tui_help_draw(tui_app *app)
{
	static const char *const marks[] = {
		"",
		"Marks: A R E ? a hunk accepted, rejected, edited, pending; E W N between the",
		"sides the worst finding on that source line (hipport scan lists it), X a build",
		"error; files: + accepted, v validated (checks passed), ~ partial, ! stale, c committed",
	};
	tui_screen *s = &app->screen;
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

void tui_app_draw(tui_app *app)
{
	tui_screen *s = &app->screen;
	tui_layout l = tui_layout_of(s);
	int row;

	tui_screen_clear(s);
	if (s->width < 80 || s->height < 24) {
		static const char msg[] = "hipport review needs at least 80x24; enlarge the terminal (q quits)";

		tui_screen_put(s, 0, 0, s->width, msg, sizeof(msg) - 1, TUI_ERROR);
		return;
	}
	tui_files_draw(app, &l);
	for (row = 0; row < l.rows; row++)
		tui_screen_put(s, l.top + row, l.files_width, 1, "|", 1, TUI_DIM);
	tui_diff_draw(app, &l);
	tui_status_draw(app);
	if (app->build_pane.open)
		tui_build_draw(app);
	if (app->help)
		tui_help_draw(app);
	else if (app->fix_menu)
		tui_fixes_draw(app);
	else if (app->commit_dialog)
		tui_commit_draw(app);
}
