/* The actions of the review's keys. One list gives the enum, the names bound
 * in .hipport/config ([keys] accept = y), the default keys and the rows of
 * the help (?), as tig's REQ_INFO does; the default keys are read by the
 * parser that reads a user's bindings. */
#ifndef HIPPORT_TUI_ACTION_H
#define HIPPORT_TUI_ACTION_H

#include <stdbool.h>
#include <stddef.h>

/* ACTION(ID, name, keys, help): keys are key names as in .hipport/config and
 * scripts, separated by blanks; an action whose help is "" shares the help
 * row of the one before it, its keys joined to that row's. */
#define TUI_ACTION_INFO(ACTION) \
	ACTION(DOWN, "down", "j Down", "move (files) or scroll (diff)") \
	ACTION(UP, "up", "k Up", "") \
	ACTION(PAGE_DOWN, "page-down", "PgDn", "page, first, last") \
	ACTION(PAGE_UP, "page-up", "PgUp", "") \
	ACTION(FIRST, "first", "g", "") \
	ACTION(LAST, "last", "G", "") \
	ACTION(SWITCH_PANE, "switch-pane", "Tab", "switch between the file list and the diff") \
	ACTION(OPEN, "open", "Enter", "the diff of the file, at its first undecided hunk") \
	ACTION(NEXT_HUNK, "next-hunk", "n", "next, previous hunk") \
	ACTION(PREV_HUNK, "prev-hunk", "p", "") \
	ACTION(ACCEPT, "accept", "a", "accept, reject the hunk at the cursor (written to the file at once)") \
	ACTION(REJECT, "reject", "r", "") \
	ACTION(EDIT, "edit", "e", "edit the hunk's proposed lines in $VISUAL or $EDITOR") \
	ACTION(FIXES, "fixes", "f", "the fixes of the findings at the cursor, previewed; 1-9 takes one") \
	ACTION(ACCEPT_ALL, "accept-all", "A", "accept, reject every remaining hunk of the file") \
	ACTION(REJECT_ALL, "reject-all", "R", "") \
	ACTION(UNDO, "undo", "u", "undo the last decision") \
	ACTION(SEARCH, "search", "/", "search file names (file list) or lines (diff); Enter finds the next") \
	ACTION(CHECK, "check", "b", "compile check of the file for the offload arch; Enter shows an error") \
	ACTION(COMMIT, "commit", "c", "commit the validated files: y commits, e edits the message, n cancels") \
	ACTION(SPECS, "specs", "s", "the file's kernel check specs in $EDITOR (drafted first if it has none)") \
	ACTION(HELP, "help", "?", "this help (any key closes it)") \
	ACTION(QUIT, "quit", "q", "quit; every decision is already saved")

typedef enum tui_action {
	TUI_ACTION_NONE, /* a key bound to nothing */
#define TUI_ACTION_ID(id, name, keys, help) TUI_ACTION_##id,
	TUI_ACTION_INFO(TUI_ACTION_ID)
#undef TUI_ACTION_ID
	TUI_ACTION_COUNT
} tui_action;

typedef struct tui_action_info {
	const char *name;
	const char *keys;
	const char *help;
} tui_action_info;

/* By action, TUI_ACTION_NONE's empty. */
extern const tui_action_info tui_actions[TUI_ACTION_COUNT];

/* Which action each key does: the defaults, then a user's bindings, the
 * latest binding of a key winning. */
typedef struct tui_binding {
	int key;
	tui_action action;
} tui_binding;

typedef struct tui_keymap {
	tui_binding *items;
	size_t count;
} tui_keymap;

/* The default keys of the list. */
int tui_keymap_init(tui_keymap *map);
void tui_keymap_dispose(tui_keymap *map);
/* Binds key (a name, as for scripts) to the action named action;
 * UTIL_EINPUT for an unknown action or key. */
int tui_keymap_bind(tui_keymap *map, const char *action, const char *key);
tui_action tui_keymap_action(const tui_keymap *map, int key);

/* Keys that prompts and dialogs read as typed, whichever code the terminal
 * sent for them (tui_key_normal). */
enum { TUI_KEY_ENTER = '\n', TUI_KEY_ESCAPE = 27, TUI_KEY_BACKSPACE = 127 };

int tui_key_normal(int key);

/* Key names for scripts and bindings: "j", "Enter", "Tab", "Down", "PgDn"...;
 * -1 for none. */
int tui_key_parse(const char *name);
/* The name of a key, into buf; NULL when it has none. */
const char *tui_key_name(int key, char *buf, size_t size);

#endif
