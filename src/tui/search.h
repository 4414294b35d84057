/* / and F: the search prompt on the status bar; Enter searches the focused
 * pane (/) or every file's proposal and original (F, or Tab in the prompt),
 * listing the matches as file:line. */
#ifndef HIPPORT_TUI_SEARCH_H
#define HIPPORT_TUI_SEARCH_H

#include "tui/view.h"

extern const tui_view_ops tui_search_view;
extern const tui_view_ops tui_search_all_view;

#endif
