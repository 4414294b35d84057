/* The review model and its keys. */
#include "tui/app.h"

#include <errno.h>
#include <sys/wait.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/finding.h"
#include "analyze/pylex.h"
#include "build/build.h"
#include "review/validate.h"
#include "tui/views.h"
#include "util/error.h"
#include "util/file.h"

static int split_lines(const char *text, size_t len, tui_line **out, size_t *count)
{
	size_t n = 0, cap = 64, i = 0;
	tui_line *lines = malloc(cap * sizeof(*lines));

	if (!lines)
		return util_error_set(UTIL_ENOMEM, "out of memory");
	while (i < len) {
		const char *nl = memchr(text + i, '\n', len - i);
		size_t end = nl ? (size_t)(nl - text) : len;

		if (n == cap) {
			tui_line *m = realloc(lines, (cap *= 2) * sizeof(*lines));

			if (!m) {
				free(lines);
				return util_error_set(UTIL_ENOMEM, "out of memory");
			}
			lines = m;
		}
		lines[n].text = text + i;
		lines[n].len = end - i - (end > i && text[end - 1] == '\r');
		n++;
		i = end + 1;
	}
	*out = lines;
	*count = n;
	return 0;
}

static void free_edits(tui_file *f)
{
	size_t i;

	for (i = 0; f->edits && i < f->hunks.count; i++)
		free(f->edits[i].lines);
	free(f->edits);
	f->edits = NULL;
}

/* The lines of hunk h's edited text, shown instead of its proposed lines;
 * the session owns the text, so this follows every decision on the hunk. */
static int load_edit(tui_app *app, tui_file *f, size_t h)
{
	const char *texts[1] = { NULL };
	rv_hunks one = { &f->hunks.items[h], 1 };
	rv_decision d;

	free(f->edits[h].lines);
	memset(&f->edits[h], 0, sizeof(f->edits[h]));
	rv_session_decisions(rv_session_find(app->session, f->p->path), &one, &d, texts);
	if (d != RV_EDITED || !texts[0] || !texts[0][0])
		return 0;
	return split_lines(texts[0], strlen(texts[0]), &f->edits[h].lines, &f->edits[h].n);
}

/* Hunks, decisions, edits and state of one file from the session. */
static int load_file(tui_app *app, tui_file *f)
{
	const rv_proposal *p = f->p;
	size_t h;
	int error;

	free_edits(f);
	rv_hunks_dispose(&f->hunks);
	free(f->decisions);
	f->decisions = NULL;
	if ((error = rv_hunks_make(&f->hunks, p->source.ptr, p->source.len, p->port.output.ptr,
				   p->port.output.len)) < 0)
		return error;
	f->decisions = calloc(f->hunks.count + 1, sizeof(*f->decisions));
	f->edits = calloc(f->hunks.count + 1, sizeof(*f->edits));
	if (!f->decisions || !f->edits)
		return util_error_set(UTIL_ENOMEM, "out of memory");
	rv_session_decisions(rv_session_find(app->session, p->path), &f->hunks, f->decisions, NULL);
	for (h = 0; h < f->hunks.count; h++)
		if (f->decisions[h] == RV_EDITED && (error = load_edit(app, f, h)) < 0)
			return error;
	return 0;
}

/* The lines and tokens of both sides (tokens only for colour: a file the
 * lexer refuses is shown without). */
