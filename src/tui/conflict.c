#include "tui/conflict.h"

#include <stdlib.h>
#include <string.h>

#include "util/error.h"

const tui_edit *tui_conflict_shown(const tui_file *f, size_t h)
{
	if (h >= f->hunks.count || !rv_has_text(f->decisions[h]))
		return NULL;
	if (f->decisions[h] == RV_CONFLICT && f->side_hunk == h && f->side != TUI_SIDE_PORT)
		return f->side == TUI_SIDE_BASE ? &f->bases[h] : NULL;
	return &f->edits[h];
}

const char *tui_conflict_mark(const tui_file *f, size_t h)
{
	return f->clean[h] ? "M" : "C";
}

int tui_conflict_next_side(tui_file *f, size_t h, const char **what)
{
	static const char *const names[] = { "the port's lines (o keeps them)",
					     "the new proposal (a takes it)",
					     "the proposal before the sync (the base)" };

	if (h >= f->hunks.count || f->decisions[h] != RV_CONFLICT)
		return util_error_set(UTIL_EINPUT, "not a conflict: t shows the sides of a sync's conflicts");
	f->side = f->side_hunk == h ? (f->side + 1) % 3 : TUI_SIDE_PROPOSAL;
	f->side_hunk = h;
	*what = names[f->side];
	if (f->side == TUI_SIDE_PORT && f->clean[h])
		*what = "git's clean merge of the port's lines and upstream's change (o confirms it)";
	return 0;
}

int tui_conflict_keep(tui_model *m, size_t h)
{
	tui_file *f = tui_model_current(m);
	const rv_session_hunk *sh;
	char *text;
	int error;

	if (!f || h >= f->hunks.count || f->decisions[h] != RV_CONFLICT ||
	    !(sh = rv_session_hunk_of(rv_session_find(m->session, f->p->path), f->hunks.items[h].key)))
		return util_error_set(UTIL_EINPUT, "not a conflict: o keeps the port's lines of a sync's conflict");
	if (!(text = strdup(sh->text ? sh->text : ""))) /* the session frees its own with the decision */
		return util_error_set(UTIL_ENOMEM, "out of memory");
	error = tui_model_decide(m, h, RV_EDITED, text, true);
	free(text);
	f->side = TUI_SIDE_PORT;
	return error;
}
