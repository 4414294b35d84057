/* The views of the review TUI, one file each: the file list, the side-by-side
 * diff, the status bar and the help. Each draws into app->screen. */
#ifndef HIPPORT_TUI_VIEWS_H
#define HIPPORT_TUI_VIEWS_H

#include "tui/app.h"

/* The panes' geometry for the screen's size. */
typedef struct tui_layout {
	int files_width; /* the file list, left */
	int diff_x, diff_width;
	int top, rows;   /* the rows between the title and the status bar */
} tui_layout;

tui_layout tui_layout_of(const tui_screen *s);

void tui_files_draw(tui_app *app, const tui_layout *l);
void tui_diff_draw(tui_app *app, const tui_layout *l);
/* Scrolls the diff to the first row after the top whose source or port
 * line holds text (wrapping); false when none does. */
bool tui_diff_search(tui_app *app, const char *text);
/* The source lines of the rows the diff shows (1-based); false when none. */
bool tui_diff_shown_lines(const tui_app *app, size_t *first, size_t *last);
/* Scrolls the diff so that the hunk at the cursor is on screen. */
void tui_diff_show_hunk(tui_app *app);
void tui_status_draw(tui_app *app);
void tui_help_draw(tui_app *app);
void tui_fixes_draw(tui_app *app);
void tui_build_draw(tui_app *app);
void tui_commit_draw(tui_app *app);
/* Scrolls the diff to the row of line (1-based) of the file as the working
 * tree holds it, the cursor on its hunk; false when there is none. */
bool tui_diff_show_tree_line(tui_app *app, size_t line);

#endif
