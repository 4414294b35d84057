/* /: the search prompt on the status bar; Enter searches the focused pane. */
#ifndef HIPPORT_TUI_SEARCH_H
#define HIPPORT_TUI_SEARCH_H

#include "tui/view.h"

extern const tui_view_ops tui_search_view;

#endif