static int split_file(tui_app *app, tui_file *f)
{
	const rv_proposal *p = f->p;
	int error;

	free(f->old_lines);
	free(f->new_lines);
	free(f->old_tokens);
	free(f->new_tokens);
	f->old_lines = f->new_lines = NULL;
	f->old_tokens = f->new_tokens = NULL;
	f->nold_tokens = f->nnew_tokens = 0;
	if ((error = split_lines(p->source.ptr, p->source.len, &f->old_lines, &f->nold)) < 0 ||
	    (error = split_lines(p->port.output.ptr, p->port.output.len, &f->new_lines, &f->nnew)) < 0)
		return error;
	/* colour from the file's own language: C++ tokens, Python tokens, and
	 * none for CMake and make, whose "#" comments C++ would read as directives */
	if (an_is_python(p->path)) {
		if (an_python_tokenize(p->source.ptr, p->source.len, &f->old_tokens, &f->nold_tokens) < 0 ||
		    an_python_tokenize(p->port.output.ptr, p->port.output.len, &f->new_tokens, &f->nnew_tokens) < 0)
			util_error_clear();
	} else if (app->lexer && bld_kind_of(p->path) == BLD_NONE &&
		   (port_lexer_tokenize(app->lexer, p->path, p->source.ptr, p->source.len, &f->old_tokens,
					&f->nold_tokens) < 0 ||
		    port_lexer_tokenize(app->lexer, p->path, p->port.output.ptr, p->port.output.len, &f->new_tokens,
					&f->nnew_tokens) < 0)) {
		util_error_clear();
	}
	return 0;
}

static void refresh_state(tui_app *app, tui_file *f)
{
	util_buf tree = UTIL_BUF_INIT;

	if (util_file_read(&tree, f->p->fs_path, 0) < 0) {
		f->state = RV_STATE_STALE;
		util_error_clear();
	} else {
		char blob[41];

		f->state = rv_session_state(rv_session_find(app->session, f->p->path), &f->hunks, tree.ptr ? tree.ptr : "",
					    tree.len);
		rv_blob_id(blob, tree.ptr ? tree.ptr : "", tree.len);
		f->validated = f->state == RV_STATE_ACCEPTED && rv_checks_passed(app->session, f->p->path, blob);
	}
	util_buf_dispose(&tree);
}

int tui_app_init(tui_app *app, rv_session *session, port_lexer *lexer, const char *root, rv_proposal **proposals,
		 const size_t (*findings)[3], const unsigned char *const *marks, size_t count, tui_screen *screen)
{
	size_t i;
	int error;

	memset(app, 0, sizeof(*app));
	app->session = session;
	app->lexer = lexer;
	app->root = root;
	if ((error = tui_keymap_init(&app->keys)) < 0)
		return error;
	app->screen = *screen;
	memset(screen, 0, sizeof(*screen));
	app->files = calloc(count + 1, sizeof(*app->files));
	if (!app->files)
		return util_error_set(UTIL_ENOMEM, "out of memory");
	for (i = 0; i < count; i++) {
		tui_file *f = &app->files[i];

		f->p = proposals[i];
		memcpy(f->findings, findings[i], sizeof(f->findings));
		f->marks = marks ? marks[i] : NULL;
		app->nfiles++;
		if ((error = load_file(app, f)) < 0 || (error = split_file(app, f)) < 0)
			return error;
		refresh_state(app, f);
	}
	return 0;
}

void tui_app_dispose(tui_app *app)
{
	size_t i;

	for (i = 0; i < app->nfiles; i++) {
		free_edits(&app->files[i]);
		rv_hunks_dispose(&app->files[i].hunks);
		free(app->files[i].decisions);
		free(app->files[i].old_lines);
		free(app->files[i].new_lines);
		free(app->files[i].old_tokens);
		free(app->files[i].new_tokens);
	}
	free(app->files);
	free(app->undo);
	tui_build_result_dispose(&app->build_pane.result);
	util_buf_dispose(&app->build_pane.log);
	tui_commit_info_dispose(&app->commit);
	tui_keymap_dispose(&app->keys);
	tui_screen_dispose(&app->screen);
	memset(app, 0, sizeof(*app));
}

static tui_file *current(tui_app *app)
{
	return app->nfiles ? &app->files[app->selected] : NULL;
}

static size_t first_pending(const tui_file *f, size_t from)
{
	size_t i;

	for (i = from; i < f->hunks.count; i++)
		if (f->decisions[i] == RV_PENDING)
			return i;
	for (i = 0; i < from && i < f->hunks.count; i++)
		if (f->decisions[i] == RV_PENDING)
			return i;
	return from < f->hunks.count ? from : 0;
}

