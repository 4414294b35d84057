/* The review TUI: the candidate files on the left, the selected file's diff
 * side by side on the right, a status bar; keys decide hunks through the
 * session. One model for the terminal and for scripts (--script). */
#ifndef HIPPORT_TUI_APP_H
#define HIPPORT_TUI_APP_H

#include <stdbool.h>
#include <stddef.h>

#include "port/lex.h"
#include "review/hunks.h"
#include "review/proposal.h"
#include "review/session.h"
#include "tui/screen.h"

/* One line of text: where it starts and how long it is (without its end). */
typedef struct tui_line {
	const char *text;
	size_t len;
} tui_line;

/* The lines of a hunk's edited text (pointing into the session's text). */
typedef struct tui_edit {
	tui_line *lines;
	size_t n;
} tui_edit;

typedef struct tui_file {
	rv_proposal *p;       /* the proposal reviewed (of the original once decided); borrowed */
	rv_hunks hunks;
	rv_decision *decisions;
	tui_edit *edits;      /* per hunk: what an edited one holds instead of the proposal */
	tui_line *old_lines, *new_lines;
	size_t nold, nnew;
	port_token *old_tokens, *new_tokens; /* for syntax colour; NULL without */
	size_t nold_tokens, nnew_tokens;
	rv_file_state state;
	size_t findings[3];   /* by severity */
	const unsigned char *marks; /* per source line: the worst finding's severity + 1, or 0; borrowed */
} tui_file;

typedef enum tui_focus { TUI_FOCUS_FILES, TUI_FOCUS_DIFF } tui_focus;

/* A decision as it was before a key changed it: what u restores. */
typedef struct tui_undo {
	size_t file, hunk;
	rv_decision decision;
} tui_undo;

typedef struct tui_app {
	tui_screen screen;
	rv_session *session;
	port_lexer *lexer;    /* tokens for syntax colour, or NULL; borrowed */
	const char *root;     /* the work tree, for the title */
	tui_file *files;
	size_t nfiles;
	size_t selected;      /* the file */
	size_t files_top;     /* first file shown */
	tui_focus focus;
	size_t hunk;          /* the hunk at the cursor in the diff */
	size_t diff_top;      /* first diff row shown */
	tui_undo *undo;
	size_t nundo;
	bool help;
	bool fix_menu;        /* f: the file's fixes listed, 1-9 picks one */
	bool searching;       /* /: typing the text to search for */
	char query[128];
	bool quit;
	int bindings[128];    /* a user's key -> the default key of its action, 0 when unbound */
	/* makes the proposal of file `index` again (after a fix was chosen) */
	int (*repropose)(void *payload, size_t index, rv_proposal **out);
	void *payload;
	char message[256];    /* shown in the status bar until the next key */
} tui_app;

/* Sets up the model over proposals (files[i].p set by the caller, state OK)
 * and the session; hunks and decisions are computed here. The app takes
 * the screen (set up by the caller, maybe on the terminal already): *screen
 * is left empty. */
int tui_app_init(tui_app *app, rv_session *session, port_lexer *lexer, const char *root, rv_proposal **proposals,
		 const size_t (*findings)[3], const unsigned char *const *marks, size_t count, tui_screen *screen);
void tui_app_dispose(tui_app *app);

/* What f offers: the fixes of the findings at the cursor — on the lines of
 * the hunk at the cursor, else on the source lines the diff shows — or,
 * when none there has one, of the whole file. A fix is taken by id, into
 * every place of the file it applies to (each becomes a hunk to review). */
typedef struct tui_fix_menu {
	const char *ids[9];       /* distinct, at most 9 */
	const an_hit *first[9];   /* the first finding in scope with that fix */
	size_t places[9];         /* the findings of the file the fix changes */
	size_t n;
	size_t from_line, to_line; /* the source lines in scope, 1-based; 0 for the whole file */
	bool at_hunk;             /* the scope is the hunk at the cursor */
} tui_fix_menu;

void tui_fix_menu_make(const tui_app *app, tui_fix_menu *menu);

/* Handles one key (a curses key code or a character). */
void tui_app_key(tui_app *app, int key);

/* The screen while the proposals are made, before the review opens: a bar
 * of done out of total files (total 0: the repository is being read). */
void tui_progress_draw(tui_screen *s, const char *root, size_t done, size_t total);

/* Draws everything into app->screen. */
void tui_app_draw(tui_app *app);

/* Binds key (a name, as for scripts) to an action ("accept", "next-hunk",
 * ...: the names are in app.c); UTIL_EINPUT for an unknown action or key. */
int tui_app_bind(tui_app *app, const char *action, const char *key);

/* Key names for scripts and bindings: "j", "Enter", "Tab", "Down", "PgDn"... */
int tui_key_parse(const char *name);

#endif
