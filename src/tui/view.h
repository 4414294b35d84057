/* The review TUI's core, shaped like tig's: each view is a table of
 * callbacks (tui_view_ops) in its own file, and the core drives them. It
 * keeps a stack of views: at its bottom the two panes, the file list (left)
 * and the diff (right), one of them focused; over them the views that come
 * and go (b's compile check, the fixes menu, the commit dialog, the help,
 * the search and sync prompts), pushed and popped. A key goes to the view on top; what
 * a view leaves goes to the view under it, then to the focused pane, the
 * other pane, and last to the core's driver (quit, help, search, undo, ...),
 * as tig's view_driver takes what a view does not. Views know only this
 * core and the model it owns (tui/model.h), never each other: a view asks
 * the panes for something with a request (tui_core_request). */
#ifndef HIPPORT_TUI_VIEW_H
#define HIPPORT_TUI_VIEW_H

#include <stdbool.h>
#include <stddef.h>

#include "tui/action.h"
#include "tui/model.h"
#include "tui/screen.h"
#include "util/error.h"

typedef struct tui_core tui_core;
typedef struct tui_view tui_view;

/* What a view is asked to do: a key's action, or a request from another
 * view through the core (key 0). */
typedef enum tui_request_kind {
	TUI_REQUEST_KEY,       /* action: what the key is bound to (TUI_ACTION_NONE: nothing) */
	TUI_REQUEST_SELECTED,  /* another file was selected: the diff starts at its top */
	TUI_REQUEST_OPEN,      /* the diff takes the focus, at the first pending hunk of the file */
	TUI_REQUEST_FIND,      /* the focused pane searches for text from its cursor on */
	TUI_REQUEST_SHOW_LINE, /* the diff shows line `line` of the file as the tree holds it */
	TUI_REQUEST_SCOPE,     /* the diff tells which source lines it shows (first, last, focused) */
	TUI_REQUEST_SHOW_ROW   /* the diff shows line `line` of the original (original) or the proposal */
} tui_request_kind;

typedef struct tui_request {
	tui_request_kind kind;
	tui_action action;  /* TUI_REQUEST_KEY */
	int key;            /* TUI_REQUEST_KEY: the key as typed (tui_key_normal); -1: none (the wheel) */
	const char *text;   /* TUI_REQUEST_FIND */
	size_t line;        /* TUI_REQUEST_SHOW_LINE, 1-based */
	size_t first, last; /* TUI_REQUEST_SCOPE, answered: 1-based, 0 when none */
	bool focused;       /* TUI_REQUEST_SCOPE, answered: the diff has the focus */
	bool original;      /* TUI_REQUEST_SHOW_ROW: line is the original's, else the proposal's */
} tui_request;

/* What a view's key callback did with a request. */
typedef enum tui_handled {
	TUI_PASS, /* not this view's: the views under it are asked */
	TUI_DONE
} tui_handled;

typedef struct tui_rect {
	int x, y, width, height;
} tui_rect;

typedef struct tui_view_ops {
	const char *name;
	size_t state_size; /* the view's private state, zeroed by the core */
	/* Sets the view up (it is on the stack already, so it is drawn while
	 * open works); < 0 leaves it closed again (the message says why). */
	int (*open)(tui_view *view);
	void (*draw)(tui_view *view, tui_screen *s);
	tui_handled (*key)(tui_view *view, tui_request *req);
	void (*close)(tui_view *view); /* NULL: nothing but the state to free */
	/* The mouse, both optional. click: row `row` of the view's area (0: its
	 * top row) was clicked: the view selects what the row shows (a file, a
	 * hunk), and a click on what is selected already opens it as Enter does
	 * (a double click, as in tig); TUI_PASS when the row shows nothing.
	 * Without it clicks do nothing. scroll: the wheel turned over the view,
	 * lines down (< 0: up); without it a pane moves as its down and up keys
	 * move it, and a dialog ignores the wheel. */
	tui_handled (*click)(tui_view *view, int row);
	void (*scroll)(tui_view *view, int lines);
} tui_view_ops;

/* The core over a model (taken: *model is left empty) on a screen (taken
 * likewise, maybe on the terminal already); on failure both are left as
 * they were. */
int tui_core_new(tui_core **out, tui_screen *screen, tui_model *model);
void tui_core_free(tui_core *core);

tui_model *tui_core_model(tui_core *core);
tui_screen *tui_core_screen(tui_core *core);
/* Binds key (a name, as for scripts) to an action of tui/action.h;
 * UTIL_EINPUT for an unknown action or key. */
int tui_core_bind(tui_core *core, const char *action, const char *key);
/* Handles one key (a curses key code or a character). */
void tui_core_key(tui_core *core, int key);
/* Handles a mouse event: the view on top gets it if the panes have one
 * over them, else the pane under the pointer, which takes the focus. */
void tui_core_mouse(tui_core *core, const tui_mouse *ev);
/* Draws every view into the screen; tui_core_show copies it to the
 * terminal too (while a long step runs). */
void tui_core_draw(tui_core *core);
void tui_core_show(tui_core *core);
/* Whether the review was quit. */
bool tui_core_done(const tui_core *core);
/* Ends the review's loop as q does: a sync wrote files, and the command
 * layer makes the review again from them (tui_core_unload, tui_core_load). */
void tui_core_quit(tui_core *core);
/* Closes every view and disposes the model, whose files borrow what the
 * command layer is about to free; nothing is drawn until tui_core_load. */
void tui_core_unload(tui_core *core);
/* The panes over a new model (taken: *model is left empty; on failure it
 * is left as it was), the keys bound as they were; the review goes on. */
int tui_core_load(tui_core *core, tui_model *model);
/* The status bar's message, shown until the next key: what was done, in the
 * bar's own colours; tui_core_error: what went wrong, in the error colour. */
void tui_core_message(tui_core *core, const char *fmt, ...) UTIL_PRINTF(2, 3);
void tui_core_error(tui_core *core, const char *fmt, ...) UTIL_PRINTF(2, 3);

/* Opens a view of ops over the others; < 0 when its open refused. */
int tui_core_push(tui_core *core, const tui_view_ops *ops);
/* Closes a view and frees its state: a view that pops itself touches its
 * state no more. */
void tui_core_pop(tui_core *core, tui_view *view);
/* A request to the panes: the focused one first, then the other; TUI_DONE
 * when one of them did it. */
tui_handled tui_core_request(tui_core *core, tui_request *req);

/* For a view: its state, the core and model, the area of a pane (the whole
 * screen for the others), whether it is the focused pane, and taking the
 * focus. */
void *tui_view_state(tui_view *view);
tui_core *tui_view_core(tui_view *view);
tui_model *tui_view_model(tui_view *view);
tui_rect tui_view_area(const tui_view *view);
bool tui_view_focused(const tui_view *view);
void tui_view_focus(tui_view *view);

/* The screen while the proposals are made, before the review opens: a bar
 * of done out of total files (total 0: the repository is being read). */
void tui_progress_draw(tui_screen *s, const char *root, size_t done, size_t total);

#endif
