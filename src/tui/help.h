/* ?: the keys, from the list of actions, and the marks. */
#ifndef HIPPORT_TUI_HELP_H
#define HIPPORT_TUI_HELP_H

#include "tui/view.h"

extern const tui_view_ops tui_help_view;

#endif