/* Decides one hunk through the session (saved before the file is written). */
static bool decide(tui_app *app, size_t index, rv_decision d, const char *text, bool remember)
{
	tui_file *f = current(app);
	const rv_proposal *p = f->p;

	if (remember) {
		tui_undo *n = realloc(app->undo, (app->nundo + 1) * sizeof(*n));

		if (!n) {
			snprintf(app->message, sizeof(app->message), "out of memory");
			return false;
		}
		app->undo = n;
		app->undo[app->nundo].file = app->selected;
		app->undo[app->nundo].hunk = index;
		app->undo[app->nundo++].decision = f->decisions[index];
	}
	if (rv_session_decide(app->session, p->path, p->fs_path, p->source.ptr, p->source.len, p->port.output.ptr,
			      p->port.output.len, &f->hunks, index, d, text) < 0) {
		snprintf(app->message, sizeof(app->message), "%s", util_error_last());
		if (remember)
			app->nundo--;
		return false;
	}
	f->decisions[index] = d;
	if (load_edit(app, f, index) < 0)
		snprintf(app->message, sizeof(app->message), "%s", util_error_last());
	refresh_state(app, f);
	return true;
}

static void decide_all(tui_app *app, rv_decision d)
{
	tui_file *f = current(app);
	size_t i, n = 0;

	for (i = 0; i < f->hunks.count; i++)
		if (f->decisions[i] == RV_PENDING) {
			if (!decide(app, i, d, NULL, true))
				return;
			n++;
		}
	snprintf(app->message, sizeof(app->message), "%s %zu hunks", d == RV_ACCEPTED ? "accepted" : "rejected", n);
}

static void undo(tui_app *app)
{
	tui_undo u;

	if (!app->nundo) {
		snprintf(app->message, sizeof(app->message), "nothing to undo");
		return;
	}
	u = app->undo[--app->nundo];
	app->selected = u.file;
	app->hunk = u.hunk;
	if (decide(app, u.hunk, u.decision, NULL, false))
		snprintf(app->message, sizeof(app->message), "hunk %zu back to %s", u.hunk + 1,
			 rv_decision_name(u.decision));
}

/* Runs $VISUAL or $EDITOR (else vi) on paths, without a shell: the command
 * is split at blanks. */
