/* The core: the stack of views, where keys go, the driver that takes what no
 * view does, and the frame around the views (title, status bar). */
#include "tui/view.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui/build.h"
#include "tui/checks.h"
#include "tui/bulk.h"
#include "tui/commit.h"
#include "tui/diff.h"
#include "tui/editor.h"
#include "tui/files.h"
#include "tui/fixes.h"
#include "tui/help.h"
#include "tui/search.h"
#include "tui/sync.h"

struct tui_view {
	const tui_view_ops *ops;
	tui_core *core;
	void *state;
};

/* The panes are the stack's first views: the file list, then the diff. */
enum { PANE_FILES, PANE_DIFF, PANES };

/* The lines one turn of the wheel scrolls. */
enum { WHEEL_LINES = 3 };

struct tui_core {
	tui_screen screen;
	tui_model model;
	tui_keymap keys;
	tui_view **stack;
	size_t depth, cap;
	size_t focus;      /* the pane keys go to first */
	bool quit;
	char message[256]; /* shown in the status bar until the next key */
	bool message_is_error;
};

/* The panes' places for the screen's size: the file list left, a column
 * between, the diff right, between the title and the status bar. */
static tui_rect pane_area(const tui_screen *s, size_t pane)
{
	int files_width = s->width / 4 < 20 ? 20 : s->width / 4 > 40 ? 40 : s->width / 4;

	if (pane == PANE_FILES)
		return (tui_rect){ .x = 0, .y = 1, .width = files_width, .height = s->height - 2 };
	return (tui_rect){ .x = files_width + 1, .y = 1, .width = s->width - files_width - 1, .height = s->height - 2 };
}

void *tui_view_state(tui_view *view)
{
	return view->state;
}

tui_core *tui_view_core(tui_view *view)
{
	return view->core;
}

tui_model *tui_view_model(tui_view *view)
{
	return &view->core->model;
}

tui_rect tui_view_area(const tui_view *view)
{
	const tui_core *core = view->core;
	size_t i;

	for (i = 0; i < PANES && i < core->depth; i++)
		if (core->stack[i] == view)
			return pane_area(&core->screen, i);
	return (tui_rect){ .x = 0, .y = 0, .width = core->screen.width, .height = core->screen.height };
}

bool tui_view_focused(const tui_view *view)
{
	return view->core->depth > view->core->focus && view->core->stack[view->core->focus] == view;
}

void tui_view_focus(tui_view *view)
{
	size_t i;

	for (i = 0; i < PANES && i < view->core->depth; i++)
		if (view->core->stack[i] == view)
			view->core->focus = i;
}

tui_model *tui_core_model(tui_core *core)
{
	return &core->model;
}

tui_screen *tui_core_screen(tui_core *core)
{
	return &core->screen;
}

bool tui_core_done(const tui_core *core)
{
	return core->quit;
}

void tui_core_quit(tui_core *core)
{
	core->quit = true;
}

void tui_core_message(tui_core *core, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(core->message, sizeof(core->message), fmt, ap);
	va_end(ap);
	core->message_is_error = false;
}

void tui_core_error(tui_core *core, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(core->message, sizeof(core->message), fmt, ap);
	va_end(ap);
	core->message_is_error = true;
}

static void view_free(tui_view *view)
{
	if (view->ops->close)
		view->ops->close(view);
	free(view->state);
	free(view);
}

int tui_core_push(tui_core *core, const tui_view_ops *ops)
{
	tui_view *view = calloc(1, sizeof(*view));
	int error;

	if (view)
		view->state = calloc(1, ops->state_size ? ops->state_size : 1);
	if (!view || !view->state || (core->depth == core->cap && !(core->stack = realloc(core->stack,
											  (core->cap = core->cap * 2 + 4) *
											  sizeof(*core->stack))))) {
		if (view)
			free(view->state);
		free(view);
		return util_error_set(UTIL_ENOMEM, "out of memory");
	}
	view->ops = ops;
	view->core = core;
	core->stack[core->depth++] = view;
	if (ops->open && (error = ops->open(view)) < 0) {
		tui_core_pop(core, view);
		return error;
	}
	return 0;
}

void tui_core_pop(tui_core *core, tui_view *view)
{
	size_t i;

	for (i = 0; i < core->depth && core->stack[i] != view; i++)
		;
	if (i == core->depth)
		return;
	memmove(&core->stack[i], &core->stack[i + 1], (core->depth - i - 1) * sizeof(*core->stack));
	core->depth--;
	view_free(view);
}

/* Asks one view: a key's action is the one it has in that view's keys. */
static tui_handled ask(tui_core *core, tui_view *view, tui_request *req)
{
	if (req->kind == TUI_REQUEST_KEY)
		req->action = tui_keymap_action(&core->keys, view->ops->name, req->key);
	return view->ops->key(view, req);
}

tui_handled tui_core_request(tui_core *core, tui_request *req)
{
	tui_view *focused = core->stack[core->focus], *other = core->stack[core->focus == PANE_FILES ? PANE_DIFF
												      : PANE_FILES];

	if (ask(core, focused, req) == TUI_DONE)
		return TUI_DONE;
	return ask(core, other, req);
}

