/* The actions of the review's keys. One list gives the enum, the names bound
 * in .hipport/config ([keys] accept = y), the default keys and the rows of
 * the help (?), as tig's REQ_INFO does; the default keys are read by the
 * parser that reads a user's bindings. */
#ifndef HIPPORT_TUI_ACTION_H
#define HIPPORT_TUI_ACTION_H

#include <stdbool.h>
#include <stddef.h>

/* ACTION(ID, name, view, keys, help): keys are key names as in
 * .hipport/config and scripts, separated by blanks, bound in the named view
 * only ("diff") or in all ("") as tig's keymaps are; an action whose help is
 * "" shares the help row of the one before it, its keys joined to that
 * row's. */
#define TUI_ACTION_INFO(ACTION) \
	ACTION(DOWN, "down", "", "j Down", "move (files) or scroll (diff)") \
	ACTION(UP, "up", "", "k Up", "") \
	ACTION(PAGE_DOWN, "page-down", "", "PgDn", "page, first, last") \
	ACTION(PAGE_UP, "page-up", "", "PgUp", "") \
	ACTION(FIRST, "first", "", "g", "") \
	ACTION(LAST, "last", "", "G", "") \
	ACTION(SWITCH_PANE, "switch-pane", "", "Tab", "switch between the file list and the diff") \
	ACTION(OPEN, "open", "", "Enter", "the diff of the file, at its first undecided hunk") \
	ACTION(NEXT_HUNK, "next-hunk", "", "n", "next, previous hunk") \
	ACTION(PREV_HUNK, "prev-hunk", "", "p", "") \
	ACTION(ACCEPT, "accept", "", "a", "accept, reject the hunk at the cursor (written to the file at once)") \
	ACTION(REJECT, "reject", "", "r", "") \
	ACTION(EDIT, "edit", "", "e", "edit the hunk's proposed lines in $VISUAL or $EDITOR") \
	ACTION(KEEP_PORT, "keep-port", "", "o", "a sync's conflict (C, M): keep the port's lines, or confirm the merge (M)") \
	ACTION(CONFLICT_SIDE, "conflict-side", "diff", "t", "a sync's conflict: show the new proposal, the base, the port's lines") \
	ACTION(SPLIT, "split", "diff", "s", "in the diff: split the hunk into a hunk per line; s on a line joins it") \
	ACTION(FIXES, "fixes", "", "f", "the fixes of the findings at the cursor, previewed; 1-9 takes one") \
	ACTION(ACCEPT_ALL, "accept-all", "", "A", "accept, reject every remaining hunk of the file") \
	ACTION(REJECT_ALL, "reject-all", "", "R", "") \
	ACTION(BULK_ACCEPT, "bulk-accept", "", "B", "accept every pending rename-only hunk of every file (asks y/n)") \
	ACTION(UNDO, "undo", "", "u", "undo the last decision") \
	ACTION(MARK_REVIEWED, "mark-reviewed", "", "m", "mark the file reviewed (*), or not; hipport status shows it") \
	ACTION(NEXT_FILE, "next-file", "", "N", "the next file with undecided hunks, or findings and not reviewed") \
	ACTION(SEARCH, "search", "", "/", "search file names (file list) or lines (diff); Enter finds the next") \
	ACTION(SEARCH_ALL, "search-all", "", "F", "search every file's proposal and original: matches as file:line, Enter opens") \
	ACTION(CHECK, "check", "", "b", "compile check of the file for the offload arch; Enter shows an error") \
	ACTION(CHECKS, "checks", "", "K", "the file's checks: results, each side's time, ratio, GB/s; Enter: a whole line") \
	ACTION(COMMIT, "commit", "", "c", "commit the validated files: y commits, e edits the message, n cancels") \
	ACTION(SYNC, "sync", "", "S", "sync the port with upstream: asks for the commit, re-ports what changed, reviews it") \
	ACTION(SPECS, "specs", "", "s", "in the file list: its kernel check specs in $EDITOR (drafted if it has none)") \
	ACTION(HELP, "help", "", "?", "this help (j k and the wheel scroll it, another key closes it)") \
	ACTION(QUIT, "quit", "", "q", "quit; every decision is already saved")

typedef enum tui_action {
	TUI_ACTION_NONE, /* a key bound to nothing */
#define TUI_ACTION_ID(id, name, view, keys, help) TUI_ACTION_##id,
	TUI_ACTION_INFO(TUI_ACTION_ID)
#undef TUI_ACTION_ID
	TUI_ACTION_COUNT
} tui_action;

typedef struct tui_action_info {
	const char *name;
	const char *view; /* the view whose keys they are, "" for all */
	const char *keys;
	const char *help;
} tui_action_info;

/* By action, TUI_ACTION_NONE's empty. */
extern const tui_action_info tui_actions[TUI_ACTION_COUNT];

/* Which action each key does in a view: a user's binding first (the latest
 * of a key), then the view's default, then the default of all views. */
typedef struct tui_binding {
	int key;
	tui_action action;
	const char *view; /* NULL: every view */
	bool user;        /* from .hipport/config */
} tui_binding;

typedef struct tui_keymap {
	tui_binding *items;
	size_t count;
} tui_keymap;

/* The default keys of the list. */
int tui_keymap_init(tui_keymap *map);
void tui_keymap_dispose(tui_keymap *map);
/* Binds key (a name, as for scripts) to the action named action, in every
 * view; UTIL_EINPUT for an unknown action or key. */
int tui_keymap_bind(tui_keymap *map, const char *action, const char *key);
/* The action of key in view (a view's name; NULL: the core's driver). */
tui_action tui_keymap_action(const tui_keymap *map, const char *view, int key);

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