static int run_editor_on(const char *const *paths, size_t n)
{
	const char *editor = getenv("VISUAL") && *getenv("VISUAL") ? getenv("VISUAL")
			     : getenv("EDITOR") && *getenv("EDITOR") ? getenv("EDITOR")
								     : "vi";
	char *copy = strdup(editor), *argv[64], *save, *word;
	int argc = 0, status = -1;
	size_t i;
	pid_t pid;

	if (!copy)
		return -1;
	for (word = strtok_r(copy, " \t", &save); word && argc < 30; word = strtok_r(NULL, " \t", &save))
		argv[argc++] = word;
	for (i = 0; i < n && argc < 62; i++)
		argv[argc++] = (char *)paths[i];
	argv[argc] = NULL;
	pid = fork();
	if (pid == 0) {
		execvp(argv[0], argv);
		_exit(127);
	}
	if (pid > 0)
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
	free(copy);
	return pid > 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

int tui_app_edit_text(tui_app *app, const char *suffix, const char *text, util_buf *out)
{
	char path[4096];
	int fd;

	snprintf(path, sizeof(path), "%s/hipport-edit-XXXXXX%s",
		 getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", suffix);
	if ((fd = mkstemps(path, (int)strlen(suffix))) < 0 || close(fd) < 0 ||
	    util_file_write_fast(path, text, strlen(text)) < 0) {
		snprintf(app->message, sizeof(app->message), "cannot write a file for the editor: %.180s", path);
		return -1;
	}
	{
		const char *paths[1] = { path };

		tui_terminal_suspend(&app->screen);
		fd = run_editor_on(paths, 1);
		tui_terminal_resume(&app->screen);
	}
	util_buf_clear(out);
	if (fd < 0 || util_file_read(out, path, 0) < 0)
		fd = -1;
	unlink(path);
	return fd < 0 ? -1 : 0;
}

/* e: the hunk's proposed lines (or its edited text) in the editor; what is
 * saved becomes the hunk's text, decided as edited. */
static void edit(tui_app *app)
{
	tui_file *f = current(app);
	const rv_hunk *h = &f->hunks.items[app->hunk];
	const rv_session_file *rec = rv_session_find(app->session, f->p->path);
	const char *texts[1] = { NULL };
	util_buf text = UTIL_BUF_INIT, edited = UTIL_BUF_INIT;
	rv_hunks one = { (rv_hunk *)h, 1 };
	rv_decision d;

	rv_session_decisions(rec, &one, &d, texts);
	if (d == RV_EDITED && texts[0])
		util_buf_puts(&text, texts[0]);
	else
		rv_lines_copy(&text, f->p->port.output.ptr, f->p->port.output.len, h->new_start, h->new_lines);
	if (tui_app_edit_text(app, ".cu", text.ptr ? text.ptr : "", &edited) < 0) {
		if (!app->message[0])
			snprintf(app->message, sizeof(app->message), "the editor failed; the hunk is as it was");
	} else if (decide(app, app->hunk, RV_EDITED, edited.ptr ? edited.ptr : "", true)) {
		snprintf(app->message, sizeof(app->message), "hunk %zu edited", app->hunk + 1);
	}
	util_buf_dispose(&text);
	util_buf_dispose(&edited);
}

/* s: the kernel check specs of the selected file in the editor, drafted
 * first when it has none (the command layer finds or drafts them). */
static void edit_specs(tui_app *app)
{
	char **paths = NULL;
	size_t n = 0, drafted = 0, i;
	int rc;

	if (!app->specs) {
		snprintf(app->message, sizeof(app->message), "no kernel check specs here");
		return;
	}
	if (app->specs(app->payload, app->selected, &paths, &n, &drafted) < 0) {
		snprintf(app->message, sizeof(app->message), "%s", util_error_last());
		return;
	}
	if (!n) {
		snprintf(app->message, sizeof(app->message), "%s defines no kernel (__global__ function) to check",
			 app->files[app->selected].p->path);
		free(paths);
		return;
	}
	tui_terminal_suspend(&app->screen);
	rc = run_editor_on((const char *const *)paths, n);
	tui_terminal_resume(&app->screen);
	snprintf(app->message, sizeof(app->message), "%zu kernel check spec%s (%zu drafted now)%s; b builds, hipport check "
		 "runs them", n, n == 1 ? "" : "s", drafted, rc < 0 ? ", the editor failed" : "");
	for (i = 0; i < n; i++)
		free(paths[i]);
	free(paths);
}

void tui_app_refresh_states(tui_app *app)
{
	size_t i;

	for (i = 0; i < app->nfiles; i++)
		refresh_state(app, &app->files[i]);
}

static void select_file(tui_app *app, size_t index)
{
	if (!app->nfiles)
		return;
	app->selected = index < app->nfiles ? index : app->nfiles - 1;
	app->hunk = 0;
	app->diff_top = 0;
}

static void move_cursor(tui_app *app, long delta)
{
	tui_file *f = current(app);

	if (!f)
		return;
	if (app->focus == TUI_FOCUS_FILES) {
		long to = (long)app->selected + delta;

		select_file(app, to < 0 ? 0 : (size_t)to);
	} else {
		long to = (long)app->diff_top + delta;

		app->diff_top = to < 0 ? 0 : (size_t)to;
	}
}

static void next_hunk(tui_app *app, long delta)
{
	tui_file *f = current(app);
	long to;

	if (!f || !f->hunks.count)
		return;
	to = (long)app->hunk + delta;
	app->hunk = to < 0 ? 0 : (size_t)to >= f->hunks.count ? f->hunks.count - 1 : (size_t)to;
	tui_diff_show_hunk(app);
}

/* The fix ids of the findings of f on lines [from, to] (all when to is 0). */
static void fixes_in(const tui_file *f, size_t from, size_t to, tui_fix_menu *m)
{
	size_t i, k;

	m->n = 0;
	for (i = 0; f && i < f->p->analysis.count && m->n < 9; i++) {
		const an_hit *h = &f->p->analysis.hits[i];

		if (!h->nedits || (to && (h->line < from || h->line > to)))
			continue;
		for (k = 0; k < m->n && strcmp(m->ids[k], h->id) != 0; k++)
			;
		if (k == m->n) {
			m->ids[m->n] = h->id;
			m->first[m->n++] = h;
		}
	}
	for (k = 0; k < m->n; k++)
		for (m->places[k] = 0, i = 0; i < f->p->analysis.count; i++)
			m->places[k] += f->p->analysis.hits[i].nedits && strcmp(f->p->analysis.hits[i].id, m->ids[k]) == 0;
	m->from_line = to ? from : 0;
	m->to_line = to;
}

void tui_fix_menu_make(const tui_app *app, tui_fix_menu *m)
{
	const tui_file *f = app->nfiles ? &app->files[app->selected] : NULL;
	size_t first, last;

	memset(m, 0, sizeof(*m));
	if (!f)
		return;
	if (app->focus == TUI_FOCUS_DIFF && app->hunk < f->hunks.count) {
		const rv_hunk *h = &f->hunks.items[app->hunk];

		/* a hunk that only inserts lines sits between two source lines */
		fixes_in(f, h->old_lines ? h->old_start + 1 : h->old_start, h->old_start + (h->old_lines ? h->old_lines : 1),
			 m);
		if ((m->at_hunk = m->n > 0))
			return;
	}
	if (tui_diff_shown_lines(app, &first, &last) && (fixes_in(f, first, last, m), m->n))
		return;
	fixes_in(f, 0, 0, m);
}

/* 1-9 in the fix menu: the session records the fix, the proposal is made
 * again with it, and its changes are hunks like any other. */
static void choose_fix(tui_app *app, int key)
{
	tui_file *f = current(app);
	tui_fix_menu menu;
	size_t i = (size_t)(key - '1'), before = f->hunks.count;
	const char *id;
	rv_proposal *p = NULL;

	tui_fix_menu_make(app, &menu);
	app->fix_menu = false;
	if (key < '1' || key > '9' || i >= menu.n)
		return;
	id = menu.ids[i];
	if (rv_session_choose_fix(app->session, f->p->path, f->p->fs_path, f->p->source.ptr, f->p->source.len, id) <
		    0 ||
	    !app->repropose || app->repropose(app->payload, app->selected, &p) < 0 || !p) {
		snprintf(app->message, sizeof(app->message), "%s", util_error_last());
		return;
	}
	f->p = p;
	if (load_file(app, f) < 0 || split_file(app, f) < 0) {
		snprintf(app->message, sizeof(app->message), "%s", util_error_last());
		return;
	}
	refresh_state(app, f);
	app->focus = TUI_FOCUS_DIFF;
	app->hunk = first_pending(f, 0);
	tui_diff_show_hunk(app);
	snprintf(app->message, sizeof(app->message), "fix %s taken into the proposal: %zu hunks (%zu before)", id,
		 f->hunks.count, before);
}

/* Enter in the search: the next file (file list) or row (diff) with the text. */
static void search(tui_app *app)
{
	size_t k;

	app->searching = false;
	if (!app->query[0] || !app->nfiles)
		return;
	if (app->focus == TUI_FOCUS_DIFF) {
		if (!tui_diff_search(app, app->query))
			snprintf(app->message, sizeof(app->message), "not found: %s", app->query);
		return;
	}
	for (k = 1; k <= app->nfiles; k++) {
		size_t i = (app->selected + k) % app->nfiles;

		if (strstr(app->files[i].p->path, app->query)) {
			select_file(app, i);
			return;
		}
	}
	snprintf(app->message, sizeof(app->message), "no file matches: %s", app->query);
}

static void search_key(tui_app *app, int key)
{
	size_t n = strlen(app->query);

	if (key == TUI_KEY_ENTER)
		search(app);
	else if (key == TUI_KEY_ESCAPE)
		app->searching = false;
	else if (key == TUI_KEY_BACKSPACE && n)
		app->query[n - 1] = '\0';
	else if (key >= ' ' && key < 127 && n + 1 < sizeof(app->query))
		app->query[n] = (char)key, app->query[n + 1] = '\0';
}

int tui_app_bind(tui_app *app, const char *action, const char *key)
{
	return tui_keymap_bind(&app->keys, action, key);
}

void tui_app_key(tui_app *app, int key)
{
	tui_file *f = current(app);
	int page = app->screen.height > 4 ? app->screen.height - 4 : 1;
	tui_action action;

	app->message[0] = '\0';
	key = tui_key_normal(key);
	/* search text is typed as it is; other keys do their action */
	if (app->searching) {
		search_key(app, key);
		return;
	}
	action = tui_keymap_action(&app->keys, key);
	if (app->help) {
		app->help = false;
		return;
	}
	if (app->fix_menu) {
		choose_fix(app, key);
		return;
	}
	if (tui_commit_key(app, action, key) || tui_build_key(app, action, key))
		return;
	switch (action) {
	case TUI_ACTION_QUIT:
		app->quit = true;
		break;
	case TUI_ACTION_HELP:
		app->help = true;
		break;
	case TUI_ACTION_DOWN:
		move_cursor(app, 1);
		break;
	case TUI_ACTION_UP:
		move_cursor(app, -1);
		break;
	case TUI_ACTION_PAGE_DOWN:
		move_cursor(app, page);
		break;
	case TUI_ACTION_PAGE_UP:
		move_cursor(app, -page);
		break;
	case TUI_ACTION_FIRST:
		if (app->focus == TUI_FOCUS_FILES)
			select_file(app, 0);
		else
			app->diff_top = 0;
		break;
	case TUI_ACTION_LAST:
		if (app->focus == TUI_FOCUS_FILES)
			select_file(app, app->nfiles ? app->nfiles - 1 : 0);
		else
			app->diff_top = (size_t)-1 / 2; /* clamped when drawn */
		break;
	case TUI_ACTION_SWITCH_PANE:
		app->focus = app->focus == TUI_FOCUS_FILES ? TUI_FOCUS_DIFF : TUI_FOCUS_FILES;
		break;
	case TUI_ACTION_OPEN:
		if (!f)
			break;
		app->focus = TUI_FOCUS_DIFF;
		app->hunk = first_pending(f, 0);
		tui_diff_show_hunk(app);
		break;
	case TUI_ACTION_NEXT_HUNK:
		next_hunk(app, 1);
		break;
	case TUI_ACTION_PREV_HUNK:
		next_hunk(app, -1);
		break;
	case TUI_ACTION_ACCEPT:
	case TUI_ACTION_REJECT:
		if (!f || app->focus != TUI_FOCUS_DIFF || !f->hunks.count)
			break;
		if (decide(app, app->hunk, action == TUI_ACTION_ACCEPT ? RV_ACCEPTED : RV_REJECTED, NULL, true)) {
			app->hunk = first_pending(f, app->hunk);
			tui_diff_show_hunk(app);
		}
		break;
	case TUI_ACTION_ACCEPT_ALL:
	case TUI_ACTION_REJECT_ALL:
		if (f)
			decide_all(app, action == TUI_ACTION_ACCEPT_ALL ? RV_ACCEPTED : RV_REJECTED);
		break;
	case TUI_ACTION_UNDO:
		undo(app);
		break;
	case TUI_ACTION_EDIT:
		if (f && app->focus == TUI_FOCUS_DIFF && f->hunks.count)
			edit(app);
		break;
	case TUI_ACTION_SEARCH:
		app->searching = true;
		app->query[0] = '\0';
		break;
	case TUI_ACTION_CHECK:
		if (f)
			tui_build_start(app);
		break;
	case TUI_ACTION_COMMIT:
		tui_commit_start(app);
		break;
	case TUI_ACTION_SPECS:
		if (f)
			edit_specs(app);
		break;
	case TUI_ACTION_FIXES: {
		tui_fix_menu menu;

		tui_fix_menu_make(app, &menu);
		if (f && menu.n)
			app->fix_menu = true;
		else
			snprintf(app->message, sizeof(app->message), "no fixes for the findings of this file");
		break;
	}
	case TUI_ACTION_NONE:
	case TUI_ACTION_COUNT:
		snprintf(app->message, sizeof(app->message), "unbound key (? shows the keys)");
		break;
	}
}