int tui_core_load(tui_core *core, tui_model *model)
{
	int error;

	core->model = *model;
	if ((error = tui_core_push(core, &tui_files_view)) < 0 || (error = tui_core_push(core, &tui_diff_view)) < 0) {
		while (core->depth)
			tui_core_pop(core, core->stack[core->depth - 1]);
		memset(&core->model, 0, sizeof(core->model)); /* the caller's still */
		return error;
	}
	core->focus = PANE_FILES;
	core->quit = false;
	memset(model, 0, sizeof(*model));
	return 0;
}

void tui_core_unload(tui_core *core)
{
	while (core->depth)
		tui_core_pop(core, core->stack[core->depth - 1]);
	tui_model_dispose(&core->model);
}

int tui_core_new(tui_core **out, tui_screen *screen, tui_model *model)
{
	tui_core *core = calloc(1, sizeof(*core));
	int error;

	*out = NULL;
	if (!core)
		return util_error_set(UTIL_ENOMEM, "out of memory");
	if ((error = tui_keymap_init(&core->keys)) < 0) {
		free(core);
		return error;
	}
	core->screen = *screen;
	if ((error = tui_core_load(core, model)) < 0) {
		free(core->stack);
		tui_keymap_dispose(&core->keys);
		free(core);
		return error;
	}
	memset(screen, 0, sizeof(*screen));
	*out = core;
	return 0;
}

void tui_core_free(tui_core *core)
{
	if (!core)
		return;
	tui_core_unload(core);
	free(core->stack);
	tui_keymap_dispose(&core->keys);
	tui_screen_dispose(&core->screen);
	free(core);
}

int tui_core_bind(tui_core *core, const char *action, const char *key)
{
	return tui_keymap_bind(&core->keys, action, key);
}

/* u: the last decision put back, wherever it was. */
static void undo(tui_core *core)
{
	tui_undo u;
	int error = tui_model_undo(&core->model, &u);

	if (error == 1)
		tui_core_message(core, "nothing to undo");
	else if (error < 0)
		tui_core_error(core, "%s", util_error_last());
	else
		tui_core_message(core, "hunk %zu back to %s", u.hunk + 1, rv_decision_name(u.decision));
}

/* s: the kernel check specs of the selected file in the editor, drafted
 * first when it has none (the command layer finds or drafts them). */
static void edit_specs(tui_core *core)
{
	tui_model *m = &core->model;
	char **paths = NULL;
	size_t n = 0, drafted = 0, i;
	int error;

	if (!m->hooks.specs) {
		tui_core_message(core, "no kernel check specs here");
		return;
	}
	if (m->hooks.specs(m->hooks.payload, m->selected, &paths, &n, &drafted) < 0) {
		tui_core_error(core, "%s", util_error_last());
		return;
	}
	if (!n) {
		tui_core_message(core, "%s defines no kernel (__global__ function) to check", m->files[m->selected].p->path);
		free(paths);
		return;
	}
	error = tui_editor_run(&core->screen, (const char *const *)paths, n);
	tui_core_message(core, "%zu kernel check spec%s (%zu drafted now)%s; b builds, hipport check runs them", n,
			 n == 1 ? "" : "s", drafted, error < 0 ? ", the editor failed" : "");
	for (i = 0; i < n; i++)
		free(paths[i]);
	free(paths);
}

/* What no view took: the actions of the review as a whole (tig's
 * view_driver). */
static void driver(tui_core *core, const tui_request *req)
{
	tui_file *f = tui_model_current(&core->model);

	switch (req->action) {
	case TUI_ACTION_QUIT:
		core->quit = true;
		break;
	case TUI_ACTION_HELP:
		tui_core_push(core, &tui_help_view);
		break;
	case TUI_ACTION_SWITCH_PANE:
		core->focus = core->focus == PANE_FILES ? PANE_DIFF : PANE_FILES;
		break;
	case TUI_ACTION_UNDO:
		undo(core);
		break;
	case TUI_ACTION_SEARCH:
		tui_core_push(core, &tui_search_view);
		break;
	case TUI_ACTION_SEARCH_ALL:
		tui_core_push(core, &tui_search_all_view);
		break;
	case TUI_ACTION_BULK_ACCEPT:
		tui_core_push(core, &tui_bulk_view);
		break;
	case TUI_ACTION_CHECK:
		if (f)
			tui_core_push(core, &tui_build_view);
		break;
	case TUI_ACTION_CHECKS:
		if (f)
			tui_core_push(core, &tui_checks_view);
		break;
	case TUI_ACTION_COMMIT:
		tui_core_push(core, &tui_commit_view);
		break;
	case TUI_ACTION_SYNC:
		tui_core_push(core, &tui_sync_view);
		break;
	case TUI_ACTION_SPECS:
		if (f)
			edit_specs(core);
		break;
	case TUI_ACTION_FIXES:
		tui_core_push(core, &tui_fixes_view);
		break;
	case TUI_ACTION_NONE:
		tui_core_message(core, "unbound key (? shows the keys)");
		break;
	default: /* a pane's action with nothing to act on */
		break;
	}
}

