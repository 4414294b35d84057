/* A sync's conflicts in the review (docs/sync.md): the right pane shows
 * the port's lines of a conflict; t shows in turn the new proposal and the
 * proposal before (the base); o keeps the port's lines, which a, r and e do
 * not. */
#ifndef HIPPORT_TUI_CONFLICT_H
#define HIPPORT_TUI_CONFLICT_H

#include "tui/model.h"

typedef enum tui_conflict_side {
	TUI_SIDE_PORT,     /* the port's lines, or git's clean merge */
	TUI_SIDE_PROPOSAL, /* the new proposal's (what a takes) */
	TUI_SIDE_BASE      /* the proposal's before the sync */
} tui_conflict_side;

/* The lines the right pane shows for hunk h instead of the proposal's:
 * an edited hunk's, a conflict's side; NULL for the proposal's own. */
const tui_edit *tui_conflict_shown(const tui_file *f, size_t h);

/* The mark of a conflict hunk: "C", or "M" merged clean (to confirm). */
const char *tui_conflict_mark(const tui_file *f, size_t h);

/* t: the next side of conflict h; what names it, for the message. */
int tui_conflict_next_side(tui_file *f, size_t h, const char **what);

/* o: conflict h resolved as the port's lines (or the merge) are. */
int tui_conflict_keep(tui_model *m, size_t h);

#endif
