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
#include "tui/action.h"
#include "tui/screen.h"
#include "util/buf.h"

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
	bool validated;       /* accepted, and its checks passed on what the tree holds */
	size_t findings[3];   /* by severity */
	const unsigned char *marks; /* per source line: the worst finding's severity + 1, or 0; borrowed */
} tui_file;

typedef enum tui_focus { TUI_FOCUS_FILES, TUI_FOCUS_DIFF } tui_focus;

/* b: a compile check of the selected file, run by the command layer. */
typedef struct tui_build_error {
	char *where;      /* "src/k.cu:12:7" as the compiler printed it */
	char *text;       /* "error: ..." */
	size_t line;      /* in the file as the working tree holds it; 0 when the error is in another file */
} tui_build_error;

typedef struct tui_build_result {
	char *status;     /* pass, fail, error, skipped */
	char *summary;
	tui_build_error *errors;
	size_t nerrors;
} tui_build_result;

void tui_build_result_dispose(tui_build_result *r);

typedef struct tui_build_pane {
	bool open, running;
	size_t file;      /* the file built */
	util_buf log;     /* the compiler's output, streamed */
	tui_build_result result;
	size_t selected;  /* the error at the cursor */
} tui_build_pane;

/* c: what a commit would take, from the command layer. */
typedef struct tui_commit_info {
	char **lines;     /* per file: its path and whether it is validated, or why not */
	size_t nlines;
	char *message;    /* the generated message, editable */
	size_t nfiles, refused;
} tui_commit_info;

void tui_commit_info_dispose(tui_commit_info *info);

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
	tui_keymap keys;      /* the default keys and a user's bindings */
	/* makes the proposal of file `index` again (after a fix was chosen) */
	int (*repropose)(void *payload, size_t index, rv_proposal **out);
	/* compile-checks file `index`, telling watch of the output as it comes */
	int (*build)(void *payload, size_t index, void (*watch)(const char *data, size_t len, void *watch_payload),
		     void *watch_payload, tui_build_result *out);
	/* the paths of the kernel check specs of file `index` (malloc'd, each and the
	 * array), drafted first (*drafted of them) where the file has none */
	int (*specs)(void *payload, size_t index, char ***paths, size_t *n, size_t *drafted);
	/* what a commit of the reviewed files would be; then making it with a message */
	int (*commit_prepare)(void *payload, tui_commit_info *out);
	int (*commit_run)(void *payload, const char *message, char *done, size_t size);
	tui_build_pane build_pane;
	bool commit_dialog;
	tui_commit_info commit;
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

/* Opens $VISUAL/$EDITOR on a temporary file (name ending in suffix) holding
 * text; what is saved goes into out. -1 (a message set) when that failed. */
int tui_app_edit_text(tui_app *app, const char *suffix, const char *text, util_buf *out);

/* b and c: their panes' keys (true when the key was theirs), and the
 * states of the files after a commit changed them. */
bool tui_build_key(tui_app *app, tui_action action, int key);
void tui_build_start(tui_app *app);
bool tui_commit_key(tui_app *app, tui_action action, int key);
void tui_commit_start(tui_app *app);
void tui_app_refresh_states(tui_app *app);

/* The screen while the proposals are made, before the review opens: a bar
 * of done out of total files (total 0: the repository is being read). */
void tui_progress_draw(tui_screen *s, const char *root, size_t done, size_t total);

/* Draws everything into app->screen. */
void tui_app_draw(tui_app *app);

/* Binds key (a name, as for scripts) to an action ("accept", "next-hunk",
 * ...: the names are in tui/action.h); UTIL_EINPUT for an unknown action or
 * key. */
int tui_app_bind(tui_app *app, const char *action, const char *key);

#endif
