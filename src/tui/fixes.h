/* f: the fixes of the findings at the cursor, each previewed; 1-9 takes one
 * into the proposal. */
#ifndef HIPPORT_TUI_FIXES_H
#define HIPPORT_TUI_FIXES_H

#include "tui/view.h"

extern const tui_view_ops tui_fixes_view;

#endif