void tui_core_key(tui_core *core, int key)
{
	tui_request req = { .kind = TUI_REQUEST_KEY, .key = tui_key_normal(key) };
	size_t i;

	core->message[0] = '\0';
	/* the views over the panes, the top one first; one may close itself */
	for (i = core->depth; i > PANES; i--) {
		if (i > core->depth)
			continue;
		if (ask(core, core->stack[i - 1], &req) == TUI_DONE)
			return;
	}
	if (tui_core_request(core, &req) == TUI_DONE)
		return;
	req.action = tui_keymap_action(&core->keys, NULL, req.key);
	driver(core, &req);
}

/* Whether the screen is too small for the panes (they are not drawn). */
static bool too_small(const tui_screen *s)
{
	return s->width < 80 || s->height < 24;
}

/* The view the mouse is over: the top one over the panes (dialogs and the
 * help take the mouse as they take keys), else the pane under the pointer;
 * NULL over the title, the status bar and the column between the panes. */
static tui_view *view_under(tui_core *core, int y, int x)
{
	size_t i;

	if (core->depth > PANES)
		return core->stack[core->depth - 1];
	for (i = 0; i < PANES && i < core->depth; i++) {
		tui_rect a = pane_area(&core->screen, i);

		if (y >= a.y && y < a.y + a.height && x >= a.x && x < a.x + a.width)
			return core->stack[i];
	}
	return NULL;
}

void tui_core_mouse(tui_core *core, const tui_mouse *ev)
{
	tui_view *view = view_under(core, ev->y, ev->x);
	bool pane = view && (view == core->stack[PANE_FILES] || view == core->stack[PANE_DIFF]);
	int i;

	core->message[0] = '\0';
	if (!view || too_small(&core->screen))
		return;
	tui_view_focus(view); /* a pane: the one under the pointer is worked in */
	if (ev->kind == TUI_MOUSE_CLICK) {
		if (view->ops->click)
			view->ops->click(view, ev->y - tui_view_area(view).y);
		return;
	}
	if (view->ops->scroll) {
		view->ops->scroll(view, ev->kind == TUI_MOUSE_WHEEL_UP ? -WHEEL_LINES : WHEEL_LINES);
		return;
	}
	/* a pane without its own scrolling moves as its keys move it */
	for (i = 0; pane && i < WHEEL_LINES; i++) {
		tui_request req = { .kind = TUI_REQUEST_KEY,
				    .action = ev->kind == TUI_MOUSE_WHEEL_UP ? TUI_ACTION_UP : TUI_ACTION_DOWN,
				    .key = -1 };

		view->ops->key(view, &req);
	}
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

/* The status bar: the message, else the file, the hunk at the cursor, what
 * is pending and the main keys. */
static void status_draw(tui_core *core)
{
	tui_screen *s = &core->screen;
	const tui_model *m = &core->model;
	const tui_file *f = m->nfiles ? &m->files[m->selected] : NULL;
	char line[512];
	size_t i, pending = 0, files_pending = 0;
	tui_attr attr = core->message[0] && core->message_is_error ? TUI_ERROR : TUI_TITLE;

	for (i = 0; i < m->nfiles; i++) {
		size_t left = tui_model_pending(&m->files[i]);

		pending += left;
		files_pending += left > 0;
	}
	if (core->message[0])
		snprintf(line, sizeof(line), "%s", core->message);
	else if (f)
		snprintf(line, sizeof(line), "%s  hunk %zu/%zu  pending: %zu hunks in %zu files  "
					     "a accept  r reject  n/p hunk  Tab pane  ? keys  q quit",
			 f->p->path, f->hunks.count ? m->hunk + 1 : 0, f->hunks.count, pending, files_pending);
	else
		snprintf(line, sizeof(line), "no CUDA files here  q quit");
	tui_screen_fill(s, s->height - 1, 0, s->width, attr);
	tui_screen_put(s, s->height - 1, 0, s->width, line, strlen(line), attr);
}

void tui_core_draw(tui_core *core)
{
	tui_screen *s = &core->screen;
	tui_rect files = pane_area(s, PANE_FILES);
	size_t i;
	int row;

	tui_screen_clear(s);
	if (core->depth < PANES) /* unloaded: a new model is to come */
		return;
	if (too_small(s)) {
		static const char msg[] = "hipport review needs at least 80x24; enlarge the terminal (q quits)";

		tui_screen_put(s, 0, 0, s->width, msg, sizeof(msg) - 1, TUI_ERROR);
		return;
	}
	core->stack[PANE_FILES]->ops->draw(core->stack[PANE_FILES], s);
	for (row = 0; row < files.height; row++)
		tui_screen_put(s, files.y + row, files.width, 1, "|", 1, TUI_DIM);
	core->stack[PANE_DIFF]->ops->draw(core->stack[PANE_DIFF], s);
	title_draw(s, core->model.root);
	status_draw(core);
	for (i = PANES; i < core->depth; i++)
		core->stack[i]->ops->draw(core->stack[i], s);
}

void tui_core_show(tui_core *core)
{
	tui_core_draw(core);
	tui_terminal_show(&core->screen);
}
